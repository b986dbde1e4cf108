// SPDX-License-Identifier: LGPL-2.1-or-later
// 16x16 VP9 DCT_DCT inverse transform in the zmm layout of itx_hwy_16x16_zmm.h (AVX-512: the
// AVX3 targets only): Add16x16DctZmm, the 8x8 corner (half form, with its gather between the
// passes) and the full block, behind the per-pass checks and with the saturate-and-detect
// columns described there; and the full blocks' column dispatch (ColumnsAndAdd, with the AVX3_DL
// class of DCT columns by squares, DctColumnsClass), which the ADST types share. Per-target
// header: included by itx_hwy.cpp after itx_hwy_16x16_zmm.h, before itx_hwy_16x16_zmm_adst.h
// (whose Add16x16Zmm16 calls Add16x16DctZmm, and Add16x16AdstZmm ColumnsAndAdd).

#if defined(V3D_VP9_ITX_HWY_16X16_ZMM_DCT_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_16X16_ZMM_DCT_H_
#undef V3D_VP9_ITX_HWY_16X16_ZMM_DCT_H_
#else
#define V3D_VP9_ITX_HWY_16X16_ZMM_DCT_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#if V3D_ITX_HAVE_ZMM16

namespace zmm16 {

// RowsToColumns for the row results of the 8x8 corner (LoadRows<8>), in two steps. Only lanes
// 0..7 (rows 0, 2, 4, 6 in block 0, rows 1, 3, 5, 7 in block 1) hold non-zero rows, so the
// low halves of x[0..7] are gathered: dword unpacks within blocks give, per block, two rows
// times the columns of two registers (kOutA/kOutB of 2q, 2q + 1: four columns of kColOfLane);
// two block shuffles gather the four column groups of a row pair. GatherHalf leaves m[k] with
// rows kPairA[k], kPairB[k] as [4 columns of the first | the same of the second] per block
// (columns kColOfLane[4b..4b + 3] in block b); PairHalf interleaves them into RowsToColumns'
// [row | row'] pairs. x[4..7] are left undefined.
HWY_INLINE void GatherHalf(const Z *x, Z *m) {
  Z lo[4], hi[4];  // lo: rows 0, 2 (block 0), 1, 3 (block 1); hi: rows 4, 6 and 5, 7
  V3D_UNROLL
  for (int q = 0; q < 4; q++) {
    lo[q] = _mm512_unpacklo_epi32(x[2 * q], x[2 * q + 1]);
    hi[q] = _mm512_unpackhi_epi32(x[2 * q], x[2 * q + 1]);
  }
  const auto gather = [&](const Z *u, Z *first, Z *second) {
    const Z t01 = _mm512_inserti64x4(u[0], _mm512_castsi512_si256(u[1]), 1);
    const Z t23 = _mm512_inserti64x4(u[2], _mm512_castsi512_si256(u[3]), 1);
    *first = _mm512_shuffle_i64x2(t01, t23, _MM_SHUFFLE(2, 0, 2, 0));
    *second = _mm512_shuffle_i64x2(t01, t23, _MM_SHUFFLE(3, 1, 3, 1));
  };
  gather(lo, &m[0], &m[2]);  // rows 0 and 2, 1 and 3
  gather(hi, &m[1], &m[3]);  // rows 4 and 6, 5 and 7
}
HWY_INLINE void PairHalf(const Z *m, Z *x) {
  const Z pair = _mm512_broadcast_i32x4(
      _mm_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15));
  V3D_UNROLL
  for (int k = 0; k < 4; k++) x[k] = _mm512_shuffle_epi8(m[k], pair);
}

