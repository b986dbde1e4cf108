// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter edges on SIMD (Google Highway, dynamic dispatch): one implementation compiled
// for every Highway target (SSSE3, SSE4, AVX2, AVX3, AVX3_DL on x86-64; NEON on aarch64; EMU128
// too; the one-lane fallback keeps the scalar references), chosen once by lpf_dsp_init_simd().
//
// Layout: lane = pixel along the edge, one vector per row across the edge (p7..q7), int16 lanes
// (every intermediate of the spec's filters fits: at most 16 * 255 + 8). Lanes per vector
// L = min(len, 16-bit lanes of the target): 16 on AVX2/AVX3 (one 256-bit vector per row of a
// 16-pixel edge), 8 on SSE4/NEON (a 16-pixel edge is done as two halves).
// Horizontal edges: rows loaded as bytes and widened. Vertical edges: the lines are transposed in
// registers to the same row layout (simd/transpose_u8.h), filtered, and transposed back.
// Early exits on whole vectors: nothing to do where no lane passes the filter mask, no 7-tap work
// where no lane is flat, no 15-tap work where no lane is flat2.
// Vertical edges store back whole 8-byte line segments (p3..q3, or p7..q7 for 16-wide): pixels the
// filter leaves alone are rewritten with the values read (see lpf.h). On aarch64 NEON a group of 8
// lines that only the narrow filter changed stores p1..q1 alone.

#include "vp9/lpf/lpf.h"

#include <cstddef>
#include <cstdint>

// Arrays of vectors need sized vector types: no SVE (the NEON code serves those CPUs).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "vp9/lpf/lpf_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/round_i16.h"
#include "simd/transpose_u8.h"
#include "vp9/lpf/lpf_bytes.h"
#include "vp9/lpf/lpf_neon16.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
void InitLpfSimd(LpfDsp *) {}
#else

using simd::HWY_NAMESPACE::AbsDiff16;
using simd::HWY_NAMESPACE::Round2;
#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
using simd::HWY_NAMESPACE::LoadTransposed8x8Neon;
using simd::HWY_NAMESPACE::Store4Columns8Neon;
using simd::HWY_NAMESPACE::StoreTransposed8x8Neon;
using simd::HWY_NAMESPACE::Transpose8x16Neon;
#else
using simd::HWY_NAMESPACE::TransposeLinesIn;
using simd::HWY_NAMESPACE::TransposeLinesOut;
using simd::HWY_NAMESPACE::U8x16;
using simd::HWY_NAMESPACE::U8x16D;
#endif

// The spec's tap filters on rows v[0..kN) (kN = 8: 7 taps; 16: 15 taps), outputs out[1..kN-2]:
// out[j] = Round2(v[j] + sum of v[clamp(t)] for |t - j| <= kN/2 - 1, log2(kN)), as a running sum.
template <int kN, class D, class V = hn::Vec<D>>
HWY_INLINE void TapFilter(D d, const V *v, V *out) {
  constexpr int kK = kN / 2 - 1, kLog2 = kN == 8 ? 3 : 4;
  auto at = [&](int t) { return v[t < 0 ? 0 : t > kN - 1 ? kN - 1 : t]; };
  // Window of j = 1: v[0] (kK times), v[1] twice, v[2..kK+1].
  V sum = hn::Add(hn::ShiftLeft<1>(v[1]), hn::Sub(hn::ShiftLeft<kN == 8 ? 2 : 3>(v[0]), v[0]));
  for (int t = 2; t <= kK + 1; t++) sum = hn::Add(sum, v[t]);
  out[1] = Round2<kLog2>(d, sum);
  for (int j = 1; j < kN - 2; j++) {
    sum = hn::Add(hn::Sub(sum, hn::Add(at(j - kK), v[j])), hn::Add(at(j + kK + 1), v[j + 1]));
    out[j + 1] = Round2<kLog2>(d, sum);
  }
}

