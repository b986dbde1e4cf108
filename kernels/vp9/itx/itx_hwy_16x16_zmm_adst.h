// SPDX-License-Identifier: LGPL-2.1-or-later
// 16x16 VP9 ADST_DCT, DCT_ADST and ADST_ADST inverse transforms with both passes in 16-bit
// lanes of 512-bit registers (AVX-512: the AVX3 targets only), in the packed layout of
// itx_hwy_16x16_zmm.h (8 zmm registers, one 1-D transform per 32-bit lane, two int16 elements
// [a | b] per lane), behind the same per-pass L1 checks (kInt16BoundL1 of
// itx_int16_bound.h), and, for the columns whose row results fail theirs, the same
// saturate-and-detect pass (SatOps). Per-target header: included by itx_hwy.cpp after
// itx_hwy_16x16_zmm.h.
//
// On AVX3_DL the ADST columns are classed by squares instead (AdstColumnsClass): class 1 runs
// AdstHalvesOps, which checks the first stage's halves and tracks only the final multiplies'
// inputs (docs/itx_int16_bounds.md, "ADST16 columns by their first stage's halves").
//
// The 16-point ADST (itx_ref_1d.h, iadst16) is three stages of rotations whose products are
// summed in pairs before their rounding: every rounded value R(p + q) is two pmaddwd (one per
// rotation, on an [a | b] pair as it lies) added in int32, the rounding constant accumulated
// into the first (MaddAcc: one vpdpwssd on AVX3_DL), so each product is formed once and used
// by the sum and by the difference. Two rounded values are put back in one register by
// PackedOpsT::Narrow2 (wrapping, or saturating for SatOps).
//
// Exactness: every value is one the reference forms, by the same operation: the int32 sums of
// at most four products (exact for every int16 input: the constants of each sum are under
// 2^16 in magnitude together), rounded and narrowed; additions and subtractions in int16
// lanes; the final R(x * cos64(16)) and R(x * -cos64(16)) as pmulhrsw by +-2 cos64(16),
// exactly (x * k + 2^13) >> 14. Inside the per-pass bound the proof of itx_int16_bound.h keeps
// every such value inside int16; the column pass on SatOps tracks (T) the inputs of every
// rotation and final multiply and the outputs, the set of Iadst16x16O (itx_hwy_16x16.h) and
// the argument of docs/itx_int16_bounds.md ("ADST16 columns"): every other saturating value
// is one side of a butterfly, and a negated output of an extreme value is +-32767, which
// SatOps::Exact rejects.

#if defined(V3D_VP9_ITX_HWY_16X16_ZMM_ADST_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_16X16_ZMM_ADST_H_
#undef V3D_VP9_ITX_HWY_16X16_ZMM_ADST_H_
#else
#define V3D_VP9_ITX_HWY_16X16_ZMM_ADST_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#if V3D_ITX_HAVE_ZMM16

