// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 intra prediction, scalar references: one pixel at a time from closed forms of the VP9
// specification's intra prediction process (section 8.5.1), with libvpx's two departures for
// D45 and D63 at n >= 8 (see ipred.h). They are the decoder's scalar backend and the reference
// the SIMD slots are tested against, so they favour plainness over speed.
#include <algorithm>
#include <cstring>

#include "runtime/dsp_table.h"
#include "vp9/ipred/ipred.h"

namespace v3d {
namespace vp9 {
namespace {

// The spec's Round2(a + b, 1) and Round2(a + 2b + c, 2).
inline uint8_t avg2(int a, int b) { return static_cast<uint8_t>((a + b + 1) >> 1); }
inline uint8_t avg3(int a, int b, int c) { return static_cast<uint8_t>((a + 2 * b + c + 2) >> 2); }

// The edge around the block as one sequence through the top-left corner: e(-k) = left[k-1] for
// k >= 1, e(0) = above[-1], e(k) = above[k-1] for k >= 1.
struct Edge {
  const uint8_t *above, *left;
  int operator()(int k) const { return k < 0 ? left[-k - 1] : above[k - 1]; }
};

template <int N, class F>
void fill(uint8_t *dst, ptrdiff_t stride, F f) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) dst[i * stride + j] = static_cast<uint8_t>(f(i, j));
}

template <int N>
void dc_fill(uint8_t *dst, ptrdiff_t stride, int v) {
  fill<N>(dst, stride, [v](int, int) { return v; });
}

template <int N>
int sum(const uint8_t *p) {
  int s = 0;
  for (int i = 0; i < N; i++) s += p[i];
  return s;
}

template <int N>
void dc_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  dc_fill<N>(dst, stride, (sum<N>(above) + sum<N>(left) + N) / (2 * N));
}

template <int N>
void dc_left_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  dc_fill<N>(dst, stride, (sum<N>(left) + N / 2) / N);
}

template <int N>
void dc_top_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  dc_fill<N>(dst, stride, (sum<N>(above) + N / 2) / N);
}

template <int N>
void dc_128_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *) {
  dc_fill<N>(dst, stride, 128);
}

template <int N>
void v_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  fill<N>(dst, stride, [above](int, int j) { return above[j]; });
}

template <int N>
void h_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  fill<N>(dst, stride, [left](int i, int) { return left[i]; });
}

template <int N>
void tm_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  fill<N>(dst, stride,
          [=](int i, int j) { return std::clamp(left[i] + above[j] - above[-1], 0, 255); });
}

// Down-left. n = 4: the spec's formula on above[0..7]. n >= 8: libvpx averages only up to
// above[n], and every pixel on or past the anti-diagonal i + j = n - 1 is above[n - 1].
template <int N>
void d45_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  const int last = N == 4 ? 2 * N - 2 : N - 1;  // first k = i + j that is not averaged
  const int fill_v = N == 4 ? above[2 * N - 1] : above[N - 1];
  fill<N>(dst, stride, [=](int i, int j) {
    const int k = i + j;
    return k < last ? avg3(above[k], above[k + 1], above[k + 2]) : fill_v;
  });
}

// Steep down-left: even rows average two pixels, odd rows three, each pair of rows one pixel
// further right. n >= 8: rows from 2 on take above[n - 1] from column n - 1 - i/2 on (libvpx).
template <int N>
void d63_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *) {
  fill<N>(dst, stride, [=](int i, int j) {
    const int k = i / 2 + j;
    if (N > 4 && i >= 2 && k >= N - 1) return static_cast<int>(above[N - 1]);
    return static_cast<int>((i & 1) ? avg3(above[k], above[k + 1], above[k + 2])
                                    : avg2(above[k], above[k + 1]));
  });
}

// Down-right: pixel (i, j) averages the three edge pixels around e(j - i).
template <int N>
void d135_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const Edge e{above, left};
  fill<N>(dst, stride, [e](int i, int j) {
    const int k = j - i;
    return avg3(e(k - 1), e(k), e(k + 1));
  });
}

// Vertical-right: row 0 averages pairs of the top edge, row 1 triples; every other pixel copies
// the one two rows up and one column left, down to column 0, which averages three pixels of the
// left edge (the spec's recursion, unrolled).
template <int N>
void d117_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const Edge e{above, left};
  fill<N>(dst, stride, [e](int i, int j) {
    const int steps = std::min(i / 2, j);
    i -= 2 * steps;
    j -= steps;
    if (i == 0) return avg2(e(j), e(j + 1));
    if (i == 1) return avg3(e(j - 1), e(j), e(j + 1));
    return avg3(e(2 - i), e(1 - i), e(-i));  // j == 0, i >= 2
  });
}

// Horizontal-down: column 0 averages pairs of the left edge, column 1 triples; every other pixel
// copies the one a row up and two columns left, up to row 0, which averages triples of the top.
template <int N>
void d153_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left) {
  const Edge e{above, left};
  fill<N>(dst, stride, [e](int i, int j) {
    const int steps = std::min(i, j / 2);
    i -= steps;
    j -= 2 * steps;
    if (j == 0) return avg2(e(-i - 1), e(-i));
    if (j == 1) return avg3(e(-i - 1), e(-i), e(-i + 1));
    return avg3(e(j - 2), e(j - 1), e(j));  // i == 0, j >= 2
  });
}

// Horizontal-up: column pair c/2 of row i starts at left[i + c/2]; past the bottom the left edge
// repeats left[n - 1].
template <int N>
void d207_ref(uint8_t *dst, ptrdiff_t stride, const uint8_t *, const uint8_t *left) {
  const auto l = [left](int k) { return static_cast<int>(left[std::min(k, N - 1)]); };
  fill<N>(dst, stride, [=](int i, int j) {
    const int k = i + j / 2;
    return (j & 1) ? avg3(l(k), l(k + 1), l(k + 2)) : avg2(l(k), l(k + 1));
  });
}

template <int N>
void fill_size(IpredDsp *dsp, int tx_size) {
  IpredFn *p = dsp->pred[tx_size];
  p[kIpredDc] = dc_ref<N>;
  p[kIpredV] = v_ref<N>;
  p[kIpredH] = h_ref<N>;
  p[kIpredD45] = d45_ref<N>;
  p[kIpredD135] = d135_ref<N>;
  p[kIpredD117] = d117_ref<N>;
  p[kIpredD153] = d153_ref<N>;
  p[kIpredD207] = d207_ref<N>;
  p[kIpredD63] = d63_ref<N>;
  p[kIpredTm] = tm_ref<N>;
  p[kIpredDcLeft] = dc_left_ref<N>;
  p[kIpredDcTop] = dc_top_ref<N>;
  p[kIpredDc128] = dc_128_ref<N>;
}

DspTable<IpredDsp> g_ipred_table(ipred_dsp_init_ref, ipred_dsp_init_simd);

}  // namespace

void ipred_dsp_init_ref(IpredDsp *dsp) {
  fill_size<4>(dsp, 0);
  fill_size<8>(dsp, 1);
  fill_size<16>(dsp, 2);
  fill_size<32>(dsp, 3);
}

const IpredDsp &ipred_dsp() { return g_ipred_table.get(); }

}  // namespace vp9
}  // namespace v3d
