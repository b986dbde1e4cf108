// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 intra prediction on SIMD (Google Highway, dynamic dispatch): one implementation compiled for
// every Highway target (SSSE3, SSE4, AVX2, AVX3, AVX3_DL on x86-64; NEON on aarch64; the
// one-lane fallback keeps the scalar references), chosen once through HWY_DYNAMIC_DISPATCH.
//
// Every computation is on 8-bit lanes and exact:
//  - DC: SumsOf8 over the edges; V, H, DC: one vector per row (or per chunk of a 32-pixel row).
//  - TM: clip(left + above - topleft) as SaturatedSub(SaturatedAdd(above, max(d, 0)), max(-d, 0))
//    with d = left - topleft per row: one of the two steps adds zero, the other saturates exactly
//    where the clip would.
//  - The diagonal modes: every row of D45, D63, D135, D153 and D207 is a window of one or two
//    sequences of edge averages, D117's rows windows of two sequences made by de-interleaving.
//    At n = 4, 8, 16 the sequences stay in registers (ipred_hwy_regs.h); at n = 32 they are
//    computed once into a stack buffer (16 lanes at a time) and each row is an unaligned load
//    from it, the one store-to-load stall shared by 32 rows.
#include "vp9/ipred/ipred.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "vp9/ipred/ipred_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "vp9/ipred/ipred_hwy_regs.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
void InitIpredSimd(IpredDsp *) {}
#else

// A row of N pixels: chunks of L lanes (L = N, or the widest vector when that is narrower).
template <size_t N>
struct Row {
  using D = hn::CappedTag<uint8_t, N>;
  static constexpr size_t L = hn::MaxLanes(D());
  static constexpr size_t kChunks = N / L;
};

// Edge sequences are computed 16 lanes at a time.
template <size_t N>
using EdgeTag = hn::CappedTag<uint8_t, (N < 16 ? N : 16)>;

template <size_t N, class V>
HWY_INLINE void StoreRows(uint8_t *dst, ptrdiff_t stride, V v) {
  const typename Row<N>::D d;
  for (size_t i = 0; i < N; i++, dst += stride)
    for (size_t c = 0; c < Row<N>::kChunks; c++) hn::StoreU(v, d, dst + c * Row<N>::L);
}

// ---------------------------------------------------------------------------------------------
// DC, V, H, TM

template <size_t N>
HWY_INLINE uint32_t SumEdge(const uint8_t *p) {
  if constexpr (N == 4) {
    uint32_t x;
    memcpy(&x, p, 4);
    x = (x & 0x00ff00ffu) + ((x >> 8) & 0x00ff00ffu);
    return (x & 0xffffu) + (x >> 16);
  } else {
    const typename Row<N>::D d;
    const hn::Repartition<uint64_t, decltype(d)> d64;
    auto acc = hn::SumsOf8(hn::LoadU(d, p));
    for (size_t c = 1; c < Row<N>::kChunks; c++)
      acc = hn::Add(acc, hn::SumsOf8(hn::LoadU(d, p + c * Row<N>::L)));
    return static_cast<uint32_t>(hn::GetLane(hn::SumOfLanes(d64, acc)));
  }
}

template <size_t N>
void DcPred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const uint32_t dc = (SumEdge<N>(above) + SumEdge<N>(left) + N) / (2 * N);
  StoreRows<N>(dst, stride, hn::Set(typename Row<N>::D(), static_cast<uint8_t>(dc)));
}

template <size_t N>
void DcLeftPred(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  const uint32_t dc = (SumEdge<N>(left) + N / 2) / N;
  StoreRows<N>(dst, stride, hn::Set(typename Row<N>::D(), static_cast<uint8_t>(dc)));
}

template <size_t N>
void DcTopPred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  const uint32_t dc = (SumEdge<N>(above) + N / 2) / N;
  StoreRows<N>(dst, stride, hn::Set(typename Row<N>::D(), static_cast<uint8_t>(dc)));
}

template <size_t N>
void Dc128Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *) {
  StoreRows<N>(dst, stride, hn::Set(typename Row<N>::D(), uint8_t{128}));
}

