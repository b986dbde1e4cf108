// SPDX-License-Identifier: LGPL-2.1-or-later
// The 4-wide VP9 loop filter in byte lanes, one lane per pixel along the edge, for the
// targets other than aarch64 NEON (which has its own vertical edges in lpf_hwy.cpp): the mask
// from saturating byte differences, the narrow filter in signed bytes (saturating arithmetic is
// the spec's clamps), no widening to int16 and back, and the filter's chain from loads to
// stores kept short (the mask joins at the end). Vertical edges store whole p3..q3 line
// segments, as the other widths do. Per-target header, included from lpf_hwy.cpp inside its
// foreach_target pass (after simd/transpose_u8.h).

#if defined(V3D_VP9_LPF_BYTES_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_LPF_BYTES_H_
#undef V3D_VP9_LPF_BYTES_H_
#else
#define V3D_VP9_LPF_BYTES_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE && \
    !(HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64)

namespace hb = hwy::HWY_NAMESPACE;

// |a - b| of bytes.
template <class V>
HWY_INLINE V AbsDiffBytes(V a, V b) {
  return hb::Or(hb::SaturatedSub(a, b), hb::SaturatedSub(b, a));
}

// The 4-wide filter on the byte lanes of d (8, 16 or 32: one per line or pixel along the edge,
// or LpfVertical4x16Pairs' layout): v[0..7] = rows p3..q3. Returns false when no lane of `valid` passes the filter mask (v
// unchanged), else true with v[2..5] (p1..q1) filtered. E, I, H in 0..255.
template <class D, class V = hb::Vec<D>>
HWY_INLINE bool Filter4Bytes(D d, V v[8], int E, int I, int H, hb::Mask<D> valid) {
  const hb::RebindToSigned<D> di;
  const V p3 = v[0], p2 = v[1], p1 = v[2], p0 = v[3], q0 = v[4], q1 = v[5], q2 = v[6], q3 = v[7];
  const V hev_v = hb::Max(AbsDiffBytes(p1, p0), AbsDiffBytes(q1, q0));
  const V inner = hb::Max(hb::Max(hb::Max(AbsDiffBytes(p3, p2), AbsDiffBytes(p2, p1)),
                                  hb::Max(AbsDiffBytes(q2, q1), AbsDiffBytes(q3, q2))),
                          hev_v);
  // The edge test 2|p0 - q0| + |p1 - q1| / 2 > E, with h = |p1 - q1| / 2: true when h > E, else
  // exactly when |p0 - q0| > (E - h) / 2 (floor). No sum of 9 bits, so exact for every E.
  const V e = hb::Set(d, static_cast<uint8_t>(E));
  const V h = hb::ShiftRight<1>(AbsDiffBytes(p1, q1));
  const V a0 = AbsDiffBytes(p0, q0);
  // Non-zero in a lane that fails any test (x > y exactly when SaturatedSub(x, y) != 0).
  const V over = hb::Or(hb::Or(hb::SaturatedSub(inner, hb::Set(d, static_cast<uint8_t>(I))),
                               hb::SaturatedSub(h, e)),
                        hb::SaturatedSub(a0, hb::ShiftRight<1>(hb::SaturatedSub(e, h))));
  const auto mask = hb::Eq(over, hb::Zero(d));
  if (hb::AllFalse(d, hb::And(mask, valid))) return false;
  const auto smooth = hb::RebindMask(  // no high edge variance
      di, hb::Eq(hb::SaturatedSub(hev_v, hb::Set(d, static_cast<uint8_t>(H))), hb::Zero(d)));

  // The spec's filter on ps = p ^ 0x80 (signed bytes), computed on every lane; the lanes outside
  // the mask keep their pixels by a select at the end (a zero filter value changes nothing), so
  // the mask is off the filter's dependency chain.
  const V sign = hb::Set(d, 0x80);
  auto to_s = [&](V x) { return hb::BitCast(di, hb::Xor(x, sign)); };
  auto to_u = [&](hb::Vec<decltype(di)> x) { return hb::Xor(hb::BitCast(d, x), sign); };
  const auto ps1 = to_s(p1), ps0 = to_s(p0), qs0 = to_s(q0), qs1 = to_s(q1);
  // clamp(f + 3 (qs0 - ps0)) as three saturating adds of the clamped difference w: a clamped sum
  // of same-signed steps equals the clamped total, and where |qs0 - ps0| > 127 both are at the
  // bound. f is clamp(ps1 - qs1) with high edge variance, else 0: both sums, then a select.
  const auto w = hb::SaturatedSub(qs0, ps0);
  const auto w3 = hb::SaturatedAdd(hb::SaturatedAdd(w, w), w);
  const auto f_hev = hb::SaturatedAdd(
      hb::SaturatedAdd(hb::SaturatedAdd(hb::SaturatedSub(ps1, qs1), w), w), w);
  const auto f = hb::IfThenElse(smooth, w3, f_hev);
  const auto f4 = hb::SaturatedAdd(f, hb::Set(di, 4));
  const auto f1 = hb::ShiftRight<3>(f4);
  const auto f2 = hb::ShiftRight<3>(hb::SaturatedAdd(f, hb::Set(di, 3)));
  // (f1 + 1) >> 1 = avg(u, 0) - 8 with u = (f4 + 128) >> 3 = f1 + 16 (unsigned rounding average).
  const V u = hb::ShiftRight<3>(to_u(f4));
  const auto f3 = hb::Sub(hb::BitCast(di, hb::AverageRound(u, hb::Zero(d))), hb::Set(di, 8));
  const auto outer = hb::And(mask, hb::RebindMask(d, smooth));
  v[2] = hb::IfThenElse(outer, to_u(hb::SaturatedAdd(ps1, f3)), p1);
  v[3] = hb::IfThenElse(mask, to_u(hb::SaturatedAdd(ps0, f2)), p0);
  v[4] = hb::IfThenElse(mask, to_u(hb::SaturatedSub(qs0, f1)), q0);
  v[5] = hb::IfThenElse(outer, to_u(hb::SaturatedSub(qs1, f3)), q1);
  return true;
}