namespace zmm16 {

// The int32 products a * kLo + b * kHi of every lane [a | b]; with kRound, plus the rounding
// constant 2^13 (one vpdpwssd where MaddAcc is one): the first operand of SumDiff2.
template <int32_t kLo, int32_t kHi, bool kRound = false>
HWY_INLINE Z Madd(Z p) {
  if constexpr (kRound) return MaddAccT<PairOf(kLo, kHi)>(Splat32z<8192>(), p);
  else return _mm512_madd_epi16(p, Splat32z<PairOf(kLo, kHi)>());
}

// The first-stage constants of input pair j, p = [in 2j | in 15 - 2j] (kFlip: [in 15 - 2j |
// in 2j]): s[2j] = in[15-2j] * cA + in[2j] * cB, s[2j+1] = in[15-2j] * cB - in[2j] * cA with
// cA = cos64(1 + 4j), cB = cos64(31 - 4j), as pmaddwd pairs (k0lo, k0hi) and (k1lo, k1hi).
template <int kJ, bool kFlip>
struct AdstK {
  static constexpr int32_t cA = kC[1 + 4 * kJ], cB = kC[31 - 4 * kJ];
  static constexpr int32_t k0lo = kFlip ? cA : cB, k0hi = kFlip ? cB : cA;
  static constexpr int32_t k1lo = kFlip ? cB : -cA, k1hi = kFlip ? -cA : cB;
};
// s[2j], s[2j + 1] of pair j < 4 with the rounding constant added (SumDiff2's first operands).
template <int kJ, bool kFlip>
HWY_INLINE void AdstFirst(Z p, Z *s) {
  using K = AdstK<kJ, kFlip>;
  s[2 * kJ] = Madd<K::k0lo, K::k0hi, true>(p);
  s[2 * kJ + 1] = Madd<K::k1lo, K::k1hi, true>(p);
}

// The ADST column pass's operations for the columns AdstColumnsClass puts in class 1 (their
// inputs' squares sum to at most kInt16BoundL2x16Adst[0]^2, not to kInt16BoundL2x16[1]^2):
// saturating, tracking (X) only the 8 inputs of the final multiplies by +-cos64(16), and
// summing the squares of the first stage's halves x0..x7 (su) and x8..x15 (sv) per column
// (AdstHalves). Exactness (docs/itx_int16_bounds.md, "ADST16 columns by their first stage's
// halves"; proof: test_vp9_itx_bound.cpp, analyse_adst_halves): by the class, every first-stage
// rounded sum lies inside int16, so its wrapping narrowing (Narrow<true>) is exact; where su and sv
// are within kInt16BoundL2x16Adst[1]^2, so is every stage-2 value (u0..u7, the rounded v0..v7).
// Of the stage-3 values, the outputs saturate (a saturated output v gives Round2 = +-512 and the
// reference's Round2(v, 6) is beyond it: the pixel clamps alike), and the others (each tail's
// b0 - b2, b1 - b3 and rounded differences) only feed the tracked sums and differences of
// pairs of them: an extreme one (32767 or -32768) makes one of its pair's sum and difference
// extreme, so if no tracked value is extreme none was, and every value is the reference's.
struct AdstHalvesOps : PackedOpsT<true, false> {
  mutable Z su, sv;
  static HWY_INLINE AdstHalvesOps Start() {
    AdstHalvesOps o;
    o.m = o.su = o.sv = _mm512_setzero_si512();
    return o;
  }
  // True iff both halves of every column's first stage are within kInt16BoundL2x16Adst[1]
  // (vpdpwssds saturates at 2^31 - 1, above the bound).
  HWY_INLINE bool HalvesWithin() const {
#if V3D_ITX_HAVE_VNNI
    constexpr int32_t kT = kInt16BoundL2x16Adst[1] * kInt16BoundL2x16Adst[1];
    return (_mm512_cmpgt_epi32_mask(su, _mm512_set1_epi32(kT)) |
            _mm512_cmpgt_epi32_mask(sv, _mm512_set1_epi32(kT))) == 0;
#else
    return false;
#endif
  }
  HWY_INLINE bool Tracked() const { return _mm512_cmpge_epu16_mask(m, Splat16z<32767>()) == 0; }
};
template <class O>
constexpr bool kIsAdstHalves = std::is_same<O, AdstHalvesOps>::value;

// The first stage's results [x k | x k+1] of one half: summed as squares on AdstHalvesOps.
template <class O>
HWY_INLINE void AdstHalves(const O &o, Z x01, Z x23, Z x45, Z x67, bool second) {
#if V3D_ITX_HAVE_VNNI
  if constexpr (kIsAdstHalves<O>) {
    Z &acc = second ? o.sv : o.su;
    acc = AddSquaresSat(AddSquaresSat(AddSquaresSat(AddSquaresSat(acc, x01), x23), x45), x67);
  }
#endif
  (void)o, (void)x01, (void)x23, (void)x45, (void)x67, (void)second;
}

// Two registers of rounded sums narrowed. kIn: first- or second-stage sums, which wrap on
// AdstHalvesOps (exact there: the class keeps them inside int16); else o.Narrow2.
template <bool kIn, class O>
HWY_INLINE Z Narrow(const O &o, Z a, Z b) {
  if constexpr (kIn && kIsAdstHalves<O>) return o.Wrap2(a, b);
  else return o.Narrow2(a, b);
}
// The rounded sums and differences of two pairs of int32 product sums, a0 and a1 holding the
// rounding constant already (Madd<.., true>): *sum = [R(a0 + b0) | R(a1 + b1)], *diff =
// [R(a0 - b0) | R(a1 - b1)], narrowed by Narrow<kIn>.
template <bool kIn, class O>
HWY_INLINE void SumDiff2(const O &o, Z a0, Z a1, Z b0, Z b1, Z *sum, Z *diff) {
  *sum = Narrow<kIn>(o, _mm512_add_epi32(a0, b0), _mm512_add_epi32(a1, b1));
  *diff = Narrow<kIn>(o, _mm512_sub_epi32(a0, b0), _mm512_sub_epi32(a1, b1));
}
// SumDiff2 with b0 = pmaddwd(q, (k0lo, k0hi)), b1 = pmaddwd(q, (k1lo, k1hi)). With VNNI each
// of the four sums is one vpdpwssd onto a0 or a1, by the constants or their negations (every
// |k| < 2^14), the same int32 values modulo 2^32.
template <int32_t k0lo, int32_t k0hi, int32_t k1lo, int32_t k1hi, bool kIn, class O>
HWY_INLINE void SumDiffQ(const O &o, Z a0, Z a1, Z q, Z *sum, Z *diff) {
#if V3D_ITX_HAVE_VNNI
  *sum = Narrow<kIn>(o, MaddAccT<PairOf(k0lo, k0hi)>(a0, q), MaddAccT<PairOf(k1lo, k1hi)>(a1, q));
  *diff = Narrow<kIn>(o, MaddAccT<PairOf(-k0lo, -k0hi)>(a0, q),
                      MaddAccT<PairOf(-k1lo, -k1hi)>(a1, q));
#else
  SumDiff2<kIn>(o, a0, a1, Madd<k0lo, k0hi>(q), Madd<k1lo, k1hi>(q), sum, diff);
#endif
}
// Stage 1 for pairs j and j + 4 (p4, kFlip4: its AdstK): [x 2j | x 2j+1] = R(s + s') and
// [x 2j+8 | x 2j+9] = R(s - s'), s' the products of pair j + 4.
template <int kJ, bool kFlip4, class O>
HWY_INLINE void AdstStage1(const O &o, const Z *s, Z p4, Z *sum, Z *diff) {
  using K = AdstK<kJ + 4, kFlip4>;
  SumDiffQ<K::k0lo, K::k0hi, K::k1lo, K::k1hi, true>(o, s[2 * kJ], s[2 * kJ + 1], p4, sum, diff);
}

// The reference's adst_tail8 on [b0 | b1], [b2 | b3], [b4 | b5], [b6 | b7]: c[0] = [b0 + b2 |
// b1 + b3], c[1] = [b0 - b2 | b1 - b3], c[2] = [c4 | c5], c[3] = [c6 | c7] with c4 = R(b4 c8 +
// b5 c24 + b7 c8 - b6 c24), c5 = R(b4 c24 - b5 c8 + b6 c8 + b7 c24), c6, c7 the differences.
template <class O>
HWY_INLINE void AdstTail(const O &o, Z b01, Z b23, Z b45, Z b67, Z *c) {
  c[0] = o.T(o.Add(b01, b23));
  c[1] = o.Sub(b01, b23);
  const Z w4 = Madd<kC[8], kC[24], true>(b45), w5 = Madd<kC[24], -kC[8], true>(b45);
  SumDiffQ<-kC[24], kC[8], kC[8], kC[24], false>(o, w4, w5, b67, &c[2], &c[3]);
}

// The 16-point ADST of every lane; p[j]: input pair j as AdstFirst takes it (bit j of kFlips:
// flipped). Outputs in x in DctRest's layout (kOutA / kOutB); with kPairs (rows, PackedOps:
// AdstRowsToColumns' input) as the pairs the last stage forms, negated where the reference
// negates: [0 | 15] [1 | 14] [8 | 7] [9 | 6] [2 | 13] [3 | 12] [10 | 5] [11 | 4].
template <unsigned kFlips, class O, bool kPairs = false>
HWY_INLINE void Adst16(const O &o, const Z *p, Z *x) {
  Z s[8];
  AdstFirst<0, (kFlips & 1) != 0>(p[0], s);
  AdstFirst<1, (kFlips & 2) != 0>(p[1], s);
  AdstFirst<2, (kFlips & 4) != 0>(p[2], s);
  AdstFirst<3, (kFlips & 8) != 0>(p[3], s);
  // Stage 1: x[k] = R(s[k] + s[k + 8]), x[k + 8] = R(s[k] - s[k + 8]), as [x k | x k+1] pairs
  // (s[8..15]: the products of pairs 4..7).
  Z x01, x23, x45, x67, x89, x1011, x1213, x1415;
  AdstStage1<0, (kFlips & 16) != 0>(o, s, p[4], &x01, &x89);
  AdstStage1<1, (kFlips & 32) != 0>(o, s, p[5], &x23, &x1011);
  AdstStage1<2, (kFlips & 64) != 0>(o, s, p[6], &x45, &x1213);
  AdstStage1<3, (kFlips & 128) != 0>(o, s, p[7], &x67, &x1415);
  x89 = o.T(x89);
  x1011 = o.T(x1011);
  x1213 = o.T(x1213);
  x1415 = o.T(x1415);
  AdstHalves(o, x01, x23, x45, x67, false);
  AdstHalves(o, x89, x1011, x1213, x1415, true);
  // Stage 2: butterflies of x0..x7; x8..x15 rotated by (c4, c28) and (c20, c12) and the
  // rotations' products summed in pairs (p8 + p12, q8 + q12, ...: the reference's v[]).
  const Z u01 = o.Add(x01, x45), u45 = o.T(o.Sub(x01, x45));
  const Z u23 = o.Add(x23, x67), u67 = o.T(o.Sub(x23, x67));
  const Z p8 = Madd<kC[4], kC[28], true>(x89), q8 = Madd<kC[28], -kC[4], true>(x89);
  const Z p10 = Madd<kC[20], kC[12], true>(x1011), q10 = Madd<kC[12], -kC[20], true>(x1011);
  Z v01, v23, v45, v67;
  SumDiffQ<-kC[28], kC[4], kC[4], kC[28], true>(o, p8, q8, x1213, &v01, &v45);
  SumDiffQ<-kC[12], kC[20], kC[20], kC[12], true>(o, p10, q10, x1415, &v23, &v67);
  // Stage 3.
  Z cu[4], cv[4];  // [c0 | c1], [c2 | c3], [c4 | c5], [c6 | c7]; cv: c8..c15
  AdstTail(o, u01, u23, u45, u67, cu);
  AdstTail(o, v01, v23, o.T(v45), o.T(v67), cv);
  // Stage 4: the cos64(16) multiplies, then the outputs in DctRest's layout.
  // (X: tracked by SatOps and AdstHalvesOps.)
  const Z r1 = o.template Mul<kC[16], -kC[16]>(o.X(o.DiffSum(cu[1])));  // [out 8 | out 7]
  const Z r2 = o.H(o.X(o.RevDiffSum(cv[1])));                             // [out 9 | out 6]
  const Z r3 = o.H(o.X(o.RevDiffSum(cu[3])));                             // [out 11 | out 4]
  const Z r4 = o.template Mul<kC[16], -kC[16]>(o.X(o.DiffSum(cv[3])));  // [out 10 | out 5]
  const Z zero = _mm512_setzero_si512();
  if constexpr (kPairs) {
    x[0] = o.MaskSub(cu[0], kB16, zero, cu[0]);   // [c0 | -c1]
    x[1] = o.MaskSub(cv[0], ~kB16, zero, cv[0]);  // [-c8 | c9]
    x[2] = r1, x[3] = r2;
    x[4] = o.MaskSub(cv[2], kB16, zero, cv[2]);   // [c12 | -c13]
    x[5] = o.MaskSub(cu[2], ~kB16, zero, cu[2]);  // [-c4 | c5]
    x[6] = r4, x[7] = r3;
    return;
  }
  x[0] = o.MaskSub(cu[0], kB16, zero, _mm512_slli_epi32(cv[0], 16));   // [c0 | -c8]
  x[1] = o.MaskSub(cv[0], ~kB16, zero, _mm512_srli_epi32(cu[0], 16));  // [-c1 | c9]
  x[2] = o.JoinB(r1, r2);
  x[3] = o.JoinA(r1, r2);
  x[4] = o.T(o.MaskSub(cv[2], kB16, zero, _mm512_slli_epi32(cu[2], 16)));   // [c12 | -c4]
  x[5] = o.T(o.MaskSub(cu[2], ~kB16, zero, _mm512_srli_epi32(cv[2], 16)));  // [-c13 | c5]
  x[6] = o.JoinB(r4, r3);
  x[7] = o.JoinA(r4, r3);
}

// The ADST pass on x: input pair j (AdstFirst) = Blend(x[kPair[j][0]], x[kPair[j][1]]).
// Rows: LoadRows' layout, x[m] = [column 2m | column 2m + 1]; columns: RowsToColumns' layout,
// [0|2] [4|6] [1|3] [5|7] [8|10] [12|14] [9|11] [13|15] (pairs 1, 3, 5, 7 flipped), or with
// kPaired, of kAdstColRowOfLane's rows: x[j] is input pair j itself.
constexpr int kAdstRowPair[8][2] = {{0, 7}, {1, 6}, {2, 5}, {3, 4},
                                    {4, 3}, {5, 2}, {6, 1}, {7, 0}};
constexpr int kAdstColPair[8][2] = {{0, 7}, {7, 0}, {1, 6}, {6, 1},
                                    {4, 3}, {3, 4}, {5, 2}, {2, 5}};
constexpr bool AdstColLanesPaired() {
  for (int j = 0; j < 8; j++) {
    if (kAdstColRowOfLane[2 * j] != kPairA[kAdstColPair[j][0]] ||
        kAdstColRowOfLane[2 * j + 1] != kPairB[kAdstColPair[j][1]]) {
      return false;
    }
  }
  return true;
}
static_assert(AdstColLanesPaired(), "kAdstColRowOfLane's pairs are kAdstColPair's blends");
template <bool kColumns, bool kPaired = false, class O>
HWY_INLINE void AdstPass(const O &o, Z *x) {
  static_assert(kColumns || !kPaired, "paired column inputs only");
  Z p[8];
  V3D_UNROLL
  for (int j = 0; j < 8; j++) {
    const int *ab = kColumns ? kAdstColPair[j] : kAdstRowPair[j];
    p[j] = kPaired ? x[j] : o.Blend(x[ab[0]], x[ab[1]]);
  }
  Adst16<kColumns ? 0xAAu : 0u>(o, p, x);
}

// The ADST row pass's input pairs p[j] = [column 2j | column 15 - 2j] (AdstPass<false>'s
// Blend(x[j], x[7 - j]) of LoadRows' layout, lane l = row kRowOfLane[l]) from a column-major
// block (LoadRowsCm's memory layout): one vpermt2w per pair from the two 64-byte loads holding
// columns 2j, 2j + 1 and 14 - 2j, 15 - 2j. Columns from kNzR on are zero. The 8 registers hold
// every column of every lane's row once, as LoadRowsCm's do, so L1Within sums the same rows.
// kAdstCols: the lanes in kAdstColRowOfLane's order (rows of ADST columns, AdstPass).
template <int kNzR, bool kAdstCols = false>
HWY_INLINE void LoadRowsAdstCm(const int16_t *c, Z *p) {
  const Z idx = WordIdx<kAdstCols ? kIdxCmAdstPairsAdstCols : kIdxCmAdstPairs>();
  Z l[8];
  V3D_UNROLL
  for (int m = 0; m < 8; m++) {
    l[m] = 2 * m < kNzR ? _mm512_loadu_si512(c + 32 * m) : _mm512_setzero_si512();
  }
  V3D_UNROLL
  for (int j = 0; j < 8; j++) p[j] = _mm512_permutex2var_epi16(l[j], idx, l[7 - j]);
}

// RowsToColumns of Adst16<.., true>'s pairs a = x[2i], b = x[2i + 1]: the words of its
// x[2i], x[2i + 1] are those of JoinA(a, b), JoinB(a, b) (i = 0, 2) or JoinB(a, b), JoinA(a, b)
// (i = 1, 3), which one vpermt2w per half s[e][i] gathers as its byte shuffles and unpacks
// order them (AdstRtcIdx); then the same 64-bit transpose.
HWY_INLINE void AdstRowsToColumns(Z *x) {
  const Z ab0 = WordIdx<kIdxAdstRtcAB0>(), ab1 = WordIdx<kIdxAdstRtcAB1>();
  const Z ba0 = WordIdx<kIdxAdstRtcBA0>(), ba1 = WordIdx<kIdxAdstRtcBA1>();
  Z s[2][4];
  V3D_UNROLL
  for (int i = 0; i < 4; i++) {
    s[0][i] = _mm512_permutex2var_epi16(x[2 * i], i % 2 ? ba0 : ab0, x[2 * i + 1]);
    s[1][i] = _mm512_permutex2var_epi16(x[2 * i], i % 2 ? ba1 : ab1, x[2 * i + 1]);
  }
  JoinColumns(s, x);
}

#if V3D_ITX_HAVE_VNNI
// The class of the ADST columns of x (RowsToColumns' layout: a 32-bit lane holds two inputs of
// one column) by their inputs' sums of squares S (vpdpwssds, saturating at 2^31 - 1: two such
// sums add up below 2^32, compared unsigned): 0: S <= kInt16BoundL2x16[1]^2 for every column
// (PackedOps: every value inside int16); 1: else S <= kInt16BoundL2x16Adst[0]^2
// (AdstHalvesOps); 2: neither (SatOps).
HWY_INLINE int AdstColumnsClass(const Z *x) {
  constexpr int32_t kT0 = kInt16BoundL2x16[1] * kInt16BoundL2x16[1];
  constexpr int32_t kT1 = kInt16BoundL2x16Adst[0] * kInt16BoundL2x16Adst[0];
  Z a = _mm512_setzero_si512(), b = a;
  V3D_UNROLL
  for (int i = 0; i < 8; i += 4) {
    a = AddSquaresSat(AddSquaresSat(a, x[i]), x[i + 1]);
    b = AddSquaresSat(AddSquaresSat(b, x[i + 2]), x[i + 3]);
  }
  const Z sum = _mm512_add_epi32(a, b);
  if (_mm512_cmpgt_epu32_mask(sum, _mm512_set1_epi32(kT0)) == 0) return 0;
  return _mm512_cmpgt_epu32_mask(sum, _mm512_set1_epi32(kT1)) == 0 ? 1 : 2;
}

// ColumnsAndAdd's contract for ADST columns on AVX3_DL, classed by AdstColumnsClass in place of
// the L1 check. Class 1 runs on AdstHalvesOps: where its first stage's halves are outside
// their bound, the columns take SatOps as class 2 does; where a tracked value is extreme,
// kColumnsFailed at once (every value before it was exact, so SatOps would find the same
// value extreme). kPaired: x holds the rows of kAdstColRowOfLane's lanes (AdstPass).
template <int kNzR, bool kPaired = false>
HWY_INLINE Int16Result AdstColumnsAndAdd(uint8_t *dst, ptrdiff_t stride, Z *x, int16_t *rows) {
  const int cls = AdstColumnsClass(x);
  if (cls == 0) {
    AdstPass<true, kPaired>(PackedOps(), x);
    AddRows(dst, stride, x);
    return Int16Result::kDone;
  }
  Z y[8];
  V3D_UNROLL
  for (int k = 0; k < 8; k++) y[k] = x[k];
  bool exact = false, sat = cls == 2;
  if (!sat) {
    const AdstHalvesOps h = AdstHalvesOps::Start();
    AdstPass<true, kPaired>(h, y);
    sat = !h.HalvesWithin();
    exact = !sat && h.Tracked();
  }
  if (sat) {
    V3D_UNROLL
    for (int k = 0; k < 8; k++) y[k] = x[k];
    const SatOps so = SatOps::Start();
    AdstPass<true, kPaired>(so, y);
    exact = so.Exact();
  }
  if (!exact) {
    StoreRowResults<kNzR, 8, false, kPaired>(x, rows);
    return Int16Result::kColumnsFailed;
  }
  AddRows(dst, stride, y);
  return Int16Result::kDone;
}
#endif

template <bool kAdst, class O>
HWY_INLINE void ColumnPassOf(const O &o, Z *x) {
  if constexpr (kAdst) AdstPass<true>(o, x);
  else DctFullPass<true>(o, x);
}

}  // namespace zmm16

