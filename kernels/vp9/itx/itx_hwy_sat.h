// SPDX-License-Identifier: LGPL-2.1-or-later
// Exact 16-bit DCT and ADST column passes by "saturate and detect", for blocks whose row results
// fail the per-pass L1 column check (kInt16BoundL1) although the column transforms keep every
// value inside int16, as most real blocks do. Per-target header: included by itx_hwy.cpp after
// itx_hwy_16.h, before the 8x8, 16x16 and 32x32 headers (itx_hwy_16x16.h uses OpsSat).
//
// Exactness (docs/itx_int16_bounds.md, "Saturate and detect"): the column DCT is itx_hwy_1d.h's
// template, value for value the reference's, run on OpsSat below; its inputs are the
// reference's row results (the row pass ran within its own bound). Every operation that can
// leave int16 saturates instead of wrapping (additions and subtractions: paddsw / psubsw,
// sqadd / sqsub; the rounded product sums: packssdw, sqrshrn), so its result when it leaves
// int16 is 32767 or -32768 ("extreme"). The rounding multiplies (H, B1: pmulhrsw / sqrdmulh by
// 2c, |2c| < 2^15) cannot leave int16. Tracked (AT, ST): the values that feed a rounded product
// and the outputs. Every other saturating result is used by one butterfly (v + w, v - w), and
// if v is extreme so is one of sat(v + w), sat(v - w), whatever w (v = 32767: w >= 0 gives
// sat(v + w) = 32767, w < 0 sat(v - w) = 32767; likewise for -32768 and for the pair's other
// orders); so an extreme value always reaches a tracked one. Hence if no tracked value is
// extreme, no operation saturated, and by induction over the operations (the first one to
// differ would have exact inputs and saturate) every value is the reference's. Otherwise (a
// value may have saturated; an exact value of 32767 or -32768 is rejected as well) the caller
// redoes those columns in 32-bit lanes from the same row results. The 32x32 columns within the
// halves' L2 bounds (itx_hwy_32.h, ColsClass32) track the inputs of the odd half's H alone: the
// bounds keep every other value but the outputs inside int16, and a saturated output clips its
// pixel as the exact value would (docs/itx_int16_bounds.md).

#if defined(V3D_VP9_ITX_HWY_SAT_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_SAT_H_
#undef V3D_VP9_ITX_HWY_SAT_H_
#else
#define V3D_VP9_ITX_HWY_SAT_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if V3D_ITX_HAVE_16

// The DCT templates' operations on int16 lanes (Ops<int16> of itx_hwy_16.h) with saturating
// additions, subtractions and narrowing; AT / ST also fold their results into a running maximum
// of their absolute values, or, with kHInputs, H folds its input there instead (from its ninth
// call on: the 32-point DCT's odd half) and AT / ST track nothing (the tracked set of the 32x32
// columns checked by halves, itx_hwy_32.h). Built by StartSat.
template <class D, bool kHInputs = false>
struct OpsSat {
  using V = hn::Vec<D>;
  using DU = hn::RebindToUnsigned<D>;
  D d;
  // The largest |tracked value| (uint16: |-32768| = 32768; start: 0). SSSE3, which has no
  // unsigned 16-bit maximum, keeps the largest and the smallest value instead; AVX-512 splits
  // the maximum between m and m2.
  mutable hn::Vec<DU> m;
#if HWY_TARGET == HWY_SSSE3
  mutable V lo;
  HWY_INLINE V T(V v) const {
    m = hn::BitCast(DU(), hn::Max(hn::BitCast(d, m), v));
    lo = hn::Min(lo, v);
    return v;
  }
  HWY_INLINE bool Exact() const {
    return hn::AllTrue(d, hn::And(hn::Lt(hn::BitCast(d, m), hn::Set(d, int16_t{32767})),
                                  hn::Gt(lo, hn::Set(d, int16_t{-32767}))));
  }
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  // AVX-512 (32 vector registers): the tracked values go to m and m2 in turn (n counts them; a
  // constant once the transform is inlined), so that each maximum waits on every second one
  // only; Exact() takes both.
  mutable hn::Vec<DU> m2 = hn::Zero(DU());
  mutable unsigned n = 0;
  HWY_INLINE V T(V v) const {
    hn::Vec<DU> &acc = (n++ & 1) != 0 ? m2 : m;
    acc = hn::Max(acc, hn::BitCast(DU(), hn::Abs(v)));
    return v;
  }
  // True iff every tracked value lies in [-32766, 32766]: then none is extreme.
  HWY_INLINE bool Exact() const {
    return hn::AllTrue(DU(), hn::Lt(hn::Max(m, m2), hn::Set(DU(), uint16_t{32767})));
  }
#else
  HWY_INLINE V T(V v) const {
    m = hn::Max(m, hn::BitCast(DU(), hn::Abs(v)));
    return v;
  }
  // True iff every tracked value lies in [-32766, 32766]: then none is extreme.
  HWY_INLINE bool Exact() const {
    return hn::AllTrue(DU(), hn::Lt(m, hn::Set(DU(), uint16_t{32767})));
  }
#endif
  HWY_INLINE V Z() const { return hn::Zero(d); }
  // Rounding multiplies by 2c, |2c| < 2^15: |result| < 2^15 for every int16 x, exactly
  // R(x * c).
  // kHInputs: the inputs of the H calls from the kHInputsFrom-th on (h counts the calls; a
  // constant once the transform is inlined). In Idct32O the first 8 are its nested 16-point
  // DCT's (the even half, bounded by B_e with them), the last 8 its odd half's (exempt from
  // B_o): only those are tracked.
  static constexpr unsigned kHInputsFrom = 8;
  mutable unsigned h = 0;
  HWY_INLINE V H(V x) const {
    if (kHInputs && h++ >= kHInputsFrom) T(x);
    return Ops<D>{d}.H(x);
  }
  HWY_INLINE V B1(V a, int32_t ka) const { return Ops<D>{d}.B1(a, ka); }
  HWY_INLINE V A(V a, V b) const { return hn::SaturatedAdd(a, b); }
  HWY_INLINE V S(V a, V b) const { return hn::SaturatedSub(a, b); }
  HWY_INLINE V AT(V a, V b) const {
    const V v = hn::SaturatedAdd(a, b);
    return kHInputs ? v : T(v);
  }
  HWY_INLINE V ST(V a, V b) const {
    const V v = hn::SaturatedSub(a, b);
    return kHInputs ? v : T(v);
  }
  // R(a*ka + b*kb): the product sum is exact in int32 for every int16 a, b (|ka|, |kb| < 2^14),
  // the rounding shift too; the narrowing saturates (x86 packssdw in Ops<int16>::B; NEON:
  // sqrshrn here, where Ops<int16> uses the truncating rshrn). Used by one butterfly.
  HWY_INLINE V B(V a, int32_t ka, V b, int32_t kb) const {
#if HWY_TARGET == HWY_NEON
    const auto w = Mul2(a, ka, b, kb);
    if constexpr (hn::MaxLanes(D()) == 8) {
      return V{vqrshrn_high_n_s32(vqrshrn_n_s32(w.lo.raw, 14), w.hi.raw, 14)};
    } else {
      return V{vqrshrn_n_s32(w.lo.raw, 14)};
    }
#else
    return Ops<D>{d}.B(a, ka, b, kb);
#endif
  }
};

