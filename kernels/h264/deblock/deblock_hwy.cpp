// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking edges on SIMD (Google Highway, dynamic dispatch): one implementation compiled
// for every Highway target (SSSE3, SSE4, AVX2, AVX3, AVX3_DL on x86-64; NEON on aarch64; EMU128
// too; the one-lane fallback keeps the scalar references), chosen once by deblock_dsp_init_simd().
//
// Layout: lane = pixel along the edge, one vector per row across the edge (p3..q3), int16 lanes
// (every intermediate fits: at most 8 * 255 + 4). Lanes per vector L = min(edge length, 16-bit
// lanes of the target): a 16-pixel luma edge is one 256-bit vector per row on AVX2/AVX3, two
// halves on SSE4/NEON. Per-lane tc0 is expanded from the 4 groups through a small table.
// Horizontal edges: rows loaded as bytes and widened. Vertical luma edges: 16 lines of 8 bytes
// transposed in registers (simd/transpose_u8.h) and back, storing whole p3..q3 segments
// (see deblock.h); on aarch64 NEON in groups of 8 lines, the normal filter storing p1..q1 alone.
// Vertical chroma edges: 8 lines of 4 bytes transposed with a byte shuffle.

#include "h264/deblock/deblock.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "h264/deblock/deblock_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/round_i16.h"
#include "simd/transpose_u8.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace h264 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
void InitDeblockSimd(DeblockDsp *) {}
#else

using simd::HWY_NAMESPACE::AbsDiff16;
using simd::HWY_NAMESPACE::Round2;

// Round2(a + b, kShift) (wrapping int16 arithmetic, so the grouping of the sum is free).
template <int kShift, class D, class V = hn::Vec<D>>
HWY_INLINE V Round2Sum(D d, V a, V b) {
  return Round2<kShift>(d, hn::Add(a, b));
}

// (2a + b + c + 2) >> 2 of samples (0..255) as avg(a, (b + c) >> 1) rounding up: with
// b + c = 2h + r (r 0 or 1), (2a + 2h + r + 2) >> 2 = (a + h + 1) >> 1 for either r.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Weak0(D d, V a, V b, V c) {
  const hn::RebindToUnsigned<D> du;
  return hn::BitCast(d, hn::AverageRound(hn::BitCast(du, a),
                                         hn::BitCast(du, hn::ShiftRight<1>(hn::Add(b, c)))));
}

// filterSamplesFlag on rows p1, p0, q0, q1.
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> SamplesFlag(D, V p1, V p0, V q0, V q1, V alpha, V beta) {
  return hn::And(hn::Lt(AbsDiff16(p0, q0), alpha),
                 hn::And(hn::Lt(AbsDiff16(p1, p0), beta), hn::Lt(AbsDiff16(q1, q0), beta)));
}

// Clip3(-tc, tc, ((q0 - p0) * 4 + p1 - q1 + 4) >> 3), zero outside mask.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Delta(D d, V p1, V p0, V q0, V q1, V tc, hn::Mask<D> mask) {
  V v = hn::Add(hn::ShiftLeft<2>(hn::Sub(q0, p0)), hn::Sub(p1, q1));
  v = hn::ShiftRight<3>(hn::Add(v, hn::Set(d, 4)));
  v = hn::Min(hn::Max(v, hn::Neg(tc)), tc);
  return hn::IfThenElseZero(mask, v);
}

