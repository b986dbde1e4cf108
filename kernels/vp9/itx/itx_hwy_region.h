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
// 32x32: the 16-bit path also has the 24 x 24 square (itx_hwy_32.h; row vectors wider than 8
// lanes run it as 32 rows, the last 8 zero), and on x86 the 12 x 12 square (as 16 rows where
// the vectors have 16 lanes or more). kSquare32x12: 12, or 8 where there is no such class.
constexpr size_t kSquare32x24 = 24;
#if HWY_TARGET == HWY_NEON
constexpr size_t kSquare32x12 = 8;
template <>
struct Regions<32> {
  static constexpr size_t kNum = 4;
  static constexpr size_t kT[kNum] = {1, 8, 16, kSquare32x24};
};
#else
constexpr size_t kSquare32x12 = 12;
template <>
struct Regions<32> {
  static constexpr size_t kNum = 5;
  static constexpr size_t kT[kNum] = {1, 8, kSquare32x12, 16, kSquare32x24};
};
#endif

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
// pass over the coefficients in the widest vectors of up to kN lanes: each vector of a row is
// ORed into the accumulator of its row group (the rows of one class: row r is in group
// RegionClass(r, 0)) and its column chunk; the chunks wholly right of the largest candidate
// square share one accumulator per group (each of their lanes lies outside every candidate).
// Region k then holds everything iff the groups below it are zero in the columns from kT[k] on
// and the groups above it are zero.
template <size_t kN>
HWY_INLINE size_t NonZeroRegion(const int16_t *c) {
#if V3D_ITX_REGION16_WIDE
  if constexpr (kN == 16) return NonZeroRegion16Wide(c);
#endif
  constexpr size_t K = Regions<kN>::kNum;
  constexpr size_t kTLast = Regions<kN>::kT[K - 1];
  const hn::CappedTag<int16_t, kN> d;
  using V16 = hn::Vec<decltype(d)>;
  constexpr size_t W = hn::MaxLanes(d);
  constexpr size_t kChunks = kN / W;
  // Distinct accumulators per group: the chunks up to the one holding column kTLast - 1, and
  // one for those wholly at columns >= kTLast (merged).
  constexpr size_t kAcc = (kTLast + W - 1) / W + 1 < kChunks ? (kTLast + W - 1) / W + 1 : kChunks;
  V16 acc[K + 1][kAcc];
  V3D_UNROLL
  for (size_t g = 0; g <= K; g++) {
    V3D_UNROLL
    for (size_t j = 0; j < kAcc; j++) acc[g][j] = hn::Zero(d);
  }
  V3D_UNROLL
  for (size_t r = 0; r < kN; r++) {
    const size_t g = RegionClass<kN>(r, 0);
    V3D_UNROLL
    for (size_t j = 0; j < kChunks; j++) {
      const size_t a = j < kAcc ? j : kAcc - 1;
      acc[g][a] = hn::Or(acc[g][a], hn::LoadU(d, c + r * kN + j * W));
    }
  }
  V3D_UNROLL
  for (size_t k = 0; k < K; k++) {
    const size_t t = Regions<kN>::kT[k];
    V16 outside = hn::Zero(d);
    V3D_UNROLL
    for (size_t g = 0; g <= K; g++) {
      V3D_UNROLL
      for (size_t j = 0; j < kAcc; j++) {
        if (g > k) {
          outside = hn::Or(outside, acc[g][j]);
        } else if ((j + 1) * W > t) {  // lanes at columns >= t (a merged chunk: all of them)
          const size_t from = t > j * W ? t - j * W : 0;
          outside = hn::Or(outside, hn::IfThenZeroElse(hn::FirstN(d, from), acc[g][j]));
        }
      }
    }
    if (hn::AllTrue(d, hn::Eq(outside, hn::Zero(d)))) return t;
  }
  return kN;
}

#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_REGION_H_