template <size_t N>
void VPred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  using R = Row<N>;
  const typename R::D d;
  hn::Vec<decltype(d)> a[R::kChunks];
  for (size_t c = 0; c < R::kChunks; c++) a[c] = hn::LoadU(d, above + c * R::L);
  for (size_t i = 0; i < N; i++, dst += stride)
    for (size_t c = 0; c < R::kChunks; c++) hn::StoreU(a[c], d, dst + c * R::L);
}

template <size_t N>
void HPred(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  using R = Row<N>;
  const typename R::D d;
  for (size_t i = 0; i < N; i++, dst += stride) {
    const auto v = hn::Set(d, left[i]);
    for (size_t c = 0; c < R::kChunks; c++) hn::StoreU(v, d, dst + c * R::L);
  }
}

template <size_t N>
void TmPred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  using R = Row<N>;
  const typename R::D d;
  hn::Vec<decltype(d)> a[R::kChunks];
  for (size_t c = 0; c < R::kChunks; c++) a[c] = hn::LoadU(d, above + c * R::L);
  const int top_left = above[-1];
  for (size_t i = 0; i < N; i++, dst += stride) {
    const int diff = left[i] - top_left;
    const auto up = hn::Set(d, static_cast<uint8_t>(diff > 0 ? diff : 0));
    const auto down = hn::Set(d, static_cast<uint8_t>(diff < 0 ? -diff : 0));
    for (size_t c = 0; c < R::kChunks; c++)
      hn::StoreU(hn::SaturatedSub(hn::SaturatedAdd(a[c], up), down), d, dst + c * R::L);
  }
}

// ---------------------------------------------------------------------------------------------
// Diagonal modes at n = 32, through stack buffers of up to 3n + 32 bytes of edge sequences.

constexpr size_t kBuf = 3 * 32 + 32;

// Row i < rows of dst is the N pixels of seq starting at first - step * i.
template <size_t N>
HWY_INLINE void RowsFrom(uint8_t *dst, ptrdiff_t stride, const uint8_t *seq, ptrdiff_t first,
                         ptrdiff_t step, size_t rows = N) {
  using R = Row<N>;
  const typename R::D d;
  for (size_t i = 0; i < rows; i++, dst += stride) {
    const uint8_t *p = seq + first - step * static_cast<ptrdiff_t>(i);
    for (size_t c = 0; c < R::kChunks; c++) hn::StoreU(hn::LoadU(d, p + c * R::L), d, dst + c * R::L);
  }
}

// Writes value to seq[from .. from + N).
template <size_t N>
HWY_INLINE void FillSeq(uint8_t *seq, size_t from, uint8_t value) {
  using R = Row<N>;
  const typename R::D d;
  for (size_t c = 0; c < R::kChunks; c++) hn::StoreU(hn::Set(d, value), d, seq + from + c * R::L);
}

// The edge through the top-left corner, bottom-left to top-right: t[0..N-1] = left[N-1..0],
// t[N] = above[-1], t[N+1..2N] = above[0..N-1], t[2N+1] = above[N-1] (a defined pad).
template <size_t N>
HWY_INLINE void CornerEdge(uint8_t *t, const uint8_t *above, const uint8_t *left) {
  const EdgeTag<N> de;
  constexpr size_t kE = hn::MaxLanes(de);
  alignas(16) static constexpr uint8_t kReverse[16] = {15, 14, 13, 12, 11, 10, 9, 8,
                                                       7,  6,  5,  4,  3,  2,  1, 0};
  const auto rev = hn::LoadU(de, kReverse + 16 - kE);
  for (size_t c = 0; c < N / kE; c++) {
    hn::StoreU(hn::TableLookupBytes(hn::LoadU(de, left + c * kE), rev), de, t + N - (c + 1) * kE);
    hn::StoreU(hn::LoadU(de, above + c * kE), de, t + N + 1 + c * kE);
  }
  t[N] = above[-1];
  t[2 * N + 1] = above[N - 1];
}

// seq[s] = Round2(t[s] + 2 t[s+1] + t[s+2], 2) for s in [from, to) (multiples of the edge lanes).
template <size_t N>
HWY_INLINE void Avg3Seq(uint8_t *seq, const uint8_t *t, size_t from, size_t to) {
  const EdgeTag<N> de;
  constexpr size_t kE = hn::MaxLanes(de);
  for (size_t s = from; s < to; s += kE)
    hn::StoreU(Avg3(de, hn::LoadU(de, t + s), hn::LoadU(de, t + s + 1), hn::LoadU(de, t + s + 2)),
               de, seq + s);
}

