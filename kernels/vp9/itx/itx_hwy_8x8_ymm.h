// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 8x8 inverse transforms (DCT and ADST, every type) in 16-bit lanes with the whole block in
// four 256-bit registers (x86, AVX2 and up), behind the same checks as the 128-bit 16-bit path:
// the 2-D bound (kInt16Bound, checked by the caller) or the per-pass L1 bounds (kInt16BoundL1,
// checked here as in itx_hwy_8x8.h).
// Per-target header: included by itx_hwy.cpp after itx_hwy_16.h (AddAbs, LanesWithin,
// Corner8x8) and itx_hwy_8x8.h.
//
// DCT_DCT blocks sparse by the eob hint (AddSparse8x8, at the end): the corner classification
// ahead of every other path; the 2x2 corner (AddCorner8x8Y2) has one zero input in each
// product, so each is one rounding multiply: (x * 2c + 2^14) >> 15 == (x * c + 2^13) >> 14 for
// every int16 x and 0 < c < 2^14. With inputs 2..7 zero the reference's idct8 forms e = H(in0)
// for the even half, s4 = R(in1 * cos64(28)), s7 = R(in1 * cos64(4)), u5 = H(s7 - s4),
// u6 = H(s4 + s7) (H(x) = R(x * cos64(16)), R(x) = (x + 2^13) >> 14) and the outputs e + s7,
// e + u6, e + u5, e + s4, e - s4, e - u5, e - u6, e - s7: inside the 2x2 corner bound
// (kInt16CornerBound8x8[0]) each value equals the reference's. A subtracted value is added as
// its 16-bit negation (psignw): the sum is the reference's, in int16, so exact modulo 2^16.
// The 4x4 corner (AddCorner8x8Y) has one zero input in every first-stage product in both
// passes, so it runs the same way: no pmaddwd and no transpose, within kInt16CornerBound8x8[1].
//
// Layout: each register holds two 1-D inputs (or outputs) a, b of eight 1-D transforms; its
// 128-bit lane 0 holds a then b of transforms 0..3, lane 1 the same of transforms 4..7. The
// butterflies then pair registers (or their two 64-bit halves) with pmaddwd on interleaved
// pairs and pmulhrsw, and each transpose is eight unpacks within 128-bit lanes plus the moves
// between lanes (inserts on load, four 128-bit permutes between the passes).
//
// Exactness: the 1-D DCT is Idct8 of itx_hwy_1d.h, the ADST Iadst8x16 of itx_hwy_16.h, on the
// same 16-bit values with the same rounding points (products R(a*ka + b*kb) as pmaddwd + round
// + packssdw, R(x*cos64(16)) and the final Round2(x, 5) as pmulhrsw); only the placement of
// values in registers differs. So inside the bounds (itx_int16_bound.h) every value equals the
// reference's.

#if defined(V3D_VP9_ITX_HWY_8X8_YMM_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_8X8_YMM_H_
#undef V3D_VP9_ITX_HWY_8X8_YMM_H_
#else
#define V3D_VP9_ITX_HWY_8X8_YMM_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef V3D_ITX_HAVE_8X8_YMM
#if V3D_ITX_HAVE_16 && HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
#define V3D_ITX_HAVE_8X8_YMM 1

// A 256-bit constant as a load from memory (see Splat32 in itx_hwy_16.h).
template <int32_t kV>
HWY_INLINE __m256i SplatY32() {
  return _mm256_load_si256(reinterpret_cast<const __m256i *>(SplatTable32<kV>()));
}
// kV in every 16-bit lane, from memory.
template <int32_t kV>
HWY_INLINE __m256i SplatY16() {
  return SplatY32<Splat16To32(static_cast<int16_t>(kV))>();
}
// A 32-byte constant table (alignas(32)) as a load.
HWY_INLINE __m256i LoadY(const void *table) {
  return _mm256_load_si256(reinterpret_cast<const __m256i *>(table));
}
// The pmaddwd constant of interleaved pairs (a, b): a*kA + b*kB.
template <int32_t kA, int32_t kB>
HWY_INLINE __m256i PairY() {
  return SplatY32<PairOf(kA, kB)>();
}
// R(a*kA0 + b*kB0) in the low half of each lane, R(a*kA1 + b*kB1) in the high half, for the
// four interleaved pairs (a, b) of each lane of p (rnd: 8192 in every int32 lane).
template <int32_t kA0, int32_t kB0, int32_t kA1, int32_t kB1>
HWY_INLINE __m256i MulPairsY(__m256i p, __m256i rnd) {
  const __m256i x = MaddAcc(rnd, p, PairY<kA0, kB0>());
  const __m256i y = MaddAcc(rnd, p, PairY<kA1, kB1>());
  return _mm256_packs_epi32(_mm256_srai_epi32(x, 14), _mm256_srai_epi32(y, 14));
}

// R(a + q.a*kA + q.b*kB) and R(a - q.a*kA - q.b*kB) as int32 (a: a product sum with the
// rounding constant added; q: interleaved pairs). With VNNI both are one vpdpwssd onto a, by
// the constants or their negations (|k| < 2^14); elsewhere one pmaddwd, an add and a subtract.
template <int32_t kA, int32_t kB>
HWY_INLINE void SumDiffY(__m256i a, __m256i q, __m256i *sum, __m256i *diff) {
#if V3D_ITX_HAVE_VNNI
  *sum = _mm256_srai_epi32(MaddAcc(a, q, PairY<kA, kB>()), 14);
  *diff = _mm256_srai_epi32(MaddAcc(a, q, PairY<-kA, -kB>()), 14);
#else
  const __m256i b = _mm256_madd_epi16(q, PairY<kA, kB>());
  *sum = _mm256_srai_epi32(_mm256_add_epi32(a, b), 14);
  *diff = _mm256_srai_epi32(_mm256_sub_epi32(a, b), 14);
#endif
}

