// SPDX-License-Identifier: LGPL-2.1-or-later
// 16x16 DCT_DCT in 16-bit lanes on aarch64 NEON: neon16::AddDct, which Add16x16Int16
// (itx_hwy_16x16.h, whose end includes this header) runs for DCT_DCT on NEON, with its contract.
// Empty on every other target.
//
// Checks: a block whose |coefficients| sum to at most kInt16BoundL1Total16 passes every row's
// per-pass check and needs no column check (itx_int16_bound.h; the lemma is proven by
// tests/test_vp9_itx_bound.cpp): its rows run without any further check. Other blocks take the
// per-pass checks as the other targets do: every row's sum within the row bound, then every
// column's sum of |row results| within the column bound, else the saturate-and-detect columns
// (Cols16x16Sat), else the caller's 32-bit columns from the row results.
// Layout: the row pass runs 8 rows at a time (lane = row) and stores its results, row-major, to
// the caller's int16 buffer; the column pass loads them back 8 columns at a time. Holding all
// 32 vectors of row results in registers instead spills more than the buffer costs.

#if defined(V3D_VP9_ITX_NEON_16X16_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_NEON_16X16_H_
#undef V3D_VP9_ITX_NEON_16X16_H_
#else
#define V3D_VP9_ITX_NEON_16X16_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if V3D_ITX_HAVE_16 && HWY_TARGET == HWY_NEON
namespace neon16 {

using D16 = hn::Full128<int16_t>;
using V16 = hn::Vec<D16>;

// Rows [0, kNz) of the columns [c, c + 8) of the row results in rows (16 per row); the others
// zero.
template <int kNz>
HWY_INLINE void LoadColumns(const int16_t *rows, size_t c, V16 *x) {
  V3D_UNROLL
  for (size_t i = 0; i < 16; i++)
    x[i] = i < static_cast<size_t>(kNz) ? hn::Load(D16(), rows + 16 * i + c) : hn::Zero(D16());
}

// Whether every one of the columns [c, c + 8) has its |row results| sum within the column
// DCT's per-pass bound.
template <int kNz>
HWY_INLINE bool ColumnsWithin(const int16_t *rows, size_t c) {
  const hn::RebindToUnsigned<D16> du;
  V16 x[16];
  LoadColumns<kNz>(rows, c, x);
  return LanesWithin<kInt16BoundL1[2][0]>(du, AddAbs<static_cast<size_t>(kNz)>(D16(), x,
                                                                              hn::Zero(du)));
}

// The column DCTs of the columns [c, c + 8), Round2 by 6, added to dst.
template <int kNz>
HWY_INLINE void Columns(uint8_t *dst, ptrdiff_t stride, const int16_t *rows, size_t c) {
  V16 x[16];
  LoadColumns<kNz>(rows, c, x);
  Run16Point<false, kNz>(D16(), x);
  RoundAdd16(D16(), dst, stride, c, x);
}

// Add16x16Int16's contract for DCT_DCT (non-zero coefficients in the top-left kNz x kNz
// square): kDone, kRowsFailed (nothing written to dst) or kColumnsFailed (nothing written to
// dst; rows holds the exact row results, rows from kNz on not written).
template <int kNz>
Int16Result AddDct(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int16_t *rows) {
  const hn::RebindToUnsigned<D16> du;
  constexpr size_t kR = static_cast<size_t>(kNz);
  constexpr size_t kGroups = kR > 8 ? 2 : 1;
  hn::Vec<decltype(du)> sums[kGroups];  // lane i: row 8g + i's sum (saturating)
  V3D_UNROLL
  for (size_t g = 0; g < kGroups; g++) {
    V16 a[16];
    sums[g] = LoadRows16x8<kNz>(D16(), coeffs, g, a);
    RowPass16x8<false, kNz>(D16(), a);
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) {
      if (8 * g + i >= kR) break;
      hn::Store(a[i], D16(), rows + 16 * (8 * g + i));
      hn::Store(a[8 + i], D16(), rows + 16 * (8 * g + i) + 8);
    }
  }
  // The total (a saturated lane exceeds the bound alone, as do lanes of saturated sums).
  const auto both = kGroups > 1 ? hn::SaturatedAdd(sums[0], sums[kGroups - 1]) : sums[0];
  if (vaddlvq_u16(both.raw) > static_cast<uint32_t>(kInt16BoundL1Total16)) {
    constexpr int kRowB = kInt16BoundL1[2][0];
    if (!LanesWithin<kRowB>(du, sums[0]) || !LanesWithin<kRowB>(du, sums[kGroups - 1]))
      return Int16Result::kRowsFailed;
    if (!ColumnsWithin<kNz>(rows, 0) || !ColumnsWithin<kNz>(rows, 8)) {
      if (Cols16x16Sat<false, kNz>(D16(), dst, stride, rows)) return Int16Result::kDone;
      return Int16Result::kColumnsFailed;
    }
  }
  Columns<kNz>(dst, stride, rows, 0);
  Columns<kNz>(dst, stride, rows, 8);
  return Int16Result::kDone;
}

}  // namespace neon16
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_NEON_16X16_H_