#if HWY_TARGET == HWY_AVX3_DL
// The half form's row pass inputs from a column-major block (memory row k = column k), already
// duplicated: d[k] lane l = [c(kRowOfLane[l], k) | the same], what DupA / DupB make of
// LoadRowsCm<8>'s registers, one vpermb (VBMI) of column k's words each; its 64-byte load also
// reads column k + 1 (k < 8: inside the block). Lanes 8..15 hold rows 8..15, zero in the square.
HWY_INLINE void LoadDupCm(const int16_t *c, Z *d) {
  alignas(64) static constexpr int8_t kIdx[64] = {
      0,  1,  0,  1,  4,  5,  4,  5,  8,  9,  8,  9,  12, 13, 12, 13, 2,  3,  2,  3,  6,  7,
      6,  7,  10, 11, 10, 11, 14, 15, 14, 15, 16, 17, 16, 17, 20, 21, 20, 21, 24, 25, 24, 25,
      28, 29, 28, 29, 18, 19, 18, 19, 22, 23, 22, 23, 26, 27, 26, 27, 30, 31, 30, 31};
  static_assert(kRowOfLane[1] == 2 && kRowOfLane[4] == 1 && kRowOfLane[12] == 9, "kIdx's rows");
  const Z idx = _mm512_load_si512(kIdx);
  V3D_UNROLL
  for (int k = 0; k < 8; k++) d[k] = _mm512_permutexvar_epi8(idx, _mm512_loadu_si512(c + 16 * k));
}

// The row check on LoadDupCm's d, L1Within's on LoadRowsCm's registers: per lane (a row; its
// two words alike), the saturating sum of |d[0..7]| is the row's sum of |coefficients|; true
// iff every row's is at most kB.
template <int kB>
HWY_INLINE bool RowsWithinDup(const Z *d) {
  Z acc = _mm512_abs_epi16(d[0]);
  V3D_UNROLL
  for (int k = 1; k < 8; k++) acc = _mm512_adds_epu16(acc, _mm512_abs_epi16(d[k]));
  return _mm512_cmpgt_epu16_mask(acc, Splat16z<static_cast<int16_t>(kB)>()) == 0;
}

// The half form's row pass on a column-major block (AVX3_DL): its results in x as DctRest's,
// true, where every row's |coefficients| sum to within kB; else false (x then unspecified). The
// check follows the pass (whose results count only where it holds), so that its instructions
// come after the pass's first products instead of delaying them.
template <int kB>
HWY_INLINE bool RowPassDupCm(const PackedOps &o, const int16_t *c, Z *x) {
  Z d[8];
  LoadDupCm(c, d);
  DctRest(o, DctProductsHalf(o, d), x);
  return RowsWithinDup<kB>(d);
}
constexpr bool kHaveRowPassDupCm = true;
#else
// Declared on every target so that Add16x16DctZmm can name it in the branch it discards there.
constexpr bool kHaveRowPassDupCm = false;
template <int kB>
bool RowPassDupCm(const PackedOps &o, const int16_t *c, Z *x);
#endif

// The column check on GatherHalf's m: every column's |row results| (8 rows) sum to within kB.
// Per word, the sum over m[0..3] covers four rows of one column; the other four are the
// same word of the block's other 64-bit half.
template <int kB>
HWY_INLINE bool ColumnsWithinHalf(const Z *m) {
  Z acc = _mm512_abs_epi16(m[0]);
  V3D_UNROLL
  for (int k = 1; k < 4; k++) acc = _mm512_adds_epu16(acc, _mm512_abs_epi16(m[k]));
  acc = _mm512_adds_epu16(acc, _mm512_shuffle_epi32(acc, _MM_PERM_BADC));
  return _mm512_cmpgt_epu16_mask(acc, Splat16z<static_cast<int16_t>(kB)>()) == 0;
}

// The column pass of the 8x8 corner from GatherHalf's m on PackedOps (the caller checked
// ColumnsWithinHalf), its inputs duplicated by word unpacks: unpacklo of m[k] with itself
// holds row kPairA[k], unpackhi row kPairB[k], in every lane. Results as ColumnPass's.
HWY_INLINE void ColumnPassHalfM(const Z *m, Z *x) {
  const auto lo = [](Z v) { return _mm512_unpacklo_epi16(v, v); };
  const auto hi = [](Z v) { return _mm512_unpackhi_epi16(v, v); };
  const Z d[8] = {lo(m[0]), lo(m[2]), hi(m[0]), hi(m[2]), lo(m[1]), lo(m[3]), hi(m[1]), hi(m[3])};
  DctRest(PackedOps(), DctProductsHalf(PackedOps(), d), x);
}

