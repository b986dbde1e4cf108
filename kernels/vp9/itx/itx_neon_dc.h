// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 DCT_DCT blocks with only the DC coefficient on aarch64 NEON, every size: the check that
// coefficients 1..n*n-1 are zero (the C ABI's eob is a hint) and the add of one constant to the
// n x n pixels. Per-target header: included by itx_hwy.cpp after itx_hwy_16.h; empty on every
// target but NEON (V3D_ITX_NEON_DC 0).

#if defined(V3D_VP9_ITX_NEON_DC_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_NEON_DC_H_
#undef V3D_VP9_ITX_NEON_DC_H_
#else
#define V3D_VP9_ITX_NEON_DC_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#undef V3D_ITX_NEON_DC
#if V3D_ITX_HAVE_16 && HWY_TARGET == HWY_NEON
#define V3D_ITX_NEON_DC 1

namespace neondc {

// One 16-byte load as a single `ldr q` with an immediate offset from the block's base: no
// address register per load (the four-register form needs one each, and 32 of them spill), and
// never a Q load pair (three micro-ops in the model).
HWY_INLINE uint16x8_t LoadQ(const uint16_t *p) {
  uint16x8_t r;
  __asm__("ldr %q0, %1" : "=w"(r) : "m"(*reinterpret_cast<const uint16_t(*)[8]>(p)));
  return r;
}

// OnlyDc<32> (the saturating sum described there, over 1..1023: c + 1, then c + 8j), from 128
// single loads into four accumulators (a uqadd's latency is three loads' issue).
HWY_INLINE bool OnlyDc32(const int16_t *c) {
  const uint16_t *u = reinterpret_cast<const uint16_t *>(c);
  uint16x8_t a0 = LoadQ(u + 1), a1 = LoadQ(u + 8), a2 = LoadQ(u + 16), a3 = LoadQ(u + 24);
  V3D_UNROLL
  for (size_t j = 32; j < 1024; j += 32) {
    a0 = vqaddq_u16(a0, LoadQ(u + j));
    a1 = vqaddq_u16(a1, LoadQ(u + j + 8));
    a2 = vqaddq_u16(a2, LoadQ(u + j + 16));
    a3 = vqaddq_u16(a3, LoadQ(u + j + 24));
  }
  const uint16x8_t acc = vqaddq_u16(vqaddq_u16(a0, a1), vqaddq_u16(a2, a3));
  return vmaxvq_u32(vreinterpretq_u32_u16(acc)) == 0;
}

// True iff coefficients 1..kN*kN-1 are all zero: their unsigned saturating sum (zero iff every
// term is), from 8-lane loads at c + 1 (1..8) and c + 8j (j >= 1; coefficient 8 is read twice),
// no lane masked; eight accumulators keep the loads, not the adds, the limit; one horizontal
// maximum at the end. (A saturating add rather than an OR: the compiler reassociates a tree of
// ORs into one serial chain. Four-register loads rather than pairs: the model of
// tools/bench/neon_mca.py counts a load pair of Q registers as three micro-ops.)
template <size_t kN>
HWY_INLINE bool OnlyDc(const int16_t *c) {
  const uint16_t *u = reinterpret_cast<const uint16_t *>(c);
  uint16x8_t acc;
  if constexpr (kN == 32) {
    return OnlyDc32(c);
  } else if constexpr (kN == 4) {
    acc = vqaddq_u16(vld1q_u16(u + 1), vld1q_u16(u + 8));
  } else {
    uint16x8_t a[8];
    a[0] = vld1q_u16(u + 1);
    a[1] = vld1q_u16(u + 8);
    a[2] = vld1q_u16(u + 16);
    a[3] = vld1q_u16(u + 24);
    uint16x8x4_t g = vld1q_u16_x4(u + 32);
    a[4] = g.val[0];
    a[5] = g.val[1];
    a[6] = g.val[2];
    a[7] = g.val[3];
    V3D_UNROLL
    for (size_t j = 64; j < kN * kN; j += 32) {
      g = vld1q_u16_x4(u + j);
      const size_t o = j / 32 % 2 * 4;
      V3D_UNROLL
      for (size_t m = 0; m < 4; m++) a[o + m] = vqaddq_u16(a[o + m], g.val[m]);
    }
    acc = vqaddq_u16(vqaddq_u16(vqaddq_u16(a[0], a[1]), vqaddq_u16(a[2], a[3])),
                     vqaddq_u16(vqaddq_u16(a[4], a[5]), vqaddq_u16(a[6], a[7])));
  }
  return vmaxvq_u32(vreinterpretq_u32_u16(acc)) == 0;
}

// One row of kN pixels at p plus v (kAdd) or minus v, with unsigned saturation.
template <size_t kN, bool kAdd>
HWY_INLINE void AddRow(uint8_t *p, uint8x16_t v) {
  const uint8x8_t h = vget_low_u8(v);
  if constexpr (kN == 4) {
    uint8x8_t x = vreinterpret_u8_u32(
        vld1_lane_u32(reinterpret_cast<const uint32_t *>(p), vdup_n_u32(0), 0));
    x = kAdd ? vqadd_u8(x, h) : vqsub_u8(x, h);
    vst1_lane_u32(reinterpret_cast<uint32_t *>(p), vreinterpret_u32_u8(x), 0);
  } else if constexpr (kN == 8) {
    const uint8x8_t x = vld1_u8(p);
    vst1_u8(p, kAdd ? vqadd_u8(x, h) : vqsub_u8(x, h));
  } else if constexpr (kN == 16) {
    const uint8x16_t x = vld1q_u8(p);
    vst1q_u8(p, kAdd ? vqaddq_u8(x, v) : vqsubq_u8(x, v));
  } else {
    // One two-register load and store (a Q store pair is five micro-ops in the model).
    uint8x16x2_t x = vld1q_u8_x2(p);
    x.val[0] = kAdd ? vqaddq_u8(x.val[0], v) : vqsubq_u8(x.val[0], v);
    x.val[1] = kAdd ? vqaddq_u8(x.val[1], v) : vqsubq_u8(x.val[1], v);
    vst1q_u8_x2(p, x);
  }
}

// The kN x kN pixels at dst plus v (kAdd) or minus v, four rows per step (a loop from 16 rows
// on: fully unrolled, the compiler keeps every row's address live and spills them).
template <size_t kN, bool kAdd>
HWY_INLINE void AddRows(uint8_t *dst, ptrdiff_t stride, uint8_t v) {
  const uint8x16_t q = vdupq_n_u8(v);
  V3D_NO_UNROLL
  for (size_t i = 0; i < kN; i += 4) {
    V3D_UNROLL
    for (size_t r = 0; r < 4; r++) {
      AddRow<kN, kAdd>(dst, q);
      dst += stride;
    }
  }
}

// DCT_DCT with only the DC coefficient: every pixel gets Round2(R(R(dc c16) c16), shift)
// (shift 4/5/6/6 for 4/8/16/32), computed in int32 (no overflow for int16 dc) and clamped to
// [-255, 255], where adding it with unsigned saturation is the reference's clamp to 0..255.
template <size_t kN>
HWY_INLINE int DcValue(int16_t dc) {
  constexpr int kShift = kN == 4 ? 4 : kN == 8 ? 5 : 6;
  int32_t v = (dc * kC[16] + 8192) >> 14;
  v = (v * kC[16] + 8192) >> 14;
  v = (v + (1 << (kShift - 1))) >> kShift;
  return v < -255 ? -255 : v > 255 ? 255 : v;
}
template <size_t kN>
HWY_INLINE void AddValue(uint8_t *dst, ptrdiff_t stride, int v) {
  if (v >= 0) AddRows<kN, true>(dst, stride, static_cast<uint8_t>(v));
  else AddRows<kN, false>(dst, stride, static_cast<uint8_t>(-v));
}
template <size_t kN>
HWY_INLINE void AddDc(uint8_t *dst, ptrdiff_t stride, int16_t dc) {
  AddValue<kN>(dst, stride, DcValue<kN>(dc));
}

// The DC-only block added to dst when coefficients 1..kN*kN-1 are zero; false, having written
// nothing, otherwise. The value is formed before the check (the empty asm keeps the compiler
// from sinking it below the branch), so that its latency overlaps the check's loads.
template <size_t kN>
HWY_INLINE bool TryDc(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  int v = DcValue<kN>(c[0]);
  __asm__ volatile("" : "+r"(v));
  if (!OnlyDc<kN>(c)) return false;
  AddValue<kN>(dst, stride, v);
  return true;
}

}  // namespace neondc

#else
#define V3D_ITX_NEON_DC 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_NEON_DC_H_
