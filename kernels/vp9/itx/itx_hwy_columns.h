// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transforms, the column passes of the general path (itx_hwy.cpp's Add2D) from row
// results get(i, c): DCT columns in 16-bit lanes behind the column bound (ColPass16), every
// column in 32-bit lanes (Col32), and their dispatch over the block (Columns). Per-target
// header: included by itx_hwy.cpp after itx_hwy_add32.h, itx_hwy_16.h and itx_hwy_sat.h.

#if defined(V3D_VP9_ITX_HWY_COLUMNS_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_COLUMNS_H_
#undef V3D_VP9_ITX_HWY_COLUMNS_H_
#else
#define V3D_VP9_ITX_HWY_COLUMNS_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

#if V3D_ITX_HAVE_16
// DCT columns [c, c + 2L) in 16-bit lanes (kN = 16, 32), when every row result there is within
// kInt16ColumnBound (itx_int16_bound.h); returns false, having written nothing, otherwise.
// The row results are narrowed with signed saturation, so a value outside int16 comes out as
// +-32767/-32768, which the bound check rejects as well.
template <size_t kN, int kNzR, class D, class Get>
HWY_INLINE bool ColPass16(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const Get &get) {
  const hn::Repartition<int16_t, D> d16;  // 2L lanes
  const hn::Rebind<int16_t, D> dh;        // L lanes
  const hn::Rebind<uint8_t, decltype(d16)> d8;
  using V16 = hn::Vec<decltype(d16)>;
  constexpr size_t L = hn::MaxLanes(D());
  // 32-point columns with inputs from kNzR on zero: the bound proven for that many inputs.
  constexpr int kNzB = kNzR <= 8 ? 0 : kNzR <= 16 ? 1 : 2;
  constexpr int16_t kB =
      static_cast<int16_t>(kN == 16 ? kInt16ColumnBound[2] : kInt16Bound1dDct32[kNzB]);
  static_assert(kN >= 16 && kB > 0, "column bound");
  V16 x[kN];
  V3D_UNROLL
  for (size_t i = 0; i < kN; i++) {
    x[i] = i < static_cast<size_t>(kNzR)
               ? hn::Combine(d16, hn::DemoteTo(dh, get(i, c + L)), hn::DemoteTo(dh, get(i, c)))
               : hn::Zero(d16);
  }
  V16 mx = x[0], mn = x[0];
  V3D_UNROLL
  for (size_t i = 1; i < static_cast<size_t>(kNzR); i++) {
    mx = hn::Max(mx, x[i]);
    mn = hn::Min(mn, x[i]);
  }
  const auto big = hn::Or(hn::Gt(mx, hn::Set(d16, kB)), hn::Lt(mn, hn::Set(d16, -kB)));
  if (!hn::AllFalse(d16, big)) return false;
  TxDct::template Run<kN, kNzR>(d16, x);
  // Round2(x, 6) as one rounding multiply by 2^9: exactly (x + 32) >> 6.
  const V16 rnd = hn::Set(d16, static_cast<int16_t>(1 << 9));
  V3D_UNROLL
  for (size_t i = 0; i < kN; i++) {
    uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride + c;
    const V16 sum = hn::Add(hn::MulFixedPoint15(x[i], rnd), hn::PromoteTo(d16, hn::LoadU(d8, p)));
    hn::StoreU(hn::DemoteTo(d8, sum), d8, p);
  }
  return true;
}
#endif

// Column pass of the columns [c, c + L) in 32-bit lanes, from the row results get(i, c).
template <size_t kN, class Col, int kNzR, class D, class Get>
HWY_INLINE void Col32(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const Get &get) {
  hn::Vec<D> u[kN];
  V3D_UNROLL
  for (size_t i = 0; i < kN; i++) u[i] = i < static_cast<size_t>(kNzR) ? get(i, c) : hn::Zero(d);
  ColPass<kN, Col, kNzR>(d, dst, stride, c, u);
}

// The same, and ColPass16, as separate functions: for 32x32 the column passes inlined into one
// body together spill far more than they do apart.
template <size_t kN, class Col, int kNzR, class D, class Get>
HWY_NOINLINE void Col32Apart(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const Get &get) {
  Col32<kN, Col, kNzR>(d, dst, stride, c, get);
}
#if V3D_ITX_HAVE_16
template <size_t kN, int kNzR, class D, class Get>
HWY_NOINLINE bool ColPass16Apart(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const Get &get) {
  return ColPass16<kN, kNzR>(d, dst, stride, c, get);
}
#else
// Declared where the 16-bit path is not built, so that Columns can name them in the branch it
// discards there.
template <size_t kN, int kNzR, class D, class Get>
bool ColPass16(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const Get &get);
template <size_t kN, int kNzR, class D, class Get>
bool ColPass16Apart(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const Get &get);
#endif

// The column passes of the whole block from the row results get(i, c), rows < kNzR. With
// try16, DCT columns run in 16-bit lanes, two vectors' worth of columns at once, where the
// vectors are narrower than the block and the row results are within the column bound; every
// other column block runs in 32-bit lanes.
template <size_t kN, class Col, int kNzR, class D, class Get>
HWY_INLINE void Columns(D d, uint8_t *dst, ptrdiff_t stride, const Get &get, bool try16) {
  constexpr size_t L = hn::MaxLanes(D());
#if V3D_ITX_HAVE_16
  constexpr bool k16 = std::is_same<Col, TxDct>::value && kN >= 16 && 2 * L <= kN;
#else
  constexpr bool k16 = false;
#endif
  if constexpr (k16) {
    V3D_NO_UNROLL
    for (size_t c = 0; c < kN; c += 2 * L) {
      if constexpr (kN >= 32) {
        if (try16 && ColPass16Apart<kN, kNzR>(d, dst, stride, c, get)) continue;
        Col32Apart<kN, Col, kNzR>(d, dst, stride, c, get);
        Col32Apart<kN, Col, kNzR>(d, dst, stride, c + L, get);
      } else {
        if (try16 && ColPass16<kN, kNzR>(d, dst, stride, c, get)) continue;
        Col32<kN, Col, kNzR>(d, dst, stride, c, get);
        Col32<kN, Col, kNzR>(d, dst, stride, c + L, get);
      }
    }
  } else {
    (void)try16;
    V3D_NO_UNROLL
    for (size_t c = 0; c < kN; c += L) Col32<kN, Col, kNzR>(d, dst, stride, c, get);
  }
}

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_COLUMNS_H_
