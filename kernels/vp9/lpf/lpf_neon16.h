// SPDX-License-Identifier: LGPL-2.1-or-later
// The 16-wide, 16-pixel VP9 loop filter edges on aarch64 NEON, on 16 lanes of bytes (one
// lane per line) instead of two chunks of 8 int16 lanes: the masks and the narrow filter in 8-bit
// lanes (signed saturating arithmetic is the spec's clamps), the tap filters' running sums in
// 16-bit halves narrowed with a rounding shift. Per-target header, included from lpf_hwy.cpp
// inside its foreach_target pass (after simd/transpose_u8.h); its code exists on that target only.

#if defined(V3D_VP9_LPF_NEON16_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_LPF_NEON16_H_
#undef V3D_VP9_LPF_NEON16_H_
#else
#define V3D_VP9_LPF_NEON16_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64

using simd::HWY_NAMESPACE::Transpose8x16Neon;

// True when any lane of a byte mask is set.
HWY_INLINE bool AnyNeon(uint8x16_t m) {
  return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0) != 0;
}

// The spec's tap filter of kN taps (8: 7 taps, 16: 15 taps) on rows v[0..kN), outputs out[1..kN-2]
// as bytes: Round2 of a running 16-bit sum (as TapFilter in lpf_hwy.cpp), low and high 8 lanes.
template <int kN>
HWY_INLINE void TapFilterNeon(const uint8x16_t *v, uint8x16_t *out) {
  constexpr int kK = kN / 2 - 1, kLog2 = kN == 8 ? 3 : 4;
  auto at = [&](int t) { return v[t < 0 ? 0 : t > kN - 1 ? kN - 1 : t]; };
  // Window of j = 1: v[0] kK times ((kK + 1) v[0] - v[0]), v[1] twice, v[2..kK+1].
  uint16x8_t lo = vsubw_u8(vshll_n_u8(vget_low_u8(v[0]), kLog2 - 1), vget_low_u8(v[0]));
  uint16x8_t hi = vsubw_high_u8(vshll_high_n_u8(v[0], kLog2 - 1), v[0]);
  lo = vaddq_u16(lo, vaddl_u8(vget_low_u8(v[1]), vget_low_u8(v[1])));
  hi = vaddq_u16(hi, vaddl_high_u8(v[1], v[1]));
#pragma GCC unroll 16
  for (int t = 2; t <= kK + 1; t++) {
    lo = vaddw_u8(lo, vget_low_u8(v[t]));
    hi = vaddw_high_u8(hi, v[t]);
  }
  out[1] = vrshrn_high_n_u16(vrshrn_n_u16(lo, kLog2), hi, kLog2);
#pragma GCC unroll 16
  for (int j = 1; j < kN - 2; j++) {
    const uint8x16_t a = at(j - kK), b = v[j], c = at(j + kK + 1), e = v[j + 1];
    lo = vaddq_u16(vsubq_u16(lo, vaddl_u8(vget_low_u8(a), vget_low_u8(b))),
                   vaddl_u8(vget_low_u8(c), vget_low_u8(e)));
    hi = vaddq_u16(vsubq_u16(hi, vaddl_high_u8(a, b)), vaddl_high_u8(c, e));
    out[j + 1] = vrshrn_high_n_u16(vrshrn_n_u16(lo, kLog2), hi, kLog2);
  }
}

// 8 lines of 8 bytes at p and 8 more at p + 8 * stride -> v[c] lane l (l < 16) = p[l * stride + c].
HWY_INLINE void LoadTransposed16x8Neon(const uint8_t *p, ptrdiff_t stride, uint8x16_t v[8]) {
  // The high half by a lane load: joining two 64-bit loads compiles to an insert on the FP pipes.
  for (int l = 0; l < 8; l++) {
    const uint64x2_t lo = vreinterpretq_u64_u8(vcombine_u8(vld1_u8(p + l * stride), vdup_n_u8(0)));
    v[l] = vreinterpretq_u8_u64(
        vld1q_lane_u64(reinterpret_cast<const uint64_t *>(p + (l + 8) * stride), lo, 1));
  }
  Transpose8x16Neon(v);
}

