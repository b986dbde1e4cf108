// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inter prediction on SIMD (Google Highway, dynamic dispatch): the unscaled slots (every
// width and filter; copy, average, horizontal, vertical and 2-D 8-tap), compiled for every
// Highway target (SSSE3, SSE4, AVX2, AVX3, AVX3_DL on x86-64; NEON on aarch64), chosen once by
// mc_dsp_init_simd() through HWY_DYNAMIC_DISPATCH. The scaled slots: mc_scaled_hwy.cpp.
//
// Arithmetic: 16-bit lanes, wrapping. A filter sum over 8-bit pixels lies in
// [-255 * N, 255 * P] with P and N the sums of the positive and of the negated negative taps;
// for every VP9 kernel P <= 182 and N <= 54 (the test checks P <= 192 and N <= 64), so
// sum + 64 + 16384 lies in [0, 65535] and is exact modulo 2^16 as an unsigned value. Then
// Round2(sum, 7) = ((sum + 16448) >> 7, unsigned) - 128, exactly, and the order of the wrapping
// multiply-adds does not matter (they are summed as trees, for latency).
// Layout: rows of up to a vector of 16-bit lanes, strips of vector width across wider blocks;
// narrow blocks two rows per vector. The vertical passes keep a sliding window of rows in
// registers, so each source row is loaded and widened once; the 2-D case filters rows into a
// 16-bit temporary clipped to 0..255 (libvpx's 8-bit intermediate), then filters columns (the
// two-row case keeps those rows in registers). On x86 the horizontal sums use pmaddubsw on
// pixel and tap pairs (see PairFilter).
// Reads exactly what mc.h promises: the bilinear slots read only taps 3 and 4 (the others are 0).

#include "vp9/mc/mc.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

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

// Round2(sum, 7) before clipping to 8 bits: lanes in [-108, 363] (see the file comment).
template <class D>
HWY_INLINE hn::Vec<D> Round7(D d, hn::Vec<D> sum) {
  const hn::RebindToUnsigned<D> du;
  const hn::Vec<D> biased = hn::Add(sum, hn::Set(d, 16448));
  return hn::Sub(hn::BitCast(d, hn::ShiftRight<7>(hn::BitCast(du, biased))), hn::Set(d, 128));
}

// Sum of x[0 .. kN) as a balanced tree: the wrapping sums may be taken in any order, and a
// tree shortens the dependency chain of a block's few rows.
template <int kN, class V>
HWY_INLINE V TreeSum(const V *x) {
  if constexpr (kN == 1) {
    return x[0];
  } else {
    return hn::Add(TreeSum<kN / 2>(x), TreeSum<kN - kN / 2>(x + kN / 2));
  }
}

// Horizontal filter sum of the lanes' pixels s[0 .. lanes), s pointing at the output's own
// column (taps read s[t - 3]).
template <int kT0, int kT1, class D>
HWY_INLINE hn::Vec<D> SumH(D d, const uint8_t *s, const Taps<D> &k) {
  const hn::Rebind<uint8_t, D> d8;
  hn::Vec<D> m[kT1 - kT0 + 1];
  V3D_MC_UNROLL
  for (int t = kT0; t <= kT1; t++)
    m[t - kT0] = hn::Mul(hn::PromoteTo(d, hn::LoadU(d8, s + t - 3)), k.k[t]);
  return TreeSum<kT1 - kT0 + 1>(m);
}

// The horizontal filter of one phase, generic form: Sum(d, s) is SumH.
template <class D, int kT0, int kT1>
struct LaneFilter {
  Taps<D> k;
  LaneFilter(D d, const int16_t *row) : k(d, row) {}
  HWY_INLINE hn::Vec<D> Sum(D d, const uint8_t *s) const { return SumH<kT0, kT1>(d, s, k); }
};

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3
// x86: the horizontal sum as pmaddubsw of pixel pairs (u8) and tap pairs (i8), the SSSE3
// idiom. Exact: no tap of a phase other than 0 leaves -128..127, and no pair's sum leaves
// int16 (|pair| <= 255 * 127, the test checks it), so only the sum of the pairs wraps, which the
// unsigned rounding (Round7) absorbs. Each 128-bit block b of a vector holds the 16 source bytes
// from the output column 8b - 3 and computes outputs 8b .. 8b + 7: the block's loads reach
// column 8b + 12, so a row's last block reads up to column w + 4 (mc.h's contract).
#define V3D_MC_PAIRS 1

