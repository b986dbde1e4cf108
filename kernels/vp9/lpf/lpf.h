// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter edge kernels: one prototype, one table (scalar references first, then the SIMD
// target's slots, chosen once in runtime/cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

// Filters one edge of len pixels (8 or 16) with one threshold set, exactly as libvpx's
// vpx_lpf_{vertical,horizontal}_{4,8,16}[_dual]_c. dst points at the first pixel after the edge
// (q0 of the first line): for a vertical edge (dir 0) the edge lies between dst[-1] and dst[0]
// and the len lines go down by stride; for a horizontal edge (dir 1) it lies between row -1 and
// row 0 and the len pixels go right. E, I, H: blimit, limit, thresh, each in 0..255 (callers
// clamp: v3d_vp9_loop_filter_edge does). Reads p7..q7 (16-wide), p3..q3 (4- and 8-wide) of each
// line; changes at most p6..q6 (16-wide), p2..q2 (8-wide), p1..q1 (4-wide). SIMD vertical-edge
// kernels may store back line segments up to p3..q3 (p7..q7 for 16-wide) when any line of the
// edge is filtered, the unchanged pixels with the values they read: no other thread may write
// those pixels meanwhile. No alignment promise on dst or stride.
using LpfEdgeFn = void (*)(uint8_t *dst, ptrdiff_t stride, int E, int I, int H);

enum LpfWidth { kLpf4 = 0, kLpf8 = 1, kLpf16 = 2, kNumLpfWidths = 3 };

struct LpfDsp {
  // [dir: 0 vertical edge, 1 horizontal edge][width: 4, 8, 16][len: 0 = 8 pixels, 1 = 16 pixels]
  LpfEdgeFn edge[2][kNumLpfWidths][2];
};

// Fills every slot with the scalar reference (lpf_ref.cpp).
void lpf_dsp_init_ref(LpfDsp *dsp);
// Overrides slots with the SIMD implementation of the Highway target chosen now (lpf_hwy.cpp).
void lpf_dsp_init_simd(LpfDsp *dsp);
// The table in use now.
const LpfDsp &lpf_dsp();

}  // namespace vp9
}  // namespace v3d