// The class of the DCT columns of x (x[0], x[1], x[4], x[5]: even rows, the others odd, in
// RowsToColumns' and LoadRowsDct's layouts) by their even and odd rows' sums of squares S_e, S_o
// (a lane: one column; vpdpwssds saturating at 2^31 - 1, which fails every bound): 0: S_e + S_o
// <= kInt16BoundL2x16[0]^2 for every column (PackedOps); 1: else S_e <= B_e^2 and S_o <= B_o^2
// (kInt16BoundL2x16Halves: HalvesOps); 2: neither (SatOps).
HWY_INLINE int DctColumnsClass(const Z *x) {
#if V3D_ITX_HAVE_VNNI
  constexpr int32_t kT = kInt16BoundL2x16[0] * kInt16BoundL2x16[0];
  constexpr int32_t kTe = kInt16BoundL2x16Halves[0] * kInt16BoundL2x16Halves[0];
  constexpr int32_t kTo = kInt16BoundL2x16Halves[1] * kInt16BoundL2x16Halves[1];
  Z e = _mm512_setzero_si512(), o = e;
  V3D_UNROLL
  for (int i = 0; i < 8; i += 4) {
    e = AddSquaresSat(AddSquaresSat(e, x[i]), x[i + 1]);  // itx_hwy_madd.h
    o = AddSquaresSat(AddSquaresSat(o, x[i + 2]), x[i + 3]);
  }
  // S_e + S_o < 2^32: unsigned.
  if (_mm512_cmpgt_epu32_mask(_mm512_add_epi32(e, o), _mm512_set1_epi32(kT)) == 0) return 0;
  return (_mm512_cmpgt_epi32_mask(e, _mm512_set1_epi32(kTe)) |
          _mm512_cmpgt_epi32_mask(o, _mm512_set1_epi32(kTo))) == 0 ? 1 : 2;
#else
  (void)x;
  return 2;
#endif
}

// The column pass on the row results x (RowsToColumns' layout), pass(ops, x) on PackedOps
// where every column's |row results| sum to within kColB, else on SatOps; then AddRows and
// kDone, or, where SatOps detects a saturation, kColumnsFailed, nothing written and the row
// results stored to rows (StoreRowResults). kFailed: the caller found a column outside kColB
// already (SatOps at once). kColL2 (AVX3_DL, DCT columns, kRegs = 8; 0: none): the DCT's
// kInt16BoundL2x16[0]: the columns are classed by squares (DctColumnsClass) in place of kColB,
// class 1 running pass on HalvesOps, which, like SatOps, may detect a saturation.
template <int kColB, int kNzR, int kRegs, bool kDct = false, bool kFailed = false,
          int kColL2 = 0, class Pass>
HWY_INLINE Int16Result ColumnsAndAdd(uint8_t *dst, ptrdiff_t stride, Z *x, int16_t *rows,
                                     const Pass &pass) {
  static_assert(kColL2 == 0 || (kColL2 == kInt16BoundL2x16[0] && kRegs == 8), "DCT columns");
  // Where there is a check by squares, it alone: the columns outside it are almost never
  // inside kColB (docs/itx_int16_bounds.md), and the other passes are exact for them as well.
  constexpr bool kSquaresOnly = kColL2 > 0 && V3D_ITX_HAVE_VNNI;
  if constexpr (kSquaresOnly) {
    // pass on ops (SatOps or HalvesOps) on a copy: false where it detects a saturation.
    const auto tracked = [&](const auto &ops) {
      Z y[8];
      V3D_UNROLL
      for (int k = 0; k < 8; k++) y[k] = x[k];
      pass(ops, y);
      if (!ops.Exact()) return false;
      V3D_UNROLL
      for (int k = 0; k < 8; k++) x[k] = y[k];
      return true;
    };
    const int cls = kFailed ? 2 : DctColumnsClass(x);
    bool exact = true;
    if (cls == 0) pass(PackedOps(), x);
    else exact = cls == 1 ? tracked(HalvesOps::Start()) : tracked(SatOps::Start());
    if (!exact) {
      StoreRowResults<kNzR, kRegs, kDct>(x, rows);
      return Int16Result::kColumnsFailed;
    }
  } else if (!kFailed && L1Within<kColB, kRegs>(PackedOps(), x)) {
    pass(PackedOps(), x);
  } else {
    Z y[8];
    V3D_UNROLL
    for (int k = 0; k < 8; k++) y[k] = x[k];
    const SatOps so = SatOps::Start();
    pass(so, y);
    if (!so.Exact()) {
      StoreRowResults<kNzR, kRegs, kDct>(x, rows);
      return Int16Result::kColumnsFailed;
    }
    V3D_UNROLL
    for (int k = 0; k < 8; k++) x[k] = y[k];
  }
  AddRows(dst, stride, x);
  return Int16Result::kDone;
}

}  // namespace zmm16

