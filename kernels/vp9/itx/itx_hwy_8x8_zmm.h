// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 8x8 inverse transforms (every type) in 16-bit lanes with the whole block in two 512-bit
// registers (AVX3_DL), behind the per-pass checks by sums of squares (kInt16BoundL2x8,
// itx_int16_bound.h); where one fails, the four-register form of itx_hwy_8x8_ymm.h (Add8x8Y)
// decides the block from the start, with its L1 checks and 32-bit columns.
// Per-target header: included by itx_hwy.cpp after itx_hwy_8x8_ymm.h (Add8x8Y, SquaresWithinZ,
// kSquaresBound).
//
// Layout: a pass's inputs are two registers of int16 pairs, one transform's pair in each 32-bit
// lane (128-bit lane 0 of each 256-bit half: transforms 0..3, lane 1: 4..7). DCT: P1 holds the
// pairs (in0, in4) in its low half and (in2, in6) in its high half, P2 (in1, in7) and
// (in5, in3), so each of the four rotations of the 8-point DCT is one vpdpwssd per output onto
// the rounding constant, both halves at once; its outputs come two registers of Add8x8Y's
// layout to a zmm: ((out0, out1) | (out3, out2)) and ((out7, out6) | (out4, out5)). ADST: P1
// holds (in7, in0) | (in5, in2), P2 (in3, in4) | (in1, in6), the pairs of the ADST's first
// rotations, so each of its sums of two rotated pairs is two vpdpwssds (Iadst8Z). One vpermt2w
// per input register, on the block as two registers of 32 words, builds every pass's inputs:
// from the coefficients as they lie, and from the row pass's outputs.
//
// Exactness: the same product sums and rounding points as Idct8Y / Iadst8Y (itx_hwy_8x8_ymm.h)
// and the reference's idct8 / iadst8, but for the DCT's s0, s1 = R((in0 +- in4) * cos64(16)),
// formed here as the product sums in0 * cos64(16) +- in4 * cos64(16) in int32, the reference's
// own value (no wrap: both |inputs| <= 2^15). A product sum of int16 values accumulates in any
// order to the same int32 (each partial sum of at most four products of int16 values by
// constants below 2^14 stays inside int32). The checks are those of Add8x8Y by squares: rows
// on the coefficients as they lie, columns on the column pass's own input pairs.

#if defined(V3D_VP9_ITX_HWY_8X8_ZMM_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_8X8_ZMM_H_
#undef V3D_VP9_ITX_HWY_8X8_ZMM_H_
#else
#define V3D_VP9_ITX_HWY_8X8_ZMM_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#undef V3D_ITX_HAVE_8X8_ZMM
#if V3D_ITX_HAVE_8X8_YMM && V3D_ITX_8X8_VPERM && V3D_ITX_HAVE_VNNI
#define V3D_ITX_HAVE_8X8_ZMM 1

// [ADST][register P1, P2][half][word of the pair]: the inputs of the pairs; and
// [ADST][register][half][value: words 0..3, 4..7 of each 128-bit lane]: the outputs (the
// ADST's odd outputs negated where the pass leaves them so, Iadst8Z).
constexpr int kZmmPairIn[2][2][2][2] = {{{{0, 4}, {2, 6}}, {{1, 7}, {5, 3}}},
                                        {{{7, 0}, {5, 2}}, {{3, 4}, {1, 6}}}};
constexpr int kZmmOut[2][2][2][2] = {{{{0, 1}, {3, 2}}, {{7, 6}, {4, 5}}},
                                     {{{0, 7}, {3, 4}}, {{1, 2}, {6, 5}}}};