// Byte shuffles pairing the pixels of taps (t, t + 1): byte 2j of a block = j + t, byte
// 2j + 1 = j + t + 1.
struct PairIndex {
  uint8_t b[8][64];
};
constexpr PairIndex MakePairIndex() {
  PairIndex p{};
  for (int t = 0; t < 8; t++)
    for (int i = 0; i < 64; i++) p.b[t][i] = static_cast<uint8_t>((i % 16) / 2 + t + (i & 1));
  return p;
}
alignas(64) constexpr PairIndex kPairIndex = MakePairIndex();

// The 16 source bytes per block described above, for a vector of bytes.
template <class D8>
HWY_INLINE hn::Vec<D8> LoadBlocks(D8 d8, const uint8_t *s) {
  constexpr size_t kBytes = hn::MaxLanes(D8());
  if constexpr (kBytes == 16) {
    return hn::LoadU(d8, s - 3);
  } else {
    const hn::Half<D8> dh;
    return hn::Combine(d8, LoadBlocks(dh, s + kBytes / 4), LoadBlocks(dh, s));
  }
}

template <class D, class V8>
HWY_INLINE hn::Vec<D> MulPairs(D, V8 px, V8 taps) {
  constexpr size_t kBytes = 2 * hn::MaxLanes(D());
  if constexpr (kBytes == 16) {
    return hn::Vec<D>{_mm_maddubs_epi16(px.raw, taps.raw)};
#if HWY_TARGET <= HWY_AVX2
  } else if constexpr (kBytes == 32) {
    return hn::Vec<D>{_mm256_maddubs_epi16(px.raw, taps.raw)};
#endif
#if HWY_TARGET <= HWY_AVX3
  } else {
    return hn::Vec<D>{_mm512_maddubs_epi16(px.raw, taps.raw)};
#endif
  }
}

template <class D, int kT0, int kT1>
struct PairFilter {
  using D8 = hn::Repartition<uint8_t, D>;
  static constexpr int kPairs = (kT1 - kT0 + 1) / 2;
  hn::Vec<D8> taps[kPairs], idx[kPairs];
  PairFilter(D d, const int16_t *row) {
    const D8 d8;
    const hn::RebindToUnsigned<D> du;
    V3D_MC_UNROLL
    for (int p = 0; p < kPairs; p++) {
      const int t = kT0 + 2 * p;
      const int pair = (row[t] & 0xFF) | (row[t + 1] & 0xFF) << 8;
      taps[p] = hn::BitCast(d8, hn::Set(du, static_cast<uint16_t>(pair)));
      idx[p] = hn::Load(d8, kPairIndex.b[t]);
    }
  }
  HWY_INLINE hn::Vec<D> Sum(D d, const uint8_t *s) const {
    return SumBytes(d, LoadBlocks(D8(), s));
  }
  // Two rows of half a vector each (rows 8 or 16 pixels wide).
  HWY_INLINE hn::Vec<D> SumRows(D d, const uint8_t *s0, const uint8_t *s1) const {
    const hn::Half<D8> dh;
    return SumBytes(d, hn::Combine(D8(), LoadBlocks(dh, s1), LoadBlocks(dh, s0)));
  }
  HWY_INLINE hn::Vec<D> SumBytes(D d, hn::Vec<D8> px) const {
    hn::Vec<D> m[kPairs];
    V3D_MC_UNROLL
    for (int p = 0; p < kPairs; p++) m[p] = MulPairs(d, hn::TableLookupBytes(px, idx[p]), taps[p]);
    return TreeSum<kPairs>(m);
  }
};
#else
#define V3D_MC_PAIRS 0
#endif