// The 8-point DCT's last stages on eight transforms, from ep = (e0, e1), em = (e3, e2),
// t = (t4, t7) and dd = (t5, t6): u5, u6 = R((t6 -/+ t5) * cos64(16)), then
// x = (out0, out1), (out3, out2), (out4, out5), (out7, out6).
HWY_INLINE void Idct8YLast(__m256i ep, __m256i em, __m256i t, __m256i dd, __m256i *x) {
  const __m256i h = SplatY16<2 * kC[16]>();
  const __m256i sw = _mm256_shuffle_epi32(dd, 0x4E);  // (t6, t5)
  // (t6 - t5, t5 + t6) -> (u5, u6)
  const __m256i u = _mm256_mulhrs_epi16(
      _mm256_blend_epi32(_mm256_add_epi16(dd, sw), _mm256_sub_epi16(sw, dd), 0x33), h);
  const __m256i qa = _mm256_unpackhi_epi64(t, u);  // (t7, u6)
  const __m256i qb = _mm256_unpacklo_epi64(t, u);  // (t4, u5)
  x[0] = _mm256_add_epi16(ep, qa);
  x[3] = _mm256_sub_epi16(ep, qa);
  x[1] = _mm256_add_epi16(em, qb);
  x[2] = _mm256_sub_epi16(em, qb);
}

// Idct8 on eight transforms: in, x = (in0, in1), (in2, in3), (in4, in5), (in6, in7); out,
// x = (out0, out1), (out3, out2), (out4, out5), (out7, out6).
HWY_INLINE void Idct8Y(__m256i *x) {
  const __m256i rnd = SplatY32<8192>();
  const __m256i p17 = _mm256_unpackhi_epi16(x[0], x[3]);  // (in1, in7) pairs
  const __m256i p53 = _mm256_unpackhi_epi16(x[2], x[1]);  // (in5, in3)
  const __m256i p26 = _mm256_unpacklo_epi16(x[1], x[3]);  // (in2, in6)
  const __m256i e04 = _mm256_unpacklo_epi64(_mm256_add_epi16(x[0], x[2]),
                                            _mm256_sub_epi16(x[0], x[2]));  // (in0+in4, in0-in4)
  const __m256i s47 = MulPairsY<kC[28], -kC[4], kC[4], kC[28]>(p17, rnd);      // (s4, s7)
  const __m256i s56 = MulPairsY<kC[12], -kC[20], kC[20], kC[12]>(p53, rnd);    // (s5, s6)
  const __m256i s32 = MulPairsY<kC[8], kC[24], kC[24], -kC[8]>(p26, rnd);      // (s3, s2)
  const __m256i h = SplatY16<2 * kC[16]>();
  const __m256i s01 = _mm256_mulhrs_epi16(e04, h);  // (s0, s1)
  const __m256i ep = _mm256_add_epi16(s01, s32);    // (e0, e1)
  const __m256i em = _mm256_sub_epi16(s01, s32);    // (e3, e2)
  const __m256i t = _mm256_add_epi16(s47, s56);   // (t4, t7)
  const __m256i dd = _mm256_sub_epi16(s47, s56);  // (t5, t6)
  Idct8YLast(ep, em, t, dd, x);
}

// Iadst8x16 (itx_hwy_16.h) on eight transforms: in, x = (in1, in0), (in3, in2), (in4, in5),
// (in6, in7); out, x = (out0, out7), (out1, out6), (out2, out5), (out3, out4). Same product
// sums and rounding points; the negated outputs are negated after rounding, as there, or, with
// kUnsigned, left as they are: x = (out0, -out7), (-out1, out6), (out2, -out5), (-out3, out4).
template <bool kUnsigned = false>
HWY_INLINE void Iadst8Y(__m256i *x) {
  const __m256i rnd = SplatY32<8192>();
  const __m256i p70 = _mm256_unpackhi_epi16(x[3], x[0]);  // (in7, in0) pairs
  const __m256i p16 = _mm256_unpacklo_epi16(x[0], x[3]);  // (in1, in6)
  const __m256i p52 = _mm256_unpackhi_epi16(x[2], x[1]);  // (in5, in2)
  const __m256i p34 = _mm256_unpacklo_epi16(x[1], x[2]);  // (in3, in4)
  // s0..s3 and t4, t5 with the rounding constant accumulated (MaddAcc): every rounded sum and
  // difference below has one of them as its first operand (SumDiffY).
  const __m256i s0 = MaddAcc(rnd, p70, PairY<kC[2], kC[30]>());
  const __m256i s1 = MaddAcc(rnd, p70, PairY<kC[30], -kC[2]>());
  const __m256i s2 = MaddAcc(rnd, p52, PairY<kC[10], kC[22]>());
  const __m256i s3 = MaddAcc(rnd, p52, PairY<kC[22], -kC[10]>());
  // R(s0 +- s4), R(s1 +- s5), R(s2 +- s6), R(s3 +- s7) with s4..s7 the products of p34, p16.
  __m256i r0p4, r0m4, r1p5, r1m5, r2p6, r2m6, r3p7, r3m7;
  SumDiffY<kC[18], kC[14]>(s0, p34, &r0p4, &r0m4);
  SumDiffY<kC[14], -kC[18]>(s1, p34, &r1p5, &r1m5);
  SumDiffY<kC[26], kC[6]>(s2, p16, &r2p6, &r2m6);
  SumDiffY<kC[6], -kC[26]>(s3, p16, &r3p7, &r3m7);
  const __m256i a01 = _mm256_packs_epi32(r0p4, r1p5);
  const __m256i a23 = _mm256_packs_epi32(r2p6, r3p7);
  const __m256i a46 = _mm256_packs_epi32(r0m4, r2m6);
  const __m256i a57 = _mm256_packs_epi32(r1m5, r3m7);
  const __m256i p45 = _mm256_unpacklo_epi16(a46, a57);  // (a4, a5) pairs
  const __m256i p67 = _mm256_unpackhi_epi16(a46, a57);  // (a6, a7)
  const __m256i t4 = MaddAcc(rnd, p45, PairY<kC[8], kC[24]>());
  const __m256i t5 = MaddAcc(rnd, p45, PairY<kC[24], -kC[8]>());
  __m256i r4p6, r4m6, r5p7, r5m7;  // R(t4 +- t6), R(t5 +- t7), t6, t7 the products of p67
  SumDiffY<-kC[24], kC[8]>(t4, p67, &r4p6, &r4m6);
  SumDiffY<kC[8], kC[24]>(t5, p67, &r5p7, &r5m7);
  const __m256i b01 = _mm256_add_epi16(a01, a23);  // (b0, b1)
  const __m256i b23 = _mm256_sub_epi16(a01, a23);  // (b2, b3)
  const __m256i b45 = _mm256_packs_epi32(r4p6, r5p7);
  const __m256i b67 = _mm256_packs_epi32(r4m6, r5m7);
  const __m256i h = SplatY16<2 * kC[16]>();
  // (H(b + b'), H(b - b')) of the halves (b, b') of v.
  auto hsd = [h](__m256i v) {
    const __m256i sw = _mm256_shuffle_epi32(v, 0x4E);
    return _mm256_mulhrs_epi16(
        _mm256_unpacklo_epi64(_mm256_add_epi16(v, sw), _mm256_sub_epi16(v, sw)), h);
  };
  if constexpr (kUnsigned) {
    x[0] = b01;
    x[1] = b45;
    x[2] = hsd(b67);
    x[3] = hsd(b23);
    return;
  }
  // psignw by +-1 words: the high half of each lane negated (kNegHi), or the low half.
  alignas(32) static const int16_t kNegHi[16] = {1, 1, 1, 1, -1, -1, -1, -1,
                                                 1, 1, 1, 1, -1, -1, -1, -1};
  alignas(32) static const int16_t kNegLo[16] = {-1, -1, -1, -1, 1, 1, 1, 1,
                                                 -1, -1, -1, -1, 1, 1, 1, 1};
  const __m256i sign_hi = _mm256_load_si256(reinterpret_cast<const __m256i *>(kNegHi));
  const __m256i sign_lo = _mm256_load_si256(reinterpret_cast<const __m256i *>(kNegLo));
  x[0] = _mm256_sign_epi16(b01, sign_hi);       // (out0, out7)
  x[1] = _mm256_sign_epi16(b45, sign_lo);       // (out1, out6)
  x[2] = _mm256_sign_epi16(hsd(b67), sign_hi);  // (out2, out5)
  x[3] = _mm256_sign_epi16(hsd(b23), sign_lo);  // (out3, out4)
}

