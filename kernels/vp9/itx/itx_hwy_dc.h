// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 DCT_DCT blocks with only the DC coefficient: the check that coefficients 1..n*n-1 are zero
// (the C ABI's eob is a hint) and the add of one constant to the n x n pixels, on every SIMD
// target (NEON: itx_neon_dc.h's kernels). Per-target header: included by itx_hwy.cpp after
// itx_neon_dc.h.

#if defined(V3D_VP9_ITX_HWY_DC_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_DC_H_
#undef V3D_VP9_ITX_HWY_DC_H_
#else
#define V3D_VP9_ITX_HWY_DC_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// DCT_DCT with only the DC coefficient: every pixel gets the same value.
template <size_t kN>
HWY_NOINLINE void AddDc(uint8_t *dst, ptrdiff_t stride, int16_t dc) {
#if V3D_ITX_NEON_DC
  return neondc::AddDc<kN>(dst, stride, dc);  // itx_neon_dc.h
#endif
  constexpr int kShift = kN == 4 ? 4 : kN == 8 ? 5 : 6;
  // Two 1-D passes of R(x * cospi_16_64); no int32 overflow is possible for int16 dc.
  int32_t v = (dc * kC[16] + 8192) >> 14;
  v = (v * kC[16] + 8192) >> 14;
  v = (v + (1 << (kShift - 1))) >> kShift;
  v = v < -255 ? -255 : v > 255 ? 255 : v;
  const hn::CappedTag<uint8_t, kN> d8;
  constexpr size_t L = hn::MaxLanes(hn::CappedTag<uint8_t, kN>());
  const auto add = hn::Set(d8, static_cast<uint8_t>(v > 0 ? v : 0));
  const auto sub = hn::Set(d8, static_cast<uint8_t>(v < 0 ? -v : 0));
  V3D_UNROLL
  for (size_t i = 0; i < kN; i++) {
    V3D_UNROLL
    for (size_t c = 0; c < kN; c += L) {
      uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride + c;
      hn::StoreU(hn::SaturatedSub(hn::SaturatedAdd(hn::LoadU(d8, p), add), sub), d8, p);
    }
  }
}

// True iff coefficients 1..n*n-1 are all zero: the OR of every coefficient with lane 0 of the
// first vector cleared, in the widest int16 vectors (no classes, no masks per row), with four
// independent accumulators so that the loads, not the ORs, set the pace.
template <size_t kN>
HWY_INLINE bool OnlyDc(const int16_t *c) {
#if V3D_ITX_NEON_DC
  return neondc::OnlyDc<kN>(c);  // itx_neon_dc.h
#endif
  const hn::CappedTag<int16_t, kN * kN> d;
  using V16 = hn::Vec<decltype(d)>;
  constexpr size_t W = hn::MaxLanes(d);
  constexpr size_t kLoads = kN * kN / W;
  V16 a0 = hn::IfThenZeroElse(hn::FirstN(d, 1), hn::LoadU(d, c));
  if constexpr (kLoads < 4) {
    V3D_UNROLL
    for (size_t i = 1; i < kLoads; i++) a0 = hn::Or(a0, hn::LoadU(d, c + i * W));
  } else {
    V16 a1 = hn::LoadU(d, c + W), a2 = hn::LoadU(d, c + 2 * W), a3 = hn::LoadU(d, c + 3 * W);
    auto step = [&](size_t i) {
      a0 = hn::Or(a0, hn::LoadU(d, c + i * W));
      a1 = hn::Or(a1, hn::LoadU(d, c + (i + 1) * W));
      a2 = hn::Or(a2, hn::LoadU(d, c + (i + 2) * W));
      a3 = hn::Or(a3, hn::LoadU(d, c + (i + 3) * W));
    };
    if constexpr (kN == 32 && kLoads <= 32) {
      // AVX-512's 32x32 unrolled: the loop's register copies of the four accumulators cost as
      // many instructions as its ORs.
      V3D_UNROLL
      for (size_t i = 4; i < kLoads; i += 4) step(i);
    } else {
      V3D_NO_UNROLL
      for (size_t i = 4; i < kLoads; i += 4) step(i);
    }
    a0 = hn::Or(hn::Or(a0, a1), hn::Or(a2, a3));
  }
  return hn::AllTrue(d, hn::Eq(a0, hn::Zero(d)));
}

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_DC_H_
