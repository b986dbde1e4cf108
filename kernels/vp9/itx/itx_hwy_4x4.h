// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 4x4 inverse transforms on x86 in two 128-bit registers of int16, for blocks within the
// 4x4 bounds of kInt16Bound (itx_int16_bound.h; every other block takes the 32-bit path of
// itx_hwy.cpp). Per-target header: included by itx_hwy.cpp after itx_hwy_16.h (Splat16,
// Splat32), for the x86 targets that have the 16-bit path.
//
// Exactness: every value is one the reference (itx_ref_1d.h) forms, computed exactly: sums and
// differences in int16 (inside it by the bound), product sums in int32 by pmaddwd, rounded by
// (x + 2^13) >> 14 and narrowed, and R(x * c16) as one rounding multiply by 2 * c16 (exactly
// (x * c16 + 2^13) >> 14 for every int16 x); the final Round2(x, 4) as one by 2^11.

#if defined(V3D_VP9_ITX_HWY_4X4_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_4X4_H_
#undef V3D_VP9_ITX_HWY_4X4_H_
#else
#define V3D_VP9_ITX_HWY_4X4_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#if V3D_ITX_HAVE_16 && HWY_ARCH_X86
// The whole 4x4 block in two 128-bit registers of int16 (x86, within the 4x4 bounds of
// kInt16Bound). Each 1-D pass works on the 4 lanes of its transforms (4 rows, then 4 columns):
// the ADST forms every product sum with one pmaddwd per output from (in0, in2) and (in1, in3)
// pairs (its merged sums, as Iadst4x16, are the reference's integers, inside int32 by the
// bound); the DCT likewise (Dct4Pairs) or, in DCT_DCT, on transposed inputs (Dct4Cols). So
// each rounded value is the reference's. Outputs come back as [out0 | out1] and [out3 | out2],
// 4 lanes each.
struct Pass4x4 {
  __m128i a, b;  // [out0 | out1], [out3 | out2]
};

template <int32_t k0, int32_t k1>
HWY_INLINE __m128i Pair16() {
  return Splat32<PairOf(k0, k1)>();
}
// R(a*k0 + b*k1) of the interleaved pairs (a, b) of p: the rounding constant as MaddAcc's
// accumulator (one vpdpwssd on AVX3_DL).
template <int32_t k0, int32_t k1>
HWY_INLINE __m128i RotR(__m128i p) {
  return _mm_srai_epi32(MaddAcc(Splat32<8192>(), p, Pair16<k0, k1>()), 14);
}
// R(u.a*kU0 + u.b*kU1 + w.a*kW0 + w.b*kW1): two MaddAcc from the rounding constant.
template <int32_t kU0, int32_t kU1, int32_t kW0, int32_t kW1>
HWY_INLINE __m128i Rot2R(__m128i u, __m128i w) {
  const __m128i a = MaddAcc(Splat32<8192>(), u, Pair16<kU0, kU1>());
  return _mm_srai_epi32(MaddAcc(a, w, Pair16<kW0, kW1>()), 14);
}

// The 4-point ADST of four lanes; u: (in0, in2) pairs, w: (in1, in3) pairs.
HWY_INLINE Pass4x4 Adst4Pairs(__m128i u, __m128i w) {
  const __m128i o0 = Rot2R<kS1, kS4, kS3, kS2>(u, w);
  const __m128i o1 = Rot2R<kS2, -kS1, kS3, -kS4>(u, w);
  const __m128i o2 = Rot2R<kS3, -kS3, 0, kS3>(u, w);
  const __m128i o3 = Rot2R<kS1 + kS2, kS4 - kS1, -kS3, kS2 - kS4>(u, w);
  return Pass4x4{_mm_packs_epi32(o0, o1), _mm_packs_epi32(o3, o2)};
}