// True iff, for each of the eight transforms, the saturating sum of the |inputs| held in x
// (layout above) is at most kB: the per-pass L1 check of itx_hwy_8x8.h on this layout.
template <int kB>
HWY_INLINE bool PassWithin(const __m256i *x) {
  const hn::Full256<int16_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Vec256<int16_t> v[4] = {{x[0]}, {x[1]}, {x[2]}, {x[3]}};
  const auto s = AddAbs<3>(d, v + 1, hn::BitCast(du, hn::Abs(v[0])));  // even | odd inputs
  const hn::Vec256<uint16_t> t{_mm256_shuffle_epi32(s.raw, 0x4E)};
  return LanesWithin<kB>(du, hn::SaturatedAdd(s, t));
}

#if V3D_ITX_HAVE_VNNI
// True iff every int32 lane of the sum over the four registers of x of the squares of its
// word pairs (2q, 2q + 1) is at most kT: four chained vpdpwssds from zero (AddSquaresSat), which
// saturate, so a lane whose true sum exceeds kT (< 2^31 - 1) reads above it too.
template <int32_t kT>
HWY_INLINE bool SquaresWithin(const __m256i *x) {
  __m256i acc = _mm256_setzero_si256();
  for (int i = 0; i < 4; i++) acc = AddSquaresSat(acc, x[i]);
  return _mm256_cmpgt_epi32_mask(acc, SplatY32<kT>()) == 0;
}
// The same on two 512-bit registers (two chained vpdpwssds). Both forms read kT from memory, as
// the compare's operand.
template <int32_t kT>
HWY_INLINE bool SquaresWithinZ(const __m512i *x) {
  const __m512i acc = AddSquaresSat(AddSquaresSat(_mm512_setzero_si512(), x[0]), x[1]);
  return _mm512_cmpgt_epi32_mask(
             acc, _mm512_load_si512(reinterpret_cast<const __m512i *>(SplatTable32<kT>()))) == 0;
}
// kInt16BoundL2x8[adst]^2 / kParts, the lane bound of SquaresWithin when each vector checked
// spreads its squares over at most kParts of the lanes.
template <bool kAdst, int kParts>
constexpr int32_t kSquaresBound = static_cast<int32_t>(
    int64_t{kInt16BoundL2x8[kAdst ? 1 : 0]} * kInt16BoundL2x8[kAdst ? 1 : 0] / kParts);
#endif

// The high 8 bytes of v to p, which has no alignment (pextrq to memory).
HWY_INLINE void StoreHigh8(uint8_t *p, __m128i v) {
  const int64_t hi = _mm_extract_epi64(v, 1);
  std::memcpy(p, &hi, sizeof(hi));
}

