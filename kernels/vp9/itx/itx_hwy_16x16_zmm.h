// SPDX-License-Identifier: LGPL-2.1-or-later
// 16x16 VP9 DCT_DCT inverse transform with both passes in 16-bit lanes of 512-bit registers
// (AVX-512 F/BW/DQ/VL: the AVX3 target only), behind the same per-pass L1 checks as
// itx_hwy_16x16.h (kInt16BoundL1 of itx_int16_bound.h): rows when the |coefficients| of every
// row sum to within the row transform's bound, columns when the |row results| of every column
// do (AVX3_DL, full-block DCT columns: by squares instead, DctColumnsClass). Per-target header:
// included by itx_hwy.cpp after itx_hwy_16.h and itx_hwy_16x16.h.
//
// Layout: the block is 8 zmm registers of 16 32-bit lanes, one 1-D transform of the pass per
// lane; the low 16-bit word of a lane holds one input (or output) element of that transform,
// the high word another: each register is two vectors, its halves "A" and "B", written
// [a | b]. A rotation [x | y] -> [R(x*k1 + y*k2) | R(x*k3 + y*k4)] is then two pmaddwd on the
// (x, y) pairs as they lie and a word blend, and a sum or difference of two registers is one
// instruction for two vectors; no lane-crossing shuffle sits inside a 1-D pass (its latency,
// not the instruction count, bounds a pass here). Only the transposes between the passes and
// the final add cross 128-bit blocks. Lane orders: kRowOfLane (row pass; kDctRowOfLane for the
// full DCT_DCT block), kColOfLane (column pass); element pairs as the transposes leave them,
// joined per pass into the pairs the DCT's butterflies need (DctIn), except in the full
// DCT_DCT block, whose loads order rows and columns so that both passes find them as they lie
// (LoadRowsDct).
//
// Exactness: every value is one the reference's 16-point DCT (itx_ref_1d.h) forms, computed by
// the same operation (OddTail reorders DctRest's last odd-half stages, not their operations):
// R(a*ka + b*kb) as pmaddwd (exact int32 product sums) and a rounding shift whose low 16 bits
// are kept, R(x * k) alone (the zero-input forms) and R(x * cos64(16)) as pmulhrsw by 2k,
// additions and subtractions in int16 lanes. Inside the per-pass bound the proof of
// itx_int16_bound.h keeps every such value inside int16 and every product sum inside int32, so
// the int16 results equal the reference's; the final Round2(x, 6) is pmulhrsw by 2^9, exact for
// every int16 value. Columns whose row results fail their check run on SatOps (saturate and
// detect, exact by construction: see SatOps) or HalvesOps and fall back to the caller's 32-bit
// columns where it detects a saturation. The DCT_DCT kernel, Add16x16DctZmm, and the column
// dispatch, ColumnsAndAdd, are in itx_hwy_16x16_zmm_dct.h.

#if defined(V3D_VP9_ITX_HWY_16X16_ZMM_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_16X16_ZMM_H_
#undef V3D_VP9_ITX_HWY_16X16_ZMM_H_
#else
#define V3D_VP9_ITX_HWY_16X16_ZMM_H_
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

#undef V3D_ITX_HAVE_ZMM16
#if V3D_ITX_HAVE_16 && HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
#define V3D_ITX_HAVE_ZMM16 1

