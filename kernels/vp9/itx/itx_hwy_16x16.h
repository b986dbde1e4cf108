// SPDX-License-Identifier: LGPL-2.1-or-later
// 16x16 VP9 inverse transforms with both passes in 16-bit lanes, behind the per-pass L1 bounds
// of itx_int16_bound.h (kInt16BoundL1, as the 8x8 path of itx_hwy_8x8.h): the row pass runs in
// int16 when the |coefficients| of every row sum to within the row transform's bound, the
// column pass when the |row results| of every column sum to within the column transform's.
// Both sums are vertical (lane-wise) after the in-register transposes the passes do anyway.
// Per-target header: included by itx_hwy.cpp after itx_hwy_16.h and itx_hwy_8x8.h.
// Also here: the DCT_DCT corner path (TryCorner16x16: non-zero coefficients only in the top-left
// 4x4 or 2x2 square, within kInt16CornerBound16x16; as AddCorner8x8 of itx_hwy_16.h, the 1-D code
// Idct16<kNz> with its known-zero products left out, so every value is one the reference forms
// and the corner bound's proof keeps it inside int16) and RoundAdd16, the 16x16 paths' final add.
//
// Exactness: inside its L1 bound the 16-point 1-D transform keeps every value the reference
// forms by an addition, subtraction or rounding inside int16 and every product sum inside int32
// (the 1-D proof in tests/test_vp9_itx_bound.cpp, which also shows that the bound is the same
// with the inputs from 4 or 8 on zero), so the int16 row results equal the reference's, and the
// column check tests the reference's own row results. The final Round2(x, 6) is one rounding
// multiply by 2^9, exact on any int16 value. The DCT is itx_hwy_1d.h's Idct16 on itx_hwy_16.h's
// int16 Ops; the ADST is written here with its unrounded product sums held in pairs of int32
// vectors (Wide16).
//
// Layout: 16 lanes (AVX2 and AVX-512, in 256-bit vectors: the block is 16 registers, lane =
// column of a row, transposed in registers between the passes) or 8 lanes (SSSE3, SSE4, NEON:
// the block as a left and a right half of 8 columns, each row pass on 8 rows at once). On NEON
// the types with an ADST go to itx_neon_adst16.h (same checks, same values).

#if defined(V3D_VP9_ITX_HWY_16X16_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_16X16_H_
#undef V3D_VP9_ITX_HWY_16X16_H_
#else
#define V3D_VP9_ITX_HWY_16X16_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "vp9/itx/itx_eob_hint.h"
#include "vp9/itx/itx_int16_bound.h"
#include "vp9/itx/itx_neon_adst16.h"  // NEON: the ADST types' 16-bit path

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if V3D_ITX_HAVE_16

// Unrounded a*ka + b*kb of the int16 lanes of D (8 or 16), as int32: lo and hi hold the lanes
// in the order that Rnd16 packs back to the original one (x86: per 128-bit block, the low and
// high four lanes; NEON: lanes 0..3 and 4..7). Built by aggregate initialisation only.
template <class D>
struct Wide16 {
  hn::Vec<hn::Repartition<int32_t, D>> lo, hi;
};

template <class D, class V = hn::Vec<D>>
HWY_INLINE Wide16<D> MulW(D, V a, int32_t ka, V b, int32_t kb) {
  using V32 = hn::Vec<hn::Repartition<int32_t, D>>;
#if HWY_ARCH_X86
  const int32_t pair = static_cast<int32_t>((static_cast<uint32_t>(kb) << 16) |
                                            (static_cast<uint32_t>(ka) & 0xFFFFu));
#if HWY_TARGET <= HWY_AVX2
  if constexpr (sizeof(V) == 32) {
    const __m256i k = _mm256_set1_epi32(pair);
    return Wide16<D>{V32{_mm256_madd_epi16(_mm256_unpacklo_epi16(a.raw, b.raw), k)},
                     V32{_mm256_madd_epi16(_mm256_unpackhi_epi16(a.raw, b.raw), k)}};
  } else
#endif
  {
    static_assert(sizeof(V) == 16, "8 or 16 lanes");
    const __m128i k = _mm_set1_epi32(pair);
    return Wide16<D>{V32{_mm_madd_epi16(_mm_unpacklo_epi16(a.raw, b.raw), k)},
                     V32{_mm_madd_epi16(_mm_unpackhi_epi16(a.raw, b.raw), k)}};
  }
#else
  const int16_t k16a = static_cast<int16_t>(ka), k16b = static_cast<int16_t>(kb);
  return Wide16<D>{
      V32{vmlal_n_s16(vmull_n_s16(vget_low_s16(a.raw), k16a), vget_low_s16(b.raw), k16b)},
      V32{vmlal_high_n_s16(vmull_high_n_s16(a.raw, k16a), b.raw, k16b)}};
#endif
}

