// SPDX-License-Identifier: LGPL-2.1-or-later
// Rounding shift and absolute difference of int16 lanes, shared by the loop filters (VP9 and
// H.264): one instruction each on aarch64 NEON (srshr, sabd), the generic forms elsewhere.
// Per-target header (included inside a foreach_target pass); namespace v3d::simd::HWY_NAMESPACE,
// as the other simd/ helpers.

#if defined(V3D_SIMD_ROUND_I16_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_SIMD_ROUND_I16_H_
#undef V3D_SIMD_ROUND_I16_H_
#else
#define V3D_SIMD_ROUND_I16_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// Round2(v, kShift) = (v + 2^(kShift-1)) >> kShift of full int16 vectors, wrapping as the
// generic form does.
template <int kShift, class D, class V = hn::Vec<D>>
HWY_INLINE V Round2(D d, V v) {
#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
  (void)d;
  return V{vrshrq_n_s16(v.raw, kShift)};
#else
  return hn::ShiftRight<kShift>(hn::Add(v, hn::Set(d, 1 << (kShift - 1))));
#endif
}

// |a - b| of full int16 vectors.
template <class V>
HWY_INLINE V AbsDiff16(V a, V b) {
#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
  return V{vabdq_s16(a.raw, b.raw)};
#else
  return hn::Abs(hn::Sub(a, b));
#endif
}

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_SIMD_ROUND_I16_H_
