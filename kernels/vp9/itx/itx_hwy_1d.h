// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 1-D inverse transforms (DCT 4/8/16/32, ADST 4/8/16, WHT 4) on Highway vectors of int32:
// every lane carries one independent 1-D transform, v[k] holds input/output element k.
// Per-target header: included once per Highway target by itx_hwy.cpp (foreach_target.h), hence
// the toggle guard instead of #pragma once.
//
// Exactness: all arithmetic is 32-bit two's-complement wrapping (Highway Add/Sub/Mul on int32
// wrap), with dct_const_round_shift R(x) = (x + 8192) >> 14 (arithmetic) applied at exactly the
// points where the VP9 reference (libvpx's butterfly structure, itx_ref.cpp) applies it. Between
// two rounding points the order of additions and multiplications does not matter modulo 2^32, so
// each rounded value is written as one sum of products R(a*ka + b*kb).
//
// kNz (template argument of every transform): the inputs v[kNz..n) are known to be zero; they
// are not read, and the compiler folds the work that depends only on them.

#if defined(V3D_VP9_ITX_HWY_1D_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_1D_H_
#undef V3D_VP9_ITX_HWY_1D_H_
#else
#define V3D_VP9_ITX_HWY_1D_H_
#endif

#include <cstdint>

#include <hwy/highway.h>

#include "vp9/itx/itx_ref_1d.h"  // constants (pragma once: included on the first pass only)

// Full unrolling of the small constant-count loops over vectors: arrays of vectors then live in
// registers (or plain spill slots) instead of being indexed in memory.
#ifndef V3D_UNROLL
#if defined(__clang__)
#define V3D_UNROLL _Pragma("unroll")
#define V3D_NO_UNROLL _Pragma("nounroll")
#elif defined(__GNUC__)
#define V3D_UNROLL _Pragma("GCC unroll 32")
#define V3D_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define V3D_UNROLL
#define V3D_NO_UNROLL
#endif
#endif

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// The constants are the reference's (itx_ref_1d.h): kC[k] = cos64(k) of the VP9 specification
// (libvpx's cospi_k_64), kSn = SINPI_n_9 of its inverse ADST4 process.
constexpr const int32_t (&kC)[33] = ref::kCos64;
constexpr int32_t kS1 = ref::kSinPi9[1], kS2 = ref::kSinPi9[2], kS3 = ref::kSinPi9[3],
                  kS4 = ref::kSinPi9[4];

// Small helpers bound to one descriptor (d is an empty tag; everything inlines).
template <class D>
struct Ops {
  using V = hn::Vec<D>;
  D d;
  HWY_INLINE V Z() const { return hn::Zero(d); }
  HWY_INLINE V K(int32_t c) const { return hn::Set(d, c); }
  // The DCT templates' additions and subtractions (wrapping; AT / ST: the same).
  HWY_INLINE V A(V a, V b) const { return hn::Add(a, b); }
  HWY_INLINE V S(V a, V b) const { return hn::Sub(a, b); }
  HWY_INLINE V AT(V a, V b) const { return hn::Add(a, b); }
  HWY_INLINE V ST(V a, V b) const { return hn::Sub(a, b); }
  // dct_const_round_shift
  HWY_INLINE V R(V x) const { return hn::ShiftRight<14>(hn::Add(x, hn::Set(d, 8192))); }
  HWY_INLINE V M(V a, int32_t ka) const { return hn::Mul(a, K(ka)); }
#if HWY_TARGET == HWY_NEON
  // Highway 1.0.3 has no integer multiply-accumulate; NEON's (by a scalar) saves the separate
  // multiply and add. The rounding constant 8192 starts the accumulation: the sum is the same
  // modulo 2^32, so the shifted result is too.
  static_assert(hn::MaxLanes(D()) == 4, "NEON code assumes full 128-bit int32 vectors");
  // acc + a*ka
  HWY_INLINE V MA(V acc, V a, int32_t ka) const { return V{vmlaq_n_s32(acc.raw, a.raw, ka)}; }
  HWY_INLINE V B(V a, int32_t ka, V b, int32_t kb) const {
    return hn::ShiftRight<14>(MA(MA(K(8192), a, ka), b, kb));
  }
  HWY_INLINE V H(V x) const { return hn::ShiftRight<14>(MA(K(8192), x, kC[16])); }
  HWY_INLINE V B1(V a, int32_t ka) const { return hn::ShiftRight<14>(MA(K(8192), a, ka)); }
#else
  // acc + a*ka
  HWY_INLINE V MA(V acc, V a, int32_t ka) const { return hn::Add(acc, hn::Mul(a, K(ka))); }
  // R(a*ka + b*kb)
  HWY_INLINE V B(V a, int32_t ka, V b, int32_t kb) const {
    return R(hn::Add(hn::Mul(a, K(ka)), hn::Mul(b, K(kb))));
  }
  // R(x * cospi_16_64)
  HWY_INLINE V H(V x) const { return R(hn::Mul(x, K(kC[16]))); }
  // R(a*ka)
  HWY_INLINE V B1(V a, int32_t ka) const { return R(hn::Mul(a, K(ka))); }
#endif
};

