// SPDX-License-Identifier: LGPL-2.1-or-later
// Coefficient bounds of the 16-bit arithmetic path of the VP9 inverse transforms.
//
// kInt16Bound[tx_size][tx_type] = B: for every block whose coefficients all satisfy |c| <= B,
// the scalar reference (itx_ref_1d.h, rows then columns) keeps
//  * every value it produces by an addition, subtraction, negation or rnd14 (and the inputs)
//    inside int16, and
//  * every unrounded product sum (the argument of an rnd14) inside int32,
// so no wrap happens and an implementation holding those values in int16 lanes, forming the
// product sums in int32 and rounding them back (e.g. x86 pmaddwd + packssdw, NEON vmull/vmlal +
// vrshrn), and applying the final Round2(x, s) without overflow (pmulhrsw / vqrdmulh by
// 2^(15-s)), computes the reference's result exactly. Blocks with any |c| > B take the 32-bit
// path (8x8: after trying the per-pass bounds, kInt16BoundL1). 0: no 16-bit path for that pair.
//
// The tables, by the smallest block size that checks them (the kernel path in brackets):
//  * kInt16Bound: 4x4 and 8x8, every coefficient (ItxAddBlock, itx_hwy.cpp; 8x8: the first check).
//  * kInt16CornerBound8x8: 8x8 DCT_DCT 2x2 / 4x4 corners (Corner8x8 and AddCorner8x8,
//    itx_hwy_16.h; AVX2 and up: AddCorner8x8Y2 / AddCorner8x8Y, itx_hwy_8x8_ymm.h).
//  * kInt16BoundL2x8: 8x8 per pass, by sums of squares (AVX3_DL: Add8x8Y, itx_hwy_8x8_ymm.h;
//    every type: Add8x8Zmm, itx_hwy_8x8_zmm.h).
//  * kInt16BoundL2x16[0], kInt16BoundL2x16Halves: 16x16 DCT columns of the full block, by sums
//    of squares (AVX3_DL: DctColumnsClass, itx_hwy_16x16_zmm_dct.h). kInt16BoundL2x16[1]: the
//    ADST columns' class 0 (AdstColumnsClass).
//  * kInt16BoundL2x16Adst: 16x16 ADST columns of the full block, by sums of squares (AVX3_DL:
//    AdstColumnsClass and AdstHalvesOps, itx_hwy_16x16_zmm_adst.h).
//  * kInt16BoundL2x32, kInt16BoundL2x32Halves: AVX3_DL 32x32 DCT_DCT rows (pairs of rows) and
//    columns by sums of squares (itx_hwy_32.h: RowPairsWithinL2, ColsClass32).
//  * kInt16BoundL1: 8x8, 16x16 and 32x32, per pass (itx_hwy_8x8.h, itx_hwy_16x16.h, itx_hwy_32.h;
//    NEON 16x16 ADST types: itx_neon_adst16.h).
//  * kInt16CornerBound16x16: 16x16 DCT_DCT 4x4 and 2x2 corners (TryCorner16x16, itx_hwy_16x16.h).
//  * kInt16ColumnBound: 16x16 DCT columns after 32-bit rows (ColPass16, itx_hwy.cpp).
//  * kInt16Bound1dDct32: 32x32 DCT columns after 32-bit rows (ColPass16, itx_hwy.cpp).
//  * kInt16BoundWht: 4x4 WHT_WHT, every coefficient (neon4::AddWht, itx_neon_4x4.h; x86 from
//    SSE4 on: AddWht4x4x86, itx_hwy_wht.h).
//
// Proof: tests/test_vp9_itx_bound.cpp runs the reference's own 1-D code on an affine-arithmetic
// type (each value = a linear form in the n*n coefficients plus an interval for the rounding
// errors; rnd14(x) = x/2^14 + e with e in [-8191/2^14, 1/2]), which bounds every value above
// for all inputs with |c| <= B at once, and fails unless each B here is within that bound.
// docs/itx_int16_bounds.md has the derivation and the computed maxima.
#pragma once