// The horizontal filter for lanes of D: the pair form where it exists and a vector covers at
// least 8 outputs (4-wide rows would read past the contract), else the generic form.
template <class D, int kFilter>
#if V3D_MC_PAIRS
using HFilter = std::conditional_t<(hn::MaxLanes(D()) >= 8),
                                   PairFilter<D, TapRange<kFilter>::kT0, TapRange<kFilter>::kT1>,
                                   LaneFilter<D, TapRange<kFilter>::kT0, TapRange<kFilter>::kT1>>;
#else
using HFilter = LaneFilter<D, TapRange<kFilter>::kT0, TapRange<kFilter>::kT1>;
#endif

// Vertical filter sum over a window of rows win[0 .. kT1 - kT0].
template <int kT0, int kT1, class D>
HWY_INLINE hn::Vec<D> SumV(const hn::Vec<D> *win, const Taps<D> &k) {
  hn::Vec<D> m[kT1 - kT0 + 1];
  V3D_MC_UNROLL
  for (int t = kT0; t <= kT1; t++) m[t - kT0] = hn::Mul(win[t - kT0], k.k[t]);
  return TreeSum<kT1 - kT0 + 1>(m);
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
  using D = hn::CappedTag<int16_t, kW>;
  const D d;
  constexpr int kL = static_cast<int>(hn::MaxLanes(d));
  const HFilter<D, kFilter> filter(d, kSubpelFilters[kFilter][mx]);
  for (int y = 0; y < h; y++, dst += dst_stride, src += src_stride) {
    V3D_MC_UNROLL
    for (int x = 0; x < kW; x += kL) StorePred<kAvg>(d, Round7(d, filter.Sum(d, src + x)), dst + x);
  }
}

// One row of lanes of D from 8-bit pixels (widened) or from 16-bit intermediates.
template <class D>
HWY_INLINE hn::Vec<D> LoadRow(D d, const uint8_t *p) {
  return hn::PromoteTo(d, hn::LoadU(hn::Rebind<uint8_t, D>(), p));
}
template <class D>
HWY_INLINE hn::Vec<D> LoadRow(D d, const int16_t *p) {
  return hn::LoadU(d, p);
}

// Vertical pass over rows of T (uint8_t pixels, or int16_t intermediates in 0..255), src_stride
// in elements.
template <int kW, int kFilter, int kAvg, class T>
HWY_NOINLINE void McV(uint8_t *dst, ptrdiff_t dst_stride, const T *src, ptrdiff_t src_stride,
                      int h, int my) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  constexpr int kN = kT1 - kT0 + 1;
  using D = hn::CappedTag<int16_t, kW>;
  const D d;
  constexpr int kL = static_cast<int>(hn::MaxLanes(d));
  const Taps<D> k(d, kSubpelFilters[kFilter][my]);
  for (int x = 0; x < kW; x += kL) {
    // win[i] = source row y + kT0 - 3 + i.
    const T *s = src + x + (kT0 - 3) * src_stride;
    uint8_t *o = dst + x;
    hn::Vec<D> win[kN];
    V3D_MC_UNROLL
    for (int i = 0; i < kN - 1; i++) win[i] = LoadRow(d, s + i * src_stride);
    s += (kN - 1) * src_stride;
    for (int y = 0; y < h; y++, s += src_stride, o += dst_stride) {
      win[kN - 1] = LoadRow(d, s);
      StorePred<kAvg>(d, Round7(d, SumV<kT0, kT1, D>(win, k)), o);
      V3D_MC_UNROLL
      for (int i = 0; i < kN - 1; i++) win[i] = win[i + 1];
    }
  }
}

// 2-D: the horizontal pass into a 16-bit temporary clipped to 0..255 (libvpx's clip_pixel),
// rows kT0 - 3 .. h - 1 + kT1 - 3, then the vertical pass over it. Two passes keep each loop's
// live vectors (taps, window) within 16 registers on SSE and NEON; 16-bit rows spare the
// vertical pass the widening, and full-vector stores and loads forward well.
template <int kW, int kFilter, int kAvg>
HWY_NOINLINE void McHV(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                       ptrdiff_t src_stride, int h, int mx, int my) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  using D = hn::CappedTag<int16_t, kW>;
  const D d;
  constexpr int kL = static_cast<int>(hn::MaxLanes(d));
  const HFilter<D, kFilter> filter(d, kSubpelFilters[kFilter][mx]);
  const int rows = h + kT1 - kT0;
  HWY_ALIGN int16_t tmp[(64 + 7) * kW];
  const uint8_t *s = src + (kT0 - 3) * src_stride;
  for (int y = 0; y < rows; y++, s += src_stride) {
    V3D_MC_UNROLL
    for (int x = 0; x < kW; x += kL) {
      const hn::Vec<D> v = Round7(d, filter.Sum(d, s + x));
      hn::Store(hn::Min(hn::Max(v, hn::Zero(d)), hn::Set(d, 255)), d, tmp + y * kW + x);
    }
  }
  McV<kW, kFilter, kAvg>(dst, dst_stride, tmp + (3 - kT0) * kW, ptrdiff_t{kW}, h, my);
}