// Input element k, or zero when the caller guarantees it is zero.
template <int kNz, class V, class O>
HWY_INLINE V In(const O &o, const V *v, int k) {
  return k < kNz ? v[k] : o.Z();
}

// R(a*ka + b*kb) where a is input element ia and b input element ib of a transform whose inputs
// from kNz on are known zero: the one-product form R(a*ka) (or R(b*kb)) when one of them is
// (equal values: the zero product adds nothing), zero when both are. The 16-bit lanes' one-
// product form is a single rounding multiply, cheaper than the product pair.
template <int kNz, class O, class V>
HWY_INLINE V BZ(const O &o, int ia, V a, int32_t ka, int ib, V b, int32_t kb) {
  if (ia >= kNz && ib >= kNz) return o.Z();
  if (ib >= kNz) return o.B1(a, ka);
  if (ia >= kNz) return o.B1(b, kb);
  return o.B(a, ka, b, kb);
}

// ---------------------------------------------------------------------------------------------
// DCT. The even half of an n-point IDCT is the n/2-point IDCT of the even inputs (e[] below);
// the odd inputs go through the stages of the odd half, and out[k] = e[k] + odd[n/2-1-k],
// out[n-1-k] = e[k] - odd[n/2-1-k]. Stage numbers follow libvpx's idct*_c.
// IdctN<kNz>(d, in, out) runs on Ops<D>; IdctNO<kNz>(o, in, out) on any type with Ops's
// interface (Z, H, B, B1, A, S, AT, ST), e.g. the saturating int16 Ops of itx_hwy_sat.h. Every
// addition and subtraction goes through o.A / o.S or o.AT / o.ST, every rounded product through
// o.H / o.B / o.B1. AT / ST ("tracked") form exactly the values that are an input of a rounded
// product (H, B) and, with kFinal, the outputs; every value formed by A / S or B is used by one
// butterfly only, a pair (v + w, v - w) in some order, and so is each nested transform's output.
// (itx_hwy_sat.h relies on this; docs/itx_int16_bounds.md.) Ops<D> makes no difference.

template <int kNz, bool kFinal = true, class O, class V>
HWY_INLINE void Idct4O(const O &o, const V *in, V *out) {
  const V i0 = In<kNz>(o, in, 0), i1 = In<kNz>(o, in, 1);
  const V i2 = In<kNz>(o, in, 2), i3 = In<kNz>(o, in, 3);
  const V s0 = o.H(o.AT(i0, i2)), s1 = o.H(o.ST(i0, i2));
  const V s2 = BZ<kNz>(o, 1, i1, kC[24], 3, i3, -kC[8]), s3 = BZ<kNz>(o, 1, i1, kC[8], 3, i3, kC[24]);
  if constexpr (kFinal) {
    out[0] = o.AT(s0, s3);
    out[1] = o.AT(s1, s2);
    out[2] = o.ST(s1, s2);
    out[3] = o.ST(s0, s3);
  } else {
    out[0] = o.A(s0, s3);
    out[1] = o.A(s1, s2);
    out[2] = o.S(s1, s2);
    out[3] = o.S(s0, s3);
  }
}