// Filters the lanes of one chunk: x[0..15] = rows p7..q7 (x[4..11] only, below 16-wide), values
// 0..255; on return the rows that the filter may change hold results that saturate to the
// output bytes. Returns how far from the edge rows changed: 0 (no lane passed the mask, x
// unchanged), 2 (p1..q1), 3 (p2..q2) or 7 (p6..q6).
template <int kWidth, class D, class V = hn::Vec<D>>
HWY_INLINE int FilterChunk(D d, V *x, const V E, const V I, const V H) {
  auto ad = [](V a, V b) { return AbsDiff16(a, b); };
  const V p3 = x[4], p2 = x[5], p1 = x[6], p0 = x[7], q0 = x[8], q1 = x[9], q2 = x[10],
          q3 = x[11];
  const V ap1 = ad(p1, p0), aq1 = ad(q1, q0);
  const V hev_v = hn::Max(ap1, aq1);
  const V inner = hn::Max(hn::Max(hn::Max(ad(p3, p2), ad(p2, p1)), hn::Max(ad(q2, q1), ad(q3, q2))),
                          hev_v);
  const V a0 = ad(p0, q0);
  const V edge = hn::Add(hn::Add(a0, a0), hn::ShiftRight<1>(ad(p1, q1)));
  const auto mask = hn::Not(hn::Or(hn::Gt(inner, I), hn::Gt(edge, E)));
  if (hn::AllFalse(d, mask)) return 0;

  // Narrow filter on every lane (a lane outside the mask gets a zero filter value).
  const auto hev = hn::Gt(hev_v, H);
  const V lo = hn::Set(d, -128), hi = hn::Set(d, 127);
  auto cs8 = [&](V v) { return hn::Min(hn::Max(v, lo), hi); };
  const V dq = hn::Sub(q0, p0);
  V f = hn::IfThenElseZero(hev, cs8(hn::Sub(p1, q1)));  // ps1 - qs1 == p1 - q1
  f = hn::IfThenElseZero(mask, cs8(hn::Add(f, hn::Add(dq, hn::Add(dq, dq)))));
  const V f1 = hn::ShiftRight<3>(cs8(hn::Add(f, hn::Set(d, 4))));
  const V f2 = hn::ShiftRight<3>(cs8(hn::Add(f, hn::Set(d, 3))));
  const V f3 = hn::IfThenZeroElse(hev, hn::ShiftRight<1>(hn::Add(f1, hn::Set(d, 1))));
  // clamp(qs0 - f1, -128, 127) + 128 == clamp(q0 - f1, 0, 255): the final narrowing saturates.
  V n[4] = {hn::Add(p1, f3), hn::Add(p0, f2), hn::Sub(q0, f1), hn::Sub(q1, f3)};
  if constexpr (kWidth == 4) {
    for (int i = 0; i < 4; i++) x[6 + i] = n[i];
    return 2;
  } else {
    const V one = hn::Set(d, 1);
    const V flat_v = hn::Max(hn::Max(hev_v, hn::Max(ad(p2, p0), ad(q2, q0))),
                             hn::Max(ad(p3, p0), ad(q3, q0)));
    const auto flat = hn::And(mask, hn::Not(hn::Gt(flat_v, one)));
    if (hn::AllFalse(d, flat)) {
      for (int i = 0; i < 4; i++) x[6 + i] = n[i];
      return 2;
    }
    V t7[8];
    TapFilter<8>(d, x + 4, t7);
    V r8[16];  // the 8-wide result of rows 5..10
    for (int i = 5; i <= 10; i++) {
      const V narrow = (i >= 6 && i <= 9) ? n[i - 6] : x[i];
      r8[i] = hn::IfThenElse(flat, t7[i - 4], narrow);
    }
    if constexpr (kWidth == 16) {
      V f2v = hn::Max(hn::Max(ad(x[0], p0), ad(x[1], p0)), hn::Max(ad(x[2], p0), ad(x[3], p0)));
      f2v = hn::Max(f2v, hn::Max(hn::Max(ad(x[12], q0), ad(x[13], q0)),
                                 hn::Max(ad(x[14], q0), ad(x[15], q0))));
      const auto flat2 = hn::And(flat, hn::Not(hn::Gt(f2v, one)));
      if (!hn::AllFalse(d, flat2)) {
        V t15[16];
        TapFilter<16>(d, x, t15);
        for (int i = 1; i <= 14; i++)
          x[i] = hn::IfThenElse(flat2, t15[i], (i >= 5 && i <= 10) ? r8[i] : x[i]);
        return 7;
      }
    }
    for (int i = 5; i <= 10; i++) x[i] = r8[i];
    return 3;
  }
}