// ---- Narrow blocks, two rows per vector: lanes [0, kW) row y, [kW, 2 kW) row y + 1 ----------
// 4-wide blocks on every target, 8-wide ones where a vector holds 16 lanes (AVX2, AVX3), 16-wide
// ones where it holds 32 (AVX3). Every VP9 block height is even; the 2-D pass's odd count of
// intermediate rows gets a spare row.
template <int kW>
using DRow = hn::CappedTag<int16_t, kW>;
template <int kW>
using DPair = hn::CappedTag<int16_t, 2 * kW>;
template <int kW>
constexpr bool kTwoRows = kW <= 16 && hn::MaxLanes(DPair<kW>()) == 2 * kW;

// Rows p0 and p1 as one vector.
template <int kW, class T>
HWY_INLINE hn::Vec<DPair<kW>> LoadRows2(const T *p0, const T *p1) {
  return hn::Combine(DPair<kW>(), LoadRow(DRow<kW>(), p1), LoadRow(DRow<kW>(), p0));
}

// Stores Round7 lanes of two rows to o0 and o1, averaged with them when kAvg.
template <int kW, int kAvg>
HWY_INLINE void StorePred2(hn::Vec<DPair<kW>> v, uint8_t *o0, uint8_t *o1) {
  const hn::CappedTag<uint8_t, 2 * kW> d8;
  const hn::CappedTag<uint8_t, kW> dh;
  hn::Vec<decltype(d8)> px = hn::DemoteTo(d8, v);
  if constexpr (kAvg)
    px = hn::AverageRound(px, hn::Combine(d8, hn::LoadU(dh, o1), hn::LoadU(dh, o0)));
  hn::StoreU(hn::LowerHalf(dh, px), dh, o0);
  hn::StoreU(hn::UpperHalf(dh, px), dh, o1);
}

// Horizontal sums of two rows, generic form.
template <int kW, int kT0, int kT1>
struct LaneFilter2 {
  Taps<DPair<kW>> k;
  explicit LaneFilter2(const int16_t *row) : k(DPair<kW>(), row) {}
  HWY_INLINE hn::Vec<DPair<kW>> Sum(const uint8_t *s0, const uint8_t *s1) const {
    hn::Vec<DPair<kW>> m[kT1 - kT0 + 1];
    V3D_MC_UNROLL
    for (int t = kT0; t <= kT1; t++)
      m[t - kT0] = hn::Mul(LoadRows2<kW>(s0 + t - 3, s1 + t - 3), k.k[t]);
    return TreeSum<kT1 - kT0 + 1>(m);
  }
};

#if V3D_MC_PAIRS
// The pmaddubsw form for two 4-pixel rows: each row's 12 source bytes (columns -3..8, 8 + 4
// byte loads), pairs gathered by pshufb into the vector's lower half from row 0 and upper half
// from row 1.
struct PairIndex2 {
  uint8_t lo[8][16], hi[8][16];
};
constexpr PairIndex2 MakePairIndex2() {
  PairIndex2 p{};
  for (int t = 0; t < 8; t++)
    for (int i = 0; i < 16; i++) {
      const uint8_t pick = static_cast<uint8_t>((i % 8) / 2 + t + (i & 1));
      p.lo[t][i] = i < 8 ? pick : 0x80;  // 0x80: pshufb writes 0
      p.hi[t][i] = i < 8 ? 0x80 : pick;
    }
  return p;
}
alignas(16) constexpr PairIndex2 kPairIndex2 = MakePairIndex2();