// x[0..7] = rows p3..q3 (p3, q3 unused); on return x[1..6] hold the results (they saturate to
// the output bytes). Returns false when no lane is filtered (x unchanged).
template <class D, class V = hn::Vec<D>>
HWY_INLINE bool LumaChunk(D d, V *x, V alpha, V beta, V tc0) {
  const V p2 = x[1], p1 = x[2], p0 = x[3], q0 = x[4], q1 = x[5], q2 = x[6];
  const auto mask = hn::And(SamplesFlag(d, p1, p0, q0, q1, alpha, beta),
                            hn::Gt(tc0, hn::Set(d, -1)));
  if (hn::AllFalse(d, mask)) return false;
  const auto ap = hn::And(mask, hn::Lt(AbsDiff16(p2, p0), beta));
  const auto aq = hn::And(mask, hn::Lt(AbsDiff16(q2, q0), beta));
  // tc = tc0 + ap + aq (a true mask lane is -1).
  const V tc = hn::Sub(hn::Sub(tc0, hn::VecFromMask(d, ap)), hn::VecFromMask(d, aq));
  const V delta = Delta(d, p1, p0, q0, q1, tc, mask);
  const hn::RebindToUnsigned<D> du;  // samples are 0..255: the unsigned rounding average fits
  const V avg = hn::BitCast(d, hn::AverageRound(hn::BitCast(du, p0), hn::BitCast(du, q0)));
  const V ntc0 = hn::Neg(tc0);
  const V dp1 = hn::ShiftRight<1>(hn::Sub(hn::Add(p2, avg), hn::Add(p1, p1)));
  const V dq1 = hn::ShiftRight<1>(hn::Sub(hn::Add(q2, avg), hn::Add(q1, q1)));
  x[2] = hn::IfThenElse(ap, hn::Add(p1, hn::Min(hn::Max(dp1, ntc0), tc0)), p1);
  x[5] = hn::IfThenElse(aq, hn::Add(q1, hn::Min(hn::Max(dq1, ntc0), tc0)), q1);
  x[3] = hn::Add(p0, delta);
  x[4] = hn::Sub(q0, delta);
  return true;
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE bool LumaIntraChunk(D d, V *x, V alpha, V beta) {
  const V p3 = x[0], p2 = x[1], p1 = x[2], p0 = x[3], q0 = x[4], q1 = x[5], q2 = x[6], q3 = x[7];
  const auto mask = SamplesFlag(d, p1, p0, q0, q1, alpha, beta);
  if (hn::AllFalse(d, mask)) return false;
  const V two = hn::Set(d, 2);
  const auto strong = hn::And(
      mask, hn::Lt(AbsDiff16(p0, q0), hn::Add(hn::ShiftRight<2>(alpha), two)));
  const auto ps = hn::And(strong, hn::Lt(AbsDiff16(p2, p0), beta));
  const auto qs = hn::And(strong, hn::Lt(AbsDiff16(q2, q0), beta));
  const V pq0 = hn::Add(p0, q0);
  // Strong p side: p0 = (p2 + 2p1 + 2p0 + 2q0 + q1 + 4) >> 3, p1 = (p2 + p1 + p0 + q0 + 2) >> 2,
  // p2 = (2p3 + 3p2 + p1 + p0 + q0 + 4) >> 3; weak: p0 = (2p1 + p0 + q1 + 2) >> 2.
  const V sp = hn::Add(hn::Add(p2, p1), pq0);  // p2 + p1 + p0 + q0
  const V sq = hn::Add(hn::Add(q2, q1), pq0);
  const V p0s = Round2Sum<3>(d, hn::Add(sp, hn::Add(p1, pq0)), q1);
  const V q0s = Round2Sum<3>(d, hn::Add(sq, hn::Add(q1, pq0)), p1);
  const V p1s = Round2<2>(d, sp);
  const V q1s = Round2<2>(d, sq);
  const V p2s = Round2Sum<3>(d, hn::Add(sp, hn::Add(p2, p2)), hn::Add(p3, p3));
  const V q2s = Round2Sum<3>(d, hn::Add(sq, hn::Add(q2, q2)), hn::Add(q3, q3));
  // Not Weak0: on NEON it raises register pressure here enough for GCC to spill.
  const V p0w = Round2Sum<2>(d, hn::Add(hn::Add(p1, p1), p0), q1);
  const V q0w = Round2Sum<2>(d, hn::Add(hn::Add(q1, q1), q0), p1);
  x[3] = hn::IfThenElse(ps, p0s, hn::IfThenElse(mask, p0w, p0));
  x[4] = hn::IfThenElse(qs, q0s, hn::IfThenElse(mask, q0w, q0));
  x[2] = hn::IfThenElse(ps, p1s, p1);
  x[5] = hn::IfThenElse(qs, q1s, q1);
  x[1] = hn::IfThenElse(ps, p2s, p2);
  x[6] = hn::IfThenElse(qs, q2s, q2);
  return true;
}

// x[0..3] = p1, p0, q0, q1; changes x[1], x[2]. tc: tC0 + 1 per lane, 0 where tC0 < 0 (the
// delta is then clipped to 0, which leaves the group unchanged without a mask of its own).
template <class D, class V = hn::Vec<D>>
HWY_INLINE bool ChromaChunk(D d, V *x, V alpha, V beta, V tc) {
  const V p1 = x[0], p0 = x[1], q0 = x[2], q1 = x[3];
  const auto mask = SamplesFlag(d, p1, p0, q0, q1, alpha, beta);
  if (hn::AllFalse(d, mask)) return false;
  const V delta = Delta(d, p1, p0, q0, q1, tc, mask);
  x[1] = hn::Add(p0, delta);
  x[2] = hn::Sub(q0, delta);
  return true;
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE bool ChromaIntraChunk(D d, V *x, V alpha, V beta) {
  const V p1 = x[0], p0 = x[1], q0 = x[2], q1 = x[3];
  const auto mask = SamplesFlag(d, p1, p0, q0, q1, alpha, beta);
  if (hn::AllFalse(d, mask)) return false;
  const V p0n = Weak0(d, p1, p0, q1);  // (2p1 + p0 + q1 + 2) >> 2
  const V q0n = Weak0(d, q1, q0, p1);
  x[1] = hn::IfThenElse(mask, p0n, p0);
  x[2] = hn::IfThenElse(mask, q0n, q0);
  return true;
}

// Per-lane tc0 of lanes c.. of an edge: group = lane >> kShift (2: luma, 1: chroma). The four
// bytes are broadcast and spread with one byte shuffle, then widened (a table built on the stack
// and reloaded cost a store-forwarding stall per edge).
template <int kShift, class D>
HWY_INLINE hn::Vec<D> LaneTc0(D d, const int8_t tc0[4], size_t c) {
  static_assert(kShift == 1 || kShift == 2, "luma or chroma groups");
  constexpr size_t L = hn::MaxLanes(D());
  static_assert(L == 8 || L == 16, "8 or 16 lanes per chunk");
  const hn::Full128<int8_t> d8;
  uint32_t word;
  memcpy(&word, tc0, 4);
  const auto bytes = hn::BitCast(d8, hn::Set(hn::Full128<uint32_t>(), word));
  hn::Vec<decltype(d8)> lanes;
  if constexpr (kShift == 1) {
    lanes = hn::InterleaveLower(d8, bytes, bytes);  // t0 t0 t1 t1 t2 t2 t3 t3
  } else {
    HWY_ALIGN static constexpr int8_t kSpread[16] = {0, 0, 0, 0, 1, 1, 1, 1,
                                                     2, 2, 2, 2, 3, 3, 3, 3};
    lanes = hn::TableLookupBytes(bytes, hn::Load(d8, kSpread));
  }
  if constexpr (L == 16) {
    return hn::PromoteTo(d, lanes);
  } else {
    const hn::Half<decltype(d8)> dh;
    return hn::PromoteTo(d, c ? hn::UpperHalf(dh, lanes) : hn::LowerHalf(dh, lanes));
  }
}

// The tc of ChromaChunk's 8 lanes.
template <class D>
HWY_INLINE hn::Vec<D> ChromaTc(D d, const int8_t tc0[4]) {
  return hn::Max(hn::Add(LaneTc0<1>(d, tc0, 0), hn::Set(d, 1)), hn::Zero(d));
}

// Horizontal edges: kRows rows from -kRows/2, len kLen, filter Fn on chunks.
template <int kRows, int kLen, class Fn>
HWY_INLINE void Horizontal(uint8_t *pix, ptrdiff_t stride, Fn fn) {
  using D = hn::CappedTag<int16_t, kLen>;
  const D d;
  const hn::Rebind<uint8_t, D> d8;
  constexpr size_t L = hn::MaxLanes(D());
  for (size_t c = 0; c < kLen; c += L) {
    hn::Vec<D> x[kRows];
    for (int r = 0; r < kRows; r++)
      x[r] = hn::PromoteTo(d, hn::LoadU(d8, pix + (r - kRows / 2) * stride + c));
    if (!fn(d, x, c)) continue;
    for (int r = kRows == 8 ? 1 : 1; r < (kRows == 8 ? 7 : 3); r++)
      hn::StoreU(hn::DemoteTo(d8, x[r]), d8, pix + (r - kRows / 2) * stride + c);
  }
}

// The normal luma filter reads p2..q2 and changes p1..q1 only: 6 rows loaded, 4 stored.
void LumaH(uint8_t *pix, ptrdiff_t stride, int alpha, int beta, const int8_t tc0[4]) {
  using D = hn::CappedTag<int16_t, 16>;
  const D d;
  const hn::Rebind<uint8_t, D> d8;
  constexpr size_t L = hn::MaxLanes(D());
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  for (size_t c = 0; c < 16; c += L) {
    hn::Vec<D> x[8];
    x[0] = x[7] = hn::Zero(d);  // p3, q3: not read by LumaChunk
    for (int r = 1; r < 7; r++) x[r] = hn::PromoteTo(d, hn::LoadU(d8, pix + (r - 4) * stride + c));
    if (!LumaChunk(d, x, a, b, LaneTc0<2>(d, tc0, c))) continue;
    for (int r = 2; r < 6; r++) hn::StoreU(hn::DemoteTo(d8, x[r]), d8, pix + (r - 4) * stride + c);
  }
}

void LumaIntraH(uint8_t *pix, ptrdiff_t stride, int alpha, int beta) {
  using D = hn::CappedTag<int16_t, 16>;
  const D d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  Horizontal<8, 16>(pix, stride, [&](D dd, hn::Vec<D> *x, size_t) {
    return LumaIntraChunk(dd, x, a, b);
  });
}

void ChromaH(uint8_t *pix, ptrdiff_t stride, int alpha, int beta, const int8_t tc0[4]) {
  using D = hn::CappedTag<int16_t, 8>;
  const D d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  Horizontal<4, 8>(pix, stride, [&](D dd, hn::Vec<D> *x, size_t c) {
    return ChromaChunk(dd, x, a, b, ChromaTc(dd, tc0));
  });
}

void ChromaIntraH(uint8_t *pix, ptrdiff_t stride, int alpha, int beta) {
  using D = hn::CappedTag<int16_t, 8>;
  const D d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  Horizontal<4, 8>(pix, stride, [&](D dd, hn::Vec<D> *x, size_t) {
    return ChromaIntraChunk(dd, x, a, b);
  });
}

#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
// Vertical luma on aarch64 NEON: each group of 8 lines of p3..q3 is transposed in 64-bit vectors
// (64-bit trns, no 128-bit zips or half inserts), filtered as one chunk, and stored back: p1..q1
// alone (4 bytes a line) for the normal filter (kChanged 2), the segment transposed back for the
// intra filter (kChanged 3, p2..q2).
template <int kChanged, class D, class Fn>
HWY_INLINE void LumaVertical(D d, uint8_t *pix, ptrdiff_t stride, Fn fn) {
  static_assert(hn::MaxLanes(D()) == 8, "one group of 8 lines per chunk");
  const hn::Rebind<uint8_t, D> d8;
  for (size_t c = 0; c < 16; c += 8) {
    uint8_t *s = pix + static_cast<ptrdiff_t>(c) * stride;
    uint8x8_t cols[8];  // cols[r] lane l = p3..q3 (r = 0..7) of line l
    simd::HWY_NAMESPACE::LoadTransposed8x8Neon(s - 4, stride, cols);
    hn::Vec<D> x[8];
    for (int r = 0; r < 8; r++) x[r] = hn::PromoteTo(d, hn::Vec<decltype(d8)>{cols[r]});
    if (!fn(d, x, c)) continue;
    for (int r = 4 - kChanged; r < 4 + kChanged; r++) cols[r] = hn::DemoteTo(d8, x[r]).raw;
    if constexpr (kChanged == 2) {
      simd::HWY_NAMESPACE::Store4Columns8Neon(cols + 2, s - 2, stride);
    } else {
      simd::HWY_NAMESPACE::StoreTransposed8x8Neon(cols, s - 4, stride);
    }
  }
}
#else
// Vertical luma: 16 lines of p3..q3 transposed to 8 byte rows of 16 lanes, filtered, back.
template <int kChanged, class D, class Fn>
HWY_INLINE void LumaVertical(D d, uint8_t *pix, ptrdiff_t stride, Fn fn) {
  const hn::Rebind<uint8_t, D> d8;
  const hn::Half<simd::HWY_NAMESPACE::U8x16D> dh;
  constexpr size_t L = hn::MaxLanes(D());
  simd::HWY_NAMESPACE::U8x16 rows[8];
  simd::HWY_NAMESPACE::TransposeLinesIn<16>(pix - 4, stride, rows);
  bool any = false;
  for (size_t c = 0; c < 16; c += L) {
    hn::Vec<D> x[8];
    for (int r = 0; r < 8; r++) {
      if constexpr (L == 16) {
        x[r] = hn::PromoteTo(d, rows[r]);
      } else {
        x[r] = hn::PromoteTo(d, c ? hn::UpperHalf(dh, rows[r]) : hn::LowerHalf(dh, rows[r]));
      }
    }
    if (!fn(d, x, c)) continue;
    any = true;
    for (int r = 1; r < 7; r++) {
      const auto n = hn::DemoteTo(d8, x[r]);
      if constexpr (L == 16) {
        rows[r] = n;
      } else if (c == 0) {
        rows[r] = hn::Combine(simd::HWY_NAMESPACE::U8x16D(), hn::UpperHalf(dh, rows[r]), n);
      } else {
        rows[r] = hn::Combine(simd::HWY_NAMESPACE::U8x16D(), n, hn::LowerHalf(dh, rows[r]));
      }
    }
  }
  if (any) simd::HWY_NAMESPACE::TransposeLinesOut<16>(rows, pix - 4, stride);
}
#endif  // HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64

void LumaV(uint8_t *pix, ptrdiff_t stride, int alpha, int beta, const int8_t tc0[4]) {
  using D = hn::CappedTag<int16_t, 16>;
  const D d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  LumaVertical<2>(d, pix, stride, [&](D dd, hn::Vec<D> *x, size_t c) {
    return LumaChunk(dd, x, a, b, LaneTc0<2>(dd, tc0, c));
  });
}

void LumaIntraV(uint8_t *pix, ptrdiff_t stride, int alpha, int beta) {
  using D = hn::CappedTag<int16_t, 16>;
  const D d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  LumaVertical<3>(d, pix, stride, [&](D dd, hn::Vec<D> *x, size_t) {
    return LumaIntraChunk(dd, x, a, b);
  });
}

// Vertical chroma: 8 lines of 4 bytes (p1 p0 q0 q1 at pix - 2), gathered in registers (a memory
// round trip through 4-byte stores and a 16-byte load stalls on store forwarding): each column's
// 4 bytes of lines 0-3 and of lines 4-7 grouped (x86: byte and 16-bit interleaves; other
// targets: pairs of lines joined, then one byte shuffle), then 32-bit interleaves join the two
// groups. Only p0 and q0 change: stored back as 2 bytes a line.
#if HWY_TARGET == HWY_NEON
// NEON: lines l and l + 4 go to the two 32-bit lanes of register l & 3 (four short chains of
// lane loads), then byte and 16-bit transposes give p1, p0, q0, q1 with lane = line; p0 and q0
// are interleaved and go back with one 2-byte lane store per line.
template <class Fn, int... kL>
HWY_INLINE void ChromaVerticalNeon(uint8_t *pix, ptrdiff_t stride, Fn fn,
                                   std::integer_sequence<int, kL...>) {
  const hn::Full128<int16_t> d;
  const hn::Full64<uint8_t> dh;
  const uint8_t *s = pix - 2;
  uint32x2_t r[4];
  for (int k = 0; k < 4; k++) r[k] = vdup_n_u32(0);
  ((r[kL & 3] = vld1_lane_u32(reinterpret_cast<const uint32_t *>(s + kL * stride), r[kL & 3],
                              kL >> 2)),
   ...);
  // t[0] = lines 0-1 of p1, q0 (for lines l, l + 4 in each 32-bit half), t[1] = of p0, q1; t[2],
  // t[3] the same for lines 2-3.
  const uint8x8_t t0 = vtrn1_u8(vreinterpret_u8_u32(r[0]), vreinterpret_u8_u32(r[1]));
  const uint8x8_t t1 = vtrn2_u8(vreinterpret_u8_u32(r[0]), vreinterpret_u8_u32(r[1]));
  const uint8x8_t t2 = vtrn1_u8(vreinterpret_u8_u32(r[2]), vreinterpret_u8_u32(r[3]));
  const uint8x8_t t3 = vtrn2_u8(vreinterpret_u8_u32(r[2]), vreinterpret_u8_u32(r[3]));
  const uint16x4_t c[4] = {
      vtrn1_u16(vreinterpret_u16_u8(t0), vreinterpret_u16_u8(t2)),   // p1
      vtrn1_u16(vreinterpret_u16_u8(t1), vreinterpret_u16_u8(t3)),   // p0
      vtrn2_u16(vreinterpret_u16_u8(t0), vreinterpret_u16_u8(t2)),   // q0
      vtrn2_u16(vreinterpret_u16_u8(t1), vreinterpret_u16_u8(t3))};  // q1
  hn::Vec<decltype(d)> x[4];
  for (int k = 0; k < 4; k++)
    x[k] = hn::PromoteTo(d, hn::Vec<decltype(dh)>(vreinterpret_u8_u16(c[k])));
  if (!fn(d, x, 0)) return;
  // u16 lane l & 3 of z[l >> 2] = p0 | q0 << 8 of line l.
  const uint8x8x2_t z = vzip_u8(hn::DemoteTo(dh, x[1]).raw, hn::DemoteTo(dh, x[2]).raw);
  (vst1_lane_u16(reinterpret_cast<uint16_t *>(pix - 1 + kL * stride),
                 vreinterpret_u16_u8(z.val[kL >> 2]), kL & 3),
   ...);
}
#endif

template <class Fn>
HWY_INLINE void ChromaVertical(uint8_t *pix, ptrdiff_t stride, Fn fn) {
#if HWY_TARGET == HWY_NEON
  return ChromaVerticalNeon(pix, stride, fn, std::make_integer_sequence<int, 8>());
#endif
  const hn::Full128<uint8_t> d8;
  const hn::Full64<uint8_t> dh;
  const hn::Full32<uint8_t> dq;
  const hn::Repartition<uint16_t, decltype(d8)> d16;
  const hn::Repartition<uint32_t, decltype(d8)> d32;
  const hn::Full128<int16_t> d;
  const uint8_t *s = pix - 2;
  hn::Vec<decltype(d32)> g[2];  // u32 lane c = column c of lines 4h..4h+3
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3
  // x86: a 4-byte load is a whole register (upper bytes zero), so a byte interleave of two lines
  // and a 16-bit interleave of two such pairs group the columns: 3 shuffles per 4 lines.
  auto line = [&](int l) { return hn::Vec128<uint8_t>{hn::LoadU(dq, s + l * stride).raw}; };
  for (int h = 0; h < 2; h++) {
    const int l = 4 * h;
    const auto a01 = hn::BitCast(d16, hn::InterleaveLower(d8, line(l), line(l + 1)));
    const auto a23 = hn::BitCast(d16, hn::InterleaveLower(d8, line(l + 2), line(l + 3)));
    g[h] = hn::BitCast(d32, hn::InterleaveLower(d16, a01, a23));
  }
#else
  HWY_ALIGN static constexpr uint8_t kT[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  const auto tbl = hn::Load(d8, kT);
  for (int h = 0; h < 2; h++) {
    const uint8_t *r = s + 4 * h * stride;
    const auto l01 = hn::Combine(dh, hn::LoadU(dq, r + stride), hn::LoadU(dq, r));
    const auto l23 = hn::Combine(dh, hn::LoadU(dq, r + 3 * stride), hn::LoadU(dq, r + 2 * stride));
    g[h] = hn::BitCast(d32, hn::TableLookupBytes(hn::Combine(d8, l23, l01), tbl));
  }
#endif
  const auto lo = hn::BitCast(d8, hn::InterleaveLower(d32, g[0], g[1]));  // p1 | p0
  const auto hi = hn::BitCast(d8, hn::InterleaveUpper(d32, g[0], g[1]));  // q0 | q1
  // Upper halves zero-extended by an interleave with zero (one shuffle, not two).
  const auto z = hn::Zero(d8);
  hn::Vec<decltype(d)> x[4] = {
      hn::PromoteTo(d, hn::LowerHalf(dh, lo)), hn::BitCast(d, hn::ZipUpper(d16, lo, z)),
      hn::PromoteTo(d, hn::LowerHalf(dh, hi)), hn::BitCast(d, hn::ZipUpper(d16, hi, z))};
  if (!fn(d, x, 0)) return;
  // u16 lane l = p0 | q0 << 8 of line l.
  const auto p0n = hn::ZeroExtendVector(d8, hn::DemoteTo(dh, x[1]));
  const auto q0n = hn::ZeroExtendVector(d8, hn::DemoteTo(dh, x[2]));
  const auto pq = hn::BitCast(d16, hn::InterleaveLower(d8, p0n, q0n));
  uint8_t *o = pix - 1;
  for (int l = 0; l < 8; l++) {
    const uint16_t v = hn::ExtractLane(pq, l);
    memcpy(o + l * stride, &v, 2);
  }
}

void ChromaV(uint8_t *pix, ptrdiff_t stride, int alpha, int beta, const int8_t tc0[4]) {
  const hn::Full128<int16_t> d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  ChromaVertical(pix, stride, [&](decltype(d) dd, hn::Vec<decltype(d)> *x, size_t) {
    return ChromaChunk(dd, x, a, b, ChromaTc(dd, tc0));
  });
}

void ChromaIntraV(uint8_t *pix, ptrdiff_t stride, int alpha, int beta) {
  const hn::Full128<int16_t> d;
  const auto a = hn::Set(d, alpha), b = hn::Set(d, beta);
  ChromaVertical(pix, stride, [&](decltype(d) dd, hn::Vec<decltype(d)> *x, size_t) {
    return ChromaIntraChunk(dd, x, a, b);
  });
}

void InitDeblockSimd(DeblockDsp *dsp) {
  dsp->luma[0] = &LumaV;
  dsp->luma[1] = &LumaH;
  dsp->luma_intra[0] = &LumaIntraV;
  dsp->luma_intra[1] = &LumaIntraH;
  dsp->chroma[0] = &ChromaV;
  dsp->chroma[1] = &ChromaH;
  dsp->chroma_intra[0] = &ChromaIntraV;
  dsp->chroma_intra[1] = &ChromaIntraH;
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace h264
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace h264 {

HWY_EXPORT(InitDeblockSimd);

void deblock_dsp_init_simd(DeblockDsp *dsp) { HWY_DYNAMIC_DISPATCH(InitDeblockSimd)(dsp); }

}  // namespace h264
}  // namespace v3d
#endif  // HWY_ONCE