// lpf.h's LpfEdgeFn for the 4-wide filter, kLen (8 or 16) pixels, horizontal edge.
template <int kLen>
HWY_NOINLINE void LpfHorizontal4Bytes(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  const hb::CappedTag<uint8_t, kLen> d;
  hb::Vec<decltype(d)> v[8];
  for (int r = 0; r < 8; r++) v[r] = hb::LoadU(d, dst + (r - 4) * stride);
  if (!Filter4Bytes(d, v, E, I, H, hb::FirstN(d, kLen))) return;
  for (int r = 2; r < 6; r++) hb::StoreU(v[r], d, dst + (r - 4) * stride);
}

// The same for a vertical edge: kLen lines of p3..q3 transposed in and, when any line is
// filtered, back out whole.
template <int kLen>
HWY_NOINLINE void LpfVertical4Bytes(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  namespace hs = simd::HWY_NAMESPACE;
  hs::U8x16 rows[8];
  hs::TransposeLinesIn<kLen>(dst - 4, stride, rows);
  if constexpr (kLen == 16) {
    if (!Filter4Bytes(hs::U8x16D(), rows, E, I, H, hb::FirstN(hs::U8x16D(), 16))) return;
  } else {
    const hb::Full64<uint8_t> dh;
    hb::Vec<decltype(dh)> v[8];
    for (int r = 0; r < 8; r++) v[r] = hb::LowerHalf(dh, rows[r]);
    if (!Filter4Bytes(dh, v, E, I, H, hb::FirstN(dh, 8))) return;
    for (int r = 2; r < 6; r++) rows[r] = hb::ZeroExtendVector(hs::U8x16D(), v[r]);
  }
  hs::TransposeLinesOut<kLen>(rows, dst - 4, stride);
}

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
// AVX2 and up, 16 lines: both groups of 8 lines in one 256-bit vector (simd/transpose_u8.h's
// line pairs). Column pair p's vector holds column 2p in the low 64 bits of each block and
// column 2p + 1 in the high ones, so the rows p3..q3 are those vectors and their halves swapped,
// filtered in their low 64 bits (the high ones, other columns, are left out of the mask and
// dropped).
HWY_NOINLINE void LpfVertical4x16Pairs(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  namespace hs = simd::HWY_NAMESPACE;
  const hs::U8x32D d;
  const hb::Repartition<uint64_t, decltype(d)> d64;
  hs::U8x32 c[4];
  hs::TransposeLinePairsIn(dst - 4, stride, c);
  auto swapped = [&](hs::U8x32 x) { return hb::BitCast(d, hb::Shuffle01(hb::BitCast(d64, x))); };
  hs::U8x32 v[8];
  for (int p = 0; p < 4; p++) {
    v[2 * p] = c[p];
    v[2 * p + 1] = swapped(c[p]);
  }
  const auto low = hb::Lt(hb::And(hb::Iota(d, 0), hb::Set(d, 15)), hb::Set(d, 8));
  if (!Filter4Bytes(d, v, E, I, H, low)) return;
  c[1] = hb::BitCast(d, hb::InterleaveLower(d64, hb::BitCast(d64, v[2]), hb::BitCast(d64, v[3])));
  c[2] = hb::BitCast(d, hb::InterleaveLower(d64, hb::BitCast(d64, v[4]), hb::BitCast(d64, v[5])));
  hs::TransposeLinePairsOut(c, dst - 4, stride);
}
#endif  // HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE && not aarch64 NEON
}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_LPF_BYTES_H_