template <int kT0, int kT1>
struct PairFilter4x2 {
  static constexpr int kPairs = (kT1 - kT0 + 1) / 2;
  __m128i taps[kPairs], lo[kPairs], hi[kPairs];
  explicit PairFilter4x2(const int16_t *row) {
    V3D_MC_UNROLL
    for (int p = 0; p < kPairs; p++) {
      const int t = kT0 + 2 * p;
      taps[p] = _mm_set1_epi16(static_cast<int16_t>((row[t] & 0xFF) | (row[t + 1] & 0xFF) << 8));
      lo[p] = _mm_load_si128(reinterpret_cast<const __m128i *>(kPairIndex2.lo[t]));
      hi[p] = _mm_load_si128(reinterpret_cast<const __m128i *>(kPairIndex2.hi[t]));
    }
  }
  static HWY_INLINE __m128i Load12(const uint8_t *s) {
    int32_t tail;
    memcpy(&tail, s + 5, 4);
    return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(s - 3)),
                              _mm_cvtsi32_si128(tail));
  }
  HWY_INLINE hn::Vec<DPair<4>> Sum(const uint8_t *s0, const uint8_t *s1) const {
    const __m128i a = Load12(s0), b = Load12(s1);
    hn::Vec<DPair<4>> m[kPairs];
    V3D_MC_UNROLL
    for (int p = 0; p < kPairs; p++) {
      const __m128i px = _mm_or_si128(_mm_shuffle_epi8(a, lo[p]), _mm_shuffle_epi8(b, hi[p]));
      m[p] = hn::Vec<DPair<4>>{_mm_maddubs_epi16(px, taps[p])};
    }
    return TreeSum<kPairs>(m);
  }
};

// 8- and 16-pixel rows: PairFilter over a vector of two rows' blocks.
template <int kW, int kT0, int kT1>
struct PairFilterRows {
  PairFilter<DPair<kW>, kT0, kT1> f;
  explicit PairFilterRows(const int16_t *row) : f(DPair<kW>(), row) {}
  HWY_INLINE hn::Vec<DPair<kW>> Sum(const uint8_t *s0, const uint8_t *s1) const {
    return f.SumRows(DPair<kW>(), s0, s1);
  }
};

template <int kW, int kFilter>
using HFilter2 = std::conditional_t<
    kW == 4, PairFilter4x2<TapRange<kFilter>::kT0, TapRange<kFilter>::kT1>,
    PairFilterRows<kW, TapRange<kFilter>::kT0, TapRange<kFilter>::kT1>>;
#else
template <int kW, int kFilter>
using HFilter2 = LaneFilter2<kW, TapRange<kFilter>::kT0, TapRange<kFilter>::kT1>;
#endif

template <int kW, int kFilter, int kAvg>
HWY_NOINLINE void McH2(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                       ptrdiff_t src_stride, int h, int mx) {
  const DPair<kW> d;
  const HFilter2<kW, kFilter> filter(kSubpelFilters[kFilter][mx]);
  for (int y = 0; y < h; y += 2, src += 2 * src_stride, dst += 2 * dst_stride)
    StorePred2<kW, kAvg>(Round7(d, filter.Sum(src, src + src_stride)), dst, dst + dst_stride);
}