// The 4-point DCT of four lanes from the same pairs (the mixed types: their ADST pass takes the
// pairs, so the DCT pass does too, without the transposed layout's extra interleaves);
// R((i0 + i2) c16) as i0 c16 + i2 c16, the same integer, inside int32 by the bound.
HWY_INLINE Pass4x4 Dct4Pairs(__m128i u, __m128i w) {
  const __m128i s0 = RotR<kC[16], kC[16]>(u);
  const __m128i s1 = RotR<kC[16], -kC[16]>(u);
  const __m128i s2 = RotR<kC[24], -kC[8]>(w);
  const __m128i s3 = RotR<kC[8], kC[24]>(w);
  const __m128i p = _mm_packs_epi32(s0, s1), q = _mm_packs_epi32(s3, s2);
  return Pass4x4{_mm_add_epi16(p, q), _mm_sub_epi16(p, q)};
}

// 4-point DCT of four lanes in the column layout: a = [in0 | in1], b = [in2 | in3] (lane l of
// each half = transform l). The even half as FFmpeg forms it, one rounding multiply of
// [in0 + in2 | in0 - in2] (exactly R(x * c16); the sums are values the reference forms, inside
// int16 by the bound), the odd half as one pmaddwd per output. Returns [out0 | out1],
// [out3 | out2], as Adst4Pairs.
HWY_INLINE Pass4x4 Dct4Cols(__m128i a, __m128i b) {
  const __m128i sum = _mm_add_epi16(a, b), dif = _mm_sub_epi16(a, b);
  const __m128i e = _mm_mulhrs_epi16(_mm_unpacklo_epi64(sum, dif), Splat16<2 * kC[16]>());
  const __m128i p = _mm_unpackhi_epi16(a, b);  // (in1, in3) pairs
  const __m128i o = _mm_packs_epi32(RotR<kC[8], kC[24]>(p), RotR<kC[24], -kC[8]>(p));
  return Pass4x4{_mm_add_epi16(e, o), _mm_sub_epi16(e, o)};  // [e0 + o0 | e1 + o1], [e0 - o0 | e1 - o1]
}

// 4x4 word transpose of two registers: [x0 | x1], [x2 | x3] (4 lanes each) -> [lanes 0 | lanes
// 1], [lanes 2 | lanes 3] (the k-th word of each half of the results = half k of the inputs).
// kHiSwapped: the second input is [x3 | x2]. On AVX-512 each result is one vpermt2w (two
// shuffles where the unpacks take four or five).
template <bool kHiSwapped>
HWY_INLINE void Transpose4x4x2(__m128i x01, __m128i x23, __m128i *y01, __m128i *y23) {
#if HWY_TARGET <= HWY_AVX3
  // Word i of (x01, x23) as index i: x0 lane l at l, x1 at 4 + l, x2 at 8 + l (kHiSwapped:
  // 12 + l), x3 at 12 + l (8 + l).
  constexpr short k2 = kHiSwapped ? 12 : 8, k3 = kHiSwapped ? 8 : 12;
  *y01 = _mm_permutex2var_epi16(x01, _mm_setr_epi16(0, 4, k2, k3, 1, 5, k2 + 1, k3 + 1), x23);
  *y23 = _mm_permutex2var_epi16(x01, _mm_setr_epi16(2, 6, k2 + 2, k3 + 2, 3, 7, k2 + 3, k3 + 3),
                                x23);
#else
  if constexpr (kHiSwapped) x23 = _mm_shuffle_epi32(x23, 0x4E);
  const __m128i t0 = _mm_unpacklo_epi16(x01, x23), t1 = _mm_unpackhi_epi16(x01, x23);
  *y01 = _mm_unpacklo_epi16(t0, t1);
  *y23 = _mm_unpackhi_epi16(t0, t1);
#endif
}