template <class D>
HWY_INLINE Wide16<D> operator+(Wide16<D> x, Wide16<D> y) {
  return Wide16<D>{hn::Add(x.lo, y.lo), hn::Add(x.hi, y.hi)};
}
template <class D>
HWY_INLINE Wide16<D> operator-(Wide16<D> x, Wide16<D> y) {
  return Wide16<D>{hn::Sub(x.lo, y.lo), hn::Sub(x.hi, y.hi)};
}

// rnd14 of each lane, narrowed to int16 (in range by the bound).
template <class D>
HWY_INLINE hn::Vec<D> Rnd16(D, Wide16<D> w) {
  using V = hn::Vec<D>;
#if HWY_ARCH_X86
#if HWY_TARGET <= HWY_AVX2
  if constexpr (sizeof(V) == 32) {
    const __m256i r = _mm256_set1_epi32(8192);
    return V{_mm256_packs_epi32(_mm256_srai_epi32(_mm256_add_epi32(w.lo.raw, r), 14),
                                _mm256_srai_epi32(_mm256_add_epi32(w.hi.raw, r), 14))};
  } else
#endif
  {
    const __m128i r = _mm_set1_epi32(8192);
    return V{_mm_packs_epi32(_mm_srai_epi32(_mm_add_epi32(w.lo.raw, r), 14),
                             _mm_srai_epi32(_mm_add_epi32(w.hi.raw, r), 14))};
  }
#else
  return V{vrshrn_high_n_s32(vrshrn_n_s32(w.lo.raw, 14), w.hi.raw, 14)};
#endif
}

// The ADST's rounded product sums narrowed to int16: on Ops<int16> as Rnd16 (x86 packssdw
// saturates, NEON rshrn wraps; inside the bound neither matters), on OpsSat (itx_hwy_sat.h)
// always saturating (NEON sqrshrn). NarrowT also tracks the result on OpsSat.
template <class D>
HWY_INLINE hn::Vec<D> Narrow(const Ops<D> &o, Wide16<D> w) {
  return Rnd16(o.d, w);
}
template <class D>
HWY_INLINE hn::Vec<D> NarrowT(const Ops<D> &o, Wide16<D> w) {
  return Rnd16(o.d, w);
}
template <class D>
HWY_INLINE hn::Vec<D> Narrow(const OpsSat<D> &o, Wide16<D> w) {
#if HWY_TARGET == HWY_NEON
  using V = hn::Vec<D>;
  return V{vqrshrn_high_n_s32(vqrshrn_n_s32(w.lo.raw, 14), w.hi.raw, 14)};
#else
  return Rnd16(o.d, w);
#endif
}
template <class D>
HWY_INLINE hn::Vec<D> NarrowT(const OpsSat<D> &o, Wide16<D> w) {
  return o.T(Narrow(o, w));
}

