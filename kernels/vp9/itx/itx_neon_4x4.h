// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 4x4 inverse transforms (DCT/ADST pairs and the lossless WHT) on aarch64 NEON, in 16-bit
// lanes behind a bound on every coefficient; a block outside the bound returns false and takes
// the exact 32-bit path of itx_hwy.cpp. Per-target header: included by itx_hwy.cpp after
// itx_hwy_16.h and itx_neon_dc.h; empty on every target but NEON (V3D_ITX_NEON_4X4 0).
//
// Layout: the row pass reads the coefficients with one de-interleaving load, so x[k] lane i =
// coefficient (i, k) (lane = row) with no transpose; its four outputs (lane = row) go through one
// 4x4 transpose of 4-lane registers (lane = column); the column pass leaves its outputs paired in
// 8-lane registers as [row 0 | row 1] and [row 3 | row 2], so the final rounding, the widening add
// of the pixels and the saturating narrow each run once per two rows.
//
// Exactness (DCT/ADST): as the 16-bit path of itx_hwy_16.h, inside kInt16Bound[0] every value the
// reference forms by an addition, subtraction or rounding is inside int16 and every product sum
// inside int32 (itx_int16_bound.h), so: R((a +- b) c16) and the ADST's R((x0 - x2 + x3) S3) are
// one rounding doubling multiply by 2c (sqrdmulh: (x * 2c + 2^14) >> 15 = (x c + 2^13) >> 14,
// 2c < 2^15); a sum of two or three products is formed in int32 (smull/smlal; the order of the
// terms does not matter modulo 2^32) and rounded back with rshrn #14; Round2(x, 4) is srshr #4,
// exact for any int16 x. WHT: inside kInt16BoundWht (itx_int16_bound.h) no value wraps.

#if defined(V3D_VP9_ITX_NEON_4X4_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_NEON_4X4_H_
#undef V3D_VP9_ITX_NEON_4X4_H_
#else
#define V3D_VP9_ITX_NEON_4X4_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#undef V3D_ITX_NEON_4X4
#if V3D_ITX_HAVE_16 && HWY_TARGET == HWY_NEON
#define V3D_ITX_NEON_4X4 1