// 16x16 block of row transform kRowAdst and column transform kColAdst (not both DCT), non-zero
// coefficients in the top-left kNzR x kNzR square, in zmm registers; the contract of
// Add16x16DctZmm (itx_hwy_16x16_zmm_dct.h). kCm: coeffs is the block in column-major order
// (ItxDsp::add_exact_eob_cm), loaded into the same registers; rows stays row-major.
template <bool kRowAdst, bool kColAdst, int kNzR, bool kCm = false>
HWY_NOINLINE Int16Result Add16x16AdstZmm(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                         int16_t *rows) {
  using namespace zmm16;
  constexpr int kRowB = kInt16BoundL1[2][kRowAdst ? 1 : 0];
  constexpr int kColB = kInt16BoundL1[2][kColAdst ? 1 : 0];
  static_assert(kRowB > 0 && kColB > 0, "proven bounds");
  const PackedOps o;
  // Column-major ADST columns on AVX3_DL (AdstColumnsAndAdd): the row lanes in
  // kAdstColRowOfLane's order, so that the column pass takes its input pairs as they lie.
  constexpr bool kPaired = kCm && kColAdst && V3D_ITX_HAVE_VNNI;
  Z x[8];
  if constexpr (kCm && kRowAdst) {  // the pass's input pairs loaded as they are wanted
    Z p[8];
    LoadRowsAdstCm<kNzR, kPaired>(coeffs, p);
    if (!L1Within<kRowB, 8>(o, p)) return Int16Result::kRowsFailed;
    Adst16<0u, PackedOps, true>(o, p, x);
    AdstRowsToColumns(x);
  } else {
    if constexpr (kPaired) LoadRowsCm<kNzR, kIdxCmRowsAdstCols>(coeffs, x);
    else if constexpr (kCm) LoadRowsCm<kNzR>(coeffs, x);
    else LoadRows<kNzR>(coeffs, x);
    if (!L1Within<kRowB, 8>(o, x)) return Int16Result::kRowsFailed;
    if constexpr (kRowAdst) AdstPass<false>(o, x);
    else DctFullPass<false>(o, x);
    RowsToColumns(x);
  }
  // x[k] = [row kPairA[k] | row kPairB[k]], lane = column (kPaired: the rows of
  // kAdstColRowOfLane's lanes, AdstPass)
#if V3D_ITX_HAVE_VNNI
  // ADST columns: classed by squares on AVX3_DL.
  if constexpr (kColAdst) return AdstColumnsAndAdd<kNzR, kPaired>(dst, stride, x, rows);
#endif
  // DCT columns: classed by squares (ColumnsAndAdd) on AVX3_DL.
  return ColumnsAndAdd<kColB, kNzR, 8, false, false, kColAdst ? 0 : kInt16BoundL2x16[0]>(
      dst, stride, x, rows, [](const auto &op, Z *v) { ColumnPassOf<kColAdst>(op, v); });
}

// The zmm 16x16 path of the pair (Row, Col): Add16x16DctZmm or Add16x16AdstZmm.
template <class Row, class Col, int kNzR>
HWY_INLINE Int16Result Add16x16Zmm16(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                     int16_t *rows) {
  constexpr bool kRowAdst = std::is_same<Row, TxAdst>::value;
  constexpr bool kColAdst = std::is_same<Col, TxAdst>::value;
  if constexpr (!kRowAdst && !kColAdst) return Add16x16DctZmm<kNzR>(dst, stride, coeffs, rows);
  else return Add16x16AdstZmm<kRowAdst, kColAdst, kNzR>(dst, stride, coeffs, rows);
}

#endif  // V3D_ITX_HAVE_ZMM16

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_16X16_ZMM_ADST_H_