namespace zmm16 {

using Z = __m512i;

// Half B: the high 16-bit word of every 32-bit lane.
constexpr __mmask32 kB16 = 0xAAAAAAAAu;

// Loaded from memory, as Splat32 (itx_hwy_16.h), from the same tables.
template <int32_t kV>
HWY_INLINE Z Splat32z() {
  return _mm512_load_si512(SplatTable32<kV>());
}
template <int16_t kV>
HWY_INLINE Z Splat16z() {
  return Splat32z<Splat16To32(kV)>();
}

// The rotations' and multiplies' constants as memory operands read where used: on AVX3_DL
// (V3D_ZMM_CONST_M) as inline-asm "m" operands naming the table itself. A loaded constant
// (Splat32z) is a value to GCC, kept in a register from its first use to its last: a function
// holding both passes (whose rotations share their constants) keeps some 30 of them live at
// once and spills them to the stack at entry, a store and a reload each. The asm forms compute
// what the intrinsics do. AVX3 keeps the intrinsics, which the compiler schedules and folds
// itself; only AVX3_DL, the target this path is tuned for, takes the asm form.
#undef V3D_ZMM_CONST_M
#define V3D_ZMM_CONST_M (HWY_TARGET == HWY_AVX3_DL)
template <int32_t kV>
HWY_INLINE const Z &TableZ() {
  return *reinterpret_cast<const Z *>(SplatTable32<kV>());
}
// acc + pmaddwd(p, kPair in every lane), the table a memory operand on AVX3_DL (itx_hwy_madd.h).
template <int32_t kPair>
HWY_INLINE Z MaddAccT(Z acc, Z p) {
  return MaddAccMem(acc, p, TableZ<kPair>());
}
// pmulhrsw(x, kV in every 32-bit lane).
template <int32_t kV>
HWY_INLINE Z MulhrsT(Z x) {
#if V3D_ZMM_CONST_M
  Z r;
  asm("vpmulhrsw %2, %1, %0" : "=v"(r) : "v"(x), "m"(TableZ<kV>()));
  return r;
#else
  return _mm512_mulhrs_epi16(x, Splat32z<kV>());
#endif
}

// The tracking state of the saturating operations (SatOps, below): none for the wrapping ones.
template <bool kSat>
struct OpsState {};
template <>
struct OpsState<true> {
  mutable Z m;  // the largest |tracked value| (uint16)
  mutable Z w;  // the OR of |every narrowed int32 rounded sum|
};

// The operations of the packed 16-point DCT. kSat: additions and subtractions saturate instead
// of wrapping. kAll: T tracks its values and the rotations' narrowing is checked (SatOps,
// below); else only X tracks its values (HalvesOps). T marks the values that SatOps tracks, X
// those that both SatOps and HalvesOps track; in PackedOps neither does anything.
template <bool kSat, bool kAll = kSat>
struct PackedOpsT : OpsState<kSat> {
  HWY_INLINE Z T(Z x) const {
    if constexpr (kAll) this->m = _mm512_max_epu16(this->m, _mm512_abs_epi16(x));
    return x;
  }
  HWY_INLINE Z X(Z x) const {
    if constexpr (kSat) this->m = _mm512_max_epu16(this->m, _mm512_abs_epi16(x));
    return x;
  }
  // Records two registers of int32 rounded sums (SatOps) before they are narrowed.
  HWY_INLINE void TrackSums(Z a, Z b) const {
    if constexpr (kAll) {
      this->w = _mm512_ternarylogic_epi32(this->w, _mm512_abs_epi32(a), _mm512_abs_epi32(b), 0xFE);
    }
  }
  HWY_INLINE Z Add(Z a, Z b) const {
    return kSat ? _mm512_adds_epi16(a, b) : _mm512_add_epi16(a, b);
  }
  HWY_INLINE Z Sub(Z a, Z b) const {
    return kSat ? _mm512_subs_epi16(a, b) : _mm512_sub_epi16(a, b);
  }
  // a + b (a - b) in the words of mask k, src's elsewhere.
  HWY_INLINE Z MaskAdd(Z src, __mmask32 k, Z a, Z b) const {
    return kSat ? _mm512_mask_adds_epi16(src, k, a, b) : _mm512_mask_add_epi16(src, k, a, b);
  }
  HWY_INLINE Z MaskSub(Z src, __mmask32 k, Z a, Z b) const {
    return kSat ? _mm512_mask_subs_epi16(src, k, a, b) : _mm512_mask_sub_epi16(src, k, a, b);
  }
  // [x | y] -> [y | x]
  HWY_INLINE Z Swap(Z x) const { return _mm512_rol_epi32(x, 16); }
  // [A of a | B of b]
  HWY_INLINE Z Blend(Z a, Z b) const { return _mm512_mask_blend_epi16(kB16, a, b); }
  // [A of a | A of b] and [B of a | B of b].
  HWY_INLINE Z JoinA(Z a, Z b) const { return Blend(a, _mm512_slli_epi32(b, 16)); }
  HWY_INLINE Z JoinB(Z a, Z b) const { return Blend(_mm512_srli_epi32(a, 16), b); }
  // [x | y] -> [x + y | x - y]
  HWY_INLINE Z SumDiff(Z p) const {
    const Z s = Swap(p);
    return MaskSub(Add(p, s), kB16, s, p);
  }
  // [x | y] -> [x - y | x + y]
  HWY_INLINE Z DiffSum(Z p) const {
    const Z s = Swap(p);
    return MaskSub(Add(p, s), ~kB16, p, s);
  }
  // [x | y] -> [y - x | x + y]
  HWY_INLINE Z RevDiffSum(Z p) const {
    const Z s = Swap(p);
    return MaskSub(Add(p, s), ~kB16, s, p);
  }
  // R(x * cos64(16)) of every lane: (x * 2c + 2^14) >> 15, 2c < 2^15.
  HWY_INLINE Z H(Z x) const { return MulhrsT<Splat16To32(2 * kC[16])>(x); }
  // [x | x] -> [R(x*k1) | R(x*k2)]: a rounding multiply by 2k, exactly (x*k + 2^13) >> 14.
  template <int32_t k1, int32_t k2>
  HWY_INLINE Z Mul(Z d) const {
    return MulhrsT<PairOf(2 * k1, 2 * k2)>(d);
  }
  // [x | y] -> [R(x*k1 + y*k2) | R(x*k3 + y*k4)]: one pmaddwd per output on the (x, y) pairs
  // as they lie, narrowed by Wrap2 (SatOps records the sums).
  template <int32_t k1, int32_t k2, int32_t k3, int32_t k4>
  HWY_INLINE Z Rot(Z p) const {
    const Z r = Splat32z<8192>();
    const Z a = MaddAccT<PairOf(k1, k2)>(r, p);
    const Z b = MaddAccT<PairOf(k3, k4)>(r, p);
    TrackSums(a, b);
    return Wrap2(a, b);
  }
  // [a >> 14 | b >> 14] of two registers of int32 rounded sums (8192 already added), wrapping:
  // A's value is the low word of a shifted right by 14, B's the high word of b shifted left by
  // 2 (its bits 14..29): the same 16 bits, the value itself where it fits int16.
  HWY_INLINE Z Wrap2(Z a, Z b) const {
#if HWY_TARGET == HWY_AVX3_DL
    // VBMI: A's two bytes of every int32 are bits 14..21 and 22..29 of a's (byte-granular
    // shifts 14, 22 within the low int32 of each 64-bit lane, 46, 54 within the high one),
    // merged into b << 2 under the A-word byte mask: two operations instead of three.
    constexpr __mmask64 kA8 = 0x3333333333333333ull;
    return _mm512_mask_multishift_epi64_epi8(_mm512_slli_epi32(b, 2), kA8,
                                             _mm512_set1_epi64(0x0000362E0000160Ell), a);
#else
    return Blend(_mm512_srai_epi32(a, 14), _mm512_slli_epi32(b, 2));
#endif
  }
  // Wrap2, or with kSat both sums shifted and narrowed with packssdw (saturating), then the
  // words put back in [A | B] pairs within each 128-bit block: the ADST's narrowing.
  HWY_INLINE Z Narrow2(Z a, Z b) const {
    if constexpr (!kSat) {
      return Wrap2(a, b);
    } else {
      const Z ab = _mm512_packs_epi32(_mm512_srai_epi32(a, 14), _mm512_srai_epi32(b, 14));
      return _mm512_shuffle_epi8(ab, _mm512_broadcast_i32x4(_mm_setr_epi8(
                                         0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15)));
    }
  }
};
using PackedOps = PackedOpsT<false>;

// The saturating operations, tracking the values T marks (the inputs of H and of DctRest's
// rotations, and the outputs) in a running maximum of their absolute values, and the int32
// rounded sums of every DCT rotation (Rot, OddTail) before their narrowing: the column pass of
// the blocks that fail the column check. The argument of itx_hwy_sat.h (and
// docs/itx_int16_bounds.md, "Saturate and detect") carries over value for value: DctProducts /
// DctRest form the values of Idct16O by the same operations, T marks the same values, and
// every other value an addition or subtraction forms is one side of a butterfly (a register's
// two halves are two independent values), so where one leaves int16 its extreme reaches a
// tracked value. A DCT rotation's narrowing wraps, but the sum it narrows is exact
// (|a*ka + b*kb| < 2^30) and recorded: Exact rejects every sum of magnitude 2^29 or more, and
// a sum inside (-2^29, 2^29) narrows to its value (the ADST's narrowing, Narrow2, saturates
// instead: its extremes are tracked as above). The rounding multiplies (H, Mul: pmulhrsw by 2k,
// |2k| < 2^15) cannot leave int16. So if no tracked value is 32767 or -32768 and no sum is out
// of range (Exact), no operation saturated or wrapped and every value is the reference's.
struct SatOps : PackedOpsT<true> {
  static HWY_INLINE SatOps Start() {
    SatOps o;
    o.m = _mm512_setzero_si512();
    o.w = _mm512_setzero_si512();
    return o;
  }
  HWY_INLINE bool Exact() const {
    return (_mm512_cmpge_epu16_mask(m, Splat16z<32767>()) |
            _mm512_test_epi32_mask(w, _mm512_set1_epi32(static_cast<int32_t>(0xE0000000u)))) == 0;
  }
};

// The DCT column pass's operations for columns inside kInt16BoundL2x16Halves (even rows'
// squares summing to at most B_e^2, odd rows' to at most B_o^2), not kInt16BoundL2x16[0]:
// saturating, tracking (X) only the odd half's 4 inputs of H (OddTail's j[2], j[3]). Every
// other value but the 16 outputs is one the reference forms from one half's inputs alone (in
// OddTail read from bits 14..29 of its exact int32 sum), kept inside int16 (its product sums
// inside int32) by the bound, so exact. A tracked value or an output is then a saturating sum
// of two exact values: exact unless it saturated. Exact rejects a tracked 32767 or -32768; a
// saturated output is 32767 (-32768) for a value above (below) int16, which AddRows turns into
// a residual of 512 (-512), and Round2(v, 6) of such a v is at least 512 (at most -512): the
// pixel clamps to the reference's 255 (0) either way. Proof: test_vp9_itx_bound.cpp
// (analyse_dct_halves), docs/itx_int16_bounds.md.
struct HalvesOps : PackedOpsT<true, false> {
  static HWY_INLINE HalvesOps Start() {
    HalvesOps o;
    o.m = _mm512_setzero_si512();
    return o;
  }
  HWY_INLINE bool Exact() const { return _mm512_cmpge_epu16_mask(m, Splat16z<32767>()) == 0; }
};

// The outputs of DctRest: register j holds [out kOutA[j] | out kOutB[j]].
constexpr int kOutA[8] = {0, 15, 7, 8, 2, 13, 5, 10};
constexpr int kOutB[8] = {1, 14, 6, 9, 3, 12, 4, 11};

// The inputs of DctProducts as pairs [in a | in b]; i9_7 and i13_3 hold [in 7 | in 9] and
// [in 3 | in 13] when kFlip is false, [in 9 | in 7] and [in 13 | in 3] when it is true.
struct DctIn {
  Z i0_8, i4_12, i2_14, i6_10, i1_15, i9_7, i5_11, i13_3;
};

// The products of the 16-point DCT's first stages (Idct16, itx_hwy_1d.h): [s0 | s1], [s3 | s2]
// of its 4-point DCT, [s7 | s4], [s6 | s5] of its 8-point DCT's odd half, and the rotations
// [a8 | a15], [a9 | a14], [a10 | a13], [a11 | a12] of its odd inputs.
struct DctFirst {
  Z s01, s32, s74, s65, a8_15, a9_14, a10_13, a11_12;
};

template <bool kFlip, class O>
HWY_INLINE DctFirst DctProducts(const O &o, const DctIn &in) {
  DctFirst f;
  f.s01 = o.H(o.T(o.SumDiff(in.i0_8)));
  f.s32 = o.template Rot<kC[8], kC[24], kC[24], -kC[8]>(in.i4_12);
  f.s74 = o.template Rot<kC[4], kC[28], kC[28], -kC[4]>(in.i2_14);
  f.s65 = o.template Rot<kC[12], kC[20], -kC[20], kC[12]>(in.i6_10);
  f.a8_15 = o.template Rot<kC[30], -kC[2], kC[2], kC[30]>(in.i1_15);
  if constexpr (kFlip) {
    f.a9_14 = o.template Rot<kC[14], -kC[18], kC[18], kC[14]>(in.i9_7);
    f.a11_12 = o.template Rot<kC[6], -kC[26], kC[26], kC[6]>(in.i13_3);
  } else {
    f.a9_14 = o.template Rot<-kC[18], kC[14], kC[14], kC[18]>(in.i9_7);
    f.a11_12 = o.template Rot<-kC[26], kC[6], kC[6], kC[26]>(in.i13_3);
  }
  f.a10_13 = o.template Rot<kC[22], -kC[10], kC[10], kC[22]>(in.i5_11);
  return f;
}

// The same when inputs 8..15 are zero, from d[k] = [in k | in k] (k < 8): every product sum
// is one product, R(x * k) = one rounding multiply by 2k (|2k| < 2^15), as Ops::B1; the values
// are the reference's (the zero products add nothing).
template <class O>
HWY_INLINE DctFirst DctProductsHalf(const O &o, const Z *d) {
  DctFirst f;
  f.s01 = o.H(d[0]);
  f.s32 = o.template Mul<kC[8], kC[24]>(d[4]);
  f.s74 = o.template Mul<kC[4], kC[28]>(d[2]);
  f.s65 = o.template Mul<kC[12], -kC[20]>(d[6]);
  f.a8_15 = o.template Mul<kC[30], kC[2]>(d[1]);
  f.a9_14 = o.template Mul<-kC[18], kC[14]>(d[7]);
  f.a10_13 = o.template Mul<kC[22], kC[10]>(d[5]);
  f.a11_12 = o.template Mul<-kC[26], kC[6]>(d[3]);
  return f;
}

// DctRest's last odd-half stages, from b9_14 and b10_13 (its rotations' inputs), e8_15 and
// e11_12: j = [e15 | e14], [e8 | e9], [f13 | f12], [f10 | f11], the values of the rotations
// [c9 | c14], [c10 | c13] and of the butterflies and joins after them, by the same operations
// in another order, for a shorter chain: the rotations' rounded sums (recorded as Rot records
// them) are read as the words of shifted copies (Wrap2's A and B words: bits 14..29) by the
// masked additions and subtractions that form e9_14 and e10_13 where the joins want them, and
// the last rounding multiplies take joined inputs: [f13 | f12] = H([e10 + e13 | e11 + e12])
// and [f10 | f11] = H([e13 - e10 | e12 - e11]), the values H(RevDiffSum(e10_13)) and
// H(RevDiffSum(e11_12)) joined; every butterfly pairs the same two values.
template <class O>
HWY_INLINE void OddTail(const O &o, Z b9_14, Z b10_13, Z e8_15, Z e11_12, Z *j) {
  const Z r = Splat32z<8192>();
  // c9 = bits 14..29 of s9 (Rot's [c9 | c14] of b9_14, [c10 | c13] of b10_13), and so on.
  const Z s9 = MaddAccT<PairOf(-kC[8], kC[24])>(r, b9_14);
  const Z s14 = MaddAccT<PairOf(kC[24], kC[8])>(r, b9_14);
  const Z s10 = MaddAccT<PairOf(-kC[24], -kC[8])>(r, b10_13);
  const Z s13 = MaddAccT<PairOf(-kC[8], kC[24])>(r, b10_13);
  o.TrackSums(s9, s14);
  o.TrackSums(s10, s13);
  constexpr __mmask32 kA = ~kB16;
  const auto to_b = [](Z v, int s) { return _mm512_slli_epi32(v, s); };
  const auto to_a = [](Z v, int s) { return _mm512_srli_epi32(v, s); };
  // e14 = c14 + c13 and e9 = c9 + c10 into the B words, e10 = c9 - c10 and e13 = c14 - c13
  // into the A words; the other words are e8_15's and e11_12's, moved where the joins want them.
  j[0] = o.MaskAdd(to_a(e8_15, 16), kB16, to_b(s14, 2), to_b(s13, 2));
  j[1] = o.MaskAdd(e8_15, kB16, to_b(s9, 2), to_b(s10, 2));
  const Z e10_11 = o.MaskSub(to_b(e11_12, 16), kA, to_a(s9, 14), to_a(s10, 14));
  const Z e13_12 = o.MaskSub(e11_12, kA, to_a(s14, 14), to_a(s13, 14));
  j[2] = o.H(o.X(o.Add(e10_11, e13_12)));
  j[3] = o.H(o.X(o.Sub(e13_12, e10_11)));
}

// The 16-point DCT's remaining stages from its first products; the results in x as kOutA /
// kOutB say.
template <class O>
HWY_INLINE void DctRest(const O &o, const DctFirst &f, Z *x) {
  const Z e01 = o.Add(f.s01, f.s32), e32 = o.Sub(f.s01, f.s32);  // [e0 e1], [e3 e2] (4-point)
  const Z t74 = o.Add(f.s74, f.s65), t65 = o.Sub(f.s74, f.s65);  // [t7 t4], [t6 t5]
  const Z u56 = o.H(o.T(o.DiffSum(t65)));                             // [u5 | u6]
  const Z t7u6 = o.Blend(t74, u56), u5t4 = o.Blend(u56, t74);
  const Z e23 = o.Swap(e32);                                  // [e2 | e3]
  const Z ev01 = o.Add(e01, t7u6), ev76 = o.Sub(e01, t7u6);  // [E0 E1], [E7 E6] (8-point)
  const Z ev23 = o.Add(e23, u5t4), ev54 = o.Sub(e23, u5t4);  // [E2 E3], [E5 E4]
  // Odd half.
  const Z b8_15 = o.Add(f.a8_15, f.a9_14), b9_14 = o.Sub(f.a8_15, f.a9_14);
  const Z b11_12 = o.Add(f.a11_12, f.a10_13), b10_13 = o.Sub(f.a11_12, f.a10_13);
  const Z e8_15 = o.Add(b8_15, b11_12), e11_12 = o.Sub(b8_15, b11_12);
  // out[k] = E[k] + f[15 - k], out[15 - k] = E[k] - f[15 - k] (f8 = e8, f9 = e9, f14 = e14,
  // f15 = e15), from j = [f15 | f14], [f8 | f9], [f13 | f12], [f10 | f11].
  Z j[4];
  OddTail(o, o.T(b9_14), o.T(b10_13), e8_15, e11_12, j);
  x[0] = o.T(o.Add(ev01, j[0]));  // [0 | 1]
  x[1] = o.T(o.Sub(ev01, j[0]));  // [15 | 14]
  x[2] = o.T(o.Add(ev76, j[1]));  // [7 | 6]
  x[3] = o.T(o.Sub(ev76, j[1]));  // [8 | 9]
  x[4] = o.T(o.Add(ev23, j[2]));  // [2 | 3]
  x[5] = o.T(o.Sub(ev23, j[2]));  // [13 | 12]
  x[6] = o.T(o.Add(ev54, j[3]));  // [5 | 4]
  x[7] = o.T(o.Sub(ev54, j[3]));  // [10 | 11]
}

// [A of x | A of x] and [B of x | B of x].
HWY_INLINE Z DupA(Z x) {
  return _mm512_shuffle_epi8(
      x, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13)));
}
HWY_INLINE Z DupB(Z x) {
  return _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_setr_epi8(2, 3, 2, 3, 6, 7, 6, 7, 10,
                                                                     11, 10, 11, 14, 15, 14, 15)));
}

