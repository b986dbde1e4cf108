// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 intra prediction on SIMD, the diagonal modes at n = 4, 8 and 16: the edge sequences of
// ipred_hwy.cpp's diagonal modes kept in 16-byte registers (every target has them), each row a
// byte window of them, stored with one 4-, 8- or 16-byte store. No round trip through memory:
// at these sizes a store-to-load stall costs more than the whole prediction. Per-target header,
// included by ipred_hwy.cpp inside its foreach_target loop.

#if defined(V3D_VP9_IPRED_HWY_REGS_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_IPRED_HWY_REGS_H_
#undef V3D_VP9_IPRED_HWY_REGS_H_
#else
#define V3D_VP9_IPRED_HWY_REGS_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

// Round2(a + 2b + c, 2) = AverageRound(b, floor((a + c) / 2)), exact in 8 bits.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Avg3(D d, V a, V b, V c) {
  const V floor_ac = hn::Sub(hn::AverageRound(a, c), hn::And(hn::Xor(a, c), hn::Set(d, 1)));
  return hn::AverageRound(b, floor_ac);
}

using D16 = hn::Full128<uint8_t>;
using D8 = hn::Full64<uint8_t>;
using V16 = hn::Vec<D16>;

// Bytes [kOff, kOff + 16) of the sequence v[0], v[1], ...
template <int kOff, size_t K>
HWY_INLINE V16 Window(const V16 (&v)[K]) {
  constexpr size_t q = kOff / 16, r = kOff % 16;
  if constexpr (r == 0) {
    return v[q];
  } else {
    static_assert(q + 1 < K, "window past the sequence");
    return hn::CombineShiftRightBytes<r>(D16(), v[q + 1], v[q]);
  }
}

template <size_t N>
HWY_INLINE void StoreRow(uint8_t *p, V16 x) {
  if constexpr (N == 4) {
    hn::StoreU(hn::LowerHalf(hn::LowerHalf(x)), hn::Full32<uint8_t>(), p);
  } else if constexpr (N == 8) {
    hn::StoreU(hn::LowerHalf(x), D8(), p);
  } else {
    hn::StoreU(x, D16(), p);
  }
}

// Row i (i < sizeof...(I)) of dst is the window of v at kFirst + kStep * i.
template <size_t N, int kFirst, int kStep, size_t K, size_t... I>
HWY_INLINE void RowsOf(uint8_t *dst, ptrdiff_t stride, const V16 (&v)[K],
                       std::index_sequence<I...>) {
  (StoreRow<N>(dst + static_cast<ptrdiff_t>(I) * stride,
               Window<kFirst + kStep * static_cast<int>(I)>(v)),
   ...);
}

// The corner edge (as CornerEdge) in registers: t[0] = t[0..15], t[1] = t[16..31] (n = 16),
// then a vector of copies of above[N-1].
template <size_t N>
HWY_INLINE void CornerRegs(const uint8_t *above, const uint8_t *left, V16 (&t)[N / 8 + 1]) {
  alignas(16) static constexpr uint8_t kReverse[16] = {15, 14, 13, 12, 11, 10, 9, 8,
                                                       7,  6,  5,  4,  3,  2,  1, 0};
  if constexpr (N == 8) {
    const auto rev = hn::TableLookupBytes(hn::LoadU(D8(), left), hn::Load(D8(), kReverse + 8));
    t[0] = hn::Combine(D16(), hn::LoadU(D8(), above - 1), rev);
  } else {
    t[0] = hn::TableLookupBytes(hn::LoadU(D16(), left), hn::Load(D16(), kReverse));
    t[1] = hn::LoadU(D16(), above - 1);
  }
  t[N / 8] = hn::Set(D16(), above[N - 1]);
}

// Triple averages of a sequence held in registers: out[m] from v[m] and v[m + 1].
template <size_t K>
HWY_INLINE V16 Avg3At(const V16 (&v)[K], size_t m) {
  const D16 d;
  return Avg3(d, v[m], hn::CombineShiftRightBytes<1>(d, v[m + 1], v[m]),
              hn::CombineShiftRightBytes<2>(d, v[m + 1], v[m]));
}

