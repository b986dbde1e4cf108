// SPDX-License-Identifier: LGPL-2.1-or-later
// Scalar reference of the VP9 loop filter edge (8-bit): the VP9 specification's loop filter
// process for one edge (section 8.8.2, "filter mask", "narrow filter", "wide filter"), which
// libvpx's vpx_lpf_* C functions also implement. The definition every other backend must
// reproduce bit for bit.
//
// Per line of the edge, with pixels x[0..15] = p7..p0, q0..q7 (x[7] = p0, x[8] = q0):
//  * mask:  every |p3-p2|, |p2-p1|, |p1-p0|, |q1-q0|, |q2-q1|, |q3-q2| <= I, and
//           2 |p0-q0| + (|p1-q1| >> 1) <= E; nothing changes where it fails;
//  * flat:  (8- and 16-wide) |p1..p3 - p0| <= 1 and |q1..q3 - q0| <= 1;
//  * flat2: (16-wide) |p4..p7 - p0| <= 1 and |q4..q7 - q0| <= 1;
//  * mask && flat && flat2: 15-tap smoothing of p6..q6, mask && flat: 7-tap of p2..q2,
//    else mask: the narrow filter on p1..q1, whose outer taps depend on hev
//    (|p1-p0| > H or |q1-q0| > H).
// The tap filters are the spec's: output j = Round2(sum of the window of 2k+1 neighbours of j,
// pixels beyond p7/q7 (p3/q3 for 7 taps) replaced by p7/q7 (p3/q3), plus x[j] once more, log2(4k)).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "v3d/v3d.h"
#include "vp9/lpf/lpf.h"
#include "runtime/dsp_table.h"

namespace v3d {
namespace vp9 {
namespace {

int clamp_s8(int v) { return std::clamp(v, -128, 127); }

// Narrow filter (spec: "filter4"): x points at p1, p0, q0, q1 (4 consecutive values).
void narrow_filter(int x[4], bool hev) {
  const int ps1 = x[0] - 128, ps0 = x[1] - 128, qs0 = x[2] - 128, qs1 = x[3] - 128;
  int base = hev ? clamp_s8(ps1 - qs1) : 0;
  base = clamp_s8(base + 3 * (qs0 - ps0));
  const int f1 = clamp_s8(base + 4) >> 3;  // arithmetic shifts of negative values: floor
  const int f2 = clamp_s8(base + 3) >> 3;
  x[2] = clamp_s8(qs0 - f1) + 128;
  x[1] = clamp_s8(ps0 + f2) + 128;
  if (!hev) {
    const int f = (f1 + 1) >> 1;
    x[3] = clamp_s8(qs1 - f) + 128;
    x[0] = clamp_s8(ps1 + f) + 128;
  }
}

// Tap filter over v[0..n) (n = 8: 7 taps, log2 3; n = 16: 15 taps, log2 4), writing v[1..n-2].
// Running sum of the window: out[j] = Round2(v[j] + sum of v[clamp(t, 0, n-1)], |t - j| <= k).
void tap_filter(int *v, int n, int log2) {
  const int k = n / 2 - 1;
  auto at = [&](int t) { return v[std::clamp(t, 0, n - 1)]; };
  int out[16];
  int sum = v[1];
  for (int t = 1 - k; t <= 1 + k; t++) sum += at(t);
  for (int j = 1; j < n - 1; j++) {
    if (j > 1) sum += at(j + k) + v[j] - at(j - 1 - k) - v[j - 1];
    out[j] = (sum + (1 << (log2 - 1))) >> log2;
  }
  for (int j = 1; j < n - 1; j++) v[j] = out[j];
}

// One line: x[0..15] = p7..q7 (only x[4..11] used below 16-wide). Returns nothing; edits x.
void filter_line(int x[16], int width, int E, int I, int H) {
  const int p3 = x[4], p2 = x[5], p1 = x[6], p0 = x[7], q0 = x[8], q1 = x[9], q2 = x[10],
            q3 = x[11];
  const bool mask = std::abs(p3 - p2) <= I && std::abs(p2 - p1) <= I && std::abs(p1 - p0) <= I &&
                    std::abs(q1 - q0) <= I && std::abs(q2 - q1) <= I && std::abs(q3 - q2) <= I &&
                    std::abs(p0 - q0) * 2 + std::abs(p1 - q1) / 2 <= E;
  if (!mask) return;
  auto near = [&](int lo, int hi) {  // every |x[i] - p0| (i < 8) or |x[i] - q0| (i >= 8) <= 1
    for (int i = lo; i <= hi; i++)
      if (std::abs(x[i] - (i < 8 ? p0 : q0)) > 1) return false;
    return true;
  };
  const bool flat = width >= 8 && near(4, 6) && near(9, 11);
  const bool flat2 = width == 16 && flat && near(0, 3) && near(12, 15);
  if (flat2) {
    tap_filter(x, 16, 4);
  } else if (flat) {
    tap_filter(x + 4, 8, 3);
  } else {
    narrow_filter(x + 6, std::abs(p1 - p0) > H || std::abs(q1 - q0) > H);
  }
}

template <int kDir, int kWidth, int kLen>
void lpf_edge_ref(uint8_t *dst, ptrdiff_t stride, int E, int I, int H) {
  // Pixel i (0 = p7 .. 15 = q7) of line l: offset (i - 8) across the edge, l along it.
  const ptrdiff_t across = kDir == 0 ? 1 : stride, along = kDir == 0 ? stride : 1;
  constexpr int kReach = kWidth == 16 ? 8 : 4;  // pixels read on each side
  for (int l = 0; l < kLen; l++) {
    uint8_t *line = dst + l * along;
    int x[16] = {};
    for (int i = 8 - kReach; i < 8 + kReach; i++) x[i] = line[(i - 8) * across];
    filter_line(x, kWidth, E, I, H);
    for (int i = 8 - kReach + 1; i < 8 + kReach - 1; i++)
      line[(i - 8) * across] = static_cast<uint8_t>(x[i]);
  }
}

template <int kDir, int kWidth>
void fill_width(LpfDsp *dsp, int w) {
  dsp->edge[kDir][w][0] = &lpf_edge_ref<kDir, kWidth, 8>;
  dsp->edge[kDir][w][1] = &lpf_edge_ref<kDir, kWidth, 16>;
}

}  // namespace

void lpf_dsp_init_ref(LpfDsp *dsp) {
  fill_width<0, 4>(dsp, kLpf4);
  fill_width<0, 8>(dsp, kLpf8);
  fill_width<0, 16>(dsp, kLpf16);
  fill_width<1, 4>(dsp, kLpf4);
  fill_width<1, 8>(dsp, kLpf8);
  fill_width<1, 16>(dsp, kLpf16);
}

// Checks and maps the public arguments to a table slot; false for invalid ones. Clamps E, I, H
// to 0..255 (the range of libvpx's uint8 limits) so that every backend sees the same values.
// Branch-light: the public per-edge function runs it on every call (v3d-bench --section calls).
bool lpf_edge_args(int dir, int filter_width, int len, int *E, int *I, int *H, int *w, int *l) {
  static_assert(kLpf4 == 0 && kLpf8 == 1 && kLpf16 == 2, "width index = filter_width >> 3");
  // 0x10110: bits 4, 8 and 16, the valid filter widths.
  if (static_cast<unsigned>(dir) > 1 || (len != 8 && len != 16) ||
      static_cast<unsigned>(filter_width) > 16 || !((0x10110u >> filter_width) & 1))
    return false;
  *w = filter_width >> 3;
  *l = len >> 4;
  auto clamp_u8 = [](int v) { return static_cast<unsigned>(v) <= 255 ? v : v < 0 ? 0 : 255; };
  *E = clamp_u8(*E);
  *I = clamp_u8(*I);
  *H = clamp_u8(*H);
  return true;
}

}  // namespace vp9
}  // namespace v3d