// The inverse of LoadTransposed16x8Neon.
HWY_INLINE void StoreTransposed16x8Neon(uint8x16_t v[8], uint8_t *p, ptrdiff_t stride) {
  Transpose8x16Neon(v);
  for (int l = 0; l < 8; l++) {
    vst1_u8(p + l * stride, vget_low_u8(v[l]));
    vst1q_lane_u64(reinterpret_cast<uint64_t *>(p + (l + 8) * stride), vreinterpretq_u64_u8(v[l]), 1);
  }
}

// The 16-wide filter of 16 lines: x[0..15] = rows p7..q7, one lane per line. Returns how far
// from the edge rows changed, as FilterChunk in lpf_hwy.cpp: 0 (no lane passed the mask, x
// unchanged), 2 (p1..q1), 3 (p2..q2) or 7 (p6..q6).
HWY_INLINE int Filter16x16Neon(uint8x16_t *x, int E, int I, int H) {
  const uint8x16_t p3 = x[4], p2 = x[5], p1 = x[6], p0 = x[7], q0 = x[8], q1 = x[9], q2 = x[10],
                   q3 = x[11];
  const uint8x16_t ap1 = vabdq_u8(p1, p0), aq1 = vabdq_u8(q1, q0);
  const uint8x16_t hev_v = vmaxq_u8(ap1, aq1);
  const uint8x16_t inner =
      vmaxq_u8(vmaxq_u8(vmaxq_u8(vabdq_u8(p3, p2), vabdq_u8(p2, p1)),
                        vmaxq_u8(vabdq_u8(q2, q1), vabdq_u8(q3, q2))), hev_v);
  // |p0 - q0| * 2 + |p1 - q1| / 2 <= E, up to 637: in 16-bit halves.
  const uint8x16_t a0 = vabdq_u8(p0, q0), a1 = vshrq_n_u8(vabdq_u8(p1, q1), 1);
  const uint16x8_t e16 = vdupq_n_u16(static_cast<uint16_t>(E));
  const uint16x8_t el = vaddw_u8(vaddl_u8(vget_low_u8(a0), vget_low_u8(a0)), vget_low_u8(a1));
  const uint16x8_t eh = vaddw_high_u8(vaddl_high_u8(a0, a0), a1);
  const uint8x16_t edge_ok = vcombine_u8(vmovn_u16(vcleq_u16(el, e16)), vmovn_u16(vcleq_u16(eh, e16)));
  const uint8x16_t mask = vandq_u8(vcleq_u8(inner, vdupq_n_u8(static_cast<uint8_t>(I))), edge_ok);
  if (!AnyNeon(mask)) return 0;

  // Narrow filter on signed bytes (value - 128); a lane outside the mask gets a zero filter value.
  const uint8x16_t hev = vcgtq_u8(hev_v, vdupq_n_u8(static_cast<uint8_t>(H)));
  const uint8x16_t k80 = vdupq_n_u8(0x80);
  const int8x16_t ps1 = vreinterpretq_s8_u8(veorq_u8(p1, k80)), ps0 = vreinterpretq_s8_u8(veorq_u8(p0, k80));
  const int8x16_t qs0 = vreinterpretq_s8_u8(veorq_u8(q0, k80)), qs1 = vreinterpretq_s8_u8(veorq_u8(q1, k80));
  int8x16_t f = vandq_s8(vqsubq_s8(ps1, qs1), vreinterpretq_s8_u8(hev));
  const int16x8_t dl = vsubl_s8(vget_low_s8(qs0), vget_low_s8(ps0)), dh = vsubl_high_s8(qs0, ps0);
  const int16x8_t fl = vaddw_s8(vaddq_s16(dl, vaddq_s16(dl, dl)), vget_low_s8(f));
  const int16x8_t fh = vaddw_high_s8(vaddq_s16(dh, vaddq_s16(dh, dh)), f);
  f = vandq_s8(vqmovn_high_s16(vqmovn_s16(fl), fh), vreinterpretq_s8_u8(mask));
  const int8x16_t f1 = vshrq_n_s8(vqaddq_s8(f, vdupq_n_s8(4)), 3);
  const int8x16_t f2 = vshrq_n_s8(vqaddq_s8(f, vdupq_n_s8(3)), 3);
  const int8x16_t f3 = vbicq_s8(vrshrq_n_s8(f1, 1), vreinterpretq_s8_u8(hev));
  uint8x16_t n[4] = {veorq_u8(vreinterpretq_u8_s8(vqaddq_s8(ps1, f3)), k80),
                     veorq_u8(vreinterpretq_u8_s8(vqaddq_s8(ps0, f2)), k80),
                     veorq_u8(vreinterpretq_u8_s8(vqsubq_s8(qs0, f1)), k80),
                     veorq_u8(vreinterpretq_u8_s8(vqsubq_s8(qs1, f3)), k80)};

  const uint8x16_t one = vdupq_n_u8(1);
  const uint8x16_t flat_v = vmaxq_u8(vmaxq_u8(hev_v, vmaxq_u8(vabdq_u8(p2, p0), vabdq_u8(q2, q0))),
                                     vmaxq_u8(vabdq_u8(p3, p0), vabdq_u8(q3, q0)));
  const uint8x16_t flat = vandq_u8(mask, vcleq_u8(flat_v, one));
  if (!AnyNeon(flat)) {
    for (int i = 0; i < 4; i++) x[6 + i] = n[i];
    return 2;
  }
  uint8x16_t t7[8];
  TapFilterNeon<8>(x + 4, t7);
  uint8x16_t r8[16];  // the 8-wide result of rows 5..10
#pragma GCC unroll 16
  for (int i = 5; i <= 10; i++) r8[i] = vbslq_u8(flat, t7[i - 4], (i >= 6 && i <= 9) ? n[i - 6] : x[i]);
  uint8x16_t f2v = vmaxq_u8(vmaxq_u8(vabdq_u8(x[0], p0), vabdq_u8(x[1], p0)),
                            vmaxq_u8(vabdq_u8(x[2], p0), vabdq_u8(x[3], p0)));
  f2v = vmaxq_u8(f2v, vmaxq_u8(vmaxq_u8(vabdq_u8(x[12], q0), vabdq_u8(x[13], q0)),
                               vmaxq_u8(vabdq_u8(x[14], q0), vabdq_u8(x[15], q0))));
  const uint8x16_t flat2 = vandq_u8(flat, vcleq_u8(f2v, one));
  if (!AnyNeon(flat2)) {
    for (int i = 5; i <= 10; i++) x[i] = r8[i];
    return 3;
  }
  uint8x16_t t15[16];
  TapFilterNeon<16>(x, t15);
#pragma GCC unroll 16
  for (int i = 1; i <= 14; i++) x[i] = vbslq_u8(flat2, t15[i], (i >= 5 && i <= 10) ? r8[i] : x[i]);
  return 7;
}