// Word w of an input register: its transform, and its input in register r.
constexpr int ZmmTransform(int w) { return 4 * ((w % 16) / 8) + (w % 8) / 2; }
constexpr int ZmmInput(bool adst, int r, int w) { return kZmmPairIn[adst][r][w / 16][w % 2]; }
// The output in word w (0..31) of output register r.
constexpr int ZmmOutput(bool adst, int r, int w) { return kZmmOut[adst][r][w / 16][(w % 8) / 4]; }
// Output j of transform t in the two output registers as one 64-word index (the second from
// word 32 on).
constexpr int ZmmOutWord(bool adst, int t, int j) {
  for (int r = 0; r < 2; r++)
    for (int h = 0; h < 2; h++)
      for (int v = 0; v < 2; v++)
        if (kZmmOut[adst][r][h][v] == j) return 32 * r + 16 * h + 8 * (t / 4) + 4 * v + t % 4;
  return -1;
}
// The words of output register r that hold the ADST's odd outputs (negated ones), as a mask.
constexpr uint32_t ZmmOddMask(int r) {
  uint32_t m = 0;
  for (int w = 0; w < 32; w++) m |= static_cast<uint32_t>(ZmmOutput(true, r, w) % 2) << w;
  return m;
}
struct alignas(64) Zmm8x8Tables {
  int16_t load[2][32];   // P1, P2 of the row pass from the rows as they lie (word 8 * row + column)
  int16_t mid[2][32];    // P1, P2 of the column pass from the row pass's output registers
  int16_t round[2][32];  // the final rounding multiplies (below), per output register
  int32_t rows[16];      // the packed pixel rows (below) to row order, two dwords per row
};
constexpr Zmm8x8Tables MakeZmm8x8Tables(bool row_adst, bool col_adst) {
  Zmm8x8Tables t{};
  for (int r = 0; r < 2; r++) {
    for (int w = 0; w < 32; w++) {
      const int tr = ZmmTransform(w);
      const int in = ZmmInput(row_adst, r, w);
      t.load[r][w] = static_cast<int16_t>(8 * tr + in);  // row tr, column in
      const int cin = ZmmInput(col_adst, r, w);
      t.mid[r][w] = static_cast<int16_t>(ZmmOutWord(row_adst, cin, tr));  // row cin, output tr
      // Round2(x, 5) as a rounding multiply by 2^10; by -2^10 for the ADST's negated outputs.
      t.round[r][w] = static_cast<int16_t>(col_adst && ZmmOutput(true, r, w) % 2 ? -1024 : 1024);
    }
  }
  // packus(output register 0, 1) per 128-bit lane L: dwords (register 0 value 0, value 1,
  // register 1 value 0, value 1) of half L / 2, columns 4 * (L % 2) .. + 3.
  for (int d = 0; d < 16; d++) {
    const int lane = d / 4, p = d % 4;
    const int row = kZmmOut[col_adst][p / 2][lane / 2][p % 2];
    t.rows[2 * row + lane % 2] = d;
  }
  return t;
}

// A 512-bit constant whose low 256 bits hold kLo in every int32 lane and whose high 256 bits
// hold kHi, as a memory operand (MaddAccMem).
template <int32_t kLo, int32_t kHi>
HWY_INLINE const __m512i &HalvesZ() {
  alignas(64) static const int32_t kT[16] = {kLo, kLo, kLo, kLo, kLo, kLo, kLo, kLo,
                                             kHi, kHi, kHi, kHi, kHi, kHi, kHi, kHi};
  return *reinterpret_cast<const __m512i *>(kT);
}
template <int32_t kV>
HWY_INLINE __m512i SplatZ32() {
  return _mm512_load_si512(SplatTable32<kV>());
}

// (a + a' | a' - a) per 16-bit lane, a' the two 256-bit halves of a exchanged.
HWY_INLINE __m512i HalvesSumDiffZ(__m512i a) {
  const __m512i sw = _mm512_shuffle_i64x2(a, a, 0x4E);
  return _mm512_mask_sub_epi16(_mm512_add_epi16(a, sw), 0xFFFF0000u, sw, a);
}