namespace neon4 {

// The multipliers, one vector for the by-lane forms: 2 cos64(16), cos64(8), cos64(24), SINPI_1..4_9
// (kC, kS1..kS4 of itx_hwy_1d.h, the specification's constants) and 2 SINPI_3_9.
enum : int { kK2C16 = 0, kKC8 = 1, kKC24 = 2, kKS1 = 3, kKS2 = 4, kKS3 = 5, kKS4 = 6, kK2S3 = 7 };
alignas(16) static constexpr int16_t kMul[8] = {
    static_cast<int16_t>(2 * kC[16]), static_cast<int16_t>(kC[8]),  static_cast<int16_t>(kC[24]),
    static_cast<int16_t>(kS1),        static_cast<int16_t>(kS2),     static_cast<int16_t>(kS3),
    static_cast<int16_t>(kS4),        static_cast<int16_t>(2 * kS3)};

// A pass's outputs paired in 8-lane registers: a = [out0 | out1], b = [out3 | out2].
struct Pair {
  int16x8_t a, b;
};

// True iff every lane of c01 and c23 lies in [-b, b]: c + b, as uint16, is at most 2b exactly
// then (b < 2^15: below -b it wraps to at least 2^15 + b > 2b).
template <int kB>
HWY_INLINE bool Within(int16x8_t c01, int16x8_t c23) {
  const int16x8_t bias = vdupq_n_s16(static_cast<int16_t>(kB));
  const uint16x8_t u = vmaxq_u16(vreinterpretq_u16_s16(vaddq_s16(c01, bias)),
                                 vreinterpretq_u16_s16(vaddq_s16(c23, bias)));
  return vmaxvq_u16(u) <= 2 * kB;
}

// 4-point DCT, in place, 4 lanes.
HWY_INLINE void Dct4(int16x8_t k, int16x4_t *x) {
  const int16x4_t s0 = vqrdmulh_laneq_s16(vadd_s16(x[0], x[2]), k, kK2C16);
  const int16x4_t s1 = vqrdmulh_laneq_s16(vsub_s16(x[0], x[2]), k, kK2C16);
  const int16x4_t s2 =
      vrshrn_n_s32(vmlsl_laneq_s16(vmull_laneq_s16(x[1], k, kKC24), x[3], k, kKC8), 14);
  const int16x4_t s3 =
      vrshrn_n_s32(vmlal_laneq_s16(vmull_laneq_s16(x[1], k, kKC8), x[3], k, kKC24), 14);
  x[0] = vadd_s16(s0, s3);
  x[1] = vadd_s16(s1, s2);
  x[2] = vsub_s16(s1, s2);
  x[3] = vsub_s16(s0, s3);
}

// The same, outputs paired: s0 and s1 from one multiply of [x0 + x2 | x0 - x2].
HWY_INLINE Pair Dct4Pair(int16x8_t k, const int16x4_t *x) {
  const int16x8_t e = vcombine_s16(vadd_s16(x[0], x[2]), vsub_s16(x[0], x[2]));
  const int16x8_t s01 = vqrdmulhq_laneq_s16(e, k, kK2C16);
  const int32x4_t w2 = vmlsl_laneq_s16(vmull_laneq_s16(x[1], k, kKC24), x[3], k, kKC8);
  const int32x4_t w3 = vmlal_laneq_s16(vmull_laneq_s16(x[1], k, kKC8), x[3], k, kKC24);
  const int16x8_t s32 = vrshrn_high_n_s32(vrshrn_n_s32(w3, 14), w2, 14);
  return Pair{vaddq_s16(s01, s32), vsubq_s16(s01, s32)};
}

// The 4-point ADST's unrounded sums (the reference's iadst4, itx_ref_1d.h): out0 = R(a + c),
// out1 = R(b + c), out3 = R(a + b - c), out2 = R((x0 - x2 + x3) S3).
struct AdstSums {
  int32x4_t o0, o1, o3;
};
HWY_INLINE AdstSums Adst4Sums(int16x8_t k, const int16x4_t *x) {
  const int32x4_t a = vmlal_laneq_s16(
      vmlal_laneq_s16(vmull_laneq_s16(x[0], k, kKS1), x[2], k, kKS4), x[3], k, kKS2);
  const int32x4_t b = vmlsl_laneq_s16(
      vmlsl_laneq_s16(vmull_laneq_s16(x[0], k, kKS2), x[2], k, kKS1), x[3], k, kKS4);
  const int32x4_t c = vmull_laneq_s16(x[1], k, kKS3);
  return AdstSums{vaddq_s32(a, c), vaddq_s32(b, c), vsubq_s32(vaddq_s32(a, b), c)};
}

// 4-point ADST, in place, 4 lanes.
HWY_INLINE void Adst4(int16x8_t k, int16x4_t *x) {
  const AdstSums s = Adst4Sums(k, x);
  const int16x4_t o2 = vqrdmulh_laneq_s16(vadd_s16(vsub_s16(x[0], x[2]), x[3]), k, kK2S3);
  x[0] = vrshrn_n_s32(s.o0, 14);
  x[1] = vrshrn_n_s32(s.o1, 14);
  x[2] = o2;
  x[3] = vrshrn_n_s32(s.o3, 14);
}

// The same, outputs paired; out2's sum as (x0 - x2) S3 + x3 S3 so that it narrows into the
// upper half of [out3 | out2].
HWY_INLINE Pair Adst4Pair(int16x8_t k, const int16x4_t *x) {
  const AdstSums s = Adst4Sums(k, x);
  const int32x4_t w2 = vmlal_laneq_s16(vmull_laneq_s16(vsub_s16(x[0], x[2]), k, kKS3), x[3], k, kKS3);
  return Pair{vrshrn_high_n_s32(vrshrn_n_s32(s.o0, 14), s.o1, 14),
              vrshrn_high_n_s32(vrshrn_n_s32(s.o3, 14), w2, 14)};
}

// The reference's iwht4 (itx_ref_1d.h), in place; the first pass shifts its inputs by 2.
template <bool kFirst>
HWY_INLINE void Wht4(int16x4_t *x) {
  int16x4_t a = x[0], c = x[1], d = x[2], b = x[3];
  if constexpr (kFirst) {
    a = vshr_n_s16(a, 2);
    c = vshr_n_s16(c, 2);
    d = vshr_n_s16(d, 2);
    b = vshr_n_s16(b, 2);
  }
  a = vadd_s16(a, c);
  d = vsub_s16(d, b);
  const int16x4_t e = vshr_n_s16(vsub_s16(a, d), 1);
  b = vsub_s16(e, b);
  c = vsub_s16(e, c);
  a = vsub_s16(a, b);
  d = vadd_s16(d, c);
  x[0] = a;
  x[1] = b;
  x[2] = c;
  x[3] = d;
}

// 4x4 transpose of 4-lane registers: x[i] lane j -> x[j] lane i.
HWY_INLINE void Transpose(int16x4_t *x) {
  const int16x4_t t0 = vtrn1_s16(x[0], x[1]), t1 = vtrn2_s16(x[0], x[1]);
  const int16x4_t t2 = vtrn1_s16(x[2], x[3]), t3 = vtrn2_s16(x[2], x[3]);
  const int32x2_t u0 = vreinterpret_s32_s16(t0), u1 = vreinterpret_s32_s16(t1);
  const int32x2_t u2 = vreinterpret_s32_s16(t2), u3 = vreinterpret_s32_s16(t3);
  x[0] = vreinterpret_s16_s32(vtrn1_s32(u0, u2));
  x[1] = vreinterpret_s16_s32(vtrn1_s32(u1, u3));
  x[2] = vreinterpret_s16_s32(vtrn2_s32(u0, u2));
  x[3] = vreinterpret_s16_s32(vtrn2_s32(u1, u3));
}

// Two rows of 4 pixels as one 8-byte vector (lo in the lower half).
HWY_INLINE uint8x8_t LoadRows(const uint8_t *lo, const uint8_t *hi) {
  uint32_t a, b;
  memcpy(&a, lo, 4);
  memcpy(&b, hi, 4);
  return vcreate_u8(static_cast<uint64_t>(a) | static_cast<uint64_t>(b) << 32);
}

// Adds the residual rows [0 | 1] (r01) and [3 | 2] (r32), after Round2 by kShift, to dst with
// unsigned saturation.
template <int kShift>
HWY_INLINE void AddRows(uint8_t *dst, ptrdiff_t stride, int16x8_t r01, int16x8_t r32) {
  if constexpr (kShift > 0) {
    r01 = vrshrq_n_s16(r01, kShift);
    r32 = vrshrq_n_s16(r32, kShift);
  }
  uint8_t *p0 = dst, *p1 = dst + stride, *p2 = p1 + stride, *p3 = p2 + stride;
  const uint8x8_t o01 = vqmovun_s16(
      vreinterpretq_s16_u16(vaddw_u8(vreinterpretq_u16_s16(r01), LoadRows(p0, p1))));
  const uint8x8_t o32 = vqmovun_s16(
      vreinterpretq_s16_u16(vaddw_u8(vreinterpretq_u16_s16(r32), LoadRows(p3, p2))));
  vst1_lane_u32(reinterpret_cast<uint32_t *>(p0), vreinterpret_u32_u8(o01), 0);
  vst1_lane_u32(reinterpret_cast<uint32_t *>(p1), vreinterpret_u32_u8(o01), 1);
  vst1_lane_u32(reinterpret_cast<uint32_t *>(p2), vreinterpret_u32_u8(o32), 1);
  vst1_lane_u32(reinterpret_cast<uint32_t *>(p3), vreinterpret_u32_u8(o32), 0);
}

// The block (row transform kRowAdst, column kColAdst) added to dst when every coefficient lies
// within kInt16Bound[0]; false, having written nothing, otherwise. DCT_DCT blocks that are DC
// only (looked for when the hint eob is 1) take the DC path.
template <bool kRowAdst, bool kColAdst>
HWY_INLINE bool Add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int eob) {
  if constexpr (!kRowAdst && !kColAdst) {
    if (eob == 1 && neondc::TryDc<4>(dst, stride, coeffs)) return true;
  } else {
    (void)eob;
  }
  // ADST_DCT (1) is ADST on columns; DCT_ADST (2) on rows.
  constexpr int kB = kInt16Bound[0][(kColAdst ? 1 : 0) + (kRowAdst ? 2 : 0)];
  if (!Within<kB>(vld1q_s16(coeffs), vld1q_s16(coeffs + 8))) return false;
  const int16x8_t k = vld1q_s16(kMul);
  const int16x4x4_t t = vld4_s16(coeffs);  // t.val[k] lane i = coefficient (i, k)
  int16x4_t x[4] = {t.val[0], t.val[1], t.val[2], t.val[3]};
  if constexpr (kRowAdst) Adst4(k, x);
  else Dct4(k, x);
  Transpose(x);  // x[i] lane k = intermediate (i, k)
  const Pair r = kColAdst ? Adst4Pair(k, x) : Dct4Pair(k, x);
  AddRows<4>(dst, stride, r.a, r.b);
  return true;
}

// The lossless WHT block added to dst when every coefficient lies within kInt16BoundWht; false,
// having written nothing, otherwise.
HWY_INLINE bool AddWht(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs) {
  if (!Within<kInt16BoundWht>(vld1q_s16(coeffs), vld1q_s16(coeffs + 8))) return false;
  const int16x4x4_t t = vld4_s16(coeffs);
  int16x4_t x[4] = {t.val[0], t.val[1], t.val[2], t.val[3]};
  Wht4<true>(x);
  Transpose(x);
  Wht4<false>(x);
  AddRows<0>(dst, stride, vcombine_s16(x[0], x[1]), vcombine_s16(x[3], x[2]));
  return true;
}

}  // namespace neon4

#else
#define V3D_ITX_NEON_4X4 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_NEON_4X4_H_