// Row i = e[i .. i+N-1], e[k] = avg3(above[k..k+2]) for k < N-1, above[N-1] after.
template <size_t N>
void D45Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  alignas(64) uint8_t e[kBuf];
  Avg3Seq<N>(e, above, 0, N);  // reads above[0..N+1]
  FillSeq<N>(e, N - 1, above[N - 1]);
  RowsFrom<N>(dst, stride, e, 0, -1);
}

// Even rows 2m are e0[m ..], odd rows e1[m ..]: pair and triple averages of above; rows 0 and 1
// keep their last pixel, later rows take above[N-1] from sequence index N-1 on.
template <size_t N>
void D63Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  const EdgeTag<N> de;
  constexpr size_t kE = hn::MaxLanes(de);
  alignas(64) uint8_t e0[kBuf], e1[kBuf];
  for (size_t s = 0; s < N; s += kE) {
    const auto a0 = hn::LoadU(de, above + s), a1 = hn::LoadU(de, above + s + 1);
    const auto v0 = hn::AverageRound(a0, a1);
    const auto v1 = Avg3(de, a0, a1, hn::LoadU(de, above + s + 2));
    hn::StoreU(v0, de, dst + s);
    hn::StoreU(v1, de, dst + stride + s);
    hn::StoreU(v0, de, e0 + s);
    hn::StoreU(v1, de, e1 + s);
  }
  FillSeq<N>(e0, N - 1, above[N - 1]);
  FillSeq<N>(e1, N - 1, above[N - 1]);
  RowsFrom<N>(dst + 2 * stride, 2 * stride, e0, 1, -1, N / 2 - 1);
  RowsFrom<N>(dst + 3 * stride, 2 * stride, e1, 1, -1, N / 2 - 1);
}

// Row i = b[N-1-i ..], b = triple averages along the corner edge.
template <size_t N>
void D135Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  alignas(64) uint8_t t[kBuf], b[kBuf];
  CornerEdge<N>(t, above, left);
  Avg3Seq<N>(b, t, 0, 2 * N);
  RowsFrom<N>(dst, stride, b, N - 1, 1);
}

// Row r = s[2(N-1-r) ..], s = interleave(pair averages, triple averages) along the corner edge,
// then the rest of the triple averages (the top row's).
template <size_t N>
void D153Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const EdgeTag<N> de;
  constexpr size_t kE = hn::MaxLanes(de);
  alignas(64) uint8_t t[kBuf], s[kBuf];
  CornerEdge<N>(t, above, left);
  for (size_t k = 0; k < N; k += kE) {
    const auto t0 = hn::LoadU(de, t + k), t1 = hn::LoadU(de, t + k + 1);
    const auto a2 = hn::AverageRound(t0, t1), a3 = Avg3(de, t0, t1, hn::LoadU(de, t + k + 2));
    hn::StoreU(hn::InterleaveLower(de, a2, a3), de, s + 2 * k);
    hn::StoreU(hn::InterleaveUpper(de, a2, a3), de, s + 2 * k + kE);
  }
  Avg3Seq<N>(s + N, t, N, 2 * N);  // s[2N + k] = triple average at N + k
  RowsFrom<N>(dst, stride, s, 2 * (N - 1), 2);
}

// Row r = w[2r ..], w = interleave(pair averages, triple averages) down the left edge, which
// repeats left[N-1] past its end.
template <size_t N>
void D207Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  const EdgeTag<N> de;
  constexpr size_t kE = hn::MaxLanes(de);
  alignas(64) uint8_t l[kBuf], w[kBuf];
  for (size_t k = 0; k < N; k += kE) hn::StoreU(hn::LoadU(de, left + k), de, l + k);
  FillSeq<N>(l, N, left[N - 1]);
  for (size_t k = 0; k < N; k += kE) {
    const auto l0 = hn::LoadU(de, l + k), l1 = hn::LoadU(de, l + k + 1);
    const auto a2 = hn::AverageRound(l0, l1), a3 = Avg3(de, l0, l1, hn::LoadU(de, l + k + 2));
    hn::StoreU(hn::InterleaveLower(de, a2, a3), de, w + 2 * k);
    hn::StoreU(hn::InterleaveUpper(de, a2, a3), de, w + 2 * k + kE);
  }
  FillSeq<N>(w, 2 * N, left[N - 1]);
  RowsFrom<N>(dst, stride, w, 0, -2);
}