// Vertical pass, two output rows per step: cw[i] = rows (y + kT0 - 3 + i, y + kT0 - 2 + i).
template <int kW, int kFilter, int kAvg, class T>
HWY_NOINLINE void McV2(uint8_t *dst, ptrdiff_t dst_stride, const T *src, ptrdiff_t src_stride,
                       int h, int my) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  constexpr int kN = kT1 - kT0 + 1;
  const DPair<kW> d;
  const DRow<kW> d1;
  const Taps<DPair<kW>> k(d, kSubpelFilters[kFilter][my]);
  const T *s = src + (kT0 - 3) * src_stride;
  hn::Vec<DPair<kW>> cw[kN];
  hn::Vec<DRow<kW>> last = LoadRow(d1, s);
  V3D_MC_UNROLL
  for (int i = 0; i < kN; i++) {
    const hn::Vec<DRow<kW>> next = LoadRow(d1, s + (i + 1) * src_stride);
    cw[i] = hn::Combine(d, next, last);
    last = next;
  }
  s += (kN + 1) * src_stride;  // the row after `last`
  for (int y = 0;; y += 2, dst += 2 * dst_stride) {
    StorePred2<kW, kAvg>(Round7(d, SumV<kT0, kT1, DPair<kW>>(cw, k)), dst, dst + dst_stride);
    if (y + 2 >= h) break;
    const hn::Vec<DRow<kW>> n1 = LoadRow(d1, s), n2 = LoadRow(d1, s + src_stride);
    s += 2 * src_stride;
    V3D_MC_UNROLL
    for (int i = 0; i < kN - 2; i++) cw[i] = cw[i + 2];
    cw[kN - 2] = hn::Combine(d, n1, last);
    cw[kN - 1] = hn::Combine(d, n2, n1);
    last = n2;
  }
}

// 2-D without a temporary (stored as row pairs and reloaded as odd pairs, one would stall on
// store forwarding): p[j] holds the horizontal results of intermediate rows (y + 2j, y + 2j + 1),
// the odd pairs of the vertical window are the halves of neighbours joined.
template <int kW, int kFilter, int kAvg>
HWY_NOINLINE void McHV2(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                        ptrdiff_t src_stride, int h, int mx, int my) {
  constexpr int kT0 = TapRange<kFilter>::kT0, kT1 = TapRange<kFilter>::kT1;
  constexpr int kN = kT1 - kT0 + 1, kP = kN / 2 + 1;
  using D = DPair<kW>;
  const D d;
  const HFilter2<kW, kFilter> filter(kSubpelFilters[kFilter][mx]);
  const Taps<D> k(d, kSubpelFilters[kFilter][my]);
  const int rows = h + kN - 1;  // odd: the last pair's second row is a spare (row 0 again)
  const uint8_t *s = src + (kT0 - 3) * src_stride;
  const auto pair = [&](int r) {
    const uint8_t *s0 = s + r * src_stride;
    const hn::Vec<D> v = Round7(d, filter.Sum(s0, r + 1 < rows ? s0 + src_stride : s0));
    return hn::Min(hn::Max(v, hn::Zero(d)), hn::Set(d, 255));
  };
  hn::Vec<D> p[kP];
  V3D_MC_UNROLL
  for (int j = 0; j < kP - 1; j++) p[j] = pair(2 * j);
  for (int y = 0; y < h; y += 2, dst += 2 * dst_stride) {
    p[kP - 1] = pair(y + 2 * (kP - 1));
    hn::Vec<D> cw[kN];
    V3D_MC_UNROLL
    for (int i = 0; i < kN; i++)
      cw[i] = i % 2 == 0 ? p[i / 2] : hn::ConcatLowerUpper(d, p[i / 2 + 1], p[i / 2]);
    StorePred2<kW, kAvg>(Round7(d, SumV<kT0, kT1, D>(cw, k)), dst, dst + dst_stride);
    V3D_MC_UNROLL
    for (int j = 0; j < kP - 1; j++) p[j] = p[j + 1];
  }
}

template <int kW, int kFilter, int kAvg>
void Mc(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int h,
        int mx, int my) {
  if (my == 0 && mx == 0) return McCopy<kW, kAvg>(dst, dst_stride, src, src_stride, h);
  if constexpr (kTwoRows<kW>) {
    if (my == 0) return McH2<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, mx);
    if (mx == 0) return McV2<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, my);
    McHV2<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, mx, my);
  } else {
    if (my == 0) return McH<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, mx);
    if (mx == 0) return McV<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, my);
    McHV<kW, kFilter, kAvg>(dst, dst_stride, src, src_stride, h, mx, my);
  }
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
#undef V3D_MC_PAIRS
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace vp9 {

HWY_EXPORT(InitMcSimd);

void mc_dsp_init_simd(McDsp *dsp) {
  HWY_DYNAMIC_DISPATCH(InitMcSimd)(dsp);
  mc_dsp_init_scaled_simd(dsp);
}

}  // namespace vp9
}  // namespace v3d
#endif  // HWY_ONCE