// 16-point ADST on int16 lanes: the stages of Iadst16 (itx_hwy_1d.h), products as Wide16,
// every addition, subtraction and narrowing through o (Ops<int16> or OpsSat, as the DCT
// templates of itx_hwy_1d.h). Inputs from kNz on are zero. Tracked (AT, ST, NarrowT): the
// inputs of a rotation (a8..a15, b4..b7, b12..b15), the inputs of the final rounded
// multiplies, and the outputs that are not such a multiply's result; every other value is one
// side of a butterfly (docs/itx_int16_bounds.md, "Saturate and detect", ADST16). The unrounded
// product sums are exact in int32 for every int16 input (at most four products of
// |cos64| < 2^14 whose constants sum to under 2^16).
template <int kNz, class O, class V>
HWY_INLINE void Iadst16x16O(const O &o, const V *in, V *out) {
  const auto d = o.d;
  auto I = [&](int k) { return In<kNz>(o, in, k); };
  constexpr int kPerm[16] = {15, 0, 13, 2, 11, 4, 9, 6, 7, 8, 5, 10, 3, 12, 1, 14};
  constexpr int kA[8] = {1, 5, 9, 13, 17, 21, 25, 29};
  // stage 1: s(k) = rotation of (x[2j], x[2j+1]), k = 2j or 2j + 1, x[j] = input kPerm[j]. (No
  // arrays of Wide16: their implicit constructor lacks the target's attributes.)
  auto S = [&](int k) {
    const int j = k / 2;
    const V x0 = I(kPerm[2 * j]), x1 = I(kPerm[2 * j + 1]);
    return k % 2 == 0 ? MulW(d, x0, kC[kA[j]], x1, kC[32 - kA[j]])
                      : MulW(d, x0, kC[32 - kA[j]], x1, -kC[kA[j]]);
  };
  V a[16];
  V3D_UNROLL
  for (int j = 0; j < 8; j++) {
    const auto sj = S(j), sk = S(j + 8);
    a[j] = Narrow(o, sj + sk);
    a[j + 8] = NarrowT(o, sj - sk);
  }
  // stage 2
  const auto t8 = MulW(d, a[8], kC[4], a[9], kC[28]), t9 = MulW(d, a[8], kC[28], a[9], -kC[4]);
  const auto t10 = MulW(d, a[10], kC[20], a[11], kC[12]);
  const auto t11 = MulW(d, a[10], kC[12], a[11], -kC[20]);
  const auto t12 = MulW(d, a[13], kC[4], a[12], -kC[28]);
  const auto t13 = MulW(d, a[12], kC[4], a[13], kC[28]);
  const auto t14 = MulW(d, a[15], kC[20], a[14], -kC[12]);
  const auto t15 = MulW(d, a[14], kC[20], a[15], kC[12]);
  const V b0 = o.A(a[0], a[4]), b1 = o.A(a[1], a[5]), b2 = o.A(a[2], a[6]), b3 = o.A(a[3], a[7]);
  const V b4 = o.ST(a[0], a[4]), b5 = o.ST(a[1], a[5]);
  const V b6 = o.ST(a[2], a[6]), b7 = o.ST(a[3], a[7]);
  const V b8 = Narrow(o, t8 + t12), b9 = Narrow(o, t9 + t13);
  const V b10 = Narrow(o, t10 + t14), b11 = Narrow(o, t11 + t15);
  const V b12 = NarrowT(o, t8 - t12), b13 = NarrowT(o, t9 - t13);
  const V b14 = NarrowT(o, t10 - t14), b15 = NarrowT(o, t11 - t15);
  // stage 3
  const auto u4 = MulW(d, b4, kC[8], b5, kC[24]), u5 = MulW(d, b4, kC[24], b5, -kC[8]);
  const auto u6 = MulW(d, b7, kC[8], b6, -kC[24]), u7 = MulW(d, b6, kC[8], b7, kC[24]);
  const auto u12 = MulW(d, b12, kC[8], b13, kC[24]), u13 = MulW(d, b12, kC[24], b13, -kC[8]);
  const auto u14 = MulW(d, b15, kC[8], b14, -kC[24]), u15 = MulW(d, b14, kC[8], b15, kC[24]);
  const V c0 = o.AT(b0, b2), c1 = o.AT(b1, b3), c2 = o.S(b0, b2), c3 = o.S(b1, b3);
  const V c4 = NarrowT(o, u4 + u6), c5 = NarrowT(o, u5 + u7);
  const V c6 = Narrow(o, u4 - u6), c7 = Narrow(o, u5 - u7);
  const V c8 = o.AT(b8, b10), c9 = o.AT(b9, b11), c10 = o.S(b8, b10), c11 = o.S(b9, b11);
  const V c12 = NarrowT(o, u12 + u14), c13 = NarrowT(o, u13 + u15);
  const V c14 = Narrow(o, u12 - u14), c15 = Narrow(o, u13 - u15);
  // stage 4. The negations act on tracked values: where none is extreme (|v| <= 32766) they
  // are exact.
  const V z = o.Z();
  out[0] = c0;
  out[1] = o.S(z, c8);
  out[2] = c12;
  out[3] = o.S(z, c4);
  out[4] = o.H(o.AT(c6, c7));
  out[5] = o.H(o.S(z, o.AT(c14, c15)));
  out[6] = o.H(o.AT(c10, c11));
  out[7] = o.H(o.S(z, o.AT(c2, c3)));
  out[8] = o.H(o.ST(c2, c3));
  out[9] = o.H(o.ST(c11, c10));
  out[10] = o.H(o.ST(c14, c15));
  out[11] = o.H(o.ST(c7, c6));
  out[12] = c5;
  out[13] = o.S(z, c13);
  out[14] = c9;
  out[15] = o.S(z, c1);
}

