// SPDX-License-Identifier: LGPL-2.1-or-later
// In-register transpose of an L x L tile of int32 (L = lanes of the descriptor: 4, 8 or 16):
// v[i] lane j becomes v[j] lane i. Per-target header; namespace v3d::simd::HWY_NAMESPACE. The
// includer defines V3D_UNROLL first (vp9/itx/itx_hwy_1d.h does).
//
// Method: 4x4 transposes inside every 128-bit block (two rounds of InterleaveLower/Upper, which
// work per block on every target), then a transpose of the blocks themselves (ConcatLowerLower /
// ConcatUpperUpper for 256-bit halves; for the 128-bit blocks of a 512-bit vector, AVX-512's
// vshufi32x4, or OddEvenBlocks + SwapAdjacentBlocks elsewhere).

#if defined(V3D_SIMD_TRANSPOSE_I32_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_SIMD_TRANSPOSE_I32_H_
#undef V3D_SIMD_TRANSPOSE_I32_H_
#else
#define V3D_SIMD_TRANSPOSE_I32_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// Transposes the 4x4 tiles held in each 128-bit block of v[0..3] (block b of v[i] holds row i,
// columns 4b..4b+3): afterwards block b of v[j] holds column 4b+j, rows 0..3.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Transpose4InBlocks(D d, V &v0, V &v1, V &v2, V &v3) {
  const hn::Repartition<int64_t, D> d64;
  const V t0 = hn::InterleaveLower(d, v0, v1);
  const V t1 = hn::InterleaveLower(d, v2, v3);
  const V t2 = hn::InterleaveUpper(d, v0, v1);
  const V t3 = hn::InterleaveUpper(d, v2, v3);
  v0 = hn::BitCast(d, hn::InterleaveLower(d64, hn::BitCast(d64, t0), hn::BitCast(d64, t1)));
  v1 = hn::BitCast(d, hn::InterleaveUpper(d64, hn::BitCast(d64, t0), hn::BitCast(d64, t1)));
  v2 = hn::BitCast(d, hn::InterleaveLower(d64, hn::BitCast(d64, t2), hn::BitCast(d64, t3)));
  v3 = hn::BitCast(d, hn::InterleaveUpper(d64, hn::BitCast(d64, t2), hn::BitCast(d64, t3)));
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE void TransposeTile(D d, V *v) {
  constexpr size_t L = hn::MaxLanes(D());
  static_assert(L == 4 || L == 8 || L == 16, "tile must be 4, 8 or 16 lanes");
  V3D_UNROLL
  for (size_t g = 0; g < L; g += 4) Transpose4InBlocks(d, v[g], v[g + 1], v[g + 2], v[g + 3]);
  if constexpr (L == 8) {
    // v[j] (j < 4) = [col j rows 0-3 | col 4+j rows 0-3]; v[4+j] likewise for rows 4-7.
    V3D_UNROLL
    for (size_t j = 0; j < 4; j++) {
      const V lo = v[j], hi = v[4 + j];
      v[j] = hn::ConcatLowerLower(d, hi, lo);
      v[4 + j] = hn::ConcatUpperUpper(d, hi, lo);
    }
  } else if constexpr (L == 16) {
    // v[4g + j] block b = column 4b + j, rows 4g..4g+3. Wanted: v[4b + j] block g.
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    // Highway 1.0.3 has no two-input shuffle of 128-bit blocks: vshufi32x4 does it in one.
    V3D_UNROLL
    for (size_t j = 0; j < 4; j++) {
      const __m512i a = v[j].raw, b = v[4 + j].raw, c = v[8 + j].raw, e = v[12 + j].raw;
      const __m512i p = _mm512_shuffle_i32x4(a, b, 0x88);  // a0 a2 b0 b2
      const __m512i q = _mm512_shuffle_i32x4(a, b, 0xDD);  // a1 a3 b1 b3
      const __m512i r = _mm512_shuffle_i32x4(c, e, 0x88);  // c0 c2 e0 e2
      const __m512i s = _mm512_shuffle_i32x4(c, e, 0xDD);  // c1 c3 e1 e3
      v[j] = V{_mm512_shuffle_i32x4(p, r, 0x88)};           // a0 b0 c0 e0
      v[4 + j] = V{_mm512_shuffle_i32x4(q, s, 0x88)};       // a1 b1 c1 e1
      v[8 + j] = V{_mm512_shuffle_i32x4(p, r, 0xDD)};       // a2 b2 c2 e2
      v[12 + j] = V{_mm512_shuffle_i32x4(q, s, 0xDD)};      // a3 b3 c3 e3
    }
#elif HWY_TARGET != HWY_SCALAR
    V3D_UNROLL
    for (size_t j = 0; j < 4; j++) {
      const V a = v[j], b = v[4 + j], c = v[8 + j], e = v[12 + j];
      const V p = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a);  // a0 b0 a2 b2
      const V q = hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a));  // a1 b1 a3 b3
      const V r = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(e), c);  // c0 e0 c2 e2
      const V s = hn::OddEvenBlocks(e, hn::SwapAdjacentBlocks(c));  // c1 e1 c3 e3
      v[j] = hn::ConcatLowerLower(d, r, p);
      v[4 + j] = hn::ConcatLowerLower(d, s, q);
      v[8 + j] = hn::ConcatUpperUpper(d, r, p);
      v[12 + j] = hn::ConcatUpperUpper(d, s, q);
    }
#endif
  }
}

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_SIMD_TRANSPOSE_I32_H_