// Per 32-bit lane: the saturating sum of |x[0..kRegs)| over both halves (uint16, |-32768| =
// 32768); true iff every lane is at most kB.
template <int kB, int kRegs, class O>
HWY_INLINE bool L1Within(const O &o, const Z *x) {
  Z acc = _mm512_abs_epi16(x[0]);
  V3D_UNROLL
  for (int i = 1; i < kRegs; i++) acc = _mm512_adds_epu16(acc, _mm512_abs_epi16(x[i]));
  acc = _mm512_adds_epu16(acc, o.Swap(acc));
  return _mm512_cmpgt_epu16_mask(acc, Splat16z<static_cast<int16_t>(kB)>()) == 0;
}

// 4x4 transposes of the 32-bit lanes of l[0..3] within every 128-bit block.
HWY_INLINE void Transpose32x4(const Z *l, Z *q) {
  const Z a0 = _mm512_unpacklo_epi32(l[0], l[1]), a1 = _mm512_unpackhi_epi32(l[0], l[1]);
  const Z a2 = _mm512_unpacklo_epi32(l[2], l[3]), a3 = _mm512_unpackhi_epi32(l[2], l[3]);
  q[0] = _mm512_unpacklo_epi64(a0, a2);
  q[1] = _mm512_unpackhi_epi64(a0, a2);
  q[2] = _mm512_unpacklo_epi64(a1, a3);
  q[3] = _mm512_unpackhi_epi64(a1, a3);
}
// x[u]: blocks 0, 2 of q[0][u], blocks 0, 2 of q[1][u]; x[4 + u]: blocks 1, 3 of each.
HWY_INLINE void JoinBlocks(const Z (*q)[4], Z *x) {
  V3D_UNROLL
  for (int u = 0; u < 4; u++) {
    x[u] = _mm512_shuffle_i64x2(q[0][u], q[1][u], _MM_SHUFFLE(2, 0, 2, 0));
    x[4 + u] = _mm512_shuffle_i64x2(q[0][u], q[1][u], _MM_SHUFFLE(3, 1, 3, 1));
  }
}