template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Iadst16x16(D d, const V *in, V *out) {
  Iadst16x16O<kNz>(Ops<D>{d}, in, out);
}

// kAdst: ADST (else DCT) of 16 vectors of int16 lanes in place; inputs from kNz on are zero.
template <bool kAdst, int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void Run16Point(D d, V *v) {
  V out[16];
  if constexpr (kAdst) Iadst16x16<kNz>(d, v, out);
  else Idct16<kNz>(d, v, out);
  V3D_UNROLL
  for (size_t k = 0; k < 16; k++) v[k] = out[k];
}

// 8x8 transposes of int16 within each 128-bit block of v[0..8) (v[i] lane j of a block -> v[j]
// lane i of the same block): punpck{l,h}{wd,dq,qdq}.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void TransposeBlocks8x8(D d, V *v) {
  const hn::Repartition<int32_t, D> d32;
  const hn::Repartition<int64_t, D> d64;
  hn::Vec<decltype(d32)> a[4], b[4];
  V3D_UNROLL
  for (size_t j = 0; j < 4; j++) {
    a[j] = hn::BitCast(d32, hn::InterleaveLower(d, v[2 * j], v[2 * j + 1]));
    b[j] = hn::BitCast(d32, hn::InterleaveUpper(d, v[2 * j], v[2 * j + 1]));
  }
  hn::Vec<decltype(d64)> c[4], e[4];  // c: rows 0..3, e: rows 4..7; column pairs 01 23 45 67
  V3D_UNROLL
  for (size_t j = 0; j < 2; j++) {
    c[2 * j] = hn::BitCast(d64, hn::InterleaveLower(d32, j ? b[0] : a[0], j ? b[1] : a[1]));
    c[2 * j + 1] = hn::BitCast(d64, hn::InterleaveUpper(d32, j ? b[0] : a[0], j ? b[1] : a[1]));
    e[2 * j] = hn::BitCast(d64, hn::InterleaveLower(d32, j ? b[2] : a[2], j ? b[3] : a[3]));
    e[2 * j + 1] = hn::BitCast(d64, hn::InterleaveUpper(d32, j ? b[2] : a[2], j ? b[3] : a[3]));
  }
  V3D_UNROLL
  for (size_t j = 0; j < 4; j++) {
    v[2 * j] = hn::BitCast(d, hn::InterleaveLower(d64, c[j], e[j]));
    v[2 * j + 1] = hn::BitCast(d, hn::InterleaveUpper(d64, c[j], e[j]));
  }
}

// 16x16 transpose of int16 in 16-lane vectors (v[i] lane j -> v[j] lane i): the 8x8 transposes
// of the four 8x8 quarters within their 128-bit blocks, then one block exchange per pair.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Transpose16x16(D d, V *v) {
  static_assert(hn::MaxLanes(D()) == 16, "16 lanes");
  TransposeBlocks8x8(d, v);
  TransposeBlocks8x8(d, v + 8);
  // v[k]: [column k | column 8 + k] of rows 0..7; v[8 + k] the same of rows 8..15.
  V3D_UNROLL
  for (size_t k = 0; k < 8; k++) {
    const V top = v[k], bottom = v[8 + k];
    v[k] = hn::ConcatLowerLower(d, bottom, top);
    v[8 + k] = hn::ConcatUpperUpper(d, bottom, top);
  }
}