template <size_t K>
HWY_INLINE V16 Avg2At(const V16 (&v)[K], size_t m) {
  return hn::AverageRound(v[m], hn::CombineShiftRightBytes<1>(D16(), v[m + 1], v[m]));
}

template <size_t N>
void D135Small(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  V16 t[N / 8 + 1];
  CornerRegs<N>(above, left, t);
  V16 b[2];
  b[0] = Avg3At(t, 0);
  b[1] = N == 16 ? Avg3At(t, 1) : b[0];  // n = 8: b[0] holds all 15
  RowsOf<N, N - 1, -1>(dst, stride, b, std::make_index_sequence<N>());
}

template <size_t N>
void D153Small(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const D16 d;
  V16 t[N / 8 + 1];
  CornerRegs<N>(above, left, t);
  const V16 a2 = Avg2At(t, 0), b0 = Avg3At(t, 0);
  V16 s[3];
  s[0] = hn::InterleaveLower(d, a2, b0);
  if constexpr (N == 8) {
    s[1] = hn::CombineShiftRightBytes<8>(d, b0, b0);  // b[8..]
    s[2] = s[1];
  } else {
    s[1] = hn::InterleaveUpper(d, a2, b0);
    s[2] = Avg3At(t, 1);
  }
  RowsOf<N, 2 * (N - 1), -2>(dst, stride, s, std::make_index_sequence<N>());
}

template <size_t N>
void D207Small(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  const D16 d;
  V16 l[2];
  l[1] = hn::Set(d, left[N - 1]);
  if constexpr (N == 8) {
    l[0] = hn::Combine(d, hn::Set(D8(), left[7]), hn::LoadU(D8(), left));
  } else {
    l[0] = hn::LoadU(d, left);
  }
  const V16 a2 = Avg2At(l, 0), a3 = Avg3At(l, 0);
  V16 w[3] = {hn::InterleaveLower(d, a2, a3), hn::InterleaveUpper(d, a2, a3), l[1]};
  RowsOf<N, 0, 2>(dst, stride, w, std::make_index_sequence<N>());
}