// Idct8 on eight transforms from their pairs p1, p2 (layout above) to x01, x32.
HWY_INLINE void Idct8Z(__m512i p1, __m512i p2, __m512i *x01, __m512i *x32) {
  const __m512i rnd = SplatZ32<8192>();
  const __m512i a1 = MaddAccMem(rnd, p1, HalvesZ<PairOf(kC[16], kC[16]), PairOf(kC[8], kC[24])>());
  const __m512i a2 =
      MaddAccMem(rnd, p1, HalvesZ<PairOf(kC[16], -kC[16]), PairOf(kC[24], -kC[8])>());
  const __m512i b1 =
      MaddAccMem(rnd, p2, HalvesZ<PairOf(kC[28], -kC[4]), PairOf(kC[12], -kC[20])>());
  const __m512i b2 = MaddAccMem(rnd, p2, HalvesZ<PairOf(kC[4], kC[28]), PairOf(kC[20], kC[12])>());
  // ((s0, s1) | (s3, s2)) and ((s4, s7) | (s5, s6)), then ((e0, e1) | (e3, e2)) and
  // ((t4, t7) | (t5, t6)).
  const __m512i e = HalvesSumDiffZ(
      _mm512_packs_epi32(_mm512_srai_epi32(a1, 14), _mm512_srai_epi32(a2, 14)));
  const __m512i t = HalvesSumDiffZ(
      _mm512_packs_epi32(_mm512_srai_epi32(b1, 14), _mm512_srai_epi32(b2, 14)));
  // High half: (t6 - t5, t5 + t6) -> (u5, u6).
  const __m512i sw = _mm512_shuffle_epi32(t, _MM_PERM_BADC);
  const __m512i u = _mm512_mulhrs_epi16(
      _mm512_mask_sub_epi16(_mm512_add_epi16(t, sw), 0x0F0F0F0Fu, sw, t),
      SplatZ32<Splat16To32(2 * kC[16])>());
  // ((t7, u6) | (t4, u5)) by 64-bit words (u's from 8 on).
  alignas(64) static const int64_t kQ[8] = {1, 13, 3, 15, 0, 12, 2, 14};
  const __m512i q = _mm512_permutex2var_epi64(t, _mm512_load_si512(kQ), u);
  *x01 = _mm512_add_epi16(e, q);
  *x32 = _mm512_sub_epi16(e, q);
}

// Iadst8 on eight transforms from their pairs p1 = ((in7, in0) | (in5, in2)) and p2 =
// ((in3, in4) | (in1, in6)) to x0 = ((out0, out7) | (out3, out4)) and x1 = ((out1, out2) |
// (out6, out5)), the odd outputs negated as the reference does, or, kUnsigned, left for the
// caller to negate (ZmmOddMask). The reference's iadst8 with its names: every rounded product
// sum is one vpdpwssd onto another that holds the rounding constant, both halves at once.
template <bool kUnsigned>
HWY_INLINE void Iadst8Z(__m512i p1, __m512i p2, __m512i *x0, __m512i *x1) {
  const __m512i rnd = SplatZ32<8192>();
  const __m512i h = SplatZ32<Splat16To32(2 * kC[16])>();
  // (s0 | s2) and (s1 | s3), then u = R(s +- s'), s' = (s4 | s6), (s5 | s7) from p2.
  const __m512i s02 =
      MaddAccMem(rnd, p1, HalvesZ<PairOf(kC[2], kC[30]), PairOf(kC[10], kC[22])>());
  const __m512i s13 =
      MaddAccMem(rnd, p1, HalvesZ<PairOf(kC[30], -kC[2]), PairOf(kC[22], -kC[10])>());
  const __m512i u02 =
      MaddAccMem(s02, p2, HalvesZ<PairOf(kC[18], kC[14]), PairOf(kC[26], kC[6])>());
  const __m512i u46 =
      MaddAccMem(s02, p2, HalvesZ<PairOf(-kC[18], -kC[14]), PairOf(-kC[26], -kC[6])>());
  const __m512i u13 =
      MaddAccMem(s13, p2, HalvesZ<PairOf(kC[14], -kC[18]), PairOf(kC[6], -kC[26])>());
  const __m512i u57 =
      MaddAccMem(s13, p2, HalvesZ<PairOf(-kC[14], kC[18]), PairOf(-kC[6], kC[26])>());
  // ((a0, a1) | (a2, a3)) of adst_tail8.
  const __m512i e = HalvesSumDiffZ(
      _mm512_packs_epi32(_mm512_srai_epi32(u02, 14), _mm512_srai_epi32(u13, 14)));
  // The pairs ((u4, u5) | (u6, u7)): bits 14..29 of each sum are the low 16 of its R().
  const __m512i y = _mm512_mask_blend_epi16(0xAAAAAAAAu, _mm512_srli_epi32(u46, 14),
                                            _mm512_slli_epi32(u57, 2));
  const __m512i ys = _mm512_shuffle_i64x2(y, y, 0x4E);  // ((u6, u7) | (u4, u5))
  // (a4 | a5) = R(p4 + p6 | q4 + q6), (a6 | a7) = R(p4 - p6 | q4 - q6), each the sum of a
  // product of y and one of ys onto the rounding constant.
  const __m512i b45 = MaddAccMem(
      MaddAccMem(rnd, y, HalvesZ<PairOf(kC[8], kC[24]), PairOf(kC[8], kC[24])>()), ys,
      HalvesZ<PairOf(-kC[24], kC[8]), PairOf(kC[24], -kC[8])>());
  const __m512i b67 = MaddAccMem(
      MaddAccMem(rnd, y, HalvesZ<PairOf(kC[8], kC[24]), PairOf(-kC[8], -kC[24])>()), ys,
      HalvesZ<PairOf(kC[24], -kC[8]), PairOf(kC[24], -kC[8])>());
  // ((a4, a6) | (a5, a7)); then x6 = H(a6 + a7) and x7 = H(a6 - a7) in place of a6 and a7.
  const __m512i a67 = _mm512_srai_epi32(b67, 14);
  const __m512i f = _mm512_packs_epi32(_mm512_srai_epi32(b45, 14), a67);
  if constexpr (kUnsigned) {
    *x1 = _mm512_mask_mulhrs_epi16(f, 0xF0F0F0F0u, HalvesSumDiffZ(f), h);
  } else {
    // (a7 | a6) as well, so that a6 and a7 meet within 128-bit lanes: ((a6, a7) | (a7, a6)),
    // and the sum and difference need no exchange of halves.
    const __m512i b76 = MaddAccMem(
        MaddAccMem(rnd, y, HalvesZ<PairOf(kC[24], -kC[8]), PairOf(kC[24], -kC[8])>()), ys,
        HalvesZ<PairOf(-kC[8], -kC[24]), PairOf(kC[8], kC[24])>());
    const __m512i g = _mm512_packs_epi32(a67, _mm512_srai_epi32(b76, 14));
    const __m512i gs = _mm512_shuffle_epi32(g, _MM_PERM_BADC);  // ((a7, a6) | (a6, a7))
    *x1 = _mm512_mask_mulhrs_epi16(
        f, 0xF0F0F0F0u, _mm512_mask_sub_epi16(_mm512_add_epi16(g, gs), 0xF0F00000u, g, gs), h);
  }
  // x2 = H(a2 + a3) and x3 = H(a2 - a3) in place of a2 and a3.
  const __m512i es = _mm512_shuffle_epi32(e, _MM_PERM_BADC);  // ((a1, a0) | (a3, a2))
  *x0 = _mm512_mask_mulhrs_epi16(
      e, 0xFFFF0000u, _mm512_mask_sub_epi16(_mm512_add_epi16(e, es), 0xF0F00000u, es, e), h);
  if constexpr (!kUnsigned) {
    *x0 = _mm512_mask_sub_epi16(*x0, ZmmOddMask(0), _mm512_setzero_si512(), *x0);
    *x1 = _mm512_mask_sub_epi16(*x1, ZmmOddMask(1), _mm512_setzero_si512(), *x1);
  }
}