// Which corner form a 16x16 block whose non-zero coefficients lie in its top-left 4x4 square
// takes: 2 when they lie in the 2x2 square, 4 otherwise, 0 when a coefficient of the 4x4 square
// lies outside [-kB, kB].
template <int kB>
HWY_INLINE int Corner16Class(const int16_t *c) {
  const hn::CappedTag<int16_t, 4> d4;
  const auto r0 = hn::LoadU(d4, c), r1 = hn::LoadU(d4, c + 16);
  const auto r2 = hn::LoadU(d4, c + 32), r3 = hn::LoadU(d4, c + 48);
  const auto mx = hn::Max(hn::Max(r0, r1), hn::Max(r2, r3));
  const auto mn = hn::Min(hn::Min(r0, r1), hn::Min(r2, r3));
#if HWY_ARCH_X86
  const auto hi = SplatLoad16<kB>(d4), lo = SplatLoad16<-kB>(d4);  // loads (see Splat32)
#else
  const auto hi = hn::Set(d4, int16_t{kB}), lo = hn::Set(d4, int16_t{-kB});
#endif
  if (!hn::AllFalse(d4, hn::Or(hn::Gt(mx, hi), hn::Lt(mn, lo)))) return 0;
  // Outside the 2x2 square: rows 2 and 3, and columns 2 and 3 of rows 0 and 1.
  const auto out2 = hn::Or(hn::Or(r2, r3), hn::IfThenZeroElse(hn::FirstN(d4, 2), hn::Or(r0, r1)));
  return hn::AllTrue(d4, hn::Eq(out2, hn::Zero(d4))) ? 2 : 4;
}

// Round2(v[i], 6) added to row i of dst, columns [c, c + lanes), with unsigned saturation
// (Round2By: x86 a rounding multiply by 2^9, NEON a rounding shift).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void RoundAdd16(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const V *v) {
  const hn::Rebind<uint8_t, D> du8;
  const V rnd = hn::Set(d, static_cast<int16_t>(1 << 9));  // exactly (x + 32) >> 6
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
  if constexpr (sizeof(V) == 32) {
    // Two rows per saturating pack and lane permutation (instead of one each): the shuffle
    // unit is this path's bottleneck.
    V3D_UNROLL
    for (size_t i = 0; i < 16; i += 2) {
      uint8_t *p0 = dst + static_cast<ptrdiff_t>(i) * stride + c, *p1 = p0 + stride;
      const V s0 = hn::Add(Round2By<6>(v[i], rnd), hn::PromoteTo(d, hn::LoadU(du8, p0)));
      const V s1 = hn::Add(Round2By<6>(v[i + 1], rnd), hn::PromoteTo(d, hn::LoadU(du8, p1)));
      // packus: [s0 0..7, s1 0..7 | s0 8..15, s1 8..15]; permute the 64-bit quarters to
      // [s0 | s1].
      const __m256i b = _mm256_permute4x64_epi64(_mm256_packus_epi16(s0.raw, s1.raw), 0xD8);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(p0), _mm256_castsi256_si128(b));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(p1), _mm256_extracti128_si256(b, 1));
    }
    return;
  }
#endif
  V3D_UNROLL
  for (size_t i = 0; i < 16; i++) {
    uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride + c;
    const V sum = hn::Add(Round2By<6>(v[i], rnd), hn::PromoteTo(d, hn::LoadU(du8, p)));
    hn::StoreU(hn::DemoteTo(du8, sum), du8, p);
  }
}

// 16x16 DCT_DCT block whose non-zero coefficients lie in the top-left kNz x kNz square (kNz = 2
// or 4), within kInt16CornerBound16x16 (proven over the 4x4 square's blocks, which include the
// 2x2 square's): as AddCorner8x8, in 16-bit lanes throughout. The column pass runs on vectors of
// up to 16 lanes (one or two per row).
// DC: the column vectors' tag, CappedTag<int16_t, 16> (16 lanes, or 8). kCm: coeffs column-major
// (ItxDsp::add_exact_eob_cm), whose first four memory rows are the corner's columns as the row
// pass takes them: the same vectors without the transpose.
template <int kNz, bool kCm = false, class DC>
HWY_NOINLINE void AddCorner16x16(DC dc, uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs) {
  const hn::CappedTag<int16_t, 4> d4;
  const hn::CappedTag<int16_t, 8> d8;
  using V4 = hn::Vec<decltype(d4)>;
  using V8 = hn::Vec<decltype(d8)>;
  using VC = hn::Vec<decltype(dc)>;
  constexpr size_t Lc = hn::MaxLanes(dc);
  constexpr size_t kR = static_cast<size_t>(kNz);
  V4 v[4], o[16];
  V3D_UNROLL
  for (size_t i = 0; i < 4; i++) v[i] = i < kR ? hn::LoadU(d4, coeffs + 16 * i) : hn::Zero(d4);
  if constexpr (!kCm) Transpose16(d4, v);  // v[k] lane i = coefficient (i, k), k < 4
  Idct16<kNz>(d4, v, o);  // o[k] lane i = intermediate (i, k); zero for rows i >= kNz
  if constexpr (Lc == 16) {
    VC u[16], w[16];
    Transpose4x16<kNz>(dc, o, u);  // u[i] = row i of the intermediate
    Idct16<kNz>(dc, u, w);
    RoundAdd16(dc, dst, stride, 0, w);
  } else {
    V8 lo[8], hi[8];  // rows 0..kNz-1: columns 0..7, 8..15
    Transpose4x8<kNz>(d8, o, lo);
    Transpose4x8<kNz>(d8, o + 8, hi);
    V3D_UNROLL
    for (size_t c = 0; c < 16; c += 8) {
      V8 w[16];
      Idct16<kNz>(d8, c == 0 ? lo : hi, w);
      RoundAdd16(d8, dst, stride, c, w);
    }
  }
}

