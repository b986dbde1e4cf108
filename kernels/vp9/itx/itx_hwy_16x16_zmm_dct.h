// SPDX-License-Identifier: LGPL-2.1-or-later
// 16x16 VP9 DCT_DCT inverse transform in the zmm layout of itx_hwy_16x16_zmm.h (AVX-512: the
// AVX3 targets only): Add16x16DctZmm, the 8x8 corner (half form) and the full block, behind
// the per-pass checks and with the saturate-and-detect columns described there. Per-target
// header: included by itx_hwy.cpp after itx_hwy_16x16_zmm.h, before itx_hwy_16x16_zmm_adst.h
// (whose Add16x16Zmm16 calls it).

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

// 16x16 DCT_DCT block whose non-zero coefficients lie in the top-left kNzR x kNzR square
// (kNzR = 8 or 16), in zmm registers (see the head of itx_hwy_16x16_zmm.h); the same contract as
// Add16x16Int16 (itx_hwy_16x16.h): kRowsFailed, nothing written; kDone; kColumnsFailed, nothing
// written, rows holds the row results (row-major, rows from kNzR on not written). Columns whose
// row results fail the column L1 check run on SatOps and count as failed only where it
// detects a saturation.
template <int kNzR>
HWY_NOINLINE Int16Result Add16x16DctZmm(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                        int16_t *rows) {
  using namespace zmm16;
  constexpr int kRowB = kInt16BoundL1[2][0], kColB = kInt16BoundL1[2][0];  // DCT rows, columns
  static_assert(kRowB > 0 && kColB > 0, "proven bounds");
  const PackedOps o;
  Z x[8];
  constexpr bool kHalf = kNzR <= 8;
  // Half: x[m] = [column 2m | column 2m + 1], lane = row (kRowOfLane); else LoadRowsDct's.
  if constexpr (kHalf) LoadRows<kNzR>(coeffs, x);
  else LoadRowsDct(coeffs, x);
  // Up to 8 non-zero rows: every non-zero coefficient lies in the top-left 8x8 square (the
  // caller's region), so columns 8..15 (x[4..7]) and, later, row results 8..15 are zero.
  constexpr int kRegs = kHalf ? 4 : 8;
  if (!L1Within<kRowB, kRegs>(o, x)) return Int16Result::kRowsFailed;
  if constexpr (kHalf) {
    const Z d[8] = {DupA(x[0]), DupB(x[0]), DupA(x[1]), DupB(x[1]),
                    DupA(x[2]), DupB(x[2]), DupA(x[3]), DupB(x[3])};
    DctRest(o, DctProductsHalf(o, d), x);
  } else {
    DctRest(o, DctProducts<false>(o, DctIn{x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]}), x);
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