// The 8-pixel rows p0, p1 as words: kWhole, (row p0 | row p1), each row in its own 128-bit
// lane; else in the layout (row i, row i') above, each lane a 4-pixel half of both rows.
template <bool kWhole = false>
HWY_INLINE __m256i LoadPixY(const uint8_t *p0, const uint8_t *p1) {
  const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(p0));
  if constexpr (kWhole) {
    int64_t b;
    std::memcpy(&b, p1, sizeof(b));
    return _mm256_cvtepu8_epi16(_mm_insert_epi64(a, b, 1));
  } else {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(p1));
    return _mm256_cvtepu8_epi16(_mm_unpacklo_epi32(a, b));
  }
}
// Adds x = (row r0, row r1) and y = (row r2, row r3), in LoadPixY<kWhole>'s layout, to their
// pixel rows, saturating.
template <bool kWhole = false>
HWY_INLINE void AddRowsY(uint8_t *r0, uint8_t *r1, uint8_t *r2, uint8_t *r3, __m256i x,
                         __m256i y) {
  const __m256i p = _mm256_packus_epi16(_mm256_add_epi16(x, LoadPixY<kWhole>(r0, r1)),
                                        _mm256_add_epi16(y, LoadPixY<kWhole>(r2, r3)));
  const __m128i lo = _mm256_castsi256_si128(p), hi = _mm256_extracti128_si256(p, 1);
  if constexpr (kWhole) {  // lo = (r0, r2), hi = (r1, r3)
    _mm_storel_epi64(reinterpret_cast<__m128i *>(r0), lo);
    StoreHigh8(r2, lo);
    _mm_storel_epi64(reinterpret_cast<__m128i *>(r1), hi);
    StoreHigh8(r3, hi);
  } else {
    const __m128i a = _mm_unpacklo_epi32(lo, hi), b = _mm_unpackhi_epi32(lo, hi);
    _mm_storel_epi64(reinterpret_cast<__m128i *>(r0), a);
    StoreHigh8(r1, a);
    _mm_storel_epi64(reinterpret_cast<__m128i *>(r2), b);
    StoreHigh8(r3, b);
  }
}

#undef V3D_ITX_8X8_VPERM
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define V3D_ITX_8X8_VPERM 1
// AVX-512 (BW, VL): the transpose between the passes as eight two-source word permutes
// (vpermt2w) in two levels instead of the regrouping, 128-bit moves and unpacks, with the input
// order that Iadst8Y wants folded into the tables (the column pass then runs Iadst8Y or Idct8Y
// on them as they are). A Map gives, for word w (0..15) of result
// register k (0..3), the register and word it comes from: Src(k, w) = 16 * register + word.
// Level 1 forms t[g][h] from sources 2g and 2g + 1: its words 0..7 are the words that result
// 2h takes from them, in order, its words 8..15 those of result 2h + 1; level 2 forms result
// k from t[0][k / 2] and t[1][k / 2]. So every result must take 8 words from sources 0 and 1
// and 8 from sources 2 and 3 (checked when the tables are made).
struct alignas(32) PermTables {
  int16_t l1[2][2][16];
  int16_t l2[4][16];
};
template <class Map>
constexpr PermTables MakePermTables() {
  PermTables t{};
  for (int k = 0; k < 4; k++) {
    int rank[2] = {0, 0};
    for (int w = 0; w < 16; w++) {
      const int src = Map::Src(k, w), g = src / 32;
      const int slot = (k % 2) * 8 + rank[g]++;
      t.l1[g][k / 2][slot] = static_cast<int16_t>(src % 32);
      t.l2[k][w] = static_cast<int16_t>(16 * g + slot);
    }
    if (rank[0] != 8 || rank[1] != 8) t.l2[0][0] = -1;  // not two groups of 8: rejected below
  }
  return t;
}
template <class Map>
HWY_INLINE void PermuteY(__m256i *x) {
  static constexpr PermTables kT = MakePermTables<Map>();
  static_assert(kT.l2[0][0] >= 0, "each result takes 8 words from each pair of sources");
  __m256i t[2][2];
  for (int g = 0; g < 2; g++) {
    for (int h = 0; h < 2; h++) {
      t[g][h] = _mm256_permutex2var_epi16(x[2 * g], LoadY(kT.l1[g][h]), x[2 * g + 1]);
    }
  }
  for (int k = 0; k < 4; k++) {
    x[k] = _mm256_permutex2var_epi16(t[0][k / 2], LoadY(kT.l2[k]), t[1][k / 2]);
  }
}
// Input i of result k, word w, in the layout above: (in 2k, in 2k + 1), or for the ADST
// (kAdst) (in1, in0), (in3, in2), (in4, in5), (in6, in7) as Iadst8Y takes them.
template <bool kAdst>
constexpr int InputOf(int k, int w) {
  const int h = (w % 8) / 4;
  return 2 * k + (kAdst && k < 2 ? 1 - h : h);
}
// The row pass's outputs (Idct8Y's or Iadst8Y's order) to the column pass's inputs: word w of
// result k is intermediate (row InputOf(k, w), column 4 * (w / 8) + w % 4), which is output
// j = column of row transform i = row.
template <bool kRowAdst, bool kColAdst>
struct MidMap {
  static constexpr int Src(int k, int w) {
    const int i = InputOf<kColAdst>(k, w), j = 4 * (w / 8) + w % 4;
    // Register m holds outputs (pair[m][0], pair[m][1]).
    constexpr int kDct[4][2] = {{0, 1}, {3, 2}, {4, 5}, {7, 6}};
    constexpr int kAdst[4][2] = {{0, 7}, {1, 6}, {2, 5}, {3, 4}};
    for (int m = 0; m < 4; m++) {
      for (int half = 0; half < 2; half++) {
        if ((kRowAdst ? kAdst : kDct)[m][half] == j) {
          return 16 * m + 8 * (i % 2) + 4 * half + i / 2;  // row transform i: lane i % 2
        }
      }
    }
    return -1;
  }
};
#else
#define V3D_ITX_8X8_VPERM 0
#endif