template <int kNz, bool kFinal = true, class O, class V>
HWY_INLINE void Idct8O(const O &o, const V *in, V *out) {
  V e[4];
  const V ev[4] = {In<kNz>(o, in, 0), In<kNz>(o, in, 2), In<kNz>(o, in, 4), In<kNz>(o, in, 6)};
  Idct4O<(kNz + 1) / 2, false>(o, ev, e);
  const V i1 = In<kNz>(o, in, 1), i3 = In<kNz>(o, in, 3);
  const V i5 = In<kNz>(o, in, 5), i7 = In<kNz>(o, in, 7);
  const V s4 = BZ<kNz>(o, 1, i1, kC[28], 7, i7, -kC[4]), s7 = BZ<kNz>(o, 1, i1, kC[4], 7, i7, kC[28]);
  const V s5 = BZ<kNz>(o, 5, i5, kC[12], 3, i3, -kC[20]), s6 = BZ<kNz>(o, 5, i5, kC[20], 3, i3, kC[12]);
  const V t4 = o.A(s4, s5), t5 = o.S(s4, s5), t6 = o.S(s7, s6), t7 = o.A(s6, s7);
  const V u5 = o.H(o.ST(t6, t5)), u6 = o.H(o.AT(t5, t6));
  const V odd[4] = {t4, u5, u6, t7};  // odd[j] = step 4 + j
  V3D_UNROLL
  for (int k = 0; k < 4; k++) {
    out[k] = kFinal ? o.AT(e[k], odd[3 - k]) : o.A(e[k], odd[3 - k]);
    out[7 - k] = kFinal ? o.ST(e[k], odd[3 - k]) : o.S(e[k], odd[3 - k]);
  }
}

template <int kNz, bool kFinal = true, class O, class V>
HWY_INLINE void Idct16O(const O &o, const V *in, V *out) {
  V ev[8], e[8];
  V3D_UNROLL
  for (int k = 0; k < 8; k++) ev[k] = In<kNz>(o, in, 2 * k);
  Idct8O<(kNz + 1) / 2, false>(o, ev, e);
  const V i1 = In<kNz>(o, in, 1), i3 = In<kNz>(o, in, 3), i5 = In<kNz>(o, in, 5);
  const V i7 = In<kNz>(o, in, 7), i9 = In<kNz>(o, in, 9), i11 = In<kNz>(o, in, 11);
  const V i13 = In<kNz>(o, in, 13), i15 = In<kNz>(o, in, 15);
  // stage 2
  const V a8 = BZ<kNz>(o, 1, i1, kC[30], 15, i15, -kC[2]), a15 = BZ<kNz>(o, 1, i1, kC[2], 15, i15, kC[30]);
  const V a9 = BZ<kNz>(o, 9, i9, kC[14], 7, i7, -kC[18]), a14 = BZ<kNz>(o, 9, i9, kC[18], 7, i7, kC[14]);
  const V a10 = BZ<kNz>(o, 5, i5, kC[22], 11, i11, -kC[10]), a13 = BZ<kNz>(o, 5, i5, kC[10], 11, i11, kC[22]);
  const V a11 = BZ<kNz>(o, 13, i13, kC[6], 3, i3, -kC[26]), a12 = BZ<kNz>(o, 13, i13, kC[26], 3, i3, kC[6]);
  // stage 3
  const V b8 = o.A(a8, a9), b9 = o.ST(a8, a9), b10 = o.ST(a11, a10), b11 = o.A(a10, a11);
  const V b12 = o.A(a12, a13), b13 = o.ST(a12, a13), b14 = o.ST(a15, a14), b15 = o.A(a14, a15);
  // stage 4
  const V c9 = o.B(b9, -kC[8], b14, kC[24]), c14 = o.B(b9, kC[24], b14, kC[8]);
  const V c10 = o.B(b10, -kC[24], b13, -kC[8]), c13 = o.B(b10, -kC[8], b13, kC[24]);
  // stage 5
  const V e8 = o.A(b8, b11), e9 = o.A(c9, c10), e10 = o.S(c9, c10), e11 = o.S(b8, b11);
  const V e12 = o.S(b15, b12), e13 = o.S(c14, c13), e14 = o.A(c13, c14), e15 = o.A(b12, b15);
  // stage 6
  const V f10 = o.H(o.ST(e13, e10)), f13 = o.H(o.AT(e10, e13));
  const V f11 = o.H(o.ST(e12, e11)), f12 = o.H(o.AT(e11, e12));
  const V f[8] = {e8, e9, f10, f11, f12, f13, e14, e15};  // f[j] = step 8 + j
  V3D_UNROLL
  for (int k = 0; k < 8; k++) {
    out[k] = kFinal ? o.AT(e[k], f[7 - k]) : o.A(e[k], f[7 - k]);
    out[15 - k] = kFinal ? o.ST(e[k], f[7 - k]) : o.S(e[k], f[7 - k]);
  }
}