// One pass, Iadst8Z or Idct8Z, in the layout above.
template <bool kAdst, bool kUnsigned>
HWY_INLINE void Pass8Z(__m512i p1, __m512i p2, __m512i *x0, __m512i *x1) {
  if constexpr (kAdst) {
    Iadst8Z<kUnsigned>(p1, p2, x0, x1);
  } else {
    Idct8Z(p1, p2, x0, x1);
  }
}

// The column check of the column pass's input pairs p: lane l (and l + 8) holds half of column
// l % 8's squares (4 of its inputs). DCT: each half against half the bound. ADST: the two
// halves' saturated sums (each at most 2^31 - 1, so their sum fits in uint32) added and the
// whole column against the bound, which its far smaller L2 bound needs for real blocks' columns.
template <bool kAdst>
HWY_INLINE bool ColumnsWithinZ(const __m512i *p) {
  if constexpr (!kAdst) {
    return SquaresWithinZ<kSquaresBound<false, 2>>(p);
  } else {
    const __m512i acc = AddSquaresSat(AddSquaresSat(_mm512_setzero_si512(), p[0]), p[1]);
    const __m256i sum =
        _mm256_add_epi32(_mm512_castsi512_si256(acc), _mm512_extracti64x4_epi64(acc, 1));
    // A variable, not an argument: clang's _mm256_cmpgt_epu32_mask is a macro, and the template
    // argument list's comma would split it.
    const __m256i bound = SplatY32<kSquaresBound<true, 1>>();
    return _mm256_cmpgt_epu32_mask(sum, bound) == 0;
  }
}