// One 1-D pass (kAdst: Iadst8Y, else Idct8Y) from x = (in0, in1), (in2, in3), (in4, in5),
// (in6, in7), and its outputs regrouped as (out0, out2), (out1, out3), (out4, out6),
// (out5, out7) for the transpose.
// kUnsigned: the ADST's negated outputs left for the caller to negate (Iadst8Y).
template <bool kAdst, bool kUnsigned = false>
HWY_INLINE void Pass8Y(__m256i *x) {
  if constexpr (kAdst) {
    x[0] = _mm256_shuffle_epi32(x[0], 0x4E);  // (in1, in0)
    x[1] = _mm256_shuffle_epi32(x[1], 0x4E);  // (in3, in2)
    Iadst8Y<kUnsigned>(x);  // (0, 7), (1, 6), (2, 5), (3, 4)
  } else {
    Idct8Y(x);  // (0, 1), (3, 2), (4, 5), (7, 6)
  }
}
template <bool kAdst>
HWY_INLINE void EvenOddY(__m256i *x) {
  __m256i o[4];
  if constexpr (kAdst) {
    o[0] = _mm256_unpacklo_epi64(x[0], x[2]);
    o[1] = _mm256_unpacklo_epi64(x[1], x[3]);
    o[2] = _mm256_unpackhi_epi64(x[3], x[1]);
    o[3] = _mm256_unpackhi_epi64(x[2], x[0]);
  } else {
    o[0] = _mm256_blend_epi32(x[0], x[1], 0xCC);
    o[1] = _mm256_alignr_epi8(x[1], x[0], 8);
    o[2] = _mm256_blend_epi32(x[2], x[3], 0xCC);
    o[3] = _mm256_alignr_epi8(x[3], x[2], 8);
  }
  for (int i = 0; i < 4; i++) x[i] = o[i];
}

// The 8x8 block (row transform kRowAdst, column kColAdst) in four registers, Round2 by 5,
// added to dst with unsigned saturation. kCheck false: the caller has checked the 2-D bound;
// returns true. kCheck true: the per-pass checks of Add8x8PerPass (itx_hwy_8x8.h) with the
// same outcomes: false, having written nothing, when the coefficients fail the row bound;
// col32(v) (v[i] = row i of the intermediate, eight int16 lanes) when the row results fail
// the column bound.
template <bool kRowAdst, bool kColAdst, bool kCheck, class Col32>
HWY_NOINLINE bool Add8x8Y(uint8_t *dst, ptrdiff_t stride, const int16_t *c, Col32 col32) {
  constexpr int kRowBound = kInt16BoundL1[1][kRowAdst ? 1 : 0];
  constexpr int kColBound = kInt16BoundL1[1][kColAdst ? 1 : 0];
  static_assert(kRowBound > 0 && kColBound > 0, "8-point per-pass bounds");
  __m256i x[4];
  [[maybe_unused]] bool row_l2 = false;  // the row bound holds by squares (AVX3_DL)
  {
#if V3D_ITX_8X8_VPERM
    // Registers (row 2m | row 2m + 1) as they lie in memory, then 4x8 transposes within the
    // lanes: lane 0 holds the even rows' transforms (row 2t in word t of each half), lane 1
    // the odd rows' (MidMap takes them from there).
    auto rows = [c](int m) {
      return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(c + 16 * m));
    };
    const __m256i r0 = rows(0), r1 = rows(1), r2 = rows(2), r3 = rows(3);
#if V3D_ITX_HAVE_VNNI
    // The row bound by squares, on the block as two 512-bit loads: lane l sums the squares of
    // coefficients 2 (l % 4), 2 (l % 4) + 1 of rows l / 4 and l / 4 + 4, so each row's squares
    // sum to at most 4 lane bounds.
    if constexpr (kCheck) {
      const __m512i z[2] = {_mm512_loadu_si512(c), _mm512_loadu_si512(c + 32)};
      row_l2 = SquaresWithinZ<kSquaresBound<kRowAdst, 4>>(z);
    }
#endif
#else
    // Registers (row i | row i + 4), then 4x8 transposes within the lanes.
    auto row = [c](int i) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(c + 8 * i)); };
    const __m256i r0 = _mm256_inserti128_si256(_mm256_castsi128_si256(row(0)), row(4), 1);
    const __m256i r1 = _mm256_inserti128_si256(_mm256_castsi128_si256(row(1)), row(5), 1);
    const __m256i r2 = _mm256_inserti128_si256(_mm256_castsi128_si256(row(2)), row(6), 1);
    const __m256i r3 = _mm256_inserti128_si256(_mm256_castsi128_si256(row(3)), row(7), 1);
#endif
    const __m256i al = _mm256_unpacklo_epi16(r0, r1), ah = _mm256_unpackhi_epi16(r0, r1);
    const __m256i bl = _mm256_unpacklo_epi16(r2, r3), bh = _mm256_unpackhi_epi16(r2, r3);
    x[0] = _mm256_unpacklo_epi32(al, bl);  // (coefficient column 0, column 1)
    x[1] = _mm256_unpackhi_epi32(al, bl);
    x[2] = _mm256_unpacklo_epi32(ah, bh);
    x[3] = _mm256_unpackhi_epi32(ah, bh);
  }
  if constexpr (kCheck) {
    if (!row_l2 && !PassWithin<kRowBound>(x)) return false;
  }
  Pass8Y<kRowAdst>(x);
#if V3D_ITX_8X8_VPERM
  PermuteY<MidMap<kRowAdst, kColAdst>>(x);  // (row 2k, row 2k + 1); the ADST's order for it
#else
  EvenOddY<kRowAdst>(x);  // (c0, c2), (c1, c3), (c4, c6), (c5, c7): intermediate columns
  {
    const __m256i t0 = _mm256_permute2x128_si256(x[0], x[2], 0x20);  // rows 0..3
    const __m256i t1 = _mm256_permute2x128_si256(x[1], x[3], 0x20);
    const __m256i t2 = _mm256_permute2x128_si256(x[0], x[2], 0x31);  // rows 4..7
    const __m256i t3 = _mm256_permute2x128_si256(x[1], x[3], 0x31);
    const __m256i al = _mm256_unpacklo_epi16(t0, t1), ah = _mm256_unpackhi_epi16(t0, t1);
    const __m256i bl = _mm256_unpacklo_epi16(t2, t3), bh = _mm256_unpackhi_epi16(t2, t3);
    x[0] = _mm256_unpacklo_epi32(al, ah);  // (row 0, row 1)
    x[1] = _mm256_unpackhi_epi32(al, ah);
    x[2] = _mm256_unpacklo_epi32(bl, bh);
    x[3] = _mm256_unpackhi_epi32(bl, bh);
  }
