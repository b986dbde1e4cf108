// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 lossless 4x4 Walsh-Hadamard + add (the WHT_WHT slot) on every SIMD target: WhtAdd4x4 in
// int32 lanes, exact for any int16 input; on x86 from SSE4 on, WhtAdd4x4x86 first tries the
// block in two 128-bit registers of int16 behind kInt16BoundWht (itx_int16_bound.h), inside
// which the reference's iwht4 (itx_ref_1d.h) forms no value outside int16. Per-target header:
// included by itx_hwy.cpp after itx_hwy_4x4.h (AddRowPairs, Within4x4) and itx_hwy_add32.h.

#if defined(V3D_VP9_ITX_HWY_WHT_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_WHT_H_
#undef V3D_VP9_ITX_HWY_WHT_H_
#else
#define V3D_VP9_ITX_HWY_WHT_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef V3D_ITX_HAVE_WHT16
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// Lossless 4x4 Walsh-Hadamard (no final rounding) in int32 lanes, for any int16 input. Not
// inlined: the x86 slot below reaches it only for blocks outside kInt16BoundWht.
HWY_NOINLINE void WhtAdd4x4(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int /* eob */) {
  const hn::CappedTag<int32_t, 4> d;
  const hn::Rebind<int16_t, decltype(d)> d16;
  hn::Vec<decltype(d)> v[4], o[4];
  V3D_UNROLL
  for (size_t i = 0; i < 4; i++) v[i] = hn::PromoteTo(d, hn::LoadU(d16, c + 4 * i));
  simd::HWY_NAMESPACE::TransposeTile(d, v);
  Iwht4<true>(d, v, o);
  simd::HWY_NAMESPACE::TransposeTile(d, o);
  Iwht4<false>(d, o, v);
  V3D_UNROLL
  for (size_t i = 0; i < 4; i++) AddRow<0>(d, dst + static_cast<ptrdiff_t>(i) * stride, v[i]);
}

#if V3D_ITX_HAVE_16 && HWY_ARCH_X86 && HWY_TARGET <= HWY_SSE4
#define V3D_ITX_HAVE_WHT16 1

// One 1-D WHT pass over four transforms in int16 (lane l of each half = transform l), the
// reference's iwht4 step by step: x = [in0 | in2], y = [in1 | in3] (the reference's a, d and c,
// b). Returns [out2 | out1]; *out0 gets out0 in its upper half, *out3 out3 in its lower half
// (the other halves are wrapped sums no output uses). Inside kInt16BoundWht every value the
// reference forms fits int16, so each is the reference's.
HWY_INLINE __m128i Wht4Pass(__m128i x, __m128i y, __m128i *out0, __m128i *out3) {
  const __m128i sum = _mm_add_epi16(x, y), dif = _mm_sub_epi16(x, y);
  const __m128i a = _mm_unpacklo_epi64(sum, sum);  // a + c, both halves
  const __m128i d = _mm_unpackhi_epi64(dif, dif);  // d - b, both halves
  const __m128i e = _mm_srai_epi16(_mm_sub_epi16(a, d), 1);
  const __m128i cb = _mm_sub_epi16(e, y);  // [e - c | e - b]: out2, out1
  *out0 = _mm_sub_epi16(a, cb);            // upper half: a - out1
  *out3 = _mm_add_epi16(d, cb);            // lower half: d + out2
  return cb;
}

// The pass inputs x = [P(0) | P(2)], y = [P(1) | P(3)] (P(k): 4 words, lane l = the l-th
// transform's input k). kFromRows: a = [row 0 | row 1], b = [row 2 | row 3] of coefficients
// (P(k) lane r = c(r, k)); else a = [I(r,3) | I(r,0)], b = [I(r,2) | I(r,1)], the row pass's
// results over r (P(k) lane c = I(k, c)).
template <bool kFromRows>
HWY_INLINE void WhtInputs(__m128i a, __m128i b, __m128i *x, __m128i *y) {
#if HWY_TARGET <= HWY_AVX3
  // Word i of (a, b) as index i: c(r,k) at 4r + k; I(r,0) at 4 + r, I(r,1) at 12 + r, I(r,2)
  // at 8 + r, I(r,3) at r.
  const __m128i ix = kFromRows ? _mm_setr_epi16(0, 4, 8, 12, 2, 6, 10, 14)
                               : _mm_setr_epi16(4, 12, 8, 0, 6, 14, 10, 2);
  const __m128i iy = kFromRows ? _mm_setr_epi16(1, 5, 9, 13, 3, 7, 11, 15)
                               : _mm_setr_epi16(5, 13, 9, 1, 7, 15, 11, 3);
  *x = _mm_permutex2var_epi16(a, ix, b);
  *y = _mm_permutex2var_epi16(a, iy, b);
#else
  __m128i v0, v1;  // [P(0) | P(1)], [P(2) | P(3)]
  if constexpr (kFromRows) {
    const __m128i t0 = _mm_unpacklo_epi16(a, b), t1 = _mm_unpackhi_epi16(a, b);
    v0 = _mm_unpacklo_epi16(t0, t1), v1 = _mm_unpackhi_epi16(t0, t1);
  } else {
    const __m128i w01 = _mm_unpackhi_epi16(a, b), w23 = _mm_unpacklo_epi16(b, a);
    v0 = _mm_unpacklo_epi32(w01, w23), v1 = _mm_unpackhi_epi32(w01, w23);
  }
  *x = _mm_unpacklo_epi64(v0, v1);
  *y = _mm_unpackhi_epi64(v0, v1);
#endif
}

// From [lo | x] and [y | hi] (4 lanes each) to [lo | hi].
HWY_INLINE __m128i JoinHalves(__m128i lo, __m128i hi) { return _mm_blend_epi16(lo, hi, 0xF0); }

// The WHT_WHT block added to dst when every coefficient lies within kInt16BoundWht; false,
// having written nothing, otherwise.
HWY_INLINE bool AddWht4x4x86(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs) {
  const __m128i c01 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(coeffs));
  const __m128i c23 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(coeffs + 8));
  if (!Within4x4<kInt16BoundWht>(c01, c23)) return false;
  // Row pass: lane r = row r; x = [c(r,0) | c(r,2)], y = [c(r,1) | c(r,3)], each >> 2.
  __m128i x, y, p0, p3;
  WhtInputs<true>(c01, c23, &x, &y);
  const __m128i cb = Wht4Pass(_mm_srai_epi16(x, 2), _mm_srai_epi16(y, 2), &p0, &p3);
  // Column pass: lane k = column k; x = [I(0,k) | I(2,k)], y = [I(1,k) | I(3,k)].
  WhtInputs<false>(JoinHalves(p3, p0), cb, &x, &y);
  const __m128i r21 = Wht4Pass(x, y, &p0, &p3);  // [row 2 | row 1]
  uint8_t *p1 = dst + stride, *p2 = dst + 2 * stride;
  AddRowPairs(dst + 3 * stride, dst, JoinHalves(p3, p0), p2, p1, r21);
  return true;
}

// The WHT_WHT slot on x86 from SSE4 on: the int16 form, else the int32 one.
void WhtAdd4x4x86(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (AddWht4x4x86(dst, stride, c)) return;
  WhtAdd4x4(dst, stride, c, eob);
}
#endif  // V3D_ITX_HAVE_16 && HWY_ARCH_X86 && HWY_TARGET <= HWY_SSE4

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_WHT_H_