// The full 4x4 transform of rows 0 1 (c01) and 2 3 (c23): returns [row 0 | row 1],
// [row 3 | row 2] of the residual. Every pass returns the same layout.
template <bool kRowAdst, bool kColAdst>
HWY_INLINE Pass4x4 Full4x4(__m128i c01, __m128i c23) {
  // Word permutations: [x0 x2 x4 x6 x1 x3 x5 x7] and [x4 x6 x0 x2 x5 x7 x1 x3].
  const __m128i even_odd = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
  const __m128i swap_eo = _mm_setr_epi8(8, 9, 12, 13, 0, 1, 4, 5, 10, 11, 14, 15, 2, 3, 6, 7);
  // DCT_DCT takes the transposed layout (Dct4Cols) for both passes from SSE4 on (on SSSE3 it
  // measured slower); the mixed types and ADST_ADST take pairs for both (Adst4Pairs,
  // Dct4Pairs).
  constexpr bool kCols = !kRowAdst && !kColAdst && HWY_TARGET <= HWY_SSE4;
  Pass4x4 rows;
  if constexpr (!kCols) {
    // Rows 0 1 and 2 3 of coefficients -> (c(r,0), c(r,2)) and (c(r,1), c(r,3)), r = 0..3.
    const __m128i r01 = _mm_shuffle_epi8(c01, even_odd), r23 = _mm_shuffle_epi8(c23, even_odd);
    const __m128i u = _mm_unpacklo_epi64(r01, r23), w = _mm_unpackhi_epi64(r01, r23);
    rows = kRowAdst ? Adst4Pairs(u, w) : Dct4Pairs(u, w);
  } else {
    __m128i a, b;  // [c(r,0) | c(r,1)], [c(r,2) | c(r,3)] over r = 0..3
    Transpose4x4x2<false>(c01, c23, &a, &b);
    rows = Dct4Cols(a, b);
  }
  // rows.a = [I(r,0) | I(r,1)], rows.b = [I(r,3) | I(r,2)] over r = 0..3.
  if constexpr (!kCols) {
    // -> (I(0,c), I(2,c)) and (I(1,c), I(3,c)), c = 0..3.
    const __m128i a = _mm_shuffle_epi8(rows.a, even_odd), b = _mm_shuffle_epi8(rows.b, swap_eo);
    const __m128i u = _mm_unpacklo_epi64(a, b), w = _mm_unpackhi_epi64(a, b);
    return kColAdst ? Adst4Pairs(u, w) : Dct4Pairs(u, w);
  } else {
    // -> [I(0,c) | I(1,c)], [I(2,c) | I(3,c)], c = 0..3.
    __m128i a, b;
    Transpose4x4x2<true>(rows.a, rows.b, &a, &b);
    return Dct4Cols(a, b);
  }
}

// 4x4 DCT_DCT whose non-zero coefficients lie in the top-left 2x2 square (c01 = rows 0 and 1):
// with inputs 2 and 3 zero every product sum of the 4-point DCT is one product, so both passes
// are rounding multiplies (exactly R(x * c) for int16 x) and additions; the values are the
// reference's, inside int16 under the 4x4 bound. Returns [row 0 | row 1], [row 3 | row 2].
HWY_INLINE Pass4x4 Dct4x4Corner2(__m128i c01) {
  // Row r: a = R(c(r,0) c16), b = R(c(r,1) c24), d = R(c(r,1) c8); row = [a+d, a+b, a-b, a-d].
  const __m128i dc = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 8, 9, 8, 9, 8, 9, 8, 9);
  const __m128i ac = _mm_setr_epi8(2, 3, 2, 3, 2, 3, 2, 3, 10, 11, 10, 11, 10, 11, 10, 11);
  const __m128i k_dbbd = _mm_setr_epi16(2 * kC[8], 2 * kC[24], 2 * kC[24], 2 * kC[8],
                                        2 * kC[8], 2 * kC[24], 2 * kC[24], 2 * kC[8]);
  const __m128i sign = _mm_setr_epi16(1, 1, -1, -1, 1, 1, -1, -1);
  const __m128i k16 = Splat16<2 * kC[16]>();
  const __m128i a = _mm_mulhrs_epi16(_mm_shuffle_epi8(c01, dc), k16);
  const __m128i dbbd = _mm_mulhrs_epi16(_mm_shuffle_epi8(c01, ac), k_dbbd);
  const __m128i rows = _mm_add_epi16(a, _mm_sign_epi16(dbbd, sign));  // [row 0 | row 1]
  // Columns: A = R(I(0,c) c16), B = R(I(1,c) c24), D = R(I(1,c) c8); out rows A+D, A+B, A-B,
  // A-D, formed as [A | A] +- [D | B].
  const __m128i k_db = _mm_setr_epi16(2 * kC[8], 2 * kC[8], 2 * kC[8], 2 * kC[8], 2 * kC[24],
                                      2 * kC[24], 2 * kC[24], 2 * kC[24]);
  const __m128i x = _mm_mulhrs_epi16(_mm_unpacklo_epi64(rows, rows), k16);
  const __m128i y = _mm_mulhrs_epi16(_mm_unpackhi_epi64(rows, rows), k_db);
  return Pass4x4{_mm_add_epi16(x, y), _mm_sub_epi16(x, y)};
}