#endif
  if constexpr (kCheck) {
    // DCT columns (AVX3_DL): the column bound by squares first. Lane (L, q) sums the squares
    // of two columns' inputs of one parity (InputOf), so each column's squares sum to at most
    // 2 lane bounds. (The ADST's L2 bound is too tight for real blocks' columns to pay.)
    bool col_l2 = false;
#if V3D_ITX_HAVE_VNNI && V3D_ITX_8X8_VPERM
    if constexpr (!kColAdst) col_l2 = SquaresWithin<kSquaresBound<false, 2>>(x);
#endif
    if (!col_l2 && !PassWithin<kColBound>(x)) {
      HWY_ALIGN int16_t rows[64];
      for (int i = 0; i < 4; i++) {
        __m256i r = x[i];
        // The ADST's order (in1, in0), (in3, in2) back to (row 2i, row 2i + 1).
        if (V3D_ITX_8X8_VPERM && kColAdst && i < 2) r = _mm256_shuffle_epi32(r, 0x4E);
        _mm256_store_si256(reinterpret_cast<__m256i *>(rows + 16 * i),
                           _mm256_permute4x64_epi64(r, 0xD8));
      }
      hn::Vec128<int16_t> v[8];
      for (int i = 0; i < 8; i++) v[i] = hn::Load(hn::Full128<int16_t>(), rows + 8 * i);
      col32(v);
      return true;
    }
  } else {
    (void)col32;
  }
#if V3D_ITX_8X8_VPERM
  if constexpr (kColAdst) {
    Iadst8Y<true>(x);
  } else {
    Idct8Y(x);
  }
#else
  Pass8Y<kColAdst, true>(x);
#endif
  // Round2(x, 5) as one rounding multiply by 2^10: exactly (x + 16) >> 5 for every int16 x;
  // by -2^10, Round2(-x, 5) (exact in int32), which negates the ADST's negated outputs.
  if constexpr (kColAdst) {
    alignas(32) static const int16_t kPosNeg[16] = {1024, 1024, 1024, 1024, -1024, -1024,
                                                    -1024, -1024, 1024, 1024, 1024, 1024,
                                                    -1024, -1024, -1024, -1024};
    alignas(32) static const int16_t kNegPos[16] = {-1024, -1024, -1024, -1024, 1024, 1024,
                                                    1024, 1024, -1024, -1024, -1024, -1024,
                                                    1024, 1024, 1024, 1024};
    const __m256i pn = _mm256_load_si256(reinterpret_cast<const __m256i *>(kPosNeg));
    const __m256i np = _mm256_load_si256(reinterpret_cast<const __m256i *>(kNegPos));
    x[0] = _mm256_mulhrs_epi16(x[0], pn);  // (out0, -out7)
    x[1] = _mm256_mulhrs_epi16(x[1], np);  // (-out1, out6)
    x[2] = _mm256_mulhrs_epi16(x[2], pn);  // (out2, -out5)
    x[3] = _mm256_mulhrs_epi16(x[3], np);  // (-out3, out4)
  } else {
    const __m256i rnd = SplatY32<0x04000400>();
    for (int i = 0; i < 4; i++) x[i] = _mm256_mulhrs_epi16(x[i], rnd);
  }
  auto at = [dst, stride](int i) { return dst + static_cast<ptrdiff_t>(i) * stride; };
  if constexpr (kColAdst) {  // rows (0, 7), (1, 6), (2, 5), (3, 4)
    AddRowsY(at(0), at(7), at(1), at(6), x[0], x[1]);
    AddRowsY(at(2), at(5), at(3), at(4), x[2], x[3]);
  } else {  // rows (0, 1), (3, 2), (4, 5), (7, 6)
    AddRowsY(at(0), at(1), at(3), at(2), x[0], x[1]);
    AddRowsY(at(4), at(5), at(7), at(6), x[2], x[3]);
  }
  return true;
}

// Words of one 128-bit lane (repeated in the other) as a 256-bit constant.
#define V3D_W8(a, b, c, d, e, f, g, h) a, b, c, d, e, f, g, h, a, b, c, d, e, f, g, h

// The odd half of the 8-point DCT with only in1 non-zero, for eight transforms at once: from
// s = (s7, s4, s7, s4, s4, s7, s4, s7) per 128-bit lane (each lane its own transform),
// x = (s7, u6, u5, s4, -s4, -u5, -u6, -s7), the values added to e for outputs 0..7.
HWY_INLINE __m256i OddHalf1Lanes(__m256i s) {
  alignas(32) static const int8_t kSwap[32] = {
      2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
      2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13};
  alignas(32) static const int16_t kSign[16] = {V3D_W8(1, 1, 1, 1, -1, -1, -1, -1)};
  const __m256i h = SplatY16<2 * kC[16]>();
  const __m256i r = _mm256_shuffle_epi8(s, LoadY(kSwap));  // the words of each pair swapped
  // Words 1, 6: s4 + s7; words 2, 5: s7 - s4.
  const __m256i t = _mm256_blend_epi16(_mm256_add_epi16(s, r), _mm256_sub_epi16(s, r), 0x24);
  const __m256i x = _mm256_blend_epi16(s, _mm256_mulhrs_epi16(t, h), 0x66);
  return _mm256_sign_epi16(x, LoadY(kSign));
}