// OpsSat with nothing tracked yet.
template <bool kHInputs = false, class D>
HWY_INLINE OpsSat<D, kHInputs> StartSat(D d) {
#if HWY_TARGET == HWY_SSSE3
  return OpsSat<D, kHInputs>{d, hn::Zero(hn::RebindToUnsigned<D>()), hn::Zero(d)};
#else
  return OpsSat<D, kHInputs>{d, hn::Zero(hn::RebindToUnsigned<D>())};
#endif
}

// Round2(v[i], 6) added to row i < 32 of dst, columns [c, c + L) (L: d's lanes, up to 32), with
// unsigned saturation: the 32x32 column passes' last step. Round2 by 6 is a rounding multiply by
// 2^9, exactly (x + 32) >> 6 for every int16 x.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void RoundAdd32Rows(D d, uint8_t *dst, ptrdiff_t stride, size_t c, const V *v) {
  const hn::Rebind<uint8_t, D> d8;
  const V rnd = hn::Set(d, static_cast<int16_t>(1 << 9));
  auto sum = [&](size_t i) {
    const uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride + c;
    return hn::Add(hn::MulFixedPoint15(v[i], rnd), hn::PromoteTo(d, hn::LoadU(d8, p)));
  };
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (sizeof(V) == 64) {
    // Two rows per saturating pack and 64-bit lane permutation (instead of one each): packus
    // gives [s0 0..7, s1 0..7 | s0 8..15, s1 8..15 | ...] per 128-bit block; the permutation
    // gathers s0's quarters below s1's.
    const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    const hn::Full256<uint8_t> dh;
    V3D_UNROLL
    for (size_t i = 0; i < 32; i += 2) {
      uint8_t *p0 = dst + static_cast<ptrdiff_t>(i) * stride + c, *p1 = p0 + stride;
      const __m512i b = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(sum(i).raw,
                                                                            sum(i + 1).raw));
      hn::StoreU(hn::Vec256<uint8_t>{_mm512_castsi512_si256(b)}, dh, p0);
      hn::StoreU(hn::Vec256<uint8_t>{_mm512_extracti64x4_epi64(b, 1)}, dh, p1);
    }
    return;
  }
#endif
  V3D_UNROLL
  for (size_t i = 0; i < 32; i++) {
    uint8_t *p = dst + static_cast<ptrdiff_t>(i) * stride + c;
    hn::StoreU(hn::DemoteTo(d8, sum(i)), d8, p);
  }
}

// 32x32 DCT columns [c, c + L) (L: dc's lanes, up to 32) of the row results in tmp (kNz rows
// of 32, the rest zero) by saturate and detect: where no tracked value is extreme, Round2'd by 6
// and added to dst, and true; else false, nothing written (the caller's 32-bit columns). One
// call per column chunk: GCC unrolls a loop over the chunks here, which costs more than the
// calls. kHInputs: only the inputs of the odd half's rounding multiplies by cos64(16) tracked,
// for columns within the halves' L2 bounds (itx_hwy_32.h, ColsClass32).
template <int kNz, bool kHInputs = false, class DC>
HWY_NOINLINE bool Cols32x16Sat(DC dc, uint8_t *dst, ptrdiff_t stride, const int16_t *tmp,
                               size_t c) {
  using V = hn::Vec<DC>;
  V x[32], y[32];
  V3D_UNROLL
  for (size_t i = 0; i < 32; i++)
    x[i] = i < static_cast<size_t>(kNz) ? hn::Load(dc, tmp + i * 32 + c) : hn::Zero(dc);
  const OpsSat<DC, kHInputs> o = StartSat<kHInputs>(dc);
  Idct32O<kNz>(o, x, y);
  if (!o.Exact()) return false;
  RoundAdd32Rows(dc, dst, stride, c, y);
  return true;
}

#endif  // V3D_ITX_HAVE_16

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_SAT_H_
