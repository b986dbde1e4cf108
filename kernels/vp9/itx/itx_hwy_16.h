// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transforms in 16-bit lanes, for blocks whose coefficients are within the proven
// bounds of itx_int16_bound.h (every other block takes the 32-bit path of itx_hwy.cpp).
// Per-target header: included by itx_hwy.cpp after itx_hwy_1d.h and simd/transpose_i32.h.
//
// Exactness: the 1-D transforms are the 32-bit path's own templates (itx_hwy_1d.h), which
// follow the reference's structure value for value, run on int16 vectors through a
// specialisation of their Ops: a rounded sum of two products R(a*ka + b*kb) is formed in int32
// (x86 pmaddwd; NEON vmull/vmlal) and narrowed after rounding; R(x * cos64(16)) is one
// rounding multiply (pmulhrsw / vqrdmulh by 2 * cos64(16), exactly (x*c + 2^13) >> 14); the final
// Round2(x, s) is the same multiply by 2^(15-s). Inside the bound, itx_int16_bound.h's proof
// shows that no value the reference forms in an addition, subtraction or rounding leaves int16
// and no product sum leaves int32, so every value here equals the reference's.
// The ADST is written here separately (its 32-bit code keeps unrounded product sums in the same
// vectors as rounded values): products go to pairs of int32 vectors (Wide), rounded as above.
// x86 (SSSE3 and up: pmulhrsw) and aarch64 NEON only; elsewhere V3D_ITX_HAVE_16 stays 0.

#if defined(V3D_VP9_ITX_HWY_16_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_16_H_
#undef V3D_VP9_ITX_HWY_16_H_
#else
#define V3D_VP9_ITX_HWY_16_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef V3D_ITX_HAVE_16
// EMU128 (Highway's portable fallback, compiled by clang builds on every architecture) keeps
// its lanes in arrays, not in the intrinsics' register types.
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128 && !HWY_HAVE_SCALABLE && \
    (HWY_ARCH_X86 || (HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64))
#define V3D_ITX_HAVE_16 1

#if HWY_ARCH_X86
// Constant vectors as loads from memory: from AVX2 on, GCC builds some constants in a general
// register and broadcasts it, two more shuffle-unit operations per constant on a path whose
// shuffle units are its bottleneck. (Not const, so that GCC cannot fold the values and must
// load them; nothing writes them.)
template <int32_t kV>
HWY_INLINE const int32_t *SplatTable32() {
  alignas(64) static int32_t kVec[16] = {kV, kV, kV, kV, kV, kV, kV, kV,
                                         kV, kV, kV, kV, kV, kV, kV, kV};
  return kVec;
}
constexpr int32_t Splat16To32(int16_t v) {
  return static_cast<int32_t>((static_cast<uint32_t>(v) & 0xFFFFu) * 0x10001u);
}
template <int32_t kV>
HWY_INLINE __m128i Splat32() {
  return _mm_load_si128(reinterpret_cast<const __m128i *>(SplatTable32<kV>()));
}
template <int32_t kV>
HWY_INLINE __m128i Splat16() {
  return Splat32<Splat16To32(static_cast<int16_t>(kV))>();
}
// The same in d's vectors (up to 512 bits).
template <int16_t kV, class D>
HWY_INLINE hn::Vec<D> SplatLoad16(D d) {
  const hn::Repartition<int32_t, D> d32;
  return hn::BitCast(d, hn::Load(d32, SplatTable32<Splat16To32(kV)>()));
}
// M(k) for k = 1..31: the cases of the constant-table switches below.
#define V3D_FOR_COS_1_31(M)                                                                    \
  M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15) M(16)     \
  M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31)
// 2 * ka in every lane of d's vectors, loaded (see above) where ka is a compile-time
// cos64(k) or -cos64(k), k = 1..31 (every constant of Ops::B1); else a broadcast.
template <class D>
HWY_INLINE hn::Vec<D> CosSplat2(D d, int32_t ka) {
  if (__builtin_constant_p(ka)) {
    switch (ka) {
#define V3D_COS_CASE(k)                                                        \
  case kC[k]:                                                                  \
    return SplatLoad16<static_cast<int16_t>(2 * kC[k])>(d);                    \
  case -kC[k]:                                                                 \
    return SplatLoad16<static_cast<int16_t>(-2 * kC[k])>(d);
      V3D_FOR_COS_1_31(V3D_COS_CASE)
#undef V3D_COS_CASE
      default:
        break;
    }
  }
  return hn::Set(d, static_cast<int16_t>(2 * ka));
}