// ev and od (as D117Pred) assembled with byte shuffles: P = N/2 - 1 de-interleaved triple
// averages of the left column, then row 0 or row 1.
template <size_t N>
void D117Small(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const D16 d;
  constexpr int kP = N / 2 - 1;
  V16 t[N / 8 + 1];
  CornerRegs<N>(above, left, t);
  const V16 b0 = Avg3At(t, 0);
  V16 ev[2], od[2];
  if constexpr (N == 8) {
    // b0 = b[0..15]; row 0 = the pair averages at t[8..]: lanes 8.. of a2.
    const V16 a2 = Avg2At(t, 0);
    alignas(16) static constexpr uint8_t kEvB[16] = {2, 4, 6, 0x80, 0x80, 0x80, 0x80, 0x80,
                                                     0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    alignas(16) static constexpr uint8_t kEvA[16] = {0x80, 0x80, 0x80, 8, 9, 10, 11, 12,
                                                     13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80};
    alignas(16) static constexpr uint8_t kOd[16] = {1, 3, 5, 7, 8, 9, 10, 11,
                                                    12, 13, 14, 15, 15, 15, 15, 15};
    ev[0] = hn::Or(hn::TableLookupBytesOr0(b0, hn::Load(d, kEvB)),
                   hn::TableLookupBytesOr0(a2, hn::Load(d, kEvA)));
    od[0] = hn::TableLookupBytes(b0, hn::Load(d, kOd));
    ev[1] = ev[0];
    od[1] = od[0];
  } else {
    // b = b0 (b[0..15]), b1 (b[16..31]); row 0 = pair averages of t[16..31] = a2; row 1 =
    // b[15..30]. The prefixes go to lanes 9..15 and are shifted in front.
    const V16 b1 = Avg3At(t, 1), a2 = Avg2At(t, 1);
    alignas(16) static constexpr uint8_t kEvB[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                     2, 4, 6, 8, 10, 12, 14};
    alignas(16) static constexpr uint8_t kOdB[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                     1, 3, 5, 7, 9, 11, 13};
    const V16 row1 = hn::CombineShiftRightBytes<15>(d, b1, b0);
    ev[0] = hn::CombineShiftRightBytes<9>(d, a2, hn::TableLookupBytes(b0, hn::Load(d, kEvB)));
    ev[1] = hn::CombineShiftRightBytes<9>(d, a2, a2);
    od[0] = hn::CombineShiftRightBytes<9>(d, row1, hn::TableLookupBytes(b0, hn::Load(d, kOdB)));
    od[1] = hn::CombineShiftRightBytes<9>(d, row1, row1);
  }
  RowsOf<N, kP, -1>(dst, 2 * stride, ev, std::make_index_sequence<N / 2>());
  RowsOf<N, kP, -1>(dst + stride, 2 * stride, od, std::make_index_sequence<N / 2>());
}

// Copies of above[N-1] from lane kKeep on (past what D45 and D63 average at n >= 8).
template <size_t kKeep>
HWY_INLINE V16 FillFrom(V16 v, uint8_t value) {
  const D16 d;
  return hn::IfThenElse(hn::FirstN(d, kKeep), v, hn::Set(d, value));
}

// above[0..2N-1] (n = 4, 8; all 16 lanes hold pixels at n = 8) and its shifts by 1 and 2.
template <size_t N>
HWY_INLINE void AboveRegs(const uint8_t *above, V16 &a0, V16 &a1, V16 &a2) {
  const D16 d;
  if constexpr (N == 16) {
    a0 = hn::LoadU(d, above);
    a1 = hn::LoadU(d, above + 1);
    a2 = hn::LoadU(d, above + 2);
  } else {
    a0 = N == 4 ? hn::ZeroExtendVector(d, hn::LoadU(D8(), above)) : hn::LoadU(d, above);
    a1 = hn::ShiftRightBytes<1>(d, a0);
    a2 = hn::ShiftRightBytes<2>(d, a0);
  }
}

template <size_t N>
void D45Small(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  const D16 d;
  V16 a0, a1, a2;
  AboveRegs<N>(above, a0, a1, a2);
  const V16 avg = Avg3(d, a0, a1, a2);
  V16 e[2];
  if constexpr (N == 4) {
    e[0] = FillFrom<6>(avg, above[7]);  // the spec's formula: last pixel above[7]
  } else {
    e[0] = FillFrom<N - 1>(avg, above[N - 1]);
  }
  e[1] = N == 16 ? hn::Set(d, above[N - 1]) : e[0];
  RowsOf<N, 0, 1>(dst, stride, e, std::make_index_sequence<N>());
}

template <size_t N>
void D63Small(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  const D16 d;
  V16 a0, a1, a2;
  AboveRegs<N>(above, a0, a1, a2);
  const V16 v0 = hn::AverageRound(a0, a1), v1 = Avg3(d, a0, a1, a2);
  if constexpr (N == 4) {
    const V16 e0[2] = {v0, v0}, e1[2] = {v1, v1};
    RowsOf<N, 0, 1>(dst, 2 * stride, e0, std::make_index_sequence<2>());
    RowsOf<N, 0, 1>(dst + stride, 2 * stride, e1, std::make_index_sequence<2>());
  } else {
    StoreRow<N>(dst, v0);
    StoreRow<N>(dst + stride, v1);
    const V16 fill = hn::Set(d, above[N - 1]);
    const V16 e0[2] = {FillFrom<N - 1>(v0, above[N - 1]), N == 16 ? fill : v0};
    const V16 e1[2] = {FillFrom<N - 1>(v1, above[N - 1]), N == 16 ? fill : v1};
    RowsOf<N, 1, 1>(dst + 2 * stride, 2 * stride, e0, std::make_index_sequence<N / 2 - 1>());
    RowsOf<N, 1, 1>(dst + 3 * stride, 2 * stride, e1, std::make_index_sequence<N / 2 - 1>());
  }
}

// n = 4: the corner edge (left[3..0], above[-1..3], above[3]) in the low lanes of one register.
HWY_INLINE V16 Corner4(const uint8_t *above, const uint8_t *left) {
  uint32_t l, a;
  memcpy(&l, left, 4);
  memcpy(&a, above - 1, 4);
  const hn::Repartition<uint64_t, D16> d64;
  // Little-endian lanes (every target here): byte k of the integer is lane k.
  const uint64_t lo = __builtin_bswap32(l) | static_cast<uint64_t>(a) << 32;
  const uint64_t hi = above[3] * 0x0101010101010101ull;
  return hn::BitCast(D16(), hn::InterleaveLower(d64, hn::Set(d64, lo), hn::Set(d64, hi)));
}

void D135Small4(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const D16 d;
  const V16 t = Corner4(above, left);
  const V16 b = Avg3(d, t, hn::ShiftRightBytes<1>(d, t), hn::ShiftRightBytes<2>(d, t));
  const V16 v[2] = {b, b};
  RowsOf<4, 3, -1>(dst, stride, v, std::make_index_sequence<4>());
}

void D153Small4(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const D16 d;
  const V16 t = Corner4(above, left), t1 = hn::ShiftRightBytes<1>(d, t);
  const V16 a2 = hn::AverageRound(t, t1), b = Avg3(d, t, t1, hn::ShiftRightBytes<2>(d, t));
  // s = a2[0] b[0] .. a2[3] b[3], then b[4] b[5].
  const V16 s = hn::IfThenElse(hn::FirstN(d, 8), hn::InterleaveLower(d, a2, b),
                               hn::ShiftLeftBytes<4>(d, b));
  const V16 v[2] = {s, s};
  RowsOf<4, 6, -2>(dst, stride, v, std::make_index_sequence<4>());
}

void D117Small4(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const D16 d;
  const V16 t = Corner4(above, left), t1 = hn::ShiftRightBytes<1>(d, t);
  const V16 a2 = hn::AverageRound(t, t1), b = Avg3(d, t, t1, hn::ShiftRightBytes<2>(d, t));
  // ev = b[2], then row 0 (pair averages at t[4..]); od = b[1], then row 1 (b[3..]).
  alignas(16) static constexpr uint8_t kEvB[16] = {2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                                   0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
  alignas(16) static constexpr uint8_t kEvA[16] = {0x80, 4, 5, 6, 7, 0x80, 0x80, 0x80,
                                                   0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
  alignas(16) static constexpr uint8_t kOd[16] = {1, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
  const V16 ev = hn::Or(hn::TableLookupBytesOr0(b, hn::Load(d, kEvB)),
                        hn::TableLookupBytesOr0(a2, hn::Load(d, kEvA)));
  const V16 od = hn::TableLookupBytes(b, hn::Load(d, kOd));
  const V16 e[2] = {ev, ev}, o[2] = {od, od};
  RowsOf<4, 1, -1>(dst, 2 * stride, e, std::make_index_sequence<2>());
  RowsOf<4, 1, -1>(dst + stride, 2 * stride, o, std::make_index_sequence<2>());
}

void D207Small4(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  const D16 d;
  uint32_t l;
  memcpy(&l, left, 4);
  const hn::Repartition<uint32_t, D16> d32;
  const V16 lx = hn::IfThenElse(hn::FirstN(d, 4), hn::BitCast(d, hn::Set(d32, l)),
                                hn::Set(d, left[3]));
  const V16 l1 = hn::ShiftRightBytes<1>(d, lx);
  const V16 a2 = hn::AverageRound(lx, l1), a3 = Avg3(d, lx, l1, hn::ShiftRightBytes<2>(d, lx));
  const V16 w = hn::InterleaveLower(d, a2, a3);
  const V16 v[2] = {w, w};
  RowsOf<4, 0, 2>(dst, stride, v, std::make_index_sequence<4>());
}

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // include guard
