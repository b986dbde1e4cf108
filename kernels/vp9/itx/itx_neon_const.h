// SPDX-License-Identifier: LGPL-2.1-or-later
// Products by the VP9 transform constants on aarch64 NEON as by-lane multiplies: the constant is
// a lane of a vector loaded from a table, instead of a broadcast the compiler rebuilds (a move to
// a general register and a dup) at nearly every use where the vector registers are all taken.
// Per-target header: included by itx_hwy.cpp after itx_hwy_1d.h (kC) and before itx_hwy_16.h,
// which uses it from its NEON branches; empty on every other target.
//
// Each helper takes the constant as a value: where it is one of +-kC[1..31] known at compile
// time (every call of the 16-bit transform templates, once inlined) the table lane is chosen at
// compile time; any other value takes the broadcast form. Both forms compute the same integers.

#if defined(V3D_VP9_ITX_NEON_CONST_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_NEON_CONST_H_
#undef V3D_VP9_ITX_NEON_CONST_H_
#else
#define V3D_VP9_ITX_NEON_CONST_H_
#endif

#include <cstdint>
#include <type_traits>
#include <utility>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {

#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
namespace neonk {

// The helpers' lambdas are inlined like the helpers: where they are not (large callers, past
// GCC's growth limits), the lane choice is left to run time.
#define V3D_NEONK_INLINE __attribute__((always_inline))

// v[0][k] = cos64(k), v[1][k] = 2 cos64(k) (the rounding doubling multiply's factor; 0 for
// k = 0, which does not fit), k = 0..31: the specification's constants (kC).
struct Table {
  alignas(16) int16_t v[2][32];
  constexpr Table() : v() {
    for (int k = 0; k < 32; k++) {
      v[0][k] = static_cast<int16_t>(kC[k]);
      v[1][k] = static_cast<int16_t>(k == 0 ? 0 : 2 * kC[k]);
    }
  }
};
alignas(16) static constexpr Table kTable{};

// Calls f(std::integral_constant<int, k>) for the k in 1..31 with cos64(k) == |c|; false (f not
// called) when there is none.
template <class F, int... K>
HWY_INLINE bool WithCos(int32_t c, F f, std::integer_sequence<int, K...>) {
  const int32_t a = c < 0 ? -c : c;
  return ((a == kC[K + 1] ? (f(std::integral_constant<int, K + 1>()), true) : false) || ...);
}
template <class F>
HWY_INLINE bool WithCos(int32_t c, F f) {
  return WithCos(c, f, std::make_integer_sequence<int, 31>());
}

HWY_INLINE int16x4_t Lo(int16x8_t x) { return vget_low_s16(x); }
HWY_INLINE int16x4_t Lo(int16x4_t x) { return x; }

// x * c (kAcc: acc + x * c) for lanes [0, 4) of x, or [4, 8) when kHigh (x of 8 lanes), in int32.
template <bool kHigh, bool kAcc, class VI>
HWY_INLINE int32x4_t MulC(int32x4_t acc, VI x, int32_t c) {
  int32x4_t r = acc;
  const bool neg = c < 0;
  if (__builtin_constant_p(c) && WithCos(c, [&](auto k) V3D_NEONK_INLINE {
        constexpr int K = decltype(k)::value, L = K & 7;
        const int16x8_t t = vld1q_s16(kTable.v[0] + (K & ~7));
        if constexpr (kAcc) {
          if constexpr (kHigh) r = neg ? vmlsl_high_laneq_s16(r, x, t, L) : vmlal_high_laneq_s16(r, x, t, L);
          else r = neg ? vmlsl_laneq_s16(r, Lo(x), t, L) : vmlal_laneq_s16(r, Lo(x), t, L);
        } else {
          if constexpr (kHigh) r = vmull_high_laneq_s16(x, t, L);
          else r = vmull_laneq_s16(Lo(x), t, L);
          if (neg) r = vnegq_s32(r);
        }
      })) {
    return r;
  }
  const int16_t k16 = static_cast<int16_t>(c);
  if constexpr (kHigh) return kAcc ? vmlal_high_n_s16(acc, x, k16) : vmull_high_n_s16(x, k16);
  else return kAcc ? vmlal_n_s16(acc, Lo(x), k16) : vmull_n_s16(Lo(x), k16);
}

// (x * c + 2^13) >> 14 for every lane (the rounding doubling multiply by 2c; exact for int16 x,
// as 2c < 2^15), for c in kC[1..31] known at compile time; false (nothing written) otherwise.
template <class VI>
HWY_INLINE bool MulRound(VI x, int32_t c, VI *out) {
  if (!__builtin_constant_p(c) || c <= 0) return false;
  return WithCos(c, [&](auto k) V3D_NEONK_INLINE {
    constexpr int K = decltype(k)::value, L = K & 7;
    const int16x8_t t = vld1q_s16(kTable.v[1] + (K & ~7));
    if constexpr (sizeof(VI) == 16) *out = vqrdmulhq_laneq_s16(x, t, L);
    else *out = vqrdmulh_laneq_s16(x, t, L);
  });
}

}  // namespace neonk
#endif

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_NEON_CONST_H_