// The constant pair (ka, kb) of a rotation as one int32 (ka in the low half): the multiplier of
// pmaddwd / vpdpwssd on (a, b) pairs.
constexpr int32_t PairOf(int32_t ka, int32_t kb) {
  return static_cast<int32_t>((static_cast<uint32_t>(kb) << 16) |
                              (static_cast<uint32_t>(ka) & 0xFFFFu));
}
// The table of PairOf(ka, kb) in every lane (see SplatTable32) where ka, kb are compile-time
// +-cos64(k), +-cos64(32 - k), k = 1..31 (every DCT rotation's pair); else null (build it with
// a broadcast). A memory operand costs the rotation nothing, where GCC would otherwise build the
// constant in a general register and broadcast it for an inline-asm operand (MaddAcc).
HWY_INLINE const int32_t *PairTable(int32_t ka, int32_t kb) {
  if (__builtin_constant_p(ka) && __builtin_constant_p(kb)) {
    switch (PairOf(ka, kb)) {
#define V3D_PAIR_CASE(a, b)   \
  case PairOf(a, b):          \
    return SplatTable32<PairOf(a, b)>();
#define V3D_PAIR_CASES(k)                                                          \
  V3D_PAIR_CASE(kC[k], kC[32 - (k)]) V3D_PAIR_CASE(kC[k], -kC[32 - (k)])          \
  V3D_PAIR_CASE(-kC[k], kC[32 - (k)]) V3D_PAIR_CASE(-kC[k], -kC[32 - (k)])
      V3D_FOR_COS_1_31(V3D_PAIR_CASES)
#undef V3D_PAIR_CASES
#undef V3D_PAIR_CASE
      default:
        break;
    }
  }
  return nullptr;
}
#undef V3D_FOR_COS_1_31
#endif

// Unrounded a*ka + b*kb of N (4 or 8) int16 lanes, as int32: lo = lanes 0..3, hi = lanes 4..7.
template <size_t N>
struct Wide {
  hn::Vec128<int32_t, 4> lo, hi;
};

// (Built by aggregate initialisation only: an implicit default constructor would be compiled
// without the target's attributes, which GCC rejects for NEON vectors.)
template <size_t N>
HWY_INLINE Wide<N> Mul2(hn::Vec128<int16_t, N> a, int32_t ka, hn::Vec128<int16_t, N> b,
                        int32_t kb) {
  using V32 = hn::Vec128<int32_t, 4>;
#if HWY_ARCH_X86
  // Lanes interleaved as (a, b) pairs; pmaddwd by the pair (ka, kb).
  const __m128i k = _mm_set1_epi32(static_cast<int32_t>((static_cast<uint32_t>(kb) << 16) |
                                                        (static_cast<uint32_t>(ka) & 0xFFFFu)));
  const V32 lo{_mm_madd_epi16(_mm_unpacklo_epi16(a.raw, b.raw), k)};
  if constexpr (N == 8) {
    return Wide<N>{lo, V32{_mm_madd_epi16(_mm_unpackhi_epi16(a.raw, b.raw), k)}};
  } else {
    return Wide<N>{lo, lo};  // hi unused
  }
#else
#if HWY_TARGET == HWY_NEON
  // By-lane products (itx_neon_const.h); a negative constant second, where it is subtracted.
  if (__builtin_constant_p(ka) && __builtin_constant_p(kb) && ka < 0 && kb > 0)
    return Mul2(b, kb, a, ka);
  const int32x4_t lo = neonk::MulC<false, true>(neonk::MulC<false, false>(vdupq_n_s32(0), a.raw, ka), b.raw, kb);
  if constexpr (N == 8) {
    const int32x4_t hi = neonk::MulC<true, true>(neonk::MulC<true, false>(lo, a.raw, ka), b.raw, kb);
    return Wide<N>{V32{lo}, V32{hi}};
  } else {
    return Wide<N>{V32{lo}, V32{lo}};  // hi unused
  }
#endif
  const int16_t k16a = static_cast<int16_t>(ka), k16b = static_cast<int16_t>(kb);
  if constexpr (N == 8) {
    const V32 lo{vmlal_n_s16(vmull_n_s16(vget_low_s16(a.raw), k16a), vget_low_s16(b.raw), k16b)};
    const V32 hi{vmlal_high_n_s16(vmull_high_n_s16(a.raw, k16a), b.raw, k16b)};
    return Wide<N>{lo, hi};
  } else {
    const V32 lo{vmlal_n_s16(vmull_n_s16(a.raw, k16a), b.raw, k16b)};
    return Wide<N>{lo, lo};  // hi unused
  }
#endif
}

template <size_t N>
HWY_INLINE Wide<N> operator+(Wide<N> x, Wide<N> y) {
  return Wide<N>{hn::Add(x.lo, y.lo), N == 8 ? hn::Add(x.hi, y.hi) : x.hi};
}
template <size_t N>
HWY_INLINE Wide<N> operator-(Wide<N> x, Wide<N> y) {
  return Wide<N>{hn::Sub(x.lo, y.lo), N == 8 ? hn::Sub(x.hi, y.hi) : x.hi};
}