// True iff the 4x4 block (rows 0 1 in c01, 2 3 in c23) is non-zero only in its top-left 2x2
// square.
HWY_INLINE bool Corner2x2(__m128i c01, __m128i c23) {
  const __m128i out2 =
      _mm_or_si128(_mm_and_si128(c01, _mm_setr_epi16(0, 0, -1, -1, 0, 0, -1, -1)), c23);
  return _mm_movemask_epi8(_mm_cmpeq_epi8(out2, _mm_setzero_si128())) == 0xFFFF;
}

// Adds the 4 int16 residuals in the low lanes of r to the 4 pixels at p, clamped to 0..255.
// From AVX2 on the pixels go through a general register, as in LoadRowPair below (on SSSE3 and
// SSE4 that measured slower for this form).
HWY_INLINE void AddRow4(uint8_t *p, __m128i r) {
  int32_t x;
  memcpy(&x, p, 4);
#if HWY_TARGET <= HWY_AVX2
  asm("" : "+r"(x));
#endif
  const __m128i pix = _mm_unpacklo_epi8(_mm_cvtsi32_si128(x), _mm_setzero_si128());
  x = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_add_epi16(r, pix), r));
#if HWY_TARGET <= HWY_AVX2
  asm("" : "+r"(x));
#endif
  memcpy(p, &x, 4);
}

// Two rows of 4 pixels through one general register: the load of rows lo and hi as the low
// and high halves of a 64-bit value, moved to a vector and widened to int16 lanes; the store
// of the 8 bytes of v's low half back to them. The pixels go through general registers, not
// vector loads and stores: a row that the previous call (the next block of a row, or the same
// block again) has just written is then read back by the store-to-load forwarding of general
// registers, which the core renames without the vector path's latency, shortening the chain
// from that call's stores to this call's stores. The empty asm statements keep the 64-bit
// values in general registers (the compiler could otherwise form them by vector inserts and
// extracts to and from memory, the slow path).
HWY_INLINE __m128i LoadRowPair(const uint8_t *lo, const uint8_t *hi) {
  uint32_t x, y;
  memcpy(&x, lo, 4);
  memcpy(&y, hi, 4);
#if HWY_ARCH_X86_64
  uint64_t xy = x | static_cast<uint64_t>(y) << 32;
  asm("" : "+r"(xy));
  const __m128i v = _mm_cvtsi64_si128(static_cast<int64_t>(xy));
#else
  const __m128i v = _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int32_t>(x)),
                                       _mm_cvtsi32_si128(static_cast<int32_t>(y)));
#endif
#if HWY_TARGET <= HWY_SSE4
  return _mm_cvtepu8_epi16(v);
#else
  return _mm_unpacklo_epi8(v, _mm_setzero_si128());
#endif
}
HWY_INLINE void StoreRowPair(uint8_t *lo, uint8_t *hi, __m128i v) {
#if HWY_ARCH_X86_64
  uint64_t xy = static_cast<uint64_t>(_mm_cvtsi128_si64(v));
  asm("" : "+r"(xy));
  const uint32_t x = static_cast<uint32_t>(xy), y = static_cast<uint32_t>(xy >> 32);
#else
  const uint32_t x = static_cast<uint32_t>(_mm_cvtsi128_si32(v));
  const uint32_t y = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(v, 4)));
#endif
  memcpy(lo, &x, 4);
  memcpy(hi, &y, 4);
}