namespace v3d {
namespace vp9 {

// [tx_size][tx_type], tx_type in DCT_DCT, ADST_DCT, DCT_ADST, ADST_ADST.
constexpr int kInt16Bound[4][4] = {
    {4400, 4000, 4500, 4080},  // 4x4
    {1170, 850, 1210, 880},    // 8x8 (first check; then the per-pass bounds, kInt16BoundL1)
    {0, 0, 0, 0},              // 16x16: per-pass bounds only (kInt16BoundL1)
    {0, 0, 0, 0},              // 32x32: per-pass bounds only (kInt16BoundL1)
};

// The 8x8 DCT_DCT blocks whose non-zero coefficients all lie in the top-left 2x2 ([0]) or 4x4
// ([1]) square: the bound of kInt16Bound proven over those blocks only (the other coefficients
// are the constant zero in the proof), for the corner path. Larger than kInt16Bound[1][0], as
// fewer coefficients add into each value.
constexpr int kInt16CornerBound8x8[2] = {11400, 2750};

// [tx_size][0 = DCT, 1 = ADST]: the per-pass L1 bound B1. For every input vector whose
// absolute values sum to at most B1, the reference's n-point 1-D transform keeps every value it
// forms by an addition, subtraction, negation or rnd14 (its outputs included) inside int16 and
// every product sum inside int32 (proven as above with the n inputs as the variables: a value
// sum_i a_i x_i + e is at most max_i |a_i| * sum_i |x_i| + |e|). So a pass, rows or columns,
// runs in 16-bit lanes once the inputs of each of its 1-D transforms are checked against the
// bound of that transform: the coefficients of each row for the row pass, the row results of
// each column for the column pass; the final Round2 of an int16 value is exact as a rounding
// multiply. Unlike a bound on the largest |input|, the sum admits the few large values of the
// transformed real residuals. 0: no per-pass path.
constexpr int kInt16BoundL1[4][2] = {
    {0, 0},          // 4-point
    {23620, 23270},  // 8-point
    {23270, 23180},  // 16-point (the same with the inputs from 4 or 8 on zero: 16x16 corners)
    {23180, 0},      // 32-point DCT (the same with the inputs from 8 or 16 on zero: 32x32
                     // squares); no 32-point ADST
};

// [0 = DCT, 1 = ADST]: the 8-point per-pass L2 bound B2. For every input vector whose squares
// sum to at most B2^2, the reference's 8-point 1-D transform keeps every value it forms inside
// int16 and every product sum inside int32, as for kInt16BoundL1 (a value sum_i a_i x_i + e is
// at most |a|_2 * |x|_2 + |e|, Cauchy-Schwarz). The AVX3_DL 8x8 path (itx_hwy_8x8_ymm.h) checks
// it first, by sums of squares that vpdpwssds forms, and the L1 bound where it fails.
constexpr int kInt16BoundL2x8[2] = {16380, 11580};
// The same L2 bound B2 for the 16-point DCT and ADST ([0 = DCT, 1 = ADST]) and the 32-point DCT.
// The 16-point DCT's checks 16x16 columns (AVX3_DL); the 32-point DCT's 32x32 rows, two rows at
// once, and 32x32 columns before kInt16BoundL2x32Halves (AVX3_DL, itx_hwy_32.h); the ADST's
// 16x16 ADST columns, before kInt16BoundL2x16Adst (AVX3_DL, itx_hwy_16x16_zmm_adst.h).
constexpr int kInt16BoundL2x16[2] = {11580, 8180};
constexpr int kInt16BoundL2x32 = 8180;
// The 32-point DCT by halves ([0]: its even inputs, [1]: its odd inputs): for every input
// vector whose even inputs' squares sum to at most B_e^2 and whose odd inputs' squares sum to at
// most B_o^2, every value the reference's 32-point DCT forms other than its 32 outputs and the 8
// inputs of its odd half's rounding multiplies by cos64(16) stays inside int16 (and every
// product sum inside int32): each such value is a form in one half's inputs only, bounded by
// Cauchy-Schwarz as above. The AVX3_DL 32x32 columns (itx_hwy_32.h, ColsClass32) check it and track the
// exempt values instead (docs/itx_int16_bounds.md).
constexpr int kInt16BoundL2x32Halves[2] = {11580, 11570};
// The same for the 16-point DCT (outputs and the 4 inputs of its odd half's multiplies by
// cos64(16) exempt): the AVX3_DL 16x16 DCT columns outside kInt16BoundL2x16[0] (HalvesOps,
// itx_hwy_16x16_zmm.h), which track the exempt values.
constexpr int kInt16BoundL2x16Halves[2] = {16380, 16380};
// The 16-point ADST by its first stage ([0]: the inputs, [1]: each half of the first stage's
// results): for every input vector whose squares sum to at most B_0^2, the reference's iadst16
// keeps its 16 first-stage rounded sums x0..x15 inside int16; where moreover x0..x7 and
// x8..x15 each have squares summing to at most B_1^2, every value it forms from them other
// than its 16 outputs, the 8 inputs of its multiplies by cos64(16) and the 8 values those
// inputs are sums and differences of stays inside int16 (each is a form in one half of x only,
// bounded by Cauchy-Schwarz). The AVX3_DL 16x16 ADST columns (AdstHalvesOps,
// itx_hwy_16x16_zmm_adst.h) check both and track the 8 inputs of the multiplies.
constexpr int kInt16BoundL2x16Adst[2] = {23160, 23160};

// 16x16 DCT_DCT (NEON, itx_hwy_16x16.h): a block whose |coefficients| sum to at most this passes
// the row check and needs no column check: every column's |row results| then sum to within
// kInt16BoundL1[2][0] (a lemma over the 16-point DCT's output forms, docs/itx_int16_bounds.md).
constexpr int kInt16BoundL1Total16 = 23240;

// The bound of kInt16Bound proven over the 16x16 DCT_DCT blocks non-zero only in the top-left 4x4
// square, for the corner path.
constexpr int kInt16CornerBound16x16 = 2450;

// [tx_size]: the column bound of the 16-bit column pass (16x16 and 32x32, DCT columns). The row
// pass runs in 32-bit lanes (exact for every input); where every row result it hands to a
// block of columns satisfies |x| <= B, the n-point DCT of those columns keeps every narrow
// value inside int16 and every product sum inside int32 (proven as above, with the n column
// inputs as the variables), so the columns may run in 16-bit lanes. 0: no such path.
constexpr int kInt16ColumnBound[4] = {0, 0, 3150, 1590};

// The column bound of the 32x32 DCT columns by the rows that can be non-zero ([0]: inputs from 8
// on zero, [1]: from 16 on, [2]: none): for a 32-point DCT whose inputs all satisfy |x| <= B
// (the others known zero), every narrow value stays inside int16 and every product sum inside
// int32 (proven as above, with the 32 inputs as the variables). ColPass16 checks the 32-bit row
// results of the 32x32 blocks (those whose rows fail kInt16BoundL1) against it.
constexpr int kInt16Bound1dDct32[3] = {4340, 2290, 1590};

// The lossless 4x4 WHT (NEON, itx_neon_4x4.h; x86, itx_hwy_wht.h): for every block whose
// coefficients all satisfy |c| <= B, the reference's iwht4 (itx_ref_1d.h, rows then columns)
// keeps every value it forms, and each value plus a pixel (0..255), inside int16. Interval argument, no rounding involved
// (docs/itx_int16_bounds.md): the first pass's inputs c >> 2 lie in [-1300, 1300]; a pass whose
// inputs are bounded by m forms values bounded by 2m (a + c, d - b, e), 4m (a - d), 3m (e - b,
// e - c) and 5m (its outputs a - b, d + c); the second pass (m = 6500) stays within 32500, and
// the pixel sum within 32755.
constexpr int kInt16BoundWht = 5200;

}  // namespace vp9
}  // namespace v3d