// Row pass input: x[m] 32-bit lane l = coefficients (row kRowOfLane[l], columns 2m, 2m + 1),
// from the rows as they lie in memory (x[t] = rows 2t, 2t + 1): 4x4 transposes of 32-bit lanes
// within 128-bit blocks, then one block shuffle. Rows from kNzR on are zero.
constexpr int kRowOfLane[16] = {0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15};
template <int kNzR>
HWY_INLINE void LoadRows(const int16_t *c, Z *x) {
  Z q[2][4];
  V3D_UNROLL
  for (int g = 0; g < 2; g++) {
    if (8 * g >= kNzR) {
      V3D_UNROLL
      for (int u = 0; u < 4; u++) q[g][u] = _mm512_setzero_si512();
      continue;
    }
    Z l[4];
    V3D_UNROLL
    for (int t = 0; t < 4; t++) {
      l[t] = 8 * g + 2 * t < kNzR ? _mm512_loadu_si512(c + 16 * (8 * g + 2 * t))
                                  : _mm512_setzero_si512();
    }
    Transpose32x4(l, q[g]);
  }
  // q[g][u] blocks: rows 8g + (0, 2, 4, 6) of lane u, the same rows of lane 4 + u, rows
  // 8g + (1, 3, 5, 7) of lane u, of lane 4 + u.
  JoinBlocks(q, x);
}