// Adds the residual rows in the halves of ra ([row a0 | row a1]) and rb ([row b0 | row b1]) to
// the 4 pixels at pa0, pa1, pb0 and pb1, clamped to 0..255: two rows per register.
HWY_INLINE void AddRowPairs(uint8_t *pa0, uint8_t *pa1, __m128i ra, uint8_t *pb0, uint8_t *pb1,
                            __m128i rb) {
  const __m128i sa = _mm_add_epi16(ra, LoadRowPair(pa0, pa1));
  const __m128i sb = _mm_add_epi16(rb, LoadRowPair(pb0, pb1));
  StoreRowPair(pa0, pa1, _mm_packus_epi16(sa, sa));
  StoreRowPair(pb0, pb1, _mm_packus_epi16(sb, sb));
}

// Adds the residual res = [row 0 | row 1], [row 3 | row 2] to the 4x4 pixels at dst, Round2 by
// 4 (one rounding multiply by 2^11). kRowAtATime: each residual row on its own, in the low half
// of its own register: a caller reconstructing into pixels it has just written (the next block
// of a row, the same block again) then waits only on the chain load, widen, add, narrow, store,
// the residual's shuffles off it; this pays where the transform is short (the 2x2 corner). Else
// two rows per register: fewer instructions, for the full transform.
template <bool kRowAtATime>
HWY_INLINE void Store4x4(uint8_t *dst, ptrdiff_t stride, Pass4x4 res) {
  const __m128i rnd = Splat16<1 << 11>();
  const __m128i r01 = _mm_mulhrs_epi16(res.a, rnd), r32 = _mm_mulhrs_epi16(res.b, rnd);
  uint8_t *p0 = dst, *p1 = dst + stride, *p2 = dst + 2 * stride, *p3 = dst + 3 * stride;
  if constexpr (kRowAtATime) {
    AddRow4(p0, r01);
    AddRow4(p1, _mm_unpackhi_epi64(r01, r01));
    AddRow4(p2, _mm_unpackhi_epi64(r32, r32));
    AddRow4(p3, r32);
  } else {
    AddRowPairs(p0, p1, r01, p3, p2, r32);
  }
}

// True iff every coefficient of the 4x4 block (rows 0 1 in c01, 2 3 in c23) lies in
// [-kBound, kBound].
template <int kBound>
HWY_INLINE bool Within4x4(__m128i c01, __m128i c23) {
#if HWY_TARGET <= HWY_SSE4
  // The largest |c| (uint16: |-32768| = 32768) minus the bound, saturating: zero iff within.
  const __m128i mx = _mm_max_epu16(_mm_abs_epi16(c01), _mm_abs_epi16(c23));
  const __m128i over = _mm_subs_epu16(mx, Splat16<kBound>());
  return _mm_testz_si128(over, over) != 0;
#else
  const __m128i bv = Splat16<kBound>(), nbv = Splat16<-kBound>();
  const __m128i big = _mm_or_si128(_mm_cmpgt_epi16(_mm_max_epi16(c01, c23), bv),
                                   _mm_cmpgt_epi16(nbv, _mm_min_epi16(c01, c23)));
  return _mm_movemask_epi8(big) == 0;
#endif
}

// 4x4 block (row transform kRowAdst, column kColAdst) added to dst, Round2 by 4, when every
// coefficient lies in [-kBound, kBound]; returns false, having written nothing, otherwise.
// DCT_DCT non-zero only in the 2x2 corner (the common small 4x4 block) takes its own form,
// looked for when try_corner (a hint: both forms give the same result).
template <bool kRowAdst, bool kColAdst, int kBound>
HWY_INLINE bool Add4x4x86(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                          bool try_corner) {
  const __m128i c01 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(coeffs));
  const __m128i c23 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(coeffs + 8));
  if (!Within4x4<kBound>(c01, c23)) return false;
  if constexpr (!kRowAdst && !kColAdst) {
    if (try_corner && Corner2x2(c01, c23)) {
      Store4x4<true>(dst, stride, Dct4x4Corner2(c01));
      return true;
    }
  } else {
    (void)try_corner;
  }
  Store4x4<false>(dst, stride, Full4x4<kRowAdst, kColAdst>(c01, c23));
  return true;
}
#endif  // V3D_ITX_HAVE_16 && HWY_ARCH_X86

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_4X4_H_