// 16x16 DCT_DCT block whose non-zero coefficients lie in the top-left kNzR x kNzR square
// (kNzR = 8 or 16), in zmm registers (see the head of itx_hwy_16x16_zmm.h); the same contract as
// Add16x16Int16 (itx_hwy_16x16.h): kRowsFailed, nothing written; kDone; kColumnsFailed, nothing
// written, rows holds the row results (row-major, rows from kNzR on not written). Columns whose
// row results fail the column L1 check run on SatOps and count as failed only where it
// detects a saturation. kCm: coeffs column-major (ItxDsp::add_exact_eob_cm), loaded into the
// same registers by LoadRowsCm / LoadRowsDctCm (AVX3_DL, kNzR 8: the row pass's inputs by
// LoadDupCm); rows stays row-major.
template <int kNzR, bool kCm = false>
HWY_NOINLINE Int16Result Add16x16DctZmm(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                        int16_t *rows) {
  using namespace zmm16;
  constexpr int kRowB = kInt16BoundL1[2][0], kColB = kInt16BoundL1[2][0];  // DCT rows, columns
  static_assert(kRowB > 0 && kColB > 0, "proven bounds");
  const PackedOps o;
  Z x[8];
  constexpr bool kHalf = kNzR <= 8;
  constexpr int kRegs = kHalf ? 4 : 8;
  // kDupCm: the row pass's inputs loaded duplicated and its check after it (RowPassDupCm).
  constexpr bool kDupCm = kHalf && kCm && kHaveRowPassDupCm;
  if constexpr (kDupCm) {
    if (!RowPassDupCm<kRowB>(o, coeffs, x)) return Int16Result::kRowsFailed;
  } else {
    // Half: x[m] = [column 2m | column 2m + 1], lane = row (kRowOfLane); else LoadRowsDct's.
    if constexpr (kHalf && kCm) LoadRowsCm<kNzR>(coeffs, x);
    else if constexpr (kHalf) LoadRows<kNzR>(coeffs, x);
    else if constexpr (kCm) LoadRowsDctCm(coeffs, x);
    else LoadRowsDct(coeffs, x);
    // Up to 8 non-zero rows: every non-zero coefficient lies in the top-left 8x8 square (the
    // caller's region), so columns 8..15 (x[4..7]) and, later, row results 8..15 are zero.
    if (!L1Within<kRowB, kRegs>(o, x)) return Int16Result::kRowsFailed;
    if constexpr (kHalf) {
      const Z d[8] = {DupA(x[0]), DupB(x[0]), DupA(x[1]), DupB(x[1]),
                      DupA(x[2]), DupB(x[2]), DupA(x[3]), DupB(x[3])};
      DctRest(o, DctProductsHalf(o, d), x);
    } else {
      DctRest(o, DctProducts<false>(o, DctIn{x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]}),
              x);
    }
  }
  if constexpr (kHalf) {
    Z m[4];
    GatherHalf(x, m);
    if (ColumnsWithinHalf<kColB>(m)) {
      ColumnPassHalfM(m, x);
      AddRows(dst, stride, x);
      return Int16Result::kDone;
    }
    PairHalf(m, x);  // x[k] = [row kPairA[k] | row kPairB[k]], lane = column
  } else {
    RowsToColumns(x);  // x[k] = [row of lane 2k | row of lane 2k + 1], lane = column
  }
  // Half: the column check failed above (the saturating columns at once).
  return ColumnsAndAdd<kColB, kNzR, kRegs, !kHalf, kHalf, kHalf ? 0 : kInt16BoundL2x16[0]>(
      dst, stride, x, rows, [](const auto &op, Z *v) { ColumnPass<kHalf>(op, v); });
}

#endif  // V3D_ITX_HAVE_ZMM16

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_16X16_ZMM_DCT_H_