// Row pass input of the full DCT_DCT block (kNzR 16): x[m] lane l = the coefficients (row
// kDctRowOfLane[l], columns kDctPairCol[2m], kDctPairCol[2m + 1]), i.e. x[m] is member m of
// the row pass's DctIn (kFlip false) as it stands, and the row results of the lanes 2k,
// 2k + 1 are the pair of rows the column pass's DctIn wants (RowsToColumns). One vpermt2w per
// two rows joins them and orders their words; then LoadRows' transposes.
constexpr int kDctPairCol[16] = {0, 8, 4, 12, 2, 14, 6, 10, 1, 15, 7, 9, 5, 11, 3, 13};
constexpr int kDctLoadRow[2][4][2] = {{{0, 1}, {8, 15}, {4, 7}, {12, 9}},
                                      {{2, 5}, {14, 11}, {6, 3}, {10, 13}}};
constexpr int kDctRowOfLane[16] = {0, 8, 4, 12, 1, 15, 7, 9, 2, 14, 6, 10, 5, 11, 3, 13};

// Column pass input from the row pass output: x[j] lane l = [column kOutA[j] | column kOutB[j]]
// of row kRowOfLane[l] -> y[k] lane l = [row kPairA[k] | row kPairB[k]] of column kColOfLane[l].
// Words swapped within 64-bit lanes (a 2x2 transpose of the lanes 2i, 2i + 1), then an 8x8
// transpose of 64-bit lanes.
constexpr int kPairA[8] = {0, 4, 1, 5, 8, 12, 9, 13};
constexpr int kPairB[8] = {2, 6, 3, 7, 10, 14, 11, 15};
constexpr int kColOfLane[16] = {0, 1, 15, 14, 7, 6, 8, 9, 2, 3, 13, 12, 5, 4, 10, 11};
// A row pass lane order for ADST columns (LoadRowsCm with kIdxCmRowsAdstCols, LoadRowsAdstCm
// with kAdstCols): RowsToColumns then leaves x[j] = [row kAdstColRowOfLane[2j] | row
// kAdstColRowOfLane[2j + 1]], the ADST's input pair j as AdstFirst takes it (pairs 1, 3, 5, 7
// flipped), which kRowOfLane's registers give only after a blend each (kAdstColPair).
constexpr int kAdstColRowOfLane[16] = {0, 15, 13, 2, 4, 11, 9, 6, 8, 7, 5, 10, 12, 3, 1, 14};
// The 8x8 transpose of 64-bit lanes: s[e][i] block b = 64-bit lane 2b + e of the swapped
// x[2i], then of the swapped x[2i + 1].
HWY_INLINE void JoinColumns(const Z (*s)[4], Z *x) {
  V3D_UNROLL
  for (int e = 0; e < 2; e++) {
    const Z lo01 = _mm512_shuffle_i64x2(s[e][0], s[e][1], _MM_SHUFFLE(1, 0, 1, 0));
    const Z hi01 = _mm512_shuffle_i64x2(s[e][0], s[e][1], _MM_SHUFFLE(3, 2, 3, 2));
    const Z lo23 = _mm512_shuffle_i64x2(s[e][2], s[e][3], _MM_SHUFFLE(1, 0, 1, 0));
    const Z hi23 = _mm512_shuffle_i64x2(s[e][2], s[e][3], _MM_SHUFFLE(3, 2, 3, 2));
    x[0 + e] = _mm512_shuffle_i64x2(lo01, lo23, _MM_SHUFFLE(2, 0, 2, 0));  // block b = 0
    x[2 + e] = _mm512_shuffle_i64x2(lo01, lo23, _MM_SHUFFLE(3, 1, 3, 1));  // b = 1
    x[4 + e] = _mm512_shuffle_i64x2(hi01, hi23, _MM_SHUFFLE(2, 0, 2, 0));  // b = 2
    x[6 + e] = _mm512_shuffle_i64x2(hi01, hi23, _MM_SHUFFLE(3, 1, 3, 1));  // b = 3
  }
}
HWY_INLINE void RowsToColumns(Z *x) {
  const Z swap12 = _mm512_broadcast_i32x4(
      _mm_setr_epi8(0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15));
  Z s[2][4];
  V3D_UNROLL
  for (int i = 0; i < 4; i++) {
    const Z p = _mm512_shuffle_epi8(x[2 * i], swap12), q = _mm512_shuffle_epi8(x[2 * i + 1], swap12);
    s[0][i] = _mm512_unpacklo_epi64(p, q);  // block b: 64-bit lane 2b of x[2i], of x[2i + 1]
    s[1][i] = _mm512_unpackhi_epi64(p, q);  // 64-bit lane 2b + 1
  }
  JoinColumns(s, x);
}