// The corner path of a 16x16 DCT_DCT block whose non-zero coefficients lie in its top-left 4x4
// square: done (true) when they are within kInt16CornerBound16x16, else false, nothing written.
HWY_INLINE bool TryCorner16x16(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  const int k = Corner16Class<kInt16CornerBound16x16>(c);
  if (k == 2) AddCorner16x16<2>(hn::CappedTag<int16_t, 16>(), dst, stride, c);
  if (k == 4) AddCorner16x16<4>(hn::CappedTag<int16_t, 16>(), dst, stride, c);
  return k != 0;
}

// The add_exact_eob slot's 16x16 DCT_DCT corner: every coefficient at a scan position >= eob is
// zero, so eob <= kScan16First4Out puts the non-zero ones in the top-left 4x4 square and eob <=
// kScan16First2Out in the 2x2 one (itx_eob_hint.h). Done (true) when the rows holding that square
// are within kInt16CornerBound16x16, read whole (their zeros pass), else false, nothing written.
// A block inside the 2x2 square with a larger eob takes the 4x4 form, exact for it as well.
// kCm: c column-major; its first 2 or 4 memory rows hold the same square, transposed, and
// zeros, so the same checks apply (the bound is on each coefficient).
template <bool kCm = false>
HWY_INLINE bool TryCorner16x16ByExactEob(uint8_t *dst, ptrdiff_t stride, const int16_t *c,
                                         int eob) {
  constexpr int kB = kInt16CornerBound16x16;
  const hn::CappedTag<int16_t, 16> dc;
  if (eob <= kScan16First2Out && SpanWithin<kB, 32>(c)) {
    AddCorner16x16<2, kCm>(dc, dst, stride, c);
    return true;
  }
  if (eob > kScan16First4Out || !SpanWithin<kB, 64>(c)) return false;
  AddCorner16x16<4, kCm>(dc, dst, stride, c);
  return true;
}

// The 16x16 columns (kAdst: ADST, else DCT) of the exact int16 row results in rows (row-major,
// 16 per row, rows from kNz on zero, not read) by saturate and detect (itx_hwy_sat.h), in
// vectors of d's 8 or 16 lanes: Round2'd by 6 and added to dst, and true, when no chunk detects
// a saturation; else false, nothing written. Not inlined: the 16-bit path's registers stay as
// they are without it.
template <bool kAdst, int kNz, class D>
HWY_NOINLINE bool Cols16x16Sat(D d, uint8_t *dst, ptrdiff_t stride, const int16_t *rows) {
  using V = hn::Vec<D>;
  constexpr size_t L = hn::MaxLanes(D());
  const auto o = StartSat(d);
  V w[16 / L][16];
  V3D_UNROLL
  for (size_t c = 0; c < 16; c += L) {
    V x[16];
    V3D_UNROLL
    for (size_t i = 0; i < 16; i++)
      x[i] = i < static_cast<size_t>(kNz) ? hn::LoadU(d, rows + 16 * i + c) : hn::Zero(d);
    if constexpr (kAdst) Iadst16x16O<kNz>(o, x, w[c / L]);
    else Idct16O<kNz>(o, x, w[c / L]);
  }
  if (!o.Exact()) return false;
  V3D_UNROLL
  for (size_t c = 0; c < 16; c += L) RoundAdd16(d, dst, stride, c, w[c / L]);
  return true;
}