template <int kWidth>
constexpr int kReach = kWidth == 16 ? 8 : 4;  // rows read on each side of the edge

// Calls fn(r) for the rows r a change of the given reach (FilterChunk's result) covers, with
// constant loop bounds (a run-time bound would keep the row arrays in memory).
template <int kWidth, class Fn>
HWY_INLINE void ForChangedRows(int reach, Fn fn) {
  if (kWidth == 16 && reach == 7) {
    for (int r = 1; r <= 14; r++) fn(r);
  } else if (kWidth >= 8 && reach == 3) {
    for (int r = 5; r <= 10; r++) fn(r);
  } else {
    for (int r = 6; r <= 9; r++) fn(r);
  }
}

template <int kWidth, int kLen>
HWY_NOINLINE void LpfHorizontal(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  using D = hn::CappedTag<int16_t, kLen>;
  const D d;
  const hn::Rebind<uint8_t, D> d8;
  constexpr size_t L = hn::MaxLanes(D());
  constexpr int kR = kReach<kWidth>;
  const hn::Vec<D> e = hn::Set(d, E), i = hn::Set(d, I), h = hn::Set(d, H);
  for (size_t c = 0; c < kLen; c += L) {
    hn::Vec<D> x[16];
    for (int r = 8 - kR; r < 8 + kR; r++)
      x[r] = hn::PromoteTo(d, hn::LoadU(d8, dst + (r - 8) * stride + c));
    const int reach = FilterChunk<kWidth>(d, x, e, i, h);
    if (!reach) continue;
    ForChangedRows<kWidth>(reach, [&](int r) {
      hn::StoreU(hn::DemoteTo(d8, x[r]), d8, dst + (r - 8) * stride + c);
    });
  }
}