constexpr int LaneOfCol(int col) {
  int l = 0;
  while (kColOfLane[l] != col) l++;
  return l;
}
// Word w of [row | row'] in column order from a register of kColOfLane lanes.
constexpr int16_t OrderIdx(int w) { return static_cast<int16_t>(2 * LaneOfCol(w % 16) + w / 16); }
// Block q of the final words (w = 8q + j): row slot q (register q / 2, half q % 2), column
// j + 8 * kRight.
constexpr int16_t FinalIdx(int w, int kRight) {
  return static_cast<int16_t>(32 * (w / 16) + 2 * LaneOfCol(w % 8 + 8 * kRight) + (w / 8) % 2);
}
// Word w of a vpermt2w joining rows a, b (LoadRowsDct): a's (w < 16) or b's column
// kDctPairCol[w % 16].
constexpr int16_t DctPairIdx(int w) {
  return static_cast<int16_t>(32 * (w / 16) + kDctPairCol[w % 16]);
}
// Word w of a vpermw (vpermt2w) gathering register m of LoadRows (LoadRowsDct) from the two
// memory rows of a column-major block that hold its columns (LoadRowsCm, LoadRowsDctCm).
// kAdst (LoadRowsAdstCm): the first column from the first source's low half, the second from
// the second source's high half. kAdstCols: the lanes in kAdstColRowOfLane's order.
constexpr int16_t CmWordIdx(int w, bool dct, bool adst = false, bool adst_cols = false) {
  return static_cast<int16_t>((adst ? 48 : dct ? 32 : 16) * (w % 2) +
                              (dct         ? kDctRowOfLane[w / 2]
                               : adst_cols ? kAdstColRowOfLane[w / 2]
                                           : kRowOfLane[w / 2]));
}
// Word w of RowsToColumns' s[e][i] formed by one vpermt2w of the ADST rows' output pairs a, b
// (AdstRowsToColumns): x[2i], x[2i + 1] = JoinA(a, b), JoinB(a, b), or with kBA the reverse.
constexpr int16_t AdstRtcIdx(int w, int e, bool kBA) {
  return static_cast<int16_t>((w % 4 >= 2 ? 32 : 0) + 8 * (w / 8) + 2 * (2 * e + w % 2) +
                              ((w % 8) / 4 != kBA));
}
// WordIdx's tables: FinalIdx's (left, right), OrderIdx's, DctPairIdx's, CmWordIdx's (LoadRowsCm,
// LoadRowsDctCm, LoadRowsAdstCm; ...AdstCols: kAdstColRowOfLane's order), AdstRtcIdx's (e, kBA).
enum WordTable : int { kIdxFinalLeft, kIdxFinalRight, kIdxOrder, kIdxDctPair, kIdxCmRows,
  kIdxCmRowsDct, kIdxCmAdstPairs, kIdxAdstRtcAB0, kIdxAdstRtcAB1, kIdxAdstRtcBA0, kIdxAdstRtcBA1,
  kIdxCmRowsAdstCols, kIdxCmAdstPairsAdstCols};
