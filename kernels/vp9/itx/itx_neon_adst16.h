// SPDX-License-Identifier: LGPL-2.1-or-later
// aarch64 NEON 16x16 VP9 inverse transforms with an ADST on either pass (ADST_DCT, DCT_ADST,
// ADST_ADST) in 16-bit lanes, behind the per-pass L1 bounds of itx_int16_bound.h
// (kInt16BoundL1), as the generic 16-bit path of itx_hwy_16x16.h, whose Add16x16Int16 hands
// these types to Add16x16 below on NEON. Per-target header: included by itx_hwy_16x16.h (after
// itx_hwy_16.h); empty on every other target.
//
// Why apart: the 16-point ADST's 48 product pairs want their constants as lanes of vectors
// loaded once per block (by-lane multiplies with compile-time lane indices), where the generic
// template's broadcasts are rebuilt by the compiler at nearly every use; and the block goes
// through the row buffer in 8-column slices (rows: two groups of 8 rows; columns: two slices of
// 8 columns), so that one 16-point transform and its constants fit the 32 vector registers.
//
// Exactness: the same values as Iadst16x16 (itx_hwy_16x16.h) and the reference: each rounded
// value is (sum of int32 products + 2^13) >> 14 narrowed (smull/smlal/smlsl, then rshrn; every
// product sum inside int32 and every narrow value inside int16 by the L1 bound's proof), and
// R(x * cos64(16)) is the rounding doubling multiply by 2 cos64(16) (sqrdmulh: (2cx + 2^14) >>
// 15, the same integer; by -2 cos64(16) it is R(-x * cos64(16)) without forming -x). The final
// Round2(x, 6) is srshr, exact on int16.

#if defined(V3D_VP9_ITX_NEON_ADST16_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_NEON_ADST16_H_
#undef V3D_VP9_ITX_NEON_ADST16_H_
#else
#define V3D_VP9_ITX_NEON_ADST16_H_
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

