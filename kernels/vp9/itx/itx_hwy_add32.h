// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transforms, the int32 path's passes (itx_hwy.cpp's Add2D): the row pass of a group
// of rows, the column pass of a group of columns with the final rounding and add of each pixel
// row, and where the column passes read the row results from (a stack buffer, the row pass's
// tiles, or the 16-bit row pass's int16 buffer). Per-target header: included by itx_hwy.cpp
// after simd/transpose_i32.h.

#if defined(V3D_VP9_ITX_HWY_ADD32_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_ADD32_H_
#undef V3D_VP9_ITX_HWY_ADD32_H_
#else
#define V3D_VP9_ITX_HWY_ADD32_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "simd/transpose_i32.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

using simd::HWY_NAMESPACE::TransposeTile;

// Final rounding (Round2 by kShift: 4/5/6/6 for 4/8/16/32, 0 for WHT), add to the L pixels at
// p, clamp to 0..255.
template <int kShift, class D>
HWY_INLINE void AddRow(D d, uint8_t *p, hn::Vec<D> x) {
  const hn::Rebind<uint8_t, D> d8;
  if constexpr (kShift > 0) {
    x = hn::ShiftRight<kShift>(hn::Add(x, hn::Set(d, 1 << (kShift - 1))));
  }
  const hn::Vec<D> sum = hn::Add(x, hn::PromoteTo(d, hn::LoadU(d8, p)));
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // Highway's DemoteTo(u8, i32) is four shuffles; AVX-512's unsigned saturating narrow (after
  // clamping negatives to 0) is one instruction.
  const hn::Vec<D> pos = hn::Max(sum, hn::Zero(d));
  constexpr size_t L = hn::MaxLanes(D());
  if constexpr (L == 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(p), _mm512_cvtusepi32_epi8(pos.raw));
  } else if constexpr (L == 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i *>(p), _mm256_cvtusepi32_epi8(pos.raw));
  } else {
    const int32_t four = _mm_cvtsi128_si32(_mm_cvtusepi32_epi8(pos.raw));
    memcpy(p, &four, 4);
  }
#else
  // Signed saturation to int16, then unsigned saturation to uint8: an exact clamp to 0..255, one
  // instruction cheaper on x86 than the direct int32 -> uint8 demotion.
  const hn::Rebind<int16_t, D> d16;
  hn::StoreU(hn::DemoteTo(d8, hn::DemoteTo(d16, sum)), d8, p);
#endif
}

// Lanes [0, L) of a full-width vector from kK = L / Lr narrower vectors p[0], p[s], p[2s], ...
// (lowest lanes first).
template <size_t kK, class D, class VR>
HWY_INLINE hn::Vec<D> ConcatTiles(D d, const VR *p, size_t s) {
  if constexpr (kK == 1) {
    return p[0];
  } else if constexpr (kK == 2) {
    return hn::Combine(d, p[s], p[0]);
  } else {
    static_assert(kK == 4, "1, 2 or 4 tiles");
    const hn::Half<D> dh;
    return hn::Combine(d, hn::Combine(dh, p[3 * s], p[2 * s]), hn::Combine(dh, p[s], p[0]));
  }
}

// Row pass of the rows [g, g + Lr) of a block whose non-zero coefficients lie in rows < kNzR
// and columns < kNzC, Lr = the lanes of DR (lane = row): afterwards v[t * Lr + i] lane l =
// intermediate (g + i, t * Lr + l). kCm: coeffs column-major (ItxDsp::add_exact_eob_cm), whose
// column t * Lr + l, words [g, g + Lr), is the tile's vector l untransposed.
template <size_t kN, class Row, int kNzR, int kNzC, bool kCm, class DR, class VR = hn::Vec<DR>>
HWY_INLINE void RowPass(DR dr, const int16_t *coeffs, size_t g, VR *v) {
  const hn::Rebind<int16_t, DR> dr16;
  constexpr size_t Lr = hn::MaxLanes(DR());
  constexpr size_t kR = static_cast<size_t>(kNzR);
  constexpr size_t kTiles = (static_cast<size_t>(kNzC) + Lr - 1) / Lr;  // column tiles read
  V3D_UNROLL
  for (size_t t = 0; t < kN / Lr; t++) {
    VR *tile = v + t * Lr;
    if (t < kTiles && kCm) {
      const auto rows = hn::FirstN(dr16, g < kR ? kR - g : 0);  // rows from kNzR on: zero
      V3D_UNROLL
      for (size_t l = 0; l < Lr; l++)
        tile[l] = hn::PromoteTo(dr, hn::MaskedLoad(rows, dr16, coeffs + (t * Lr + l) * kN + g));
    } else if (t < kTiles) {
      V3D_UNROLL
      for (size_t l = 0; l < Lr; l++)
        tile[l] = g + l < kR ? hn::PromoteTo(dr, hn::LoadU(dr16, coeffs + (g + l) * kN + t * Lr))
                             : hn::Zero(dr);
      TransposeTile(dr, tile);
    } else {
      V3D_UNROLL
      for (size_t l = 0; l < Lr; l++) tile[l] = hn::Zero(dr);
    }
  }
  Row::template Run<kN, kNzC>(dr, v);
  V3D_UNROLL
  for (size_t t = 0; t < kN / Lr; t++) TransposeTile(dr, v + t * Lr);
}

// Column pass of the columns [c, c + L) (lane = column; u[i] = intermediate row i, zero from
// kNzR on), rounded and added to dst.
template <size_t kN, class Col, int kNzR, class D, class V = hn::Vec<D>>
HWY_INLINE void ColPass(D d, uint8_t *dst, ptrdiff_t stride, size_t c, V *u) {
  constexpr int kShift = kN == 4 ? 4 : kN == 8 ? 5 : 6;
  Col::template Run<kN, kNzR>(d, u);
  V3D_UNROLL
  for (size_t i = 0; i < kN; i++) {
    AddRow<kShift>(d, dst + static_cast<ptrdiff_t>(i) * stride + c, u[i]);
  }
}

// Row results for the column passes: Get(i, c) = intermediate row i, columns [c, c + L).
// From the stack buffer (row-major, kN per row):
template <size_t kN, class D>
struct FromBuffer {
  const int32_t *tmp;
  HWY_INLINE hn::Vec<D> operator()(size_t i, size_t c) const {
    return hn::Load(D(), tmp + i * kN + c);
  }
};
// From the row pass's transposed tiles of Lr lanes (RowPass's layout, one group of rows):
template <class D, class DR>
struct FromTiles {
  const hn::Vec<DR> *v;
  HWY_INLINE hn::Vec<D> operator()(size_t i, size_t c) const {
    constexpr size_t Lr = hn::MaxLanes(DR()), L = hn::MaxLanes(D());
    return ConcatTiles<L / Lr>(D(), v + c / Lr * Lr + i, Lr);
  }
};

// From a row-major int16 buffer (the 16-bit row pass's results, kN per row):
template <size_t kN, class D>
struct FromBuffer16 {
  const int16_t *tmp;
  HWY_INLINE hn::Vec<D> operator()(size_t i, size_t c) const {
    return hn::PromoteTo(D(), hn::LoadU(hn::Rebind<int16_t, D>(), tmp + i * kN + c));
  }
};

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_ADD32_H_
