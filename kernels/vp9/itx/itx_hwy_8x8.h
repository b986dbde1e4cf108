// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 8x8 inverse transforms in 16-bit lanes behind per-pass bounds (kInt16BoundL1 of
// itx_int16_bound.h): the row pass runs in int16 when the |coefficients| of every row sum to
// within the row transform's L1 bound, the column pass when the |row results| of every column
// sum to within the column transform's. The two checks are far less conservative than one
// bound on the whole 2-D block: they hold for the coefficients of nearly all real residuals
// (even the full-range random ones of FFmpeg's checkasm), which the 2-D bound rejects.
// Per-target header: included by itx_hwy.cpp after itx_hwy_16.h (Run16, Transpose16).
//
// Exactness: inside its bound a 1-D pass in 16-bit lanes computes the reference's values (see
// itx_hwy_16.h and the proof in tests/test_vp9_itx_bound.cpp), so the row results equal the
// reference's when the row check passes, and the column check tests the reference's own row
// results. When the row check fails nothing has been written and the caller runs the 32-bit
// path; when the column check fails the columns run in 32-bit lanes from those row results.
// Both are exact for every input: the result does not depend on which path ran.

#if defined(V3D_VP9_ITX_HWY_8X8_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_8X8_H_
#undef V3D_VP9_ITX_HWY_8X8_H_
#else
#define V3D_VP9_ITX_HWY_8X8_H_
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

#if V3D_ITX_HAVE_16

// The 8x8 block (row transform kRowAdst, column kColAdst) in 16-bit lanes, one row of 8 per
// 128-bit vector on every target, Round2 by 5 and added to dst with unsigned saturation; the
// non-zero coefficients lie in the top-left kNz x kNz square (kNz = 4 or 8; the DCT skips the
// zero inputs). Returns false, having written nothing, when the coefficients fail the row
// bound. When the row results (then the reference's own) fail the column bound, col32(v) runs
// the columns from them instead (v[i] = row i of the intermediate, rows >= kNz zero; 32-bit
// lanes, exact for every input) and it returns true.
template <bool kRowAdst, bool kColAdst, int kNz, class Col32>
HWY_NOINLINE bool Add8x8PerPass(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                Col32 col32) {
  constexpr int kRowBound = kInt16BoundL1[1][kRowAdst ? 1 : 0];
  constexpr int kColBound = kInt16BoundL1[1][kColAdst ? 1 : 0];
  static_assert(kRowBound > 0 && kColBound > 0, "8-point per-pass bounds");
  constexpr size_t kR = static_cast<size_t>(kNz);
  const hn::CappedTag<int16_t, 8> d;
  using V = hn::Vec<decltype(d)>;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  V v[8];
  V3D_UNROLL
  for (size_t i = 0; i < 8; i++) v[i] = i < kR ? hn::LoadU(d, coeffs + i * 8) : hn::Zero(d);
  Transpose16(d, v);  // v[k] lane i = coefficient (i, k); zero from column kNz on
  // Lane l: the sum of |v[0..kNz)| in lane l (saturating), for the per-pass checks.
  auto sum_abs = [&] { return AddAbs<kR - 1>(d, v + 1, hn::BitCast(du, hn::Abs(v[0]))); };
  if (!LanesWithin<kRowBound>(du, sum_abs())) return false;  // lane i: row i's sum
  Run16<kRowAdst, 8, kNz>(d, v);
  Transpose16(d, v);  // v[i] lane k = row i of the intermediate; zero from row kNz on
  if (!LanesWithin<kColBound>(du, sum_abs())) {  // lane k: column k's sum
    col32(v);
    return true;
  }
  Run16<kColAdst, 8, kNz>(d, v);
  // Round2(x, 5) as one rounding multiply by 2^10: exactly (x + 16) >> 5 for every int16 x.
#if HWY_ARCH_X86
  const V rnd{Splat16<1 << 10>()};
#else
  const V rnd = hn::Set(d, static_cast<int16_t>(1 << 10));
#endif
  V3D_UNROLL
  for (size_t i = 0; i < 8; i++) {
    uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride;
    const V sum = hn::Add(Round2By<5>(v[i], rnd), hn::PromoteTo(d, hn::LoadU(d8, p)));
    hn::StoreU(hn::DemoteTo(d8, sum), d8, p);
  }
  return true;
}

#endif  // V3D_ITX_HAVE_16

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_8X8_H_
