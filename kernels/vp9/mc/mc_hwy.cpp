// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inter prediction on SIMD (Google Highway, dynamic dispatch): the unscaled slots (every
// width and filter; copy, average, horizontal, vertical and 2-D 8-tap), compiled for every
// Highway target (SSSE3, SSE4, AVX2, AVX3 on x86-64; NEON on aarch64), chosen once by
// mc_dsp_init_simd() through HWY_DYNAMIC_DISPATCH. The scaled slots keep the references.
//
// Arithmetic: 16-bit lanes, wrapping. A filter sum over 8-bit pixels lies in
// [-255 * N, 255 * P] with P and N the sums of the positive and of the negated negative taps;
// for every VP9 kernel P <= 182 and N <= 54 (the test checks P <= 192 and N <= 64), so
// sum + 64 + 16384 lies in [0, 65535] and is exact modulo 2^16 as an unsigned value. Then
// Round2(sum, 7) = ((sum + 16448) >> 7, unsigned) - 128, exactly, and the order of the wrapping
// multiply-adds does not matter. The vertical passes keep a sliding window of rows in
// registers, so each source row is loaded and widened once.
// Reads exactly what mc.h promises: the bilinear slots read only taps 3 and 4 (the others are 0).

#include "vp9/mc/mc.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "vp9/mc/mc_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#ifndef V3D_MC_UNROLL
#if defined(__clang__)
#define V3D_MC_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define V3D_MC_UNROLL _Pragma("GCC unroll 16")
#else
#define V3D_MC_UNROLL
#endif
#endif

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
// One-lane vectors: nothing to gain over the references, which stay in the table. Scalable
// vectors (normally disabled for the whole project) cannot form the arrays of vectors used here.
void InitMcSimd(McDsp *) {}
#else

// Taps [kT0, kT1] of a kernel row are the ones that can be non-zero: 3..4 for bilinear, else 0..7.
template <int kFilter>
struct TapRange {
  static constexpr int kT0 = kFilter == kFilterBilinear ? 3 : 0;
  static constexpr int kT1 = kFilter == kFilterBilinear ? 4 : 7;
};

// The taps of one phase, one broadcast vector each.
template <class D>
struct Taps {
  hn::Vec<D> k[8];
  Taps(D d, const int16_t *row) {
    V3D_MC_UNROLL
    for (int t = 0; t < 8; t++) k[t] = hn::Set(d, row[t]);
  }
};

// Round2(sum, 7) - 128 + 128 before clipping: lanes in [-108, 363] (see the file comment).
template <class D>
HWY_INLINE hn::Vec<D> Round7(D d, hn::Vec<D> sum) {
  const hn::RebindToUnsigned<D> du;
  const hn::Vec<D> biased = hn::Add(sum, hn::Set(d, 16448));
  return hn::Sub(hn::BitCast(d, hn::ShiftRight<7>(hn::BitCast(du, biased))), hn::Set(d, 128));
}

// Horizontal filter sum of the lanes' pixels s[0 .. lanes), s pointing at the output's own
// column (taps read s[t - 3]).
template <int kT0, int kT1, class D>
HWY_INLINE hn::Vec<D> SumH(D d, const uint8_t *s, const Taps<D> &k) {
  const hn::Rebind<uint8_t, D> d8;
  hn::Vec<D> acc = hn::Mul(hn::PromoteTo(d, hn::LoadU(d8, s + kT0 - 3)), k.k[kT0]);
  V3D_MC_UNROLL
  for (int t = kT0 + 1; t <= kT1; t++)
    acc = hn::Add(acc, hn::Mul(hn::PromoteTo(d, hn::LoadU(d8, s + t - 3)), k.k[t]));
  return acc;
}

// Vertical filter sum over a window of rows win[0 .. kT1 - kT0].
template <int kT0, int kT1, class D>
HWY_INLINE hn::Vec<D> SumV(const hn::Vec<D> *win, const Taps<D> &k) {
  hn::Vec<D> acc = hn::Mul(win[0], k.k[kT0]);
  V3D_MC_UNROLL
  for (int t = kT0 + 1; t <= kT1; t++) acc = hn::Add(acc, hn::Mul(win[t - kT0], k.k[t]));
  return acc;
}

// Stores Round7 lanes (saturated to 8 bits), averaged with dst when kAvg.
template <int kAvg, class D>
HWY_INLINE void StorePred(D d, hn::Vec<D> v, uint8_t *p) {
  const hn::Rebind<uint8_t, D> d8;
  hn::Vec<decltype(d8)> px = hn::DemoteTo(d8, v);
  if constexpr (kAvg) px = hn::AverageRound(px, hn::LoadU(d8, p));
  hn::StoreU(px, d8, p);
}

template <int kW, int kAvg>
HWY_NOINLINE void McCopy(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                         ptrdiff_t src_stride, int h) {
  if constexpr (!kAvg) {
    for (int y = 0; y < h; y++, dst += dst_stride, src += src_stride) memcpy(dst, src, kW);
  } else {
    const hn::CappedTag<uint8_t, kW> d8;
    constexpr int kL = static_cast<int>(hn::MaxLanes(d8));
    for (int y = 0; y < h; y++, dst += dst_stride, src += src_stride) {
      V3D_MC_UNROLL
      for (int x = 0; x < kW; x += kL)
        hn::StoreU(hn::AverageRound(hn::LoadU(d8, src + x), hn::LoadU(d8, dst + x)), d8, dst + x);
    }
  }
}