template <int kNz, bool kFinal = true, class O, class V>
HWY_INLINE void Idct32O(const O &o, const V *in, V *out) {
  V ev[16], e[16];
  V3D_UNROLL
  for (int k = 0; k < 16; k++) ev[k] = In<kNz>(o, in, 2 * k);
  Idct16O<(kNz + 1) / 2, false>(o, ev, e);
  auto I = [&](int k) { return In<kNz>(o, in, k); };
  // stage 1
  const V s16 = BZ<kNz>(o, 1, I(1), kC[31], 31, I(31), -kC[1]), s31 = BZ<kNz>(o, 1, I(1), kC[1], 31, I(31), kC[31]);
  const V s17 = BZ<kNz>(o, 17, I(17), kC[15], 15, I(15), -kC[17]), s30 = BZ<kNz>(o, 17, I(17), kC[17], 15, I(15), kC[15]);
  const V s18 = BZ<kNz>(o, 9, I(9), kC[23], 23, I(23), -kC[9]), s29 = BZ<kNz>(o, 9, I(9), kC[9], 23, I(23), kC[23]);
  const V s19 = BZ<kNz>(o, 25, I(25), kC[7], 7, I(7), -kC[25]), s28 = BZ<kNz>(o, 25, I(25), kC[25], 7, I(7), kC[7]);
  const V s20 = BZ<kNz>(o, 5, I(5), kC[27], 27, I(27), -kC[5]), s27 = BZ<kNz>(o, 5, I(5), kC[5], 27, I(27), kC[27]);
  const V s21 = BZ<kNz>(o, 21, I(21), kC[11], 11, I(11), -kC[21]), s26 = BZ<kNz>(o, 21, I(21), kC[21], 11, I(11), kC[11]);
  const V s22 = BZ<kNz>(o, 13, I(13), kC[19], 19, I(19), -kC[13]), s25 = BZ<kNz>(o, 13, I(13), kC[13], 19, I(19), kC[19]);
  const V s23 = BZ<kNz>(o, 29, I(29), kC[3], 3, I(3), -kC[29]), s24 = BZ<kNz>(o, 29, I(29), kC[29], 3, I(3), kC[3]);
  // stage 2
  const V t16 = o.A(s16, s17), t17 = o.ST(s16, s17), t18 = o.ST(s19, s18), t19 = o.A(s18, s19);
  const V t20 = o.A(s20, s21), t21 = o.ST(s20, s21), t22 = o.ST(s23, s22), t23 = o.A(s22, s23);
  const V t24 = o.A(s24, s25), t25 = o.ST(s24, s25), t26 = o.ST(s27, s26), t27 = o.A(s26, s27);
  const V t28 = o.A(s28, s29), t29 = o.ST(s28, s29), t30 = o.ST(s31, s30), t31 = o.A(s30, s31);
  // stage 3
  const V u17 = o.B(t17, -kC[4], t30, kC[28]), u30 = o.B(t17, kC[28], t30, kC[4]);
  const V u18 = o.B(t18, -kC[28], t29, -kC[4]), u29 = o.B(t18, -kC[4], t29, kC[28]);
  const V u21 = o.B(t21, -kC[20], t26, kC[12]), u26 = o.B(t21, kC[12], t26, kC[20]);
  const V u22 = o.B(t22, -kC[12], t25, -kC[20]), u25 = o.B(t22, -kC[20], t25, kC[12]);
  // stage 4
  const V v16 = o.A(t16, t19), v17 = o.A(u17, u18), v18 = o.ST(u17, u18), v19 = o.ST(t16, t19);
  const V v20 = o.ST(t23, t20), v21 = o.ST(u22, u21), v22 = o.A(u21, u22), v23 = o.A(t20, t23);
  const V v24 = o.A(t24, t27), v25 = o.A(u25, u26), v26 = o.ST(u25, u26), v27 = o.ST(t24, t27);
  const V v28 = o.ST(t31, t28), v29 = o.ST(u30, u29), v30 = o.A(u29, u30), v31 = o.A(t28, t31);
  // stage 5
  const V w18 = o.B(v18, -kC[8], v29, kC[24]), w29 = o.B(v18, kC[24], v29, kC[8]);
  const V w19 = o.B(v19, -kC[8], v28, kC[24]), w28 = o.B(v19, kC[24], v28, kC[8]);
  const V w20 = o.B(v20, -kC[24], v27, -kC[8]), w27 = o.B(v20, -kC[8], v27, kC[24]);
  const V w21 = o.B(v21, -kC[24], v26, -kC[8]), w26 = o.B(v21, -kC[8], v26, kC[24]);
  // stage 6
  const V x16 = o.A(v16, v23), x17 = o.A(v17, v22), x18 = o.A(w18, w21), x19 = o.A(w19, w20);
  const V x20 = o.S(w19, w20), x21 = o.S(w18, w21), x22 = o.S(v17, v22), x23 = o.S(v16, v23);
  const V x24 = o.S(v31, v24), x25 = o.S(v30, v25), x26 = o.S(w29, w26), x27 = o.S(w28, w27);
  const V x28 = o.A(w27, w28), x29 = o.A(w26, w29), x30 = o.A(v25, v30), x31 = o.A(v24, v31);
  // stage 7
  const V y20 = o.H(o.ST(x27, x20)), y27 = o.H(o.AT(x20, x27));
  const V y21 = o.H(o.ST(x26, x21)), y26 = o.H(o.AT(x21, x26));
  const V y22 = o.H(o.ST(x25, x22)), y25 = o.H(o.AT(x22, x25));
  const V y23 = o.H(o.ST(x24, x23)), y24 = o.H(o.AT(x23, x24));
  const V y[16] = {x16, x17, x18, x19, y20, y21, y22, y23,
                   y24, y25, y26, y27, x28, x29, x30, x31};  // y[j] = step 16 + j
  V3D_UNROLL
  for (int k = 0; k < 16; k++) {
    out[k] = kFinal ? o.AT(e[k], y[15 - k]) : o.A(e[k], y[15 - k]);
    out[31 - k] = kFinal ? o.ST(e[k], y[15 - k]) : o.S(e[k], y[15 - k]);
  }
}