// The 8x8 DCT_DCT block whose non-zero coefficients lie in the top-left 2x2 square, within its
// corner bound (Corner8x8 returned 2). Row pass: rows 0 and 1 in the two 128-bit lanes, lane
// = output; column pass: the eight columns' two inputs, each register a pair of output rows
// in the layout above.
HWY_INLINE void AddCorner8x8Y2(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  alignas(32) static const int8_t kBcast[2][32] = {
      {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1,
       0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
      {2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
       2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3}};
  alignas(32) static const int16_t kRowOdd[16] = {
      V3D_W8(2 * kC[4], 2 * kC[28], 2 * kC[4], 2 * kC[28], 2 * kC[28], 2 * kC[4], 2 * kC[28],
             2 * kC[4])};
  alignas(32) static const int16_t kColOdd[16] = {
      V3D_W8(2 * kC[4], 2 * kC[4], 2 * kC[4], 2 * kC[4], 2 * kC[28], 2 * kC[28], 2 * kC[28],
             2 * kC[28])};
  const __m256i h = SplatY16<2 * kC[16]>();
  // Rows 0 and 1 (coefficients 0..15): lane = output of that row's transform.
  const __m256i rows = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(c));
  const __m256i e = _mm256_shuffle_epi8(_mm256_mulhrs_epi16(rows, h), LoadY(kBcast[0]));
  const __m256i s = _mm256_mulhrs_epi16(_mm256_shuffle_epi8(rows, LoadY(kBcast[1])), LoadY(kRowOdd));
  const __m256i o = _mm256_add_epi16(e, OddHalf1Lanes(s));  // intermediate (row 0 | row 1)
  // Columns in the layout above (lane 0: columns 0..3 twice, lane 1: columns 4..7
  // twice): in0 = intermediate row 0, in1 = row 1; then each register holds two output rows.
  const __m256i ec = _mm256_mulhrs_epi16(_mm256_permute4x64_epi64(o, 0x50), h);
  const __m256i sc = _mm256_mulhrs_epi16(_mm256_permute4x64_epi64(o, 0xFA), LoadY(kColOdd));
  const __m256i sw = _mm256_shuffle_epi32(sc, 0x4E);  // (s4, s7); sc = (s7, s4)
  const __m256i u = _mm256_mulhrs_epi16(  // (u6, u5)
      _mm256_unpacklo_epi64(_mm256_add_epi16(sc, sw), _mm256_sub_epi16(sc, sw)), h);
  // Round2(x, 5) as one rounding multiply by 2^10.
  const __m256i rnd = SplatY32<0x04000400>();
  auto out = [rnd](__m256i x) { return _mm256_mulhrs_epi16(x, rnd); };
  // Rows 0..3 and 4..7 each from one base and the index forms stride * {0, 1, 2, 3}.
  uint8_t *const d4 = dst + 4 * stride;
  const ptrdiff_t s3 = 3 * stride;
  AddRowsY(dst, dst + s3, d4 + s3, d4, out(_mm256_add_epi16(ec, sc)),
           out(_mm256_sub_epi16(ec, sc)));
  AddRowsY(dst + stride, dst + 2 * stride, d4 + 2 * stride, d4 + stride,
           out(_mm256_add_epi16(ec, u)), out(_mm256_sub_epi16(ec, u)));
}

