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
// 32x32: NEON also has a 16-bit path for the 24 x 24 square (itx_hwy_32.h), in whole groups of
// its 8-lane rows; the wider x86 row vectors do not divide 24, so there it is the full block.
#if HWY_TARGET == HWY_NEON
constexpr size_t kSquare32x24 = 24;
#else
constexpr size_t kSquare32x24 = 32;
#endif
template <>
struct Regions<32> {
  static constexpr size_t kNum = kSquare32x24 < 32 ? 4 : 3;
  static constexpr size_t kT[4] = {1, 8, 16, kSquare32x24};
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

// Smallest candidate square holding every non-zero coefficient (kN if none does), from one
// pass over the coefficients: each chunk of (up to) 8 coefficients of a row is ORed into the
// accumulator of its class (chunks straddling a class boundary are split with lane masks).
template <size_t kN>
HWY_INLINE size_t NonZeroRegion(const int16_t *c) {
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