template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Idct4(D d, const V *in, V *out) {
  Idct4O<kNz>(Ops<D>{d}, in, out);
}
template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Idct8(D d, const V *in, V *out) {
  Idct8O<kNz>(Ops<D>{d}, in, out);
}
template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Idct16(D d, const V *in, V *out) {
  Idct16O<kNz>(Ops<D>{d}, in, out);
}
template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Idct32(D d, const V *in, V *out) {
  Idct32O<kNz>(Ops<D>{d}, in, out);
}

// ---------------------------------------------------------------------------------------------
// ADST

template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Iadst4(D d, const V *in, V *out) {
  const Ops<D> o{d};
  const V x0 = In<kNz>(o, in, 0), x1 = In<kNz>(o, in, 1);
  const V x2 = In<kNz>(o, in, 2), x3 = In<kNz>(o, in, 3);
  const V s0 = o.MA(o.MA(o.M(x0, kS1), x2, kS4), x3, kS2);
  const V s1 = o.MA(o.MA(o.M(x0, kS2), x2, -kS1), x3, -kS4);
  const V s3 = o.M(x1, kS3);
  const V s2 = o.M(x0 - x2 + x3, kS3);
  out[0] = o.R(s0 + s3);
  out[1] = o.R(s1 + s3);
  out[2] = o.R(s2);
  out[3] = o.R(s0 + s1 - s3);
}