// rnd14 of each lane, narrowed to int16 (in range by the bound).
template <size_t N>
HWY_INLINE hn::Vec128<int16_t, N> Rnd(Wide<N> w) {
#if HWY_ARCH_X86
  const __m128i r = Splat32<8192>();
  const __m128i lo = _mm_srai_epi32(_mm_add_epi32(w.lo.raw, r), 14);
  if constexpr (N == 8) {
    const __m128i hi = _mm_srai_epi32(_mm_add_epi32(w.hi.raw, r), 14);
    return hn::Vec128<int16_t, N>{_mm_packs_epi32(lo, hi)};
  } else {
    return hn::Vec128<int16_t, N>{_mm_packs_epi32(lo, lo)};
  }
#else
  if constexpr (N == 8) {
    return hn::Vec128<int16_t, N>{vrshrn_high_n_s32(vrshrn_n_s32(w.lo.raw, 14), w.hi.raw, 14)};
  } else {
    return hn::Vec128<int16_t, N>{vrshrn_n_s32(w.lo.raw, 14)};
  }
#endif
}

#if HWY_ARCH_X86
// packssdw at every vector width (within 128-bit blocks).
HWY_INLINE __m128i PacksI32(__m128i a, __m128i b) { return _mm_packs_epi32(a, b); }
#if HWY_TARGET <= HWY_AVX2
HWY_INLINE __m256i PacksI32(__m256i a, __m256i b) { return _mm256_packs_epi32(a, b); }
#endif
#if HWY_TARGET <= HWY_AVX3
HWY_INLINE __m512i PacksI32(__m512i a, __m512i b) { return _mm512_packs_epi32(a, b); }
#endif
#endif

// The 1-D transforms' operations on int16 lanes (see Ops in itx_hwy_1d.h; the DCT templates
// use Z, H, B, B1, A, S, AT and ST only).
template <size_t N, int kPow2>
struct Ops<hn::Simd<int16_t, N, kPow2>> {
  using D = hn::Simd<int16_t, N, kPow2>;
  using V = hn::Vec<D>;
  D d;
  HWY_INLINE V Z() const { return hn::Zero(d); }
  // Wrapping, as the 32-bit Ops (inside the bounds nothing wraps).
  HWY_INLINE V A(V a, V b) const { return hn::Add(a, b); }
  HWY_INLINE V S(V a, V b) const { return hn::Sub(a, b); }
  HWY_INLINE V AT(V a, V b) const { return hn::Add(a, b); }
  HWY_INLINE V ST(V a, V b) const { return hn::Sub(a, b); }
  // R(x * cos64(16)) = (x * 2c + 2^14) >> 15 with 2c < 2^15.
  HWY_INLINE V H(V x) const {
#if HWY_ARCH_X86
    if constexpr (sizeof(V) == 16) return V{_mm_mulhrs_epi16(x.raw, Splat16<2 * kC[16]>())};
#endif
    return B1(x, kC[16]);
  }
  // R(a*ka) likewise: every constant passed is a cos64(k), k = 1..31, |2 ka| <= 32728.
  HWY_INLINE V B1(V a, int32_t ka) const {
#if HWY_TARGET == HWY_NEON
    decltype(a.raw) r;
    if (neonk::MulRound(a.raw, ka, &r)) return V{r};  // a lane of a table (itx_neon_const.h)
#endif
#if HWY_ARCH_X86
    return hn::MulFixedPoint15(a, CosSplat2(d, ka));
#else
    return hn::MulFixedPoint15(a, hn::Set(d, static_cast<int16_t>(2 * ka)));
#endif
  }
  HWY_INLINE V B(V a, int32_t ka, V b, int32_t kb) const {
#if HWY_ARCH_X86
    return BPairs(a, ka, b, kb);
#else
    return Rnd(Mul2(a, ka, b, kb));
#endif
  }
#if HWY_ARCH_X86
  // The (a, b) lanes interleaved into pairs, each pair's product sum accumulated onto the
  // rounding constant (MaddAcc: one vpdpwssd on AVX3_DL), shifted and narrowed. unpack*_epi16,
  // the pair products and packs all work within 128-bit blocks, so the packed result comes back
  // in the lanes' original order; 4-lane vectors use the low half.
  HWY_INLINE V BPairs(V a, int32_t ka, V b, int32_t kb) const {
    const int32_t pair = PairOf(ka, kb);
#if V3D_ITX_HAVE_VNNI
    const int32_t *table = PairTable(ka, kb);
#else
    // The constant folds into pmaddwd's memory operand; a load from a (writable) table would
    // instead be held in a register across the stores between its uses.
    const int32_t *table = nullptr;
#endif
    // Whole 128-bit blocks of pair sums (4-lane vectors: four pairs in one block).
    using D32 = std::conditional_t<sizeof(V) == 16, hn::Full128<int32_t>,
                                   hn::Repartition<int32_t, D>>;
    const D32 d32;
    using V32 = hn::Vec<D32>;
    const V32 k = table ? hn::Load(d32, table) : hn::Set(d32, pair);
    V32 r;
    if constexpr (sizeof(V) == 16) r = V32{Splat32<8192>()};  // a load (see Splat32)
    else r = hn::Set(d32, 8192);
    const V32 lo =
        hn::ShiftRight<14>(V32{MaddAcc(r.raw, hn::InterleaveLower(d, a, b).raw, k.raw)});
    if constexpr (hn::MaxLanes(D()) >= 8) {
      const V32 hi =
          hn::ShiftRight<14>(V32{MaddAcc(r.raw, hn::InterleaveUpper(d, a, b).raw, k.raw)});
      return V{PacksI32(lo.raw, hi.raw)};
    } else {
      return V{PacksI32(lo.raw, lo.raw)};
    }
  }
#endif
};