// The rows [8g, 8g + 8) of a 16x16 block in 8-lane vectors (kNz: the side of its non-zero
// top-left square), transposed: a[k] lane i = coefficient (8g + i, k). Returns lane i = row
// 8g + i's sum of |coefficients| (uint16, saturating), for the row check.
template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> LoadRows16x8(D d, const int16_t *coeffs, size_t g,
                                                         V *a) {
  const hn::RebindToUnsigned<D> du;
  constexpr size_t kR = static_cast<size_t>(kNz);
  V3D_UNROLL
  for (size_t i = 0; i < 8; i++) {
    const size_t r = 8 * g + i;
    a[i] = r < kR ? hn::LoadU(d, coeffs + 16 * r) : hn::Zero(d);
    a[8 + i] = r < kR && kR > 8 ? hn::LoadU(d, coeffs + 16 * r + 8) : hn::Zero(d);
  }
  Transpose16(d, a);  // a[k] lane i = coefficient (8g + i, k)
  if constexpr (kR > 8) Transpose16(d, a + 8);
  // Lane i: row 8g + i's sum (columns from kNz on are zero).
  auto s = AddAbs<kR < 8 ? kR : 8>(d, a, hn::Zero(du));
  if constexpr (kR > 8) s = AddAbs<8>(d, a + 8, s);
  return s;
}

// The row transforms of LoadRows16x8's a, transposed back: a[i], a[8 + i] = row 8g + i's
// results, columns 0..7 and 8..15 (the reference's when the row check passed).
template <bool kRowAdst, int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void RowPass16x8(D d, V *a) {
  Run16Point<kRowAdst, kNz>(d, a);
  Transpose16(d, a);
  Transpose16(d, a + 8);
}

// What Add16x16Int16 did: kRowsFailed: nothing (the caller runs the 32-bit path); kDone: the
// block is added to dst; kColumnsFailed: nothing written, rows holds the row results.
enum class Int16Result { kRowsFailed, kDone, kColumnsFailed };

#if HWY_TARGET == HWY_NEON
namespace neon16 {
// DCT_DCT on NEON, with Add16x16Int16's contract (itx_neon_16x16.h, included at the end).
template <int kNz>
Int16Result AddDct(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int16_t *rows);
}  // namespace neon16
#endif

