// SPDX-License-Identifier: LGPL-2.1-or-later
// Pair-product accumulation for the x86 16-bit transform paths: MaddAcc(acc, p, k) is
// acc + pmaddwd(p, k) per 32-bit lane, i.e. acc + p.lo * k.lo + p.hi * k.hi, the step every
// rotation's rounded product sum R(a*ka + b*kb) = (a*ka + b*kb + 2^13) >> 14 is made of (acc the
// rounding constant, or a first product sum). On AVX3_DL (AVX-512 VNNI) it is one vpdpwssd,
// written as inline assembly: Highway 1.0.3 compiles that target without the avx512vnni
// option (its target string names the VEX-only avxvnni), so the intrinsic cannot be inlined
// there, while its CPU check does require AVX-512 VNNI before choosing the target.
//
// k should be a constant loaded from memory (the Splat tables; PairTable in itx_hwy_16.h): the
// asm takes it as a memory operand, where a set1 value would be built in a general register and
// broadcast on every use. The asm overwrites acc, so a shared rounding constant costs a
// register copy per use, which the core's renamer can absorb.
//
// Exactness: both forms compute the same value modulo 2^32 (vpdpwssd adds the two products and
// the accumulator without saturation; pmaddwd wraps only for two -32768 * -32768 products, and
// paddd wraps), so a path proven exact with one is exact with the other.
// Per-target header: included by itx_hwy.cpp before the headers that use it.

#if defined(V3D_VP9_ITX_HWY_MADD_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_MADD_H_
#undef V3D_VP9_ITX_HWY_MADD_H_
#else
#define V3D_VP9_ITX_HWY_MADD_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3 && HWY_TARGET != HWY_EMU128

#undef V3D_ITX_HAVE_VNNI
#if HWY_TARGET == HWY_AVX3_DL
#define V3D_ITX_HAVE_VNNI 1
#else
#define V3D_ITX_HAVE_VNNI 0
#endif

// V: __m128i, __m256i (AVX2 and up) or __m512i (AVX3 and up).
template <class V>
HWY_INLINE V MaddAcc(V acc, V p, V k) {
#if V3D_ITX_HAVE_VNNI
  asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(p), "vm"(k));
  return acc;
#else
  if constexpr (sizeof(V) == 16) return _mm_add_epi32(acc, _mm_madd_epi16(p, k));
#if HWY_TARGET <= HWY_AVX2
  if constexpr (sizeof(V) == 32) return _mm256_add_epi32(acc, _mm256_madd_epi16(p, k));
#endif
#if HWY_TARGET <= HWY_AVX3
  if constexpr (sizeof(V) == 64) return _mm512_add_epi32(acc, _mm512_madd_epi16(p, k));
#endif
#endif
}

// MaddAcc with k read from memory where it is used (k: a constant table's entry). GCC keeps a
// loaded constant in a register from its first use to its last, and a function whose two
// passes share many constants spills them; on AVX3_DL the table itself is the asm's memory
// operand instead. Elsewhere it is MaddAcc on the loaded value.
template <class V>
HWY_INLINE V MaddAccMem(V acc, V p, const V &k) {
#if V3D_ITX_HAVE_VNNI
  asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(p), "m"(k));
  return acc;
#else
  return MaddAcc(acc, p, k);
#endif
}

#if V3D_ITX_HAVE_VNNI
// acc + x.lo * x.lo + x.hi * x.hi per 32-bit lane, saturating to int32 (vpdpwssds): the sums of
// squares of the checks by squares (kInt16BoundL2x8, kInt16BoundL2x16). By asm, as MaddAcc, and
// EVEX-encoded explicitly: the intrinsic on 256-bit vectors is emitted as the VEX (AVX-VNNI)
// form, which the CPUs this target runs on (its check: AVX-512 VNNI) need not have.
template <class V>
HWY_INLINE V AddSquaresSat(V acc, V x) {
  asm("%{evex%} vpdpwssds %1, %1, %0" : "+v"(acc) : "v"(x));
  return acc;
}
#endif

#endif  // HWY_ARCH_X86

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_MADD_H_