// 4-point ADST on int16 lanes: the reference's iadst4 with its product sums merged per input
// (exact: inside the bound no sum wraps, and S1 + S2 = S4 keeps every merged constant in int16).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Iadst4x16(D d, const V *in, V *out) {
  const V x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
  // out0 = R(x0 S1 + x2 S4 + x3 S2 + x1 S3), out1 = R(x0 S2 - x2 S1 - x3 S4 + x1 S3),
  // out2 = R((x0 - x2 + x3) S3), out3 = R(x0 (S1 + S2) + x2 (S4 - S1) + x3 (S2 - S4) - x1 S3).
  out[0] = Rnd(Mul2(x0, kS1, x2, kS4) + Mul2(x3, kS2, x1, kS3));
  out[1] = Rnd(Mul2(x0, kS2, x2, -kS1) + Mul2(x3, -kS4, x1, kS3));
  out[2] = hn::MulFixedPoint15(x0 - x2 + x3, hn::Set(d, 2 * kS3));
  out[3] = Rnd(Mul2(x0, kS1 + kS2, x2, kS4 - kS1) + Mul2(x3, kS2 - kS4, x1, -kS3));
}

// 8-point ADST on int16 lanes: the stages of Iadst8 (itx_hwy_1d.h), products as Wide.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Iadst8x16(D d, const V *in, V *out) {
  const V x0 = in[7], x1 = in[0], x2 = in[5], x3 = in[2];
  const V x4 = in[3], x5 = in[4], x6 = in[1], x7 = in[6];
  const auto s0 = Mul2(x0, kC[2], x1, kC[30]), s1 = Mul2(x0, kC[30], x1, -kC[2]);
  const auto s2 = Mul2(x2, kC[10], x3, kC[22]), s3 = Mul2(x2, kC[22], x3, -kC[10]);
  const auto s4 = Mul2(x4, kC[18], x5, kC[14]), s5 = Mul2(x4, kC[14], x5, -kC[18]);
  const auto s6 = Mul2(x6, kC[26], x7, kC[6]), s7 = Mul2(x6, kC[6], x7, -kC[26]);
  const V a0 = Rnd(s0 + s4), a1 = Rnd(s1 + s5), a2 = Rnd(s2 + s6), a3 = Rnd(s3 + s7);
  const V a4 = Rnd(s0 - s4), a5 = Rnd(s1 - s5), a6 = Rnd(s2 - s6), a7 = Rnd(s3 - s7);
  const auto t4 = Mul2(a4, kC[8], a5, kC[24]), t5 = Mul2(a4, kC[24], a5, -kC[8]);
  const auto t6 = Mul2(a7, kC[8], a6, -kC[24]), t7 = Mul2(a6, kC[8], a7, kC[24]);
  const V b0 = a0 + a2, b1 = a1 + a3, b2 = a0 - a2, b3 = a1 - a3;
  const V b4 = Rnd(t4 + t6), b5 = Rnd(t5 + t7), b6 = Rnd(t4 - t6), b7 = Rnd(t5 - t7);
  const Ops<D> o{d};
  const V z = o.Z();
  out[0] = b0;
  out[1] = z - b4;
  out[2] = o.H(b6 + b7);
  out[3] = z - o.H(b2 + b3);
  out[4] = o.H(b2 - b3);
  out[5] = z - o.H(b6 - b7);
  out[6] = b5;
  out[7] = z - b1;
}

// 4x4 / 8x8 transposes of int16 lanes (v[i] lane j -> v[j] lane i). Vectors of 16 or 32 lanes
// (x86): eight vectors, each 128-bit block transposed on its own as an 8x8 tile.
#if HWY_TARGET == HWY_NEON
// NEON: transposes by trn1/trn2 on 16-, 32- and 64-bit elements, which the model of
// tools/bench/neon_mca.py issues at twice the rate of the zip1/zip2 (InterleaveLower/Upper) of
// the generic form below.
HWY_INLINE void TransposeNeon8x8(int16x8_t *v) {
  int32x4_t t[8];  // t[2j] / t[2j + 1]: the even / odd columns of rows 2j and 2j + 1, paired
  V3D_UNROLL
  for (size_t j = 0; j < 8; j += 2) {
    t[j] = vreinterpretq_s32_s16(vtrn1q_s16(v[j], v[j + 1]));
    t[j + 1] = vreinterpretq_s32_s16(vtrn2q_s16(v[j], v[j + 1]));
  }
  int64x2_t u[2][4];  // u[h][k]: columns k and k + 4 of rows 4h .. 4h + 3
  V3D_UNROLL
  for (size_t h = 0; h < 2; h++) {
    const int32x4_t *q = t + 4 * h;
    u[h][0] = vreinterpretq_s64_s32(vtrn1q_s32(q[0], q[2]));
    u[h][1] = vreinterpretq_s64_s32(vtrn1q_s32(q[1], q[3]));
    u[h][2] = vreinterpretq_s64_s32(vtrn2q_s32(q[0], q[2]));
    u[h][3] = vreinterpretq_s64_s32(vtrn2q_s32(q[1], q[3]));
  }
  // [a.lo | b.lo] and [a.hi | b.hi]: trn1 / trn2 on 64-bit elements, one operation each. Written
  // as asm because GCC emits vtrn1q_s64 as zip1 .2d, three micro-ops in that model.
  V3D_UNROLL
  for (size_t k = 0; k < 4; k++) {
    int64x2_t lo, hi;
    asm("trn1 %0.2d, %1.2d, %2.2d" : "=w"(lo) : "w"(u[0][k]), "w"(u[1][k]));
    asm("trn2 %0.2d, %1.2d, %2.2d" : "=w"(hi) : "w"(u[0][k]), "w"(u[1][k]));
    v[k] = vreinterpretq_s16_s64(lo);
    v[k + 4] = vreinterpretq_s16_s64(hi);
  }
}
#endif

