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
#include <cstring>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

#if V3D_ITX_HAVE_16 && HWY_ARCH_X86
// The 4x4 DC-only add on x86. The value in int16 lanes by three rounding multiplies, each exact
// for int16 inputs (R(x * c16) as one by 2 * c16, Round2(x, 4) as one by 2^11), the pixels
// changed by its magnitude clamped to 255 (packuswb), which gives clamp(p + v) as the
// reference's. Each pixel row's only work between its load and its store is one saturating
// byte operation, the magnitude added (v >= 0) or subtracted (v <= 0): both are formed for
// every row, without a branch on the sign; the sign of dc (which v keeps, or v is 0 and both
// results are the row) chooses the store addresses instead, the wanted result going to the
// row, the other to a local sink (stride 0). A row written by the previous call then waits on
// one operation, not two.
HWY_INLINE void AddDc4x4x86(uint8_t *dst, ptrdiff_t stride, int16_t dc) {
  alignas(16) uint8_t sink[16];
  const __m128i k16 = Splat16<2 * kC[16]>();
  __m128i v = _mm_mulhrs_epi16(_mm_mulhrs_epi16(_mm_set1_epi16(dc), k16), k16);
  v = _mm_abs_epi16(_mm_mulhrs_epi16(v, Splat16<1 << 11>()));
  const __m128i mag = _mm_packus_epi16(v, v);
  // neg: all ones when dc < 0. up, down: where the add and the subtract results go.
  const uintptr_t neg = static_cast<uintptr_t>(static_cast<intptr_t>(dc) >> 15);
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst), k = reinterpret_cast<uintptr_t>(sink);
  const uintptr_t up = d ^ ((d ^ k) & neg), down = k ^ ((d ^ k) & neg);
  const uintptr_t s = static_cast<uintptr_t>(stride), up_s = s & ~neg, down_s = s & neg;
  V3D_UNROLL
  for (uintptr_t i = 0; i < 4; i++) {
    int32_t x;
    memcpy(&x, dst + static_cast<ptrdiff_t>(i) * stride, 4);
    const __m128i p = _mm_cvtsi32_si128(x);
    const int32_t a = _mm_cvtsi128_si32(_mm_adds_epu8(p, mag));
    const int32_t b = _mm_cvtsi128_si32(_mm_subs_epu8(p, mag));
    memcpy(reinterpret_cast<uint8_t *>(down + i * down_s), &b, 4);
    memcpy(reinterpret_cast<uint8_t *>(up + i * up_s), &a, 4);
  }
}
#endif

// DCT_DCT with only the DC coefficient: every pixel gets the same value.
template <size_t kN>
HWY_NOINLINE void AddDc(uint8_t *dst, ptrdiff_t stride, int16_t dc) {
#if V3D_ITX_NEON_DC
  return neondc::AddDc<kN>(dst, stride, dc);  // itx_neon_dc.h
#endif
#if V3D_ITX_HAVE_16 && HWY_ARCH_X86
  if constexpr (kN == 4) return AddDc4x4x86(dst, stride, dc);
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