extern "C" void v3d_vp9_loop_filter_edge_ref(uint8_t *dst, ptrdiff_t stride, int dir,
                                             int filter_width, int len, int E, int I, int H) {
  using namespace v3d::vp9;
  int w, l;
  if (!dst || !lpf_edge_args(dir, filter_width, len, &E, &I, &H, &w, &l)) return;
  static const LpfDsp table = [] {
    LpfDsp t;
    lpf_dsp_init_ref(&t);
    return t;
  }();
  table.edge[dir][w][l](dst, stride, E, I, H);
}

namespace v3d {
namespace vp9 {
namespace {
DspTable<LpfDsp> g_lpf_table(lpf_dsp_init_ref, lpf_dsp_init_simd);

// Everything v3d_vp9_loop_filter_edge's fast path leaves: the argument checks and clamps, and
// the table's refill after a target change. Out of line, so that the entry point needs no stack
// frame.
[[gnu::noinline]] void edge_slow(uint8_t *dst, ptrdiff_t stride, int dir, int filter_width,
                                 int len, int E, int I, int H) {
  int w, l;
  if (!dst || !lpf_edge_args(dir, filter_width, len, &E, &I, &H, &w, &l)) return;
  g_lpf_table.get().edge[dir][w][l](dst, stride, E, I, H);
}
}  // namespace
}  // namespace vp9
}  // namespace v3d

// The common call (valid arguments, E, I, H already in 0..255, the table current) is a few
// compares and a tail call of the slot: filter_width 4, 8, 16 maps to kLpf4, kLpf8, kLpf16 as
// filter_width >> 3, len 8, 16 to 0, 1 as len >> 4.
extern "C" void v3d_vp9_loop_filter_edge(uint8_t *dst, ptrdiff_t stride, int dir,
                                         int filter_width, int len, int E, int I, int H) {
  using namespace v3d::vp9;
  static_assert(kLpf4 == 4 >> 3 && kLpf8 == 8 >> 3 && kLpf16 == 16 >> 3, "width slots");
  const LpfDsp *t = g_lpf_table.current();
  const unsigned fw = static_cast<unsigned>(filter_width), ln = static_cast<unsigned>(len);
  if (__builtin_expect(t && dst && static_cast<unsigned>(dir) < 2u && ((ln - 8u) & ~8u) == 0 &&
                           fw <= 16u && ((0x10110u >> fw) & 1u) &&
                           static_cast<unsigned>(E | I | H) < 256u,
                       1))
    return t->edge[dir][fw >> 3][ln >> 4](dst, stride, E, I, H);
  edge_slow(dst, stride, dir, filter_width, len, E, I, H);
}

namespace v3d {
namespace vp9 {

const LpfDsp &lpf_dsp() { return g_lpf_table.get(); }


}  // namespace vp9
}  // namespace v3d