template <class D, class V = hn::Vec<D>>
HWY_INLINE void Transpose16(D d, V *v) {
  constexpr size_t N = hn::MaxLanes(D());
#if HWY_TARGET == HWY_NEON
  if constexpr (N == 8) {
    int16x8_t r[8];
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) r[i] = v[i].raw;
    TransposeNeon8x8(r);
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) v[i] = V{r[i]};
    return;
  }
#endif
  if constexpr (N == 4) {
    const hn::Twice<D> d8;
    const auto r01 = hn::Combine(d8, v[1], v[0]), r23 = hn::Combine(d8, v[3], v[2]);
    const auto t0 = hn::InterleaveLower(d8, r01, r23);  // r0_0 r2_0 r0_1 r2_1 ...
    const auto t1 = hn::InterleaveUpper(d8, r01, r23);  // r1_0 r3_0 r1_1 r3_1 ...
    const auto u0 = hn::InterleaveLower(d8, t0, t1);    // column 0 | column 1
    const auto u1 = hn::InterleaveUpper(d8, t0, t1);    // column 2 | column 3
    v[0] = hn::LowerHalf(d, u0);
    v[1] = hn::UpperHalf(d, u0);
    v[2] = hn::LowerHalf(d, u1);
    v[3] = hn::UpperHalf(d, u1);
  } else {
    static_assert(N % 8 == 0, "4 or a multiple of 8 lanes");
    const hn::Repartition<int32_t, D> d32;
    const hn::Repartition<int64_t, D> d64;
    hn::Vec<decltype(d32)> a[4], b[4];
    V3D_UNROLL
    for (size_t j = 0; j < 4; j++) {
      a[j] = hn::BitCast(d32, hn::InterleaveLower(d, v[2 * j], v[2 * j + 1]));
      b[j] = hn::BitCast(d32, hn::InterleaveUpper(d, v[2 * j], v[2 * j + 1]));
    }
    hn::Vec<decltype(d64)> c[4], e[4];  // c: rows 0..3, e: rows 4..7; column pairs 01 23 45 67
    c[0] = hn::BitCast(d64, hn::InterleaveLower(d32, a[0], a[1]));
    c[1] = hn::BitCast(d64, hn::InterleaveUpper(d32, a[0], a[1]));
    c[2] = hn::BitCast(d64, hn::InterleaveLower(d32, b[0], b[1]));
    c[3] = hn::BitCast(d64, hn::InterleaveUpper(d32, b[0], b[1]));
    e[0] = hn::BitCast(d64, hn::InterleaveLower(d32, a[2], a[3]));
    e[1] = hn::BitCast(d64, hn::InterleaveUpper(d32, a[2], a[3]));
    e[2] = hn::BitCast(d64, hn::InterleaveLower(d32, b[2], b[3]));
    e[3] = hn::BitCast(d64, hn::InterleaveUpper(d32, b[2], b[3]));
    V3D_UNROLL
    for (size_t j = 0; j < 4; j++) {
      v[2 * j] = hn::BitCast(d, hn::InterleaveLower(d64, c[j], e[j]));
      v[2 * j + 1] = hn::BitCast(d, hn::InterleaveUpper(d64, c[j], e[j]));
    }
  }
}

// kAdst: ADST (else DCT) on n = 4 or 8 lanes' worth of int16 values, in place; inputs from kNz
// on are zero (the DCT skips them).
template <bool kAdst, size_t kN, int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Run16(D d, V *v) {
  V out[kN];
  if constexpr (kAdst) {
    if constexpr (kN == 4) Iadst4x16(d, v, out);
    else Iadst8x16(d, v, out);
  } else {
    if constexpr (kN == 4) Idct4<kNz>(d, v, out);
    else Idct8<kNz>(d, v, out);
  }
  V3D_UNROLL
  for (size_t k = 0; k < kN; k++) v[k] = out[k];
}