// The 8x8 block (row transform kRowAdst, column kColAdst), Round2 by 5, added to dst with
// unsigned saturation, when its rows and then its row results pass the checks by squares; else
// Add8x8Y<kRowAdst, kColAdst, true> on the block (same contract: false, having written nothing,
// when the coefficients fail its row checks; col32 where the row results fail its column
// checks).
template <bool kRowAdst, bool kColAdst, class Col32>
HWY_NOINLINE bool Add8x8Zmm(uint8_t *dst, ptrdiff_t stride, const int16_t *c, Col32 col32) {
  static constexpr Zmm8x8Tables kT = MakeZmm8x8Tables(kRowAdst, kColAdst);
  auto table = [](const void *p) { return _mm512_load_si512(p); };
  // Rows: a lane sums the squares of one coefficient pair of two rows, so a row's squares sum
  // to at most 4 lane bounds.
  const __m512i z[2] = {_mm512_loadu_si512(c), _mm512_loadu_si512(c + 32)};
  if (!SquaresWithinZ<kSquaresBound<kRowAdst, 4>>(z)) {
    return Add8x8Y<kRowAdst, kColAdst, true>(dst, stride, c, col32);
  }
  __m512i x0, x1;
  Pass8Z<kRowAdst, false>(_mm512_permutex2var_epi16(z[0], table(kT.load[0]), z[1]),
                          _mm512_permutex2var_epi16(z[0], table(kT.load[1]), z[1]), &x0, &x1);
  const __m512i p[2] = {_mm512_permutex2var_epi16(x0, table(kT.mid[0]), x1),
                        _mm512_permutex2var_epi16(x0, table(kT.mid[1]), x1)};
  if (!ColumnsWithinZ<kColAdst>(p)) {
    return Add8x8Y<kRowAdst, kColAdst, true>(dst, stride, c, col32);
  }
  Pass8Z<kColAdst, true>(p[0], p[1], &x0, &x1);
  // Round2(x, 5) as one rounding multiply by 2^10 (exact for every int16 x); by -2^10 for the
  // ADST's odd outputs, Round2(-x, 5) (exact in int32), which negates them.
  const __m512i rnd0 = kColAdst ? table(kT.round[0]) : SplatZ32<0x04000400>();
  const __m512i rnd1 = kColAdst ? table(kT.round[1]) : rnd0;
  auto at = [dst, stride](int i) { return dst + static_cast<ptrdiff_t>(i) * stride; };
  auto load8 = [&at](int i) { return _mm_loadl_epi64(reinterpret_cast<const __m128i *>(at(i))); };
  // The pixels of the four rows of output register r, in its layout.
  auto pixels = [&load8](int r) {
    constexpr auto &o = kZmmOut[kColAdst];
    const __m128i lo = _mm_unpacklo_epi32(load8(o[r][0][0]), load8(o[r][0][1]));
    const __m128i hi = _mm_unpacklo_epi32(load8(o[r][1][0]), load8(o[r][1][1]));
    return _mm512_cvtepu8_epi16(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
  };
  const __m512i s0 = _mm512_add_epi16(_mm512_mulhrs_epi16(x0, rnd0), pixels(0));
  const __m512i s1 = _mm512_add_epi16(_mm512_mulhrs_epi16(x1, rnd1), pixels(1));
  const __m512i r = _mm512_permutexvar_epi32(table(kT.rows), _mm512_packus_epi16(s0, s1));
  const __m128i l[4] = {_mm512_castsi512_si128(r), _mm512_extracti32x4_epi32(r, 1),
                        _mm512_extracti32x4_epi32(r, 2), _mm512_extracti32x4_epi32(r, 3)};
  for (int i = 0; i < 4; i++) {  // rows 2i, 2i + 1
    _mm_storel_epi64(reinterpret_cast<__m128i *>(at(2 * i)), l[i]);
    // The high 8 bytes by memcpy (one vmovhps): at(...) has no alignment, so no double store.
    const double hi = _mm_castsi128_pd(l[i])[1];
    memcpy(at(2 * i + 1), &hi, 8);
  }
  return true;
}

#else
#define V3D_ITX_HAVE_8X8_ZMM 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_8X8_ZMM_H_