template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Iadst8(D d, const V *in, V *out) {
  const Ops<D> o{d};
  auto I = [&](int k) { return In<kNz>(o, in, k); };
  const V x0 = I(7), x1 = I(0), x2 = I(5), x3 = I(2), x4 = I(3), x5 = I(4), x6 = I(1), x7 = I(6);
  // stage 1: products, then rounded sums and differences
  const V s0 = o.MA(o.M(x0, kC[2]), x1, kC[30]), s1 = o.MA(o.M(x0, kC[30]), x1, -kC[2]);
  const V s2 = o.MA(o.M(x2, kC[10]), x3, kC[22]), s3 = o.MA(o.M(x2, kC[22]), x3, -kC[10]);
  const V s4 = o.MA(o.M(x4, kC[18]), x5, kC[14]), s5 = o.MA(o.M(x4, kC[14]), x5, -kC[18]);
  const V s6 = o.MA(o.M(x6, kC[26]), x7, kC[6]), s7 = o.MA(o.M(x6, kC[6]), x7, -kC[26]);
  const V a0 = o.R(s0 + s4), a1 = o.R(s1 + s5), a2 = o.R(s2 + s6), a3 = o.R(s3 + s7);
  const V a4 = o.R(s0 - s4), a5 = o.R(s1 - s5), a6 = o.R(s2 - s6), a7 = o.R(s3 - s7);
  // stage 2
  const V t4 = o.MA(o.M(a4, kC[8]), a5, kC[24]), t5 = o.MA(o.M(a4, kC[24]), a5, -kC[8]);
  const V t6 = o.MA(o.M(a7, kC[8]), a6, -kC[24]), t7 = o.MA(o.M(a6, kC[8]), a7, kC[24]);
  const V b0 = a0 + a2, b1 = a1 + a3, b2 = a0 - a2, b3 = a1 - a3;
  const V b4 = o.R(t4 + t6), b5 = o.R(t5 + t7), b6 = o.R(t4 - t6), b7 = o.R(t5 - t7);
  // stage 3
  const V c2 = o.H(b2 + b3), c3 = o.H(b2 - b3), c6 = o.H(b6 + b7), c7 = o.H(b6 - b7);
  const V z = o.Z();
  out[0] = b0;
  out[1] = z - b4;
  out[2] = c6;
  out[3] = z - c2;
  out[4] = c3;
  out[5] = z - c7;
  out[6] = b5;
  out[7] = z - b1;
}

template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Iadst16(D d, const V *in, V *out) {
  const Ops<D> o{d};
  auto I = [&](int k) { return In<kNz>(o, in, k); };
  // x[j] = input element kPerm[j]
  V x[16];
  {
    constexpr int kPerm[16] = {15, 0, 13, 2, 11, 4, 9, 6, 7, 8, 5, 10, 3, 12, 1, 14};
    V3D_UNROLL
    for (int j = 0; j < 16; j++) x[j] = I(kPerm[j]);
  }
  // stage 1: rotation of each pair (x[2j], x[2j+1]) by the angles below, then rounded sums and
  // differences of products j and j + 8.
  constexpr int kA[8] = {1, 5, 9, 13, 17, 21, 25, 29};  // s[2j] = x*c(kA) + y*c(32-kA)
  V s[16];
  V3D_UNROLL
  for (int j = 0; j < 8; j++) {
    s[2 * j] = o.MA(o.M(x[2 * j], kC[kA[j]]), x[2 * j + 1], kC[32 - kA[j]]);
    s[2 * j + 1] = o.MA(o.M(x[2 * j], kC[32 - kA[j]]), x[2 * j + 1], -kC[kA[j]]);
  }
  V a[16];
  V3D_UNROLL
  for (int j = 0; j < 8; j++) {
    a[j] = o.R(s[j] + s[j + 8]);
    a[j + 8] = o.R(s[j] - s[j + 8]);
  }
  // stage 2
  const V t8 = o.MA(o.M(a[8], kC[4]), a[9], kC[28]);
  const V t9 = o.MA(o.M(a[8], kC[28]), a[9], -kC[4]);
  const V t10 = o.MA(o.M(a[10], kC[20]), a[11], kC[12]);
  const V t11 = o.MA(o.M(a[10], kC[12]), a[11], -kC[20]);
  const V t12 = o.MA(o.M(a[13], kC[4]), a[12], -kC[28]);
  const V t13 = o.MA(o.M(a[12], kC[4]), a[13], kC[28]);
  const V t14 = o.MA(o.M(a[15], kC[20]), a[14], -kC[12]);
  const V t15 = o.MA(o.M(a[14], kC[20]), a[15], kC[12]);
  const V b0 = a[0] + a[4], b1 = a[1] + a[5], b2 = a[2] + a[6], b3 = a[3] + a[7];
  const V b4 = a[0] - a[4], b5 = a[1] - a[5], b6 = a[2] - a[6], b7 = a[3] - a[7];
  const V b8 = o.R(t8 + t12), b9 = o.R(t9 + t13), b10 = o.R(t10 + t14), b11 = o.R(t11 + t15);
  const V b12 = o.R(t8 - t12), b13 = o.R(t9 - t13), b14 = o.R(t10 - t14), b15 = o.R(t11 - t15);
  // stage 3
  const V u4 = o.MA(o.M(b4, kC[8]), b5, kC[24]), u5 = o.MA(o.M(b4, kC[24]), b5, -kC[8]);
  const V u6 = o.MA(o.M(b7, kC[8]), b6, -kC[24]), u7 = o.MA(o.M(b6, kC[8]), b7, kC[24]);
  const V u12 = o.MA(o.M(b12, kC[8]), b13, kC[24]);
  const V u13 = o.MA(o.M(b12, kC[24]), b13, -kC[8]);
  const V u14 = o.MA(o.M(b15, kC[8]), b14, -kC[24]);
  const V u15 = o.MA(o.M(b14, kC[8]), b15, kC[24]);
  const V c0 = b0 + b2, c1 = b1 + b3, c2 = b0 - b2, c3 = b1 - b3;
  const V c4 = o.R(u4 + u6), c5 = o.R(u5 + u7), c6 = o.R(u4 - u6), c7 = o.R(u5 - u7);
  const V c8 = b8 + b10, c9 = b9 + b11, c10 = b8 - b10, c11 = b9 - b11;
  const V c12 = o.R(u12 + u14), c13 = o.R(u13 + u15), c14 = o.R(u12 - u14);
  const V c15 = o.R(u13 - u15);
  // stage 4
  const V z = o.Z();
  const V d2 = o.H(z - (c2 + c3)), d3 = o.H(c2 - c3), d6 = o.H(c6 + c7), d7 = o.H(c7 - c6);
  const V d10 = o.H(c10 + c11), d11 = o.H(c11 - c10), d14 = o.H(z - (c14 + c15));
  const V d15 = o.H(c14 - c15);
  out[0] = c0;
  out[1] = z - c8;
  out[2] = c12;
  out[3] = z - c4;
  out[4] = d6;
  out[5] = d14;
  out[6] = d10;
  out[7] = d2;
  out[8] = d3;
  out[9] = d11;
  out[10] = d15;
  out[11] = d7;
  out[12] = c5;
  out[13] = z - c13;
  out[14] = c9;
  out[15] = z - c1;
}