// Round2(x, kShift) of int16 lanes, exact for every int16 x. rnd: 2^(15 - kShift) in every lane,
// for the rounding multiply (x * rnd + 2^14) >> 15; NEON uses srshr instead, one Q operation where
// the model of tools/bench/neon_mca.py counts the multiply as two.
template <int kShift, class V>
HWY_INLINE V Round2By(V x, V rnd) {
#if HWY_TARGET == HWY_NEON
  (void)rnd;
  if constexpr (sizeof(V) == 16) return V{vrshrq_n_s16(x.raw, kShift)};
  else return V{vrshr_n_s16(x.raw, kShift)};
#else
  return hn::MulFixedPoint15(x, rnd);
#endif
}

// True iff every coefficient of the kN x kN block lies in [-b, b].
template <size_t kN>
HWY_INLINE bool InBound16(const int16_t *c, int b) {
  const hn::CappedTag<int16_t, kN * kN> d;
  constexpr size_t W = hn::MaxLanes(d);
  auto mx = hn::LoadU(d, c), mn = mx;
  V3D_UNROLL
  for (size_t i = 1; i < kN * kN / W; i++) {
    const auto v = hn::LoadU(d, c + i * W);
    mx = hn::Max(mx, v);
    mn = hn::Min(mn, v);
  }
  const auto big = hn::Or(hn::Gt(mx, hn::Set(d, static_cast<int16_t>(b))),
                          hn::Lt(mn, hn::Set(d, static_cast<int16_t>(-b))));
  return hn::AllFalse(d, big);
}

// The whole kN x kN block (kN = 4 or 8) in 16-bit lanes: rows (kRowAdst), then columns
// (kColAdst), Round2 by 4 / 5, added to dst with unsigned saturation. The non-zero
// coefficients lie in the top-left kNz x kNz square.
template <size_t kN, bool kRowAdst, bool kColAdst, int kNz = static_cast<int>(kN)>
HWY_NOINLINE void Add2D16(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs) {
  const hn::CappedTag<int16_t, kN> d;
  using V = hn::Vec<decltype(d)>;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  constexpr int kShift = kN == 4 ? 4 : 5;
  V v[kN];
  V3D_UNROLL
  for (size_t i = 0; i < kN; i++)
    v[i] = i < static_cast<size_t>(kNz) ? hn::LoadU(d, coeffs + i * kN) : hn::Zero(d);
  Transpose16(d, v);  // v[k] lane i = coefficient (i, k)
  Run16<kRowAdst, kN, kNz>(d, v);
  Transpose16(d, v);  // v[i] lane k = row i of the intermediate
  Run16<kColAdst, kN, kNz>(d, v);
#if HWY_TARGET == HWY_NEON
  constexpr bool kPairRows = kN == 4;
#else
  constexpr bool kPairRows = false;  // x86: the row-at-a-time form below is as fast
#endif
  if constexpr (kPairRows) {
    // Two rows per 8-lane vector: half the rounding, widening and narrowing steps, and a shorter
    // dependency chain per call on NEON (see tools/itx_mca.py).
    const hn::Twice<decltype(d)> d2;
    const hn::Rebind<uint8_t, decltype(d2)> d82;
    const auto rnd = hn::Set(d2, static_cast<int16_t>(1 << (15 - kShift)));
    V3D_UNROLL
    for (size_t i = 0; i < kN; i += 2) {
      uint8_t *p0 = dst + static_cast<ptrdiff_t>(i) * stride, *p1 = p0 + stride;
      const auto pix = hn::Combine(d82, hn::LoadU(d8, p1), hn::LoadU(d8, p0));
      const auto x = Round2By<kShift>(hn::Combine(d2, v[i + 1], v[i]), rnd);
      const auto out = hn::DemoteTo(d82, hn::Add(x, hn::PromoteTo(d2, pix)));
      hn::StoreU(hn::LowerHalf(d8, out), d8, p0);
      hn::StoreU(hn::UpperHalf(d8, out), d8, p1);
    }
  } else {
    const V rnd = hn::Set(d, static_cast<int16_t>(1 << (15 - kShift)));
    V3D_UNROLL
    for (size_t i = 0; i < kN; i++) {
      uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride;
      const V sum = hn::Add(Round2By<kShift>(v[i], rnd), hn::PromoteTo(d, hn::LoadU(d8, p)));
      hn::StoreU(hn::DemoteTo(d8, sum), d8, p);
    }
  }
}

