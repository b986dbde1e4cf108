// SPDX-License-Identifier: LGPL-2.1-or-later
// The column-major slots' fallback (itx_cm.h) with a SIMD transpose, on every SIMD target: the
// top-left square that eob allows (CmSquare, rounded up to a multiple of 8 from 8x8 on) in 8x8
// tiles of 128-bit int16 vectors (4x4: one tile of two vectors), the rest of the buffer zeroed
// by vector stores, then the row-major exact-eob kernel. The same buffer as itx_cm.h's scalar
// transpose gives: the lanes a rounded-up square adds are zeros of the block (exact-eob promise).
//
// It is named ColMajorByTranspose, as itx_cm.h's scalar form, on purpose: the table code in
// itx_hwy.cpp lives in this namespace and names the template unqualified, so every column-major
// slot a target fills takes this form. Per-target header: included by itx_hwy.cpp.

#if defined(V3D_VP9_ITX_HWY_CM_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_CM_H_
#undef V3D_VP9_ITX_HWY_CM_H_
#else
#define V3D_VP9_ITX_HWY_CM_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "vp9/itx/itx_cm.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// t rows [8r, 8r + 8), columns [8q, 8q + 8) = the transpose of c's tile at rows [8q, 8q + 8),
// columns [8r, 8r + 8) (both n x n, row stride kN).
template <size_t kN>
HWY_INLINE void TransposeTile8(const int16_t *c, int16_t *t, size_t r, size_t q) {
  const hn::Full128<int16_t> d;
  const hn::Repartition<int32_t, decltype(d)> d32;
  const hn::Repartition<int64_t, decltype(d)> d64;
  using V = hn::Vec<decltype(d)>;
  V a[8];
  for (size_t k = 0; k < 8; k += 2) {  // rows k, k + 1: columns 0-3, then 4-7, interleaved
    const V x = hn::LoadU(d, c + (8 * q + k) * kN + 8 * r);
    const V y = hn::LoadU(d, c + (8 * q + k + 1) * kN + 8 * r);
    a[k / 2] = hn::InterleaveLower(d, x, y);
    a[4 + k / 2] = hn::InterleaveUpper(d, x, y);
  }
  hn::Vec<decltype(d32)> b[8];  // b[4h + g]: rows 4h..4h+3 of columns 2g, then of 2g + 1
  for (size_t h = 0; h < 2; h++) {
    for (size_t half = 0; half < 2; half++) {  // columns 0-3 (a[0..3]) or 4-7 (a[4..7])
      const auto lo = hn::BitCast(d32, a[4 * half + 2 * h]);
      const auto hi = hn::BitCast(d32, a[4 * half + 2 * h + 1]);
      b[4 * h + 2 * half] = hn::InterleaveLower(d32, lo, hi);
      b[4 * h + 2 * half + 1] = hn::InterleaveUpper(d32, lo, hi);
    }
  }
  for (size_t g = 0; g < 4; g++) {  // columns 2g, 2g + 1: rows 0-3 from b[g], rows 4-7 from b[4+g]
    const auto top = hn::BitCast(d64, b[g]), bottom = hn::BitCast(d64, b[4 + g]);
    int16_t *row = t + (8 * r + 2 * g) * kN + 8 * q;
    hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, top, bottom)), d, row);
    hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, top, bottom)), d, row + kN);
  }
}

// t = the transpose of the 4x4 block c.
HWY_INLINE void Transpose4x4(const int16_t *c, int16_t *t) {
  const hn::Full128<int16_t> d;
  const auto r01 = hn::LoadU(d, c), r23 = hn::LoadU(d, c + 8);
  const auto lo = hn::InterleaveLower(d, r01, r23);  // rows 0 and 2, interleaved
  const auto hi = hn::InterleaveUpper(d, r01, r23);  // rows 1 and 3, interleaved
  hn::StoreU(hn::InterleaveLower(d, lo, hi), d, t);
  hn::StoreU(hn::InterleaveUpper(d, lo, hi), d, t + 8);
}

// t = the transpose of the n x n block c, where c is zero outside its top-left s x s square.
template <size_t kN>
HWY_INLINE void TransposeSquareV(const int16_t *c, int16_t *t, size_t s) {
  if constexpr (kN == 4) {
    Transpose4x4(c, t);
  } else {
    const size_t s8 = (s + 7) & ~size_t{7};
    for (size_t r = 0; r < s8 / 8; r++)
      for (size_t q = 0; q < s8 / 8; q++) TransposeTile8<kN>(c, t, r, q);
    const hn::Full128<int16_t> d;
    for (size_t i = 0; i < s8; i++)
      for (size_t j = s8; j < kN; j += 8) hn::StoreU(hn::Zero(d), d, t + i * kN + j);
    const hn::ScalableTag<int16_t> dz;  // rows s8..kN-1: (kN - s8) * kN lanes, a multiple of
    for (size_t i = s8 * kN; i < kN * kN; i += hn::Lanes(dz))  // any vector's (kN - s8 >= 8)
      hn::StoreU(hn::Zero(dz), dz, t + i);
  }
}

// itx_cm.h's ColMajorByTranspose, transposing with TransposeSquareV. Its own body rather than a
// template shared with itx_cm.h: code compiled outside this target's region could not inline
// the transposes.
template <size_t kN, ItxAddFn kFn, int kScan = kCmAnyScan>
void ColMajorByTranspose(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (eob == 1) return kFn(dst, stride, c, eob);
  alignas(64) int16_t t[kN * kN];
  TransposeSquareV<kN>(c, t, CmSquare<kN, kScan>(eob));
  kFn(dst, stride, t, eob);
}

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_CM_H_