template <int kWhich>
HWY_INLINE Z WordIdx() {
#define V3D_IDX(w)                                                                             \
  (kWhich >= kIdxCmRowsAdstCols ? CmWordIdx(w, false, kWhich == kIdxCmAdstPairsAdstCols, true) \
   : kWhich >= kIdxAdstRtcAB0                                                                  \
       ? AdstRtcIdx(w, (kWhich - kIdxAdstRtcAB0) % 2, kWhich >= kIdxAdstRtcBA0)                \
   : kWhich >= kIdxCmRows ? CmWordIdx(w, kWhich == kIdxCmRowsDct, kWhich == kIdxCmAdstPairs)   \
   : kWhich == kIdxDctPair ? DctPairIdx(w)                                                     \
   : kWhich == kIdxOrder   ? OrderIdx(w)                                                       \
                           : FinalIdx(w, kWhich))
  alignas(64) static int16_t kIdx[32] = {
      V3D_IDX(0),  V3D_IDX(1),  V3D_IDX(2),  V3D_IDX(3),  V3D_IDX(4),  V3D_IDX(5),  V3D_IDX(6),
      V3D_IDX(7),  V3D_IDX(8),  V3D_IDX(9),  V3D_IDX(10), V3D_IDX(11), V3D_IDX(12), V3D_IDX(13),
      V3D_IDX(14), V3D_IDX(15), V3D_IDX(16), V3D_IDX(17), V3D_IDX(18), V3D_IDX(19), V3D_IDX(20),
      V3D_IDX(21), V3D_IDX(22), V3D_IDX(23), V3D_IDX(24), V3D_IDX(25), V3D_IDX(26), V3D_IDX(27),
      V3D_IDX(28), V3D_IDX(29), V3D_IDX(30), V3D_IDX(31)};
#undef V3D_IDX
  return _mm512_load_si512(kIdx);
}
static_assert(FinalIdx(8, 0) == 1 && FinalIdx(16, 0) == 32 && OrderIdx(16) == 1, "word layout");

// The full DCT_DCT block's row pass input (kDctLoadRow, kDctPairCol, kDctRowOfLane).
HWY_INLINE void LoadRowsDct(const int16_t *c, Z *x) {
  const Z idx = WordIdx<kIdxDctPair>();
  Z q[2][4];
  V3D_UNROLL
  for (int g = 0; g < 2; g++) {
    Z l[4];
    V3D_UNROLL
    for (int t = 0; t < 4; t++) {
      const auto row = [&](int r) {
        return _mm512_castsi256_si512(
            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(c + 16 * kDctLoadRow[g][t][r])));
      };
      l[t] = _mm512_permutex2var_epi16(row(0), idx, row(1));
    }
    Transpose32x4(l, q[g]);
  }
  JoinBlocks(q, x);
}

// The row pass inputs of LoadRows<kNzR> and LoadRowsDct from a column-major block (memory row
// j = column j: word i = row i; ItxDsp::add_exact_eob_cm), without their transposes: register
// m's lane l holds word kRowOfLane[l] (kDctRowOfLane[l]) of its two columns, which one
// permute of the words of those two memory rows gathers. kNzR 8: columns 8..15 (x[4..7]) are
// zero, as LoadRows<8> leaves them.
// Columns 2m and 2m + 1 are adjacent in memory: one load, one vpermw. kWhich
// kIdxCmRowsAdstCols: the lanes in kAdstColRowOfLane's order instead.
template <int kNzR, int kWhich = kIdxCmRows>
HWY_INLINE void LoadRowsCm(const int16_t *c, Z *x) {
  static_assert(kWhich == kIdxCmRows || kWhich == kIdxCmRowsAdstCols, "a LoadRows order");
  const Z idx = WordIdx<kWhich>();
  V3D_UNROLL
  for (int m = 0; m < 8; m++) {
    x[m] = 2 * m < kNzR ? _mm512_permutexvar_epi16(idx, _mm512_loadu_si512(c + 32 * m))
                        : _mm512_setzero_si512();
  }
}
// Columns kDctPairCol[2m], kDctPairCol[2m + 1]: two 256-bit loads, one vpermt2w.
HWY_INLINE void LoadRowsDctCm(const int16_t *c, Z *x) {
  const Z idx = WordIdx<kIdxCmRowsDct>();
  V3D_UNROLL
  for (int m = 0; m < 8; m++) {
    const auto col = [&](int j) {
      return _mm512_castsi256_si512(
          _mm256_loadu_si256(reinterpret_cast<const __m256i *>(c + 16 * j)));
    };
    x[m] = _mm512_permutex2var_epi16(col(kDctPairCol[2 * m]), idx, col(kDctPairCol[2 * m + 1]));
  }
}