// LpfVertical<16, 16> on NEON: the 16 lines of p7..q7 transposed to 16 byte rows, filtered,
// and transposed back (whole 16-byte line segments, as lpf.h allows) when any line passed.
HWY_NOINLINE void LpfVertical16x16Neon(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  uint8x16_t x[16];
  LoadTransposed16x8Neon(dst - 8, stride, x);
  LoadTransposed16x8Neon(dst, stride, x + 8);
  if (!Filter16x16Neon(x, E, I, H)) return;
  StoreTransposed16x8Neon(x, dst - 8, stride);
  StoreTransposed16x8Neon(x + 8, dst, stride);
}

// LpfHorizontal<16, 16> on NEON: 16 rows of 16 bytes, the rows that changed stored back.
HWY_NOINLINE void LpfHorizontal16x16Neon(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  uint8x16_t x[16];
  for (int r = 0; r < 16; r++) x[r] = vld1q_u8(dst + (r - 8) * stride);
  const int reach = Filter16x16Neon(x, E, I, H);
  if (reach == 7) {
    for (int r = 1; r <= 14; r++) vst1q_u8(dst + (r - 8) * stride, x[r]);
  } else if (reach == 3) {
    for (int r = 5; r <= 10; r++) vst1q_u8(dst + (r - 8) * stride, x[r]);
  } else if (reach == 2) {
    for (int r = 6; r <= 9; r++) vst1q_u8(dst + (r - 8) * stride, x[r]);
  }
}

#endif  // HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_LPF_NEON16_H_