// Which top-left square of an 8x8 DCT_DCT block holds every non-zero coefficient, for the
// corner path below: 2 (the 2x2 square), 4 (the 4x4 square), or 0 when neither does or when a
// coefficient exceeds that square's proven bound (kInt16CornerBound8x8). One pass over the
// block in the widest int16 vectors up to 32 lanes: rows 0..3 masked by constant tables, rows
// 4..7 ORed.
HWY_INLINE int Corner8x8(const int16_t *c) {
  const hn::CappedTag<int16_t, 32> d;
  constexpr size_t W = hn::MaxLanes(d);
  // Per row of 8: -1 marks the lanes outside the 4x4 (kOut4) or 2x2 (kOut2) square.
  alignas(64) static constexpr int16_t kOut4[32] = {
      0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1,
      0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1};
  alignas(64) static constexpr int16_t kOut2[32] = {
      0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  auto top = hn::LoadU(d, c);
  auto out4 = hn::Or(hn::And(top, hn::Load(d, kOut4)), hn::LoadU(d, c + 32));
  auto out2 = hn::And(top, hn::Load(d, kOut2));
  auto mx = top, mn = top;
  V3D_UNROLL
  for (size_t i = W; i < 32; i += W) {
    top = hn::LoadU(d, c + i);
    out4 = hn::Or(out4, hn::Or(hn::And(top, hn::Load(d, kOut4 + i)), hn::LoadU(d, c + 32 + i)));
    out2 = hn::Or(out2, hn::And(top, hn::Load(d, kOut2 + i)));
    mx = hn::Max(mx, top);
    mn = hn::Min(mn, top);
  }
  if (!hn::AllTrue(d, hn::Eq(out4, hn::Zero(d)))) return 0;
  // Outside the square every lane is zero, so the extremes are the square's.
  const int k = hn::AllTrue(d, hn::Eq(out2, hn::Zero(d))) ? 0 : 1;
  const auto b = hn::Set(d, static_cast<int16_t>(kInt16CornerBound8x8[k]));
  const auto big = hn::Or(hn::Gt(mx, b), hn::Lt(mn, hn::Neg(b)));
  return hn::AllFalse(d, big) ? 2 << k : 0;
}

// Whether every int16 of c[0, kLen) lies within [-kB, kB]. |x| <= B iff the wrapped x + B, as
// uint16, is at most 2B (B < 2^14: below -B it wraps past 2^15 + B, above B it lies in (2B,
// 2^15 + B)).
template <int kB, size_t kLen>
HWY_INLINE bool SpanWithin(const int16_t *c) {
  static_assert(kB > 0 && kB < (1 << 14), "the wrap argument needs B < 2^14");
  const hn::CappedTag<int16_t, kLen> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  constexpr size_t W = hn::MaxLanes(d);
  const auto b = hn::Set(d, static_cast<int16_t>(kB));
  const auto b2 = hn::Set(du, static_cast<uint16_t>(2 * kB));
  auto over = hn::Zero(du);
  V3D_UNROLL
  for (size_t i = 0; i < kLen; i += W)
    over = hn::Or(over, hn::SaturatedSub(hn::BitCast(du, hn::Add(hn::LoadU(d, c + i), b)), b2));
  return hn::AllTrue(du, hn::Eq(over, hn::Zero(du)));
}

// Whether every coefficient of rows 0..kS-1 (kS = 2, 4) of an 8x8 block lies within the bound of
// the kS x kS corner (kInt16CornerBound8x8), for a block known to be zero outside that corner (an
// exact eob, itx_eob_hint.h): the corner path's condition without the zero test. The rows are
// read whole, their zeros passing.
template <size_t kS>
HWY_INLINE bool CornerWithin8x8(const int16_t *c) {
  static_assert(kS == 2 || kS == 4, "the 2x2 or 4x4 corner");
  return SpanWithin<kInt16CornerBound8x8[kS == 2 ? 0 : 1], 8 * kS>(c);
}

// The 4 x 8 transposes of Transpose4x8 in each 128-bit block of x[m] = [o[m] | o[m + 4]] (m <
// 4, o 4-lane vectors): u[i] = [o[0] .. o[7]] lane i, per block, for the rows i < kNz.
template <int kNz, class D8>
HWY_INLINE void Transpose4x8Blocks(D8 d8, const hn::Vec<D8> *x, hn::Vec<D8> *u) {
  const hn::Repartition<int32_t, D8> d32;
  const hn::Repartition<int64_t, D8> d64;
  const auto a = hn::BitCast(d32, hn::InterleaveLower(d8, x[0], x[1]));  // o0 o1, rows 0..3
  const auto b = hn::BitCast(d32, hn::InterleaveUpper(d8, x[0], x[1]));  // o4 o5
  const auto c = hn::BitCast(d32, hn::InterleaveLower(d8, x[2], x[3]));  // o2 o3
  const auto e = hn::BitCast(d32, hn::InterleaveUpper(d8, x[2], x[3]));  // o6 o7
  const auto p01 = hn::BitCast(d64, hn::InterleaveLower(d32, a, c));  // o0..o3, rows 0 1
  const auto q01 = hn::BitCast(d64, hn::InterleaveLower(d32, b, e));  // o4..o7, rows 0 1
  u[0] = hn::BitCast(d8, hn::InterleaveLower(d64, p01, q01));
  u[1] = hn::BitCast(d8, hn::InterleaveUpper(d64, p01, q01));
  if constexpr (kNz > 2) {
    const auto p23 = hn::BitCast(d64, hn::InterleaveUpper(d32, a, c));
    const auto q23 = hn::BitCast(d64, hn::InterleaveUpper(d32, b, e));
    u[2] = hn::BitCast(d8, hn::InterleaveLower(d64, p23, q23));
    u[3] = hn::BitCast(d8, hn::InterleaveUpper(d64, p23, q23));
  }
}

// 4 x 8 transpose of int16: u[i] lane k = o[k] lane i, for the rows i < kNz (2 or 4) of the
// eight 4-lane vectors o[0..8).
template <int kNz, class D8, class V4>
HWY_INLINE void Transpose4x8(D8 d8, const V4 *o, hn::Vec<D8> *u) {
  const hn::Vec<D8> x[4] = {hn::Combine(d8, o[4], o[0]), hn::Combine(d8, o[5], o[1]),
                            hn::Combine(d8, o[6], o[2]), hn::Combine(d8, o[7], o[3])};
  Transpose4x8Blocks<kNz>(d8, x, u);
}

// The same of sixteen 4-lane vectors into 16-lane ones (AVX2 and up): one 4 x 8 transpose per
// 128-bit block, o[0..8) in the low block, o[8..16) in the high one.
template <int kNz, class D16, class V4>
HWY_INLINE void Transpose4x16(D16 d16, const V4 *o, hn::Vec<D16> *u) {
  const hn::Half<D16> d8;
  hn::Vec<D16> x[4];
  V3D_UNROLL
  for (size_t m = 0; m < 4; m++) {
    x[m] = hn::Combine(d16, hn::Combine(d8, o[m + 12], o[m + 8]), hn::Combine(d8, o[m + 4], o[m]));
  }
  Transpose4x8Blocks<kNz>(d16, x, u);
}

// 8x8 DCT_DCT block whose non-zero coefficients lie in the top-left kNz x kNz square (kNz = 2
// or 4) and within that square's bound (kInt16CornerBound8x8): the row pass transforms only the first four rows, in
// 4-lane vectors (lane = row), and the column pass sees kNz non-zero inputs per column, so its
// butterflies are one rounding multiply each. Every value is one the reference forms (the
// known-zero products it skips add nothing), so the corner bound's proof covers it.
template <int kNz>
HWY_NOINLINE void AddCorner8x8(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs) {
  const hn::CappedTag<int16_t, 4> d4;
  const hn::CappedTag<int16_t, 8> d8;
  const hn::Rebind<uint8_t, decltype(d8)> du8;
  using V4 = hn::Vec<decltype(d4)>;
  using V8 = hn::Vec<decltype(d8)>;
  V4 v[4], o[8];
  V3D_UNROLL
  for (size_t i = 0; i < 4; i++)
    v[i] = i < static_cast<size_t>(kNz) ? hn::LoadU(d4, coeffs + 8 * i) : hn::Zero(d4);
  Transpose16(d4, v);  // v[k] lane i = coefficient (i, k), k < 4
  Idct8<kNz>(d4, v, o);  // o[k] lane i = intermediate (i, k); zero for rows i >= kNz
  V8 u[8];
  Transpose4x8<kNz>(d8, o, u);
  V8 w[8];
  Idct8<kNz>(d8, u, w);
  // Round2(x, 5) as one rounding multiply by 2^10.
  const V8 rnd = hn::Set(d8, static_cast<int16_t>(1 << 10));
  V3D_UNROLL
  for (size_t i = 0; i < 8; i++) {
    uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride;
    const V8 sum = hn::Add(Round2By<5>(w[i], rnd), hn::PromoteTo(d8, hn::LoadU(du8, p)));
    hn::StoreU(hn::DemoteTo(du8, sum), du8, p);
  }
}

// The per-pass L1 checks (kInt16BoundL1) of the 8x8, 16x16 and 32x32 paths.

// Saturating sum of the |values| of v[0..kRows) added to acc, per lane (uint16 lanes; |-32768|
// = 32768).
template <size_t kRows, class D, class V = hn::Vec<D>>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> AddAbs(D, const V *v,
                                                   hn::Vec<hn::RebindToUnsigned<D>> acc) {
  const hn::RebindToUnsigned<D> du;
  V3D_UNROLL
  for (size_t i = 0; i < kRows; i++) acc = hn::SaturatedAdd(acc, hn::BitCast(du, hn::Abs(v[i])));
  return acc;
}

// True iff every lane of s is at most kB.
template <int kB, class DU, class VU = hn::Vec<DU>>
HWY_INLINE bool LanesWithin(DU du, VU s) {
  VU b = hn::Set(du, static_cast<uint16_t>(kB));
#if HWY_ARCH_X86
  // A load, not a broadcast (itx_hwy_16.h), where the vector is 128 bits.
  if constexpr (sizeof(VU) == 16) b = hn::BitCast(du, hn::Vec<hn::RebindToSigned<DU>>{Splat16<kB>()});
#endif
  return hn::AllTrue(du, hn::Eq(hn::SaturatedSub(s, b), hn::Zero(du)));
}

#else
#define V3D_ITX_HAVE_16 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_16_H_