// Even rows 2m = ev[P-m ..], odd rows od[P-m ..] with P = N/2 - 1: ev = the triple averages
// b[2], b[4], .., b[N-2] of the corner edge (the left column of rows 2m, bottom-up) and then the
// pair averages of the top (row 0); od = b[1], b[3], .., b[N-3] and then b[N-1 ..] (row 1).
template <size_t N>
void D117Pred(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const EdgeTag<N> de;
  constexpr size_t kE = hn::MaxLanes(de);
  constexpr size_t kP = N / 2 - 1;
  const hn::CappedTag<uint8_t, N / 2> dh;
  constexpr size_t kH = hn::MaxLanes(dh);
  static_assert(kH == N / 2, "half-row vectors");
  alignas(64) uint8_t t[kBuf], b[kBuf], ev[kBuf], od[kBuf];
  CornerEdge<N>(t, above, left);
  Avg3Seq<N>(b, t, 0, 2 * N);
  const auto lo = hn::LoadU(dh, b + 1), hi = hn::LoadU(dh, b + 1 + kH);
  hn::StoreU(hn::ConcatOdd(dh, hi, lo), dh, ev);   // b[2], b[4], ..
  hn::StoreU(hn::ConcatEven(dh, hi, lo), dh, od);  // b[1], b[3], ..
  for (size_t k = 0; k < N; k += kE) {
    const auto a0 = hn::LoadU(de, t + N + k), a1 = hn::LoadU(de, t + N + 1 + k);
    hn::StoreU(hn::AverageRound(a0, a1), de, ev + kP + k);
    hn::StoreU(hn::LoadU(de, b + N - 1 + k), de, od + kP + k);
  }
  RowsFrom<N>(dst, 2 * stride, ev, kP, 1, N / 2);
  RowsFrom<N>(dst + stride, 2 * stride, od, kP, 1, N / 2);
}

template <size_t N>
void FillSize(IpredDsp *dsp, int tx_size) {
  IpredFn *p = dsp->pred[tx_size];
  p[kIpredDc] = DcPred<N>;
  p[kIpredDcLeft] = DcLeftPred<N>;
  p[kIpredDcTop] = DcTopPred<N>;
  p[kIpredDc128] = Dc128Pred<N>;
  p[kIpredV] = VPred<N>;
  p[kIpredH] = HPred<N>;
  p[kIpredTm] = TmPred<N>;
  if constexpr (N == 4) {
    p[kIpredD117] = D117Small4;
    p[kIpredD135] = D135Small4;
    p[kIpredD153] = D153Small4;
    p[kIpredD207] = D207Small4;
  }
  if constexpr (N <= 16) {
    p[kIpredD45] = D45Small<N>;
    p[kIpredD63] = D63Small<N>;
  } else {
    p[kIpredD45] = D45Pred<N>;
    p[kIpredD63] = D63Pred<N>;
  }
  if constexpr (N == 8 || N == 16) {
    p[kIpredD117] = D117Small<N>;
    p[kIpredD135] = D135Small<N>;
    p[kIpredD153] = D153Small<N>;
    p[kIpredD207] = D207Small<N>;
  } else if constexpr (N == 32) {
    p[kIpredD117] = D117Pred<N>;
    p[kIpredD135] = D135Pred<N>;
    p[kIpredD153] = D153Pred<N>;
    p[kIpredD207] = D207Pred<N>;
  }
}

void InitIpredSimd(IpredDsp *dsp) {
  FillSize<4>(dsp, 0);
  FillSize<8>(dsp, 1);
  FillSize<16>(dsp, 2);
  FillSize<32>(dsp, 3);
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace vp9 {

HWY_EXPORT(InitIpredSimd);

void ipred_dsp_init_simd(IpredDsp *dsp) { HWY_DYNAMIC_DISPATCH(InitIpredSimd)(dsp); }

}  // namespace vp9
}  // namespace v3d
#endif  // HWY_ONCE
