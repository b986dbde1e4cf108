// SPDX-License-Identifier: LGPL-2.1-or-later
// Region classification of a VP9 coefficient block for the inverse transforms' fast paths: the
// smallest candidate top-left square (DC only, the corners) holding every non-zero coefficient,
// found in one pass over the block. Per-target header: included by itx_hwy.cpp after
// itx_hwy_1d.h (V3D_UNROLL).

#if defined(V3D_VP9_ITX_HWY_REGION_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_REGION_H_
#undef V3D_VP9_ITX_HWY_REGION_H_
#else
#define V3D_VP9_ITX_HWY_REGION_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Not for one-lane or scalable vectors (itx_hwy.cpp keeps the references there).
#if !(HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE)

// Candidate squares of the fast paths: the non-zero coefficients lie in the top-left T x T
// square (T = 1: DC only). The full block (T = n) is implied.
template <size_t kN>
struct Regions;
template <>
struct Regions<4> {
  static constexpr size_t kNum = 1;
  static constexpr size_t kT[kNum] = {1};
};
template <>
struct Regions<8> {
  static constexpr size_t kNum = 2;
  static constexpr size_t kT[kNum] = {1, 4};
};
template <>
struct Regions<16> {
  static constexpr size_t kNum = 3;
  static constexpr size_t kT[kNum] = {1, 4, 8};
};
template <>
struct Regions<32> {
  static constexpr size_t kNum = 3;
  static constexpr size_t kT[kNum] = {1, 8, 16};
};

// Class of coefficient (r, col): the index of the smallest candidate square holding it, or
// kNum (outside all of them).
template <size_t kN>
constexpr size_t RegionClass(size_t r, size_t col) {
  const size_t m = r > col ? r : col;
  size_t k = 0;
  while (k < Regions<kN>::kNum && m >= Regions<kN>::kT[k]) k++;
  return k;
}

#undef V3D_ITX_REGION16_WIDE
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
#define V3D_ITX_REGION16_WIDE 1
// NonZeroRegion<16> in vectors of 16 or 32 lanes (AVX2: one row each; AVX-512: two rows): the
// rows ORed per class of rows (0..3, 4..7, 8..15), the column classes then picked out of those
// sums with constant lane masks (a lane's column is its index mod 16). Same result as the
// generic form below.
HWY_INLINE size_t NonZeroRegion16Wide(const int16_t *c) {
  const hn::CappedTag<int16_t, 32> d;
  constexpr size_t W = hn::MaxLanes(d);
  static_assert(W == 16 || W == 32, "AVX2 or AVX-512");
  constexpr size_t kPer4 = 4 * 16 / W;  // vectors per 4 rows
  // Per row of 16 lanes: kGe8 marks columns 8..15, kGe4 columns 4..15, kNotDc every lane but
  // (0, 0) (the first row only; later vectors of rows 0..3 are wholly outside the DC).
  alignas(64) static constexpr int16_t kGe8[32] = {
      0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1,
      0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1};
  alignas(64) static constexpr int16_t kGe4[32] = {
      0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  alignas(64) static constexpr int16_t kNotDc[32] = {
      0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  auto rows03 = hn::LoadU(d, c), rows47 = hn::LoadU(d, c + 64), rows8f = hn::LoadU(d, c + 128);
  auto not_dc = hn::And(rows03, hn::Load(d, kNotDc));
  V3D_UNROLL
  for (size_t k = 1; k < kPer4; k++) {
    const auto v = hn::LoadU(d, c + k * W);
    rows03 = hn::Or(rows03, v);
    not_dc = hn::Or(not_dc, v);
    rows47 = hn::Or(rows47, hn::LoadU(d, c + 64 + k * W));
  }
  V3D_UNROLL
  for (size_t k = 1; k < 2 * kPer4; k++) rows8f = hn::Or(rows8f, hn::LoadU(d, c + 128 + k * W));
  const auto zero = hn::Zero(d);
  const auto top = hn::Or(rows03, rows47);  // rows 0..7
  if (!hn::AllTrue(d, hn::Eq(hn::Or(rows8f, hn::And(top, hn::Load(d, kGe8))), zero))) return 16;
  if (!hn::AllTrue(d, hn::Eq(hn::Or(rows47, hn::And(rows03, hn::Load(d, kGe4))), zero))) return 8;
  return hn::AllTrue(d, hn::Eq(not_dc, zero)) ? 1 : 4;
}
#else
#define V3D_ITX_REGION16_WIDE 0
#endif

// Smallest candidate square holding every non-zero coefficient (kN if none does), from one
// pass over the coefficients: each chunk of (up to) 8 coefficients of a row is ORed into the
// accumulator of its class (chunks straddling a class boundary are split with lane masks).
template <size_t kN>
HWY_INLINE size_t NonZeroRegion(const int16_t *c) {
#if V3D_ITX_REGION16_WIDE
  if constexpr (kN == 16) return NonZeroRegion16Wide(c);
#endif
  constexpr size_t W = kN < 8 ? kN : 8;
  constexpr size_t K = Regions<kN>::kNum;
  const hn::FixedTag<int16_t, W> d;
  using V16 = hn::Vec<decltype(d)>;
  V16 acc[K + 1];
  V3D_UNROLL
  for (size_t k = 0; k <= K; k++) acc[k] = hn::Zero(d);
  V3D_UNROLL
  for (size_t r = 0; r < kN; r++) {
    V3D_UNROLL
    for (size_t c0 = 0; c0 < kN; c0 += W) {
      const V16 v = hn::LoadU(d, c + r * kN + c0);
      const size_t first = RegionClass<kN>(r, c0), last = RegionClass<kN>(r, c0 + W - 1);
      if (first == last) {
        acc[first] = hn::Or(acc[first], v);
      } else {
        // Classes grow with the column: lanes [a, b) of the chunk share class k.
        size_t a = 0;
        V3D_UNROLL
        for (size_t k = first; k <= last; k++) {
          size_t b = a;
          while (b < W && RegionClass<kN>(r, c0 + b) == k) b++;
          if (b > a) {
            const auto m = hn::AndNot(hn::FirstN(d, a), hn::FirstN(d, b));
            acc[k] = hn::Or(acc[k], hn::IfThenElseZero(m, v));
          }
          a = b;
        }
      }
    }
  }
  // Region k holds everything iff the classes above k are all zero.
  V16 above = acc[K];
  size_t region = kN;
  for (size_t k = K; k-- > 0;) {
    if (!hn::AllTrue(d, hn::Eq(above, hn::Zero(d)))) break;
    region = Regions<kN>::kT[k];
    above = hn::Or(above, acc[k]);
  }
  return region;
}

#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_REGION_H_