#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
// aarch64 NEON: each group of 8 lines is loaded and transposed in 64-bit vectors (128-bit ones,
// two columns each, for the 16 pixels of a 16-wide edge; one chunk of 8 int16 lanes), filtered,
// and stored back: p1..q1 alone (4 bytes a line) where only the
// narrow filter ran, else the whole segment transposed back (as on the other targets).
template <int kWidth, int kLen>
HWY_NOINLINE void LpfVertical(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  const hn::Full128<int16_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  constexpr int kR = kReach<kWidth>;
  const hn::Vec<decltype(d)> e = hn::Set(d, E), i = hn::Set(d, I), h = hn::Set(d, H);
  for (int g = 0; g < kLen / 8; g++) {
    uint8_t *s = dst + g * 8 * stride;
    uint8x8_t cols[16];  // cols[r] lane l = pixel r - 8 (p7 = 0 .. q7 = 15) of line l
    hn::Vec<decltype(d)> x[16];
    if constexpr (kWidth == 16) {
      uint8x16_t w[8];  // w[m]: pixel m - 8 in the low half, pixel m in the high half
      for (int l = 0; l < 8; l++) w[l] = vld1q_u8(s - 8 + l * stride);
      Transpose8x16Neon(w);
      for (int m = 0; m < 8; m++) {
        x[m] = hn::Vec<decltype(d)>{vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(w[m])))};
        x[m + 8] = hn::Vec<decltype(d)>{vreinterpretq_s16_u16(vmovl_high_u8(w[m]))};
      }
    } else {
      LoadTransposed8x8Neon(s - kR, stride, cols + 8 - kR);
      for (int r = 8 - kR; r < 8 + kR; r++) x[r] = hn::PromoteTo(d, hn::Vec<decltype(d8)>{cols[r]});
    }
    const int reach = FilterChunk<kWidth>(d, x, e, i, h);
    if (!reach) continue;
    auto narrow = [&](int r0, int r1) {
      for (int r = r0; r <= r1; r++) cols[r] = hn::DemoteTo(d8, x[r]).raw;
    };
    if (kWidth == 4 || reach == 2) {
      narrow(6, 9);
      Store4Columns8Neon(cols + 6, s - 2, stride);
    } else if (kWidth == 8 || reach == 3) {
      narrow(kWidth == 16 ? 4 : 5, kWidth == 16 ? 11 : 10);  // 16-wide: no cols[] loaded
      StoreTransposed8x8Neon(cols + 4, s - 4, stride);
    } else {
      uint8x16_t w[8];
      for (int m = 0; m < 8; m++) w[m] = vqmovun_high_s16(vqmovun_s16(x[m].raw), x[m + 8].raw);
      Transpose8x16Neon(w);
      for (int l = 0; l < 8; l++) vst1q_u8(s - 8 + l * stride, w[l]);
    }
  }
}
#else
template <int kWidth, int kLen>
HWY_NOINLINE void LpfVertical(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  using D = hn::CappedTag<int16_t, kLen>;
  const D d;
  const hn::Rebind<uint8_t, D> d8;
  const hn::Half<U8x16D> dh;
  constexpr size_t L = hn::MaxLanes(D());
  constexpr int kR = kReach<kWidth>;
  U8x16 rows[16];  // rows[r] lane l = pixel r - 8 (p7 = 0 .. q7 = 15) of line l
  TransposeLinesIn<kLen>(dst - kR, stride, rows + 8 - kR);
  if constexpr (kWidth == 16) TransposeLinesIn<kLen>(dst, stride, rows + 8);
  const hn::Vec<D> e = hn::Set(d, E), i = hn::Set(d, I), h = hn::Set(d, H);
  bool any = false;
  for (size_t c = 0; c < kLen; c += L) {
    hn::Vec<D> x[16];
    for (int r = 8 - kR; r < 8 + kR; r++) {
      if constexpr (L == 16) {
        x[r] = hn::PromoteTo(d, rows[r]);
      } else {
        x[r] = hn::PromoteTo(d, c ? hn::UpperHalf(dh, rows[r]) : hn::LowerHalf(dh, rows[r]));
      }
    }
    const int reach = FilterChunk<kWidth>(d, x, e, i, h);
    if (!reach) continue;
    any = true;
    ForChangedRows<kWidth>(reach, [&](int r) {
      const auto n = hn::DemoteTo(d8, x[r]);
      if constexpr (L == 16) {
        rows[r] = n;
      } else if (c == 0) {
        rows[r] = hn::Combine(U8x16D(), hn::UpperHalf(dh, rows[r]), n);
      } else {
        rows[r] = hn::Combine(U8x16D(), n, hn::LowerHalf(dh, rows[r]));
      }
    });
  }
  if (!any) return;
  TransposeLinesOut<kLen>(rows + 8 - kR, dst - kR, stride);
  if constexpr (kWidth == 16) TransposeLinesOut<kLen>(rows + 8, dst, stride);
}
#endif  // HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64

template <int kWidth>
void FillWidth(LpfDsp *dsp, int w) {
  dsp->edge[0][w][0] = &LpfVertical<kWidth, 8>;
  dsp->edge[0][w][1] = &LpfVertical<kWidth, 16>;
  dsp->edge[1][w][0] = &LpfHorizontal<kWidth, 8>;
  dsp->edge[1][w][1] = &LpfHorizontal<kWidth, 16>;
}

void InitLpfSimd(LpfDsp *dsp) {
  FillWidth<4>(dsp, kLpf4);
  FillWidth<8>(dsp, kLpf8);
  FillWidth<16>(dsp, kLpf16);
#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
  dsp->edge[0][kLpf16][1] = &LpfVertical16x16Neon;  // 16 lines in byte lanes (lpf_neon16.h)
  dsp->edge[1][kLpf16][1] = &LpfHorizontal16x16Neon;
#else
  dsp->edge[0][kLpf4][0] = &LpfVertical4Bytes<8>;  // byte lanes (lpf_bytes.h)
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
  dsp->edge[0][kLpf4][1] = &LpfVertical4x16Pairs;
#else
  dsp->edge[0][kLpf4][1] = &LpfVertical4Bytes<16>;
#endif
  dsp->edge[1][kLpf4][0] = &LpfHorizontal4Bytes<8>;
  dsp->edge[1][kLpf4][1] = &LpfHorizontal4Bytes<16>;
#endif
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace vp9 {

HWY_EXPORT(InitLpfSimd);

void lpf_dsp_init_simd(LpfDsp *dsp) { HWY_DYNAMIC_DISPATCH(InitLpfSimd)(dsp); }

}  // namespace vp9
}  // namespace v3d
#endif  // HWY_ONCE