// 16x16 block, row transform kRowAdst, column transform kColAdst, non-zero coefficients in the
// top-left kNz x kNz square. The row pass runs when every row's |coefficients| sum to within
// the row transform's L1 bound, the column pass when every column's |row results| do, or
// when saturate and detect (itx_hwy_sat.h) finds no saturation;
// otherwise rows holds the row results (the reference's: the row pass is exact inside its
// bound), row-major, rows from kNz on not written, for the caller's 32-bit column pass.
// kCm (16 lanes only): coeffs is the block in column-major order (ItxDsp::add_exact_eob_cm),
// whose memory rows are the row pass's inputs as they lie: no transpose before it.
template <bool kRowAdst, bool kColAdst, int kNz, bool kCm = false>
HWY_NOINLINE Int16Result Add16x16Int16(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                       int16_t *rows) {
  const hn::CappedTag<int16_t, 16> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  using V = hn::Vec<decltype(d)>;
  constexpr size_t L = hn::MaxLanes(d);
  constexpr size_t kR = static_cast<size_t>(kNz);
  constexpr int kRowB = kInt16BoundL1[2][kRowAdst ? 1 : 0];
  constexpr int kColB = kInt16BoundL1[2][kColAdst ? 1 : 0];
  static_assert(kRowB > 0 && kColB > 0, "proven bounds");
  static_assert(!kCm || L == 16, "column-major input: the 16-lane form only");
#if V3D_ITX_NEON_ADST16
  if constexpr (kRowAdst || kColAdst) {  // the same checks, itx_neon_adst16.h
    using R = neonadst16::Result;
    const R r = neonadst16::Add16x16<kRowAdst, kColAdst, kNz>(dst, stride, coeffs, rows);
    if (r == R::kRowsFailed) return Int16Result::kRowsFailed;
    if (r == R::kDone) return Int16Result::kDone;
    // NEON keeps the 32-bit ADST columns: the tracked ADST pass slows the in-bound blocks in
    // the NEON model and is not yet measured on the blocks it would speed up (figures in
    // docs/itx_int16_bounds.md, "ADST16 columns").
    if constexpr (!kColAdst) {
      if (Cols16x16Sat<false, kNz>(d, dst, stride, rows)) return Int16Result::kDone;
    }
    return Int16Result::kColumnsFailed;
  }
#endif
  if constexpr (L == 16) {
    V v[16];
    V3D_UNROLL
    for (size_t i = 0; i < 16; i++) v[i] = i < kR ? hn::LoadU(d, coeffs + 16 * i) : hn::Zero(d);
    if constexpr (!kCm) Transpose16x16(d, v);
    // v[k] lane i = coefficient (i, k); zero from column kNz on
    if (!LanesWithin<kRowB>(du, AddAbs<kR>(d, v, hn::Zero(du)))) return Int16Result::kRowsFailed;
    Run16Point<kRowAdst, kNz>(d, v);
    Transpose16x16(d, v);  // v[i] = row i of the intermediate (zero from kR on)
    if (!LanesWithin<kColB>(du, AddAbs<kR>(d, v, hn::Zero(du)))) {
      V3D_UNROLL
      for (size_t i = 0; i < kR; i++) hn::StoreU(v[i], d, rows + 16 * i);
      if (Cols16x16Sat<kColAdst, kNz>(d, dst, stride, rows)) return Int16Result::kDone;
      return Int16Result::kColumnsFailed;
    }
    Run16Point<kColAdst, kNz>(d, v);
    RoundAdd16(d, dst, stride, 0, v);
  } else {
    static_assert(L == 8 || kNz < 0, "8 or 16 lanes");  // (dependent: checked per use)
#if HWY_TARGET == HWY_NEON
    if constexpr (!kRowAdst && !kColAdst) return neon16::AddDct<kNz>(dst, stride, coeffs, rows);
#endif
    V lft[16], rgt[16];  // rows of the intermediate: columns 0..7, 8..15
    constexpr size_t kGroups = kR > 8 ? 2 : 1;
    V3D_UNROLL
    for (size_t g = 0; g < kGroups; g++) {
      V a[16];  // a[i], a[8 + i]: row 8g + i, columns 0..7 and 8..15
      if (!LanesWithin<kRowB>(du, LoadRows16x8<kNz>(d, coeffs, g, a)))
        return Int16Result::kRowsFailed;
      RowPass16x8<kRowAdst, kNz>(d, a);
      V3D_UNROLL
      for (size_t i = 0; i < 8; i++) {
        lft[8 * g + i] = a[i];
        rgt[8 * g + i] = a[8 + i];
      }
    }
    V3D_UNROLL
    for (size_t i = 8 * kGroups; i < 16; i++) lft[i] = rgt[i] = hn::Zero(d);
    if (!LanesWithin<kColB>(du, AddAbs<kR>(d, lft, hn::Zero(du))) ||
        !LanesWithin<kColB>(du, AddAbs<kR>(d, rgt, hn::Zero(du)))) {
      V3D_UNROLL
      for (size_t i = 0; i < kR; i++) {
        hn::StoreU(lft[i], d, rows + 16 * i);
        hn::StoreU(rgt[i], d, rows + 16 * i + 8);
      }
      if (Cols16x16Sat<kColAdst, kNz>(d, dst, stride, rows)) return Int16Result::kDone;
      return Int16Result::kColumnsFailed;
    }
    Run16Point<kColAdst, kNz>(d, lft);
    RoundAdd16(d, dst, stride, 0, lft);
    Run16Point<kColAdst, kNz>(d, rgt);
    RoundAdd16(d, dst, stride, 8, rgt);
  }
  return Int16Result::kDone;
}

#else
// Without 16-bit lanes the exact entry's 16x16 corners take AddSquare's path.
template <bool kCm = false>
HWY_INLINE bool TryCorner16x16ByExactEob(uint8_t *, ptrdiff_t, const int16_t *, int) {
  return false;
}
#endif  // V3D_ITX_HAVE_16

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#include "vp9/itx/itx_neon_16x16.h"  // neon16::AddDct

#endif  // V3D_VP9_ITX_HWY_16X16_H_