#undef V3D_ITX_NEON_ADST16
#if V3D_ITX_HAVE_16 && HWY_TARGET == HWY_NEON
#define V3D_ITX_NEON_ADST16 1
namespace neonadst16 {

// The constants as lanes of three vectors (the specification's cos64(k), kC):
// [0]: cos64(1, 31, 5, 27, 9, 23, 13, 19), [1]: cos64(17, 15, 21, 11, 25, 7, 29, 3) (stage 1:
// pair j's cos64(4j + 1) in lane 2j' and cos64(31 - 4j) in lane 2j' + 1 of vector j / 4,
// j' = j % 4); [2]: cos64(4, 28, 20, 12, 8, 24), 2 cos64(16), -2 cos64(16).
alignas(16) static constexpr int16_t kTab[24] = {
    static_cast<int16_t>(kC[1]),  static_cast<int16_t>(kC[31]), static_cast<int16_t>(kC[5]),
    static_cast<int16_t>(kC[27]), static_cast<int16_t>(kC[9]),  static_cast<int16_t>(kC[23]),
    static_cast<int16_t>(kC[13]), static_cast<int16_t>(kC[19]), static_cast<int16_t>(kC[17]),
    static_cast<int16_t>(kC[15]), static_cast<int16_t>(kC[21]), static_cast<int16_t>(kC[11]),
    static_cast<int16_t>(kC[25]), static_cast<int16_t>(kC[7]),  static_cast<int16_t>(kC[29]),
    static_cast<int16_t>(kC[3]),  static_cast<int16_t>(kC[4]),  static_cast<int16_t>(kC[28]),
    static_cast<int16_t>(kC[20]), static_cast<int16_t>(kC[12]), static_cast<int16_t>(kC[8]),
    static_cast<int16_t>(kC[24]), static_cast<int16_t>(2 * kC[16]),
    static_cast<int16_t>(-2 * kC[16])};

struct Consts {
  int16x8_t k0, k1, k2;
};
HWY_INLINE Consts LoadConsts() {
  return Consts{vld1q_s16(kTab), vld1q_s16(kTab + 8), vld1q_s16(kTab + 16)};
}

// An unrounded product sum of 8 int16 lanes as int32: lanes 0..3 and 4..7.
struct Wide {
  int32x4_t lo, hi;
};
HWY_INLINE Wide Add(Wide a, Wide b) { return Wide{vaddq_s32(a.lo, b.lo), vaddq_s32(a.hi, b.hi)}; }
HWY_INLINE Wide Sub(Wide a, Wide b) { return Wide{vsubq_s32(a.lo, b.lo), vsubq_s32(a.hi, b.hi)}; }
// The two instruction sequences below are asm (the same instructions as vrshrn_n_s32 /
// vrshrn_high_n_s32 and vmull / vmlal / vmlsl by lane): GCC copies the register of the
// accumulating (second) instruction's tied operand in most uses of the intrinsics.

// rnd14, narrowed (in range by the bound).
HWY_INLINE int16x8_t Rnd(Wide w) {
  int16x8_t r;
  asm("rshrn %0.4h, %1.4s, #14\n\trshrn2 %0.8h, %2.4s, #14" : "=&w"(r) : "w"(w.lo), "w"(w.hi));
  return r;
}

// x * k[Lx] + y * k[Ly], or with kSub x * k[Lx] - y * k[Ly].
template <int Lx, int Ly, bool kSub>
HWY_INLINE Wide Mul2(int16x8_t x, int16x8_t y, int16x8_t k) {
  Wide w;
  if constexpr (kSub) {
    asm("smull %0.4s, %2.4h, %4.h[%c5]\n\tsmull2 %1.4s, %2.8h, %4.h[%c5]\n\t"
        "smlsl %0.4s, %3.4h, %4.h[%c6]\n\tsmlsl2 %1.4s, %3.8h, %4.h[%c6]"
        : "=&w"(w.lo), "=&w"(w.hi)
        : "w"(x), "w"(y), "x"(k), "i"(Lx), "i"(Ly));
  } else {
    asm("smull %0.4s, %2.4h, %4.h[%c5]\n\tsmull2 %1.4s, %2.8h, %4.h[%c5]\n\t"
        "smlal %0.4s, %3.4h, %4.h[%c6]\n\tsmlal2 %1.4s, %3.8h, %4.h[%c6]"
        : "=&w"(w.lo), "=&w"(w.hi)
        : "w"(x), "w"(y), "x"(k), "i"(Lx), "i"(Ly));
  }
  return w;
}

// A scheduling barrier (GCC schedules no instruction across a volatile asm): without it the
// pre-allocation scheduler starts every product of a stage at once, and the registers spill.
HWY_INLINE void Fence() { asm volatile(""); }

// The rotations of stages 2 and 3, with k[L0] = c and k[L1] = s: t0 = p0 c + p1 s,
// t1 = p0 s - p1 c, t2 = q1 c - q0 s, t3 = q0 c + q1 s; o0 = R(t0 + t2), o1 = R(t1 + t3),
// o2 = R(t0 - t2), o3 = R(t1 - t3). (Stage 2: (a8, a9, a12, a13) -> (b8, b9, b12, b13) by
// cos64(4, 28), and (a10, a11, a14, a15) -> (b10, b11, b14, b15) by cos64(20, 12); stage 3:
// (b4, b5, b6, b7) -> (c4, c5, c6, c7) and (b12, ..) -> (c12, ..) by cos64(8, 24).)
template <int L0, int L1>
HWY_INLINE void Rotate4(int16x8_t p0, int16x8_t p1, int16x8_t q0, int16x8_t q1, int16x8_t k,
                        int16x8_t &o0, int16x8_t &o1, int16x8_t &o2, int16x8_t &o3) {
  const Wide t0 = Mul2<L0, L1, false>(p0, p1, k), t2 = Mul2<L0, L1, true>(q1, q0, k);
  o0 = Rnd(Add(t0, t2));
  o2 = Rnd(Sub(t0, t2));
  Fence();
  const Wide t1 = Mul2<L1, L0, true>(p0, p1, k), t3 = Mul2<L0, L1, false>(q0, q1, k);
  o1 = Rnd(Add(t1, t3));
  o3 = Rnd(Sub(t1, t3));
  Fence();
}

// R(x * cos64(16)) (kNeg: R(-x * cos64(16))).
template <bool kNeg>
HWY_INLINE int16x8_t H(int16x8_t x, const Consts &k) {
  return vqrdmulhq_laneq_s16(x, k.k2, kNeg ? 7 : 6);
}

// Stage 1 for the input pairs m and m + 4 (m = 0..3): a[2m], a[2m + 1], a[2m + 8], a[2m + 9].
// Pair j (0..7) rotates (x0, x1) = (in[15 - 2j], in[2j]): s[2j] = x0 c(4j + 1) + x1 c(31 - 4j),
// s[2j + 1] = x0 c(31 - 4j) - x1 c(4j + 1); a[i] = R(s[i] + s[i + 8]), a[i + 8] =
// R(s[i] - s[i + 8]).
template <int kM>
HWY_INLINE void Stage1(const int16x8_t *in, const Consts &k, int16x8_t *a) {
  constexpr int kL = 2 * kM;  // lanes of pair m in k0 and of pair m + 4 in k1
  const int16x8_t x0 = in[15 - 2 * kM], x1 = in[2 * kM];
  const int16x8_t y0 = in[7 - 2 * kM], y1 = in[8 + 2 * kM];
  const Wide s0 = Mul2<kL, kL + 1, false>(x0, x1, k.k0);
  const Wide s8 = Mul2<kL, kL + 1, false>(y0, y1, k.k1);
  a[2 * kM] = Rnd(Add(s0, s8));
  a[2 * kM + 8] = Rnd(Sub(s0, s8));
  const Wide s1 = Mul2<kL + 1, kL, true>(x0, x1, k.k0);
  const Wide s9 = Mul2<kL + 1, kL, true>(y0, y1, k.k1);
  a[2 * kM + 1] = Rnd(Add(s1, s9));
  a[2 * kM + 9] = Rnd(Sub(s1, s9));
}

// By-lane multiplies of 16-bit lanes take their constant from v0..v15 only; GCC, left alone,
// keeps the constants in v16..v31 and copies them down at every multiply. The asm ("x": a
// register of v0..v15) puts them there for the transform that follows.
HWY_INLINE void PinLow(Consts &k) { asm("" : "+x"(k.k0), "+x"(k.k1), "+x"(k.k2)); }

// The 16-point ADST of v[0..16) (lane-wise), in place: the stages of Iadst16 (itx_hwy_1d.h).
HWY_INLINE void Adst16(int16x8_t *v, Consts k) {
  PinLow(k);
  int16x8_t a[16];
  Stage1<0>(v, k, a);
  Fence();
  Stage1<1>(v, k, a);
  Fence();
  Stage1<2>(v, k, a);
  Fence();
  Stage1<3>(v, k, a);
  Fence();
  // stage 2 (k2 lanes: 0 c4, 1 c28, 2 c20, 3 c12)
  const int16x8_t b0 = vaddq_s16(a[0], a[4]), b1 = vaddq_s16(a[1], a[5]);
  const int16x8_t b2 = vaddq_s16(a[2], a[6]), b3 = vaddq_s16(a[3], a[7]);
  const int16x8_t b4 = vsubq_s16(a[0], a[4]), b5 = vsubq_s16(a[1], a[5]);
  const int16x8_t b6 = vsubq_s16(a[2], a[6]), b7 = vsubq_s16(a[3], a[7]);
  int16x8_t b[16], c[16];  // stage 2's and 3's rotated values (the indices of Iadst16)
  Rotate4<0, 1>(a[8], a[9], a[12], a[13], k.k2, b[8], b[9], b[12], b[13]);
  Rotate4<2, 3>(a[10], a[11], a[14], a[15], k.k2, b[10], b[11], b[14], b[15]);
  // stage 3 (k2 lanes: 4 c8, 5 c24)
  Rotate4<4, 5>(b4, b5, b6, b7, k.k2, c[4], c[5], c[6], c[7]);
  Rotate4<4, 5>(b[12], b[13], b[14], b[15], k.k2, c[12], c[13], c[14], c[15]);
  const int16x8_t c2 = vsubq_s16(b0, b2), c3 = vsubq_s16(b1, b3);
  const int16x8_t c10 = vsubq_s16(b[8], b[10]), c11 = vsubq_s16(b[9], b[11]);
  // stage 4
  v[0] = vaddq_s16(b0, b2);
  v[1] = vnegq_s16(vaddq_s16(b[8], b[10]));
  v[2] = c[12];
  v[3] = vnegq_s16(c[4]);
  v[4] = H<false>(vaddq_s16(c[6], c[7]), k);
  v[5] = H<true>(vaddq_s16(c[14], c[15]), k);
  v[6] = H<false>(vaddq_s16(c10, c11), k);
  v[7] = H<true>(vaddq_s16(c2, c3), k);
  v[8] = H<false>(vsubq_s16(c2, c3), k);
  v[9] = H<false>(vsubq_s16(c11, c10), k);
  v[10] = H<false>(vsubq_s16(c[14], c[15]), k);
  v[11] = H<false>(vsubq_s16(c[7], c[6]), k);
  v[12] = c[5];
  v[13] = vnegq_s16(c[13]);
  v[14] = vaddq_s16(b[9], b[11]);
  v[15] = vnegq_s16(vaddq_s16(b1, b3));
}

// The 1-D transform of a pass (kAdst, else the DCT of itx_hwy_1d.h on the int16 Ops of
// itx_hwy_16.h) of v[0..16) in place; inputs from kNz on are zero.
template <bool kAdst, int kNz>
HWY_INLINE void Run(int16x8_t *v, const Consts &k) {
  if constexpr (kAdst) {
    Adst16(v, k);
  } else {
    using D = hn::Simd<int16_t, 8, 0>;
    hn::Vec<D> x[16], out[16];
    V3D_UNROLL
    for (size_t i = 0; i < 16; i++) x[i] = hn::Vec<D>{v[i]};
    Idct16<kNz>(D(), x, out);
    V3D_UNROLL
    for (size_t i = 0; i < 16; i++) v[i] = out[i].raw;
  }
}

// Saturating sum of |v[0..kRows)| added to acc, per lane (|-32768| = 32768).
template <size_t kRows>
HWY_INLINE uint16x8_t SumAbs(const int16x8_t *v, uint16x8_t acc) {
  V3D_UNROLL
  for (size_t i = 0; i < kRows; i++) acc = vqaddq_u16(acc, vreinterpretq_u16_s16(vabsq_s16(v[i])));
  return acc;
}
template <int kB>
HWY_INLINE bool Within(uint16x8_t s) {
  return vmaxvq_u16(s) <= static_cast<uint16_t>(kB);
}

// Round2(v[i], 6) added to the 8 pixels of row i of dst, with unsigned saturation.
HWY_INLINE void RoundAdd(uint8_t *dst, ptrdiff_t stride, const int16x8_t *v) {
  V3D_UNROLL
  for (size_t i = 0; i < 16; i++) {
    uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride;
    const int16x8_t x = vrshrq_n_s16(v[i], 6);
    const uint16x8_t sum = vaddw_u8(vreinterpretq_u16_s16(x), vld1_u8(p));
    vst1_u8(p, vqmovun_s16(vreinterpretq_s16_u16(sum)));
  }
}

enum class Result { kRowsFailed, kDone, kColumnsFailed };

// The 16x16 block (row transform kRowAdst, column transform kColAdst, not both DCT), non-zero
// coefficients in the top-left kNz x kNz square (4, 8 or 16). The row pass (two groups of 8
// rows, lane = row; one when kNz <= 8) runs when every row's |coefficients| sum to within the
// row transform's L1 bound, else kRowsFailed (nothing written); the column pass (two slices of
// 8 columns) when every column's |row results| do, else kColumnsFailed with the row results in
// rows (row-major, 16 per row, rows from kNz on not written). rows: 16 * 16, 16-byte aligned.
template <bool kRowAdst, bool kColAdst, int kNz>
HWY_INLINE Result Add16x16(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                           int16_t *rows) {
  constexpr int kRowB = kInt16BoundL1[2][kRowAdst ? 1 : 0];
  constexpr int kColB = kInt16BoundL1[2][kColAdst ? 1 : 0];
  static_assert(kRowB > 0 && kColB > 0, "proven bounds");
  constexpr size_t kR = static_cast<size_t>(kNz);
  constexpr size_t kGroups = kR > 8 ? 2 : 1;
  const Consts k = LoadConsts();
  const int16x8_t z = vdupq_n_s16(0);
  uint16x8_t sum_l = vdupq_n_u16(0), sum_r = sum_l;  // per column: columns 0..7, 8..15
  int16x8_t left[8];  // the last group's row results, columns 0..7 (the others go to rows)
  V3D_UNROLL
  for (size_t g = 0; g < kGroups; g++) {
    int16x8_t a[16];  // a[i], a[8 + i]: row 8g + i, columns 0..7 and 8..15
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) {
      const size_t r = 8 * g + i;
      a[i] = r < kR ? vld1q_s16(coeffs + 16 * r) : z;
      a[8 + i] = r < kR && kR > 8 ? vld1q_s16(coeffs + 16 * r + 8) : z;
    }
    TransposeNeon8x8(a);  // a[k] lane i = coefficient (8g + i, k); zero from column kNz on
    if constexpr (kR > 8) TransposeNeon8x8(a + 8);
    if (!Within<kRowB>(SumAbs<(kR < 8 ? kR : 8)>(a, kR > 8 ? SumAbs<8>(a + 8, vdupq_n_u16(0))
                                                           : vdupq_n_u16(0))))
      return Result::kRowsFailed;
    Run<kRowAdst, kNz>(a, k);
    TransposeNeon8x8(a);
    TransposeNeon8x8(a + 8);
    sum_l = SumAbs<8>(a, sum_l);
    sum_r = SumAbs<8>(a + 8, sum_r);
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) {
      if (8 * g + i >= kR) continue;
      vst1q_s16(rows + 16 * (8 * g + i) + 8, a[8 + i]);
      if (g + 1 < kGroups) vst1q_s16(rows + 16 * (8 * g + i), a[i]);
    }
    if (g + 1 == kGroups) {
      V3D_UNROLL
      for (size_t i = 0; i < 8; i++) left[i] = a[i];
    }
  }
  constexpr size_t kLast = 8 * (kGroups - 1);  // the first row of the last group
  if (!Within<kColB>(sum_l) || !Within<kColB>(sum_r)) {
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) {
      if (kLast + i < kR) vst1q_s16(rows + 16 * (kLast + i), left[i]);
    }
    return Result::kColumnsFailed;
  }
  // Columns 0..7: the first group's rows (if two) from rows, the last group's from left; then
  // columns 8..15 from rows (zero from row kNz on).
  int16x8_t x[16];
  V3D_UNROLL
  for (size_t i = 0; i < 16; i++) {
    x[i] = i < kLast ? vld1q_s16(rows + 16 * i) : i < kLast + 8 ? left[i - kLast] : z;
  }
  Run<kColAdst, kNz>(x, k);
  RoundAdd(dst, stride, x);
  V3D_UNROLL
  for (size_t i = 0; i < 16; i++) x[i] = i < kR ? vld1q_s16(rows + 16 * i + 8) : z;
  Run<kColAdst, kNz>(x, k);
  RoundAdd(dst + 8, stride, x);
  return Result::kDone;
}

}  // namespace neonadst16
#else
#define V3D_ITX_NEON_ADST16 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_NEON_ADST16_H_