// The 8-point DCT with inputs 4..7 zero on two rows at once, each in the natural order: from
// r = (row a | row b) (coefficients 0..3 of each row read, 4..7 ignored), the outputs of each
// row in its own 128-bit lane, output j in word j. Each input is broadcast over its lane and
// multiplied by the per-output doubled constant: with one zero input in every first-stage
// product that is the reference's rounding, as in AddCorner8x8Y2. Per output j the even half
// is H(in0) +- s (s = s3 = R(in2 * cos64(8)) for j = 0, 3, 4, 7, s2 = R(in2 * cos64(24)) for
// the others); the odd half takes p = s7 or s4 from in1 and q = s6 or s5 from in3, whose sum
// is t7 (j = 0, 7) or t4 (j = 3, 4) and whose difference is t6 (j = 1, 6) or t5 (j = 2, 5), from
// which the neighbouring word gives u6 = H(t5 + t6) and u5 = H(t6 - t5).
HWY_INLINE __m256i Idct8RowsY4(__m256i r) {
#define V3D_B2(k) 2 * k, 2 * k + 1
#define V3D_BC(k) V3D_B2(k), V3D_B2(k), V3D_B2(k), V3D_B2(k), V3D_B2(k), V3D_B2(k), V3D_B2(k), \
                  V3D_B2(k)
  alignas(32) static const int8_t kBcast[4][32] = {{V3D_BC(0), V3D_BC(0)},
                                                   {V3D_BC(1), V3D_BC(1)},
                                                   {V3D_BC(2), V3D_BC(2)},
                                                   {V3D_BC(3), V3D_BC(3)}};
#undef V3D_BC
#undef V3D_B2
  // Words 1 and 2, 5 and 6 exchanged.
  alignas(32) static const int8_t kSwap12[32] = {
      0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15,
      0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
  alignas(32) static const int16_t kK[3][16] = {
      {V3D_W8(2 * kC[8], 2 * kC[24], 2 * kC[24], 2 * kC[8], 2 * kC[8], 2 * kC[24], 2 * kC[24],
              2 * kC[8])},  // s3 / s2 from in2
      {V3D_W8(2 * kC[4], 2 * kC[4], 2 * kC[28], 2 * kC[28], 2 * kC[28], 2 * kC[28], 2 * kC[4],
              2 * kC[4])},  // s7 / s4 from in1
      {V3D_W8(2 * kC[12], 2 * kC[12], -2 * kC[20], -2 * kC[20], -2 * kC[20], -2 * kC[20],
              2 * kC[12], 2 * kC[12])}};  // s6 / s5 from in3
  alignas(32) static const int16_t kSign[2][16] = {{V3D_W8(1, 1, -1, -1, -1, -1, 1, 1)},
                                                   {V3D_W8(1, 1, 1, 1, -1, -1, -1, -1)}};
  auto in = [r](int i) { return _mm256_shuffle_epi8(r, LoadY(kBcast[i])); };
  const __m256i h = SplatY16<2 * kC[16]>();
  const __m256i e = _mm256_mulhrs_epi16(in(0), h);
  const __m256i ev = _mm256_add_epi16(
      e, _mm256_sign_epi16(_mm256_mulhrs_epi16(in(2), LoadY(kK[0])), LoadY(kSign[0])));  // e0..e3
  const __m256i p = _mm256_mulhrs_epi16(in(1), LoadY(kK[1]));
  const __m256i q = _mm256_mulhrs_epi16(in(3), LoadY(kK[2]));
  const __m256i s = _mm256_add_epi16(p, q), d = _mm256_sub_epi16(p, q);
  const __m256i dsw = _mm256_shuffle_epi8(d, LoadY(kSwap12));
  // Words 1, 6: t6 + t5; words 2, 5: t6 - t5.
  const __m256i y = _mm256_blend_epi16(_mm256_add_epi16(d, dsw), _mm256_sub_epi16(dsw, d), 0x24);
  const __m256i odd = _mm256_blend_epi16(s, _mm256_mulhrs_epi16(y, h), 0x66);
  return _mm256_add_epi16(ev, _mm256_sign_epi16(odd, LoadY(kSign[1])));
}

// The 8x8 DCT_DCT block whose non-zero coefficients lie in the top-left 4x4 square, within its
// corner bound (Corner8x8 returned 4), with no transpose: the row pass on rows (0 | 1) and
// (2 | 3) by Idct8RowsY4; the column pass on the intermediate rows as they lie, each input row
// repeated in both lanes and each register a pair of output rows: (out0 | out3) and
// (out7 | out4) = (e0 | e3) +- (t7 | t4), (out1 | out2) and (out6 | out5) = (e1 | e2) +-
// (u6 | u5), with the same values and rounding points as the reference's idct8.
HWY_INLINE void AddCorner8x8Y(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
#define V3D_L2(a, b) a, a, a, a, a, a, a, a, b, b, b, b, b, b, b, b
  alignas(32) static const int16_t kK[2][16] = {
      {V3D_L2(2 * kC[4], 2 * kC[28])},     // (s7 | s4) from in1
      {V3D_L2(2 * kC[12], -2 * kC[20])}};  // (s6 | s5) from in3
  alignas(32) static const int16_t kSign[16] = {V3D_L2(1, -1)};
#undef V3D_L2
  auto load = [c](int i) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(c + i)); };
  const __m256i r01 = Idct8RowsY4(load(0)), r23 = Idct8RowsY4(load(16));
  const __m256i h = SplatY16<2 * kC[16]>();
  const __m256i sg = LoadY(kSign);
  const __m256i e = _mm256_mulhrs_epi16(_mm256_permute4x64_epi64(r01, 0x44), h);
  const __m256i in2 = _mm256_permute4x64_epi64(r23, 0x44);
  const __m256i s3 = _mm256_mulhrs_epi16(in2, SplatY16<2 * kC[8]>());
  const __m256i s2 = _mm256_mulhrs_epi16(in2, SplatY16<2 * kC[24]>());
  const __m256i e03 = _mm256_add_epi16(e, _mm256_sign_epi16(s3, sg));
  const __m256i e12 = _mm256_add_epi16(e, _mm256_sign_epi16(s2, sg));
  const __m256i b = _mm256_mulhrs_epi16(_mm256_permute4x64_epi64(r01, 0xEE), LoadY(kK[0]));
  const __m256i q = _mm256_mulhrs_epi16(_mm256_permute4x64_epi64(r23, 0xEE), LoadY(kK[1]));
  const __m256i t = _mm256_add_epi16(b, q), d = _mm256_sub_epi16(b, q);  // (t7 | t4), (t6 | t5)
  const __m256i dsw = _mm256_permute2x128_si256(d, d, 0x01);
  const __m256i u = _mm256_mulhrs_epi16(  // (u6 | u5)
      _mm256_blend_epi32(_mm256_add_epi16(d, dsw), _mm256_sub_epi16(dsw, d), 0xF0), h);
  // Round2(x, 5) as one rounding multiply by 2^10.
  const __m256i rnd = SplatY32<0x04000400>();
  auto out = [rnd](__m256i x) { return _mm256_mulhrs_epi16(x, rnd); };
  auto at = [dst, stride](int i) { return dst + static_cast<ptrdiff_t>(i) * stride; };
  AddRowsY<true>(at(0), at(3), at(7), at(4), out(_mm256_add_epi16(e03, t)),
               out(_mm256_sub_epi16(e03, t)));
  AddRowsY<true>(at(1), at(2), at(6), at(5), out(_mm256_add_epi16(e12, u)),
               out(_mm256_sub_epi16(e12, u)));
}
#undef V3D_W8

// 8x8 DCT_DCT blocks with eob <= 32 (the hint only picks this entry): the 2x2 and 4x4 corner
// paths where Corner8x8 allows them, else kOther (ItxAddBlock, which then skips the corner
// check). Not inlined into the table's entry, so that its DC-only path keeps no frame.
template <void (*kOther)(uint8_t *, ptrdiff_t, const int16_t *, int)>
HWY_NOINLINE void AddSparse8x8(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  const int corner = Corner8x8(c);
  if (corner == 2) return AddCorner8x8Y2(dst, stride, c);
  if (corner == 4) return AddCorner8x8Y(dst, stride, c);
  return kOther(dst, stride, c, eob);
}

#else
#define V3D_ITX_HAVE_8X8_YMM 0
// Declared only, for ItxAdd's discarded branch on the other targets.
template <void (*kOther)(uint8_t *, ptrdiff_t, const int16_t *, int)>
void AddSparse8x8(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob);
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_8X8_YMM_H_