// ---------------------------------------------------------------------------------------------
// WHT (lossless): one 4-point pass; kFirst applies the >> UNIT_QUANT_SHIFT (2) of the row pass.

template <bool kFirst, class D, class V = hn::Vec<D>>
HWY_INLINE void Iwht4(D d, const V *in, V *out) {
  V a = in[0], c = in[1], dd = in[2], b = in[3];
  if (kFirst) {
    a = hn::ShiftRight<2>(a);
    c = hn::ShiftRight<2>(c);
    dd = hn::ShiftRight<2>(dd);
    b = hn::ShiftRight<2>(b);
  }
  a = a + c;
  dd = dd - b;
  const V e = hn::ShiftRight<1>(a - dd);
  b = e - b;
  c = e - c;
  a = a - b;
  dd = dd + c;
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = dd;
}

// Functors selecting a 1-D transform by type, for the 2-D driver. Run<n, kNz>(d, v) transforms
// v[0..n) in place.
struct TxDct {
  template <size_t kN, int kNz, class D, class V>
  static HWY_INLINE void Run(D d, V *v) {
    V out[kN];
    if constexpr (kN == 4) Idct4<kNz>(d, v, out);
    else if constexpr (kN == 8) Idct8<kNz>(d, v, out);
    else if constexpr (kN == 16) Idct16<kNz>(d, v, out);
    else Idct32<kNz>(d, v, out);
    V3D_UNROLL
    for (size_t k = 0; k < kN; k++) v[k] = out[k];
  }
};
struct TxAdst {
  template <size_t kN, int kNz, class D, class V>
  static HWY_INLINE void Run(D d, V *v) {
    V out[kN];
    if constexpr (kN == 4) Iadst4<kNz>(d, v, out);
    else if constexpr (kN == 8) Iadst8<kNz>(d, v, out);
    else Iadst16<kNz>(d, v, out);
    V3D_UNROLL
    for (size_t k = 0; k < kN; k++) v[k] = out[k];
  }
};

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_1D_H_