// Block i of a register stored to row p: a 64-byte masked store at p - 16i under BlockMask(i),
// which writes only p's 16 bytes (the masked-out bytes are not accessed: AVX-512 suppresses
// their faults) and needs no lane-crossing extract. The address is formed as an integer: it
// may lie before the buffer.
HWY_INLINE void *Block(uint8_t *p, int i) {
  return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(p) - 16 * static_cast<uintptr_t>(i));
}
HWY_INLINE __mmask64 BlockMask(int i) { return __mmask64{0xFFFF} << (16 * i); }

// The residual x (column pass outputs: rows kOutA / kOutB, lanes kColOfLane) rounded by
// Round2(x, 6) and added to dst with unsigned saturation, four rows per register.
HWY_INLINE void AddRows(uint8_t *dst, ptrdiff_t stride, const Z *x) {
  const Z rnd = Splat16z<1 << 9>(), zero = _mm512_setzero_si512();
  const Z left = WordIdx<kIdxFinalLeft>(), right = WordIdx<kIdxFinalRight>();
  V3D_UNROLL
  for (int g = 0; g < 4; g++) {
    const Z p = _mm512_mulhrs_epi16(x[2 * g], rnd), q = _mm512_mulhrs_epi16(x[2 * g + 1], rnd);
    const Z l = _mm512_permutex2var_epi16(p, left, q), r = _mm512_permutex2var_epi16(p, right, q);
    uint8_t *row[4] = {dst + kOutA[2 * g] * stride, dst + kOutB[2 * g] * stride,
                       dst + kOutA[2 * g + 1] * stride, dst + kOutB[2 * g + 1] * stride};
    Z px = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i *>(row[0])));
    px = _mm512_inserti32x4(px, _mm_loadu_si128(reinterpret_cast<const __m128i *>(row[1])), 1);
    px = _mm512_inserti32x4(px, _mm_loadu_si128(reinterpret_cast<const __m128i *>(row[2])), 2);
    px = _mm512_inserti32x4(px, _mm_loadu_si128(reinterpret_cast<const __m128i *>(row[3])), 3);
    const Z out = _mm512_packus_epi16(_mm512_add_epi16(l, _mm512_unpacklo_epi8(px, zero)),
                                      _mm512_add_epi16(r, _mm512_unpackhi_epi8(px, zero)));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(row[0]), _mm512_castsi512_si128(out));
    V3D_UNROLL
    for (int i = 1; i < 4; i++) _mm512_mask_storeu_epi8(Block(row[i], i), BlockMask(i), out);
  }
}

}  // namespace zmm16

namespace zmm16 {

// The full 16-point DCT pass on x with o's operations: the rows (LoadRows' layout) or, with
// kColumns, the columns (RowsToColumns' layout); the results as DctRest's.
template <bool kColumns, class O>
HWY_INLINE void DctFullPass(const O &o, Z *x) {
  DctIn in;
  if constexpr (kColumns) {  // x: [0|2] [4|6] [1|3] [5|7] [8|10] [12|14] [9|11] [13|15]
    in = DctIn{o.JoinA(x[0], x[4]), o.JoinA(x[1], x[5]), o.JoinB(x[0], x[5]),
               o.JoinB(x[1], x[4]), o.Blend(x[2], x[7]), o.Blend(x[6], x[3]),
               o.Blend(x[3], x[6]), o.Blend(x[7], x[2])};
  } else {
    in = DctIn{o.JoinA(x[0], x[4]), o.JoinA(x[2], x[6]), o.JoinA(x[1], x[7]),
               o.JoinA(x[3], x[5]), o.JoinB(x[0], x[7]), o.JoinB(x[3], x[4]),
               o.JoinB(x[2], x[5]), o.JoinB(x[1], x[6])};
  }
  DctRest(o, DctProducts<kColumns>(o, in), x);
}

// The column pass on x (RowsToColumns' layout) with o's operations.
template <bool kHalf, class O>
HWY_INLINE void ColumnPass(const O &o, Z *x) {
  if constexpr (kHalf) {
    const Z d[8] = {DupA(x[0]), DupA(x[2]), DupB(x[0]), DupB(x[2]),
                    DupA(x[1]), DupA(x[3]), DupB(x[1]), DupB(x[3])};
    DctRest(o, DctProductsHalf(o, d), x);
  } else {  // LoadRowsDct's rows: x = [0|8] [4|12] [1|15] [7|9] [2|14] [6|10] [5|11] [3|13]
    DctRest(o, DctProducts<false>(o, DctIn{x[0], x[1], x[4], x[5], x[2], x[3], x[6], x[7]}), x);
  }
}

// The row results x (RowsToColumns' layout; with kDct, of LoadRowsDct's rows: x[k] = [row
// kDctRowOfLane[2k] | row kDctRowOfLane[2k + 1]]; with kAdstCols, of kAdstColRowOfLane's) to
// rows, row-major, rows from kNzR on not written.
template <int kNzR, int kRegs, bool kDct = false, bool kAdstCols = false>
HWY_INLINE void StoreRowResults(const Z *x, int16_t *rows) {
  const Z order = WordIdx<kIdxOrder>();
  V3D_UNROLL
  for (int k = 0; k < kRegs; k++) {
    const Z y = _mm512_permutexvar_epi16(order, x[k]);
    const int ra = kAdstCols ? kAdstColRowOfLane[2 * k] : kDct ? kDctRowOfLane[2 * k] : kPairA[k];
    const int rb = kAdstCols ? kAdstColRowOfLane[2 * k + 1]
                   : kDct    ? kDctRowOfLane[2 * k + 1]
                             : kPairB[k];
    if (ra < kNzR) {
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(rows + 16 * ra), _mm512_castsi512_si256(y));
    }
    if (rb < kNzR) {
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(rows + 16 * rb),
                          _mm512_extracti64x4_epi64(y, 1));
    }
  }
}

}  // namespace zmm16

#else
#define V3D_ITX_HAVE_ZMM16 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_16X16_ZMM_H_