template <int kW, int kFilter, int kAvg>
HWY_NOINLINE void McH(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                      ptrdiff_t src_stride, int h, int mx) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  using D = hn::CappedTag<int16_t, kW>;
  const D d;
  constexpr int kL = static_cast<int>(hn::MaxLanes(d));
  const Taps<D> k(d, kSubpelFilters[kFilter][mx]);
  for (int y = 0; y < h; y++, dst += dst_stride, src += src_stride) {
    V3D_MC_UNROLL
    for (int x = 0; x < kW; x += kL)
      StorePred<kAvg>(d, Round7(d, SumH<kT0, kT1>(d, src + x, k)), dst + x);
  }
}

template <int kW, int kFilter, int kAvg>
HWY_NOINLINE void McV(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                      ptrdiff_t src_stride, int h, int my) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  constexpr int kN = kT1 - kT0 + 1;
  using D = hn::CappedTag<int16_t, kW>;
  const D d;
  const hn::Rebind<uint8_t, D> d8;
  constexpr int kL = static_cast<int>(hn::MaxLanes(d));
  const Taps<D> k(d, kSubpelFilters[kFilter][my]);
  for (int x = 0; x < kW; x += kL) {
    // win[i] = source row y + kT0 - 3 + i.
    const uint8_t *s = src + x + (kT0 - 3) * src_stride;
    uint8_t *o = dst + x;
    hn::Vec<D> win[kN];
    V3D_MC_UNROLL
    for (int i = 0; i < kN - 1; i++) win[i] = hn::PromoteTo(d, hn::LoadU(d8, s + i * src_stride));
    s += (kN - 1) * src_stride;
    for (int y = 0; y < h; y++, s += src_stride, o += dst_stride) {
      win[kN - 1] = hn::PromoteTo(d, hn::LoadU(d8, s));
      StorePred<kAvg>(d, Round7(d, SumV<kT0, kT1, D>(win, k)), o);
      V3D_MC_UNROLL
      for (int i = 0; i < kN - 1; i++) win[i] = win[i + 1];
    }
  }
}

// 2-D: the horizontal pass into an 8-bit temporary (the clip is the saturating narrowing, as
// libvpx's clip_pixel), rows kT0 - 3 .. h - 1 + kT1 - 3, then the vertical pass over it. Two
// passes keep each loop's live vectors (taps, window) within 16 registers on SSE and NEON.
template <int kW, int kFilter, int kAvg>
HWY_NOINLINE void McHV(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                       ptrdiff_t src_stride, int h, int mx, int my) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  constexpr int kExtra = kT1 - kT0;  // rows beyond the block's h
  HWY_ALIGN uint8_t tmp[(64 + 7) * kW];
  McH<kW, kFilter, 0>(tmp, kW, src + (kT0 - 3) * src_stride, src_stride, h + kExtra, mx);
  McV<kW, kFilter, kAvg>(dst, dst_stride, tmp + (3 - kT0) * kW, kW, h, my);
}

template <int kW, int kFilter, int kAvg>
void Mc(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int h,
        int mx, int my) {
  if (my == 0) {
    if (mx == 0) return McCopy<kW, kAvg>(dst, dst_stride, src, src_stride, h);
    return McH<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, mx);
  }
  if (mx == 0) return McV<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, my);
  McHV<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, mx, my);
}

template <int kFilter>
void FillFilter(McDsp *dsp) {
  dsp->mc[0][kFilter][0] = &Mc<4, kFilter, 0>;
  dsp->mc[0][kFilter][1] = &Mc<4, kFilter, 1>;
  dsp->mc[1][kFilter][0] = &Mc<8, kFilter, 0>;
  dsp->mc[1][kFilter][1] = &Mc<8, kFilter, 1>;
  dsp->mc[2][kFilter][0] = &Mc<16, kFilter, 0>;
  dsp->mc[2][kFilter][1] = &Mc<16, kFilter, 1>;
  dsp->mc[3][kFilter][0] = &Mc<32, kFilter, 0>;
  dsp->mc[3][kFilter][1] = &Mc<32, kFilter, 1>;
  dsp->mc[4][kFilter][0] = &Mc<64, kFilter, 0>;
  dsp->mc[4][kFilter][1] = &Mc<64, kFilter, 1>;
}

void InitMcSimd(McDsp *dsp) {
  FillFilter<kFilterRegular>(dsp);
  FillFilter<kFilterSmooth>(dsp);
  FillFilter<kFilterSharp>(dsp);
  FillFilter<kFilterBilinear>(dsp);
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace vp9 {

HWY_EXPORT(InitMcSimd);

void mc_dsp_init_simd(McDsp *dsp) { HWY_DYNAMIC_DISPATCH(InitMcSimd)(dsp); }

}  // namespace vp9
}  // namespace v3d
#endif  // HWY_ONCE
