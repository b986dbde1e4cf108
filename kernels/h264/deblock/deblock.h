// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking edge kernels (clause 8.7.2.3 / 8.7.2.4): one prototype per filter kind, one
// table (scalar references first, then the SIMD target's slots, chosen once in runtime/cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace h264 {

// Filters one edge. pix points at q0 of the first line: for a vertical edge (dir 0) the edge
// lies between pix[-1] and pix[0] and the lines go down by stride; for a horizontal edge (dir 1)
// it lies between row -1 and row 0 and the pixels go right. Luma: 16 pixels along the edge,
// reads p3..q3, changes at most p2..q2; chroma (4:2:0): 8 pixels, reads p1..q1, changes p0/q0.
// alpha, beta: the standard's alpha/beta (Table 8-16), already clamped to 0..255 by the caller
// (v3d_h264_loop_filter_* do). tc0: Table 8-17's tC0 per group of 4 (luma) or 2 (chroma)
// pixels, < 0 leaves the group unchanged; chroma uses tC = tC0 + 1. No alignment promise on pix
// or stride. SIMD vertical luma kernels may store back line segments up to p3..q3, the
// unchanged pixels with the values read: no other thread may write those pixels meanwhile.
using DeblockFn = void (*)(uint8_t *pix, ptrdiff_t stride, int alpha, int beta,
                           const int8_t tc0[4]);
// bS 4 (intra) filters: no tc0.
using DeblockIntraFn = void (*)(uint8_t *pix, ptrdiff_t stride, int alpha, int beta);

struct DeblockDsp {
  // [dir: 0 vertical edge, 1 horizontal edge]
  DeblockFn luma[2];
  DeblockIntraFn luma_intra[2];
  DeblockFn chroma[2];
  DeblockIntraFn chroma_intra[2];
};

// Fills every slot with the scalar reference (deblock_ref.cpp).
void deblock_dsp_init_ref(DeblockDsp *dsp);
// Overrides slots with the SIMD implementation of the Highway target chosen now (deblock_hwy.cpp).
void deblock_dsp_init_simd(DeblockDsp *dsp);
// The table in use now.
const DeblockDsp &deblock_dsp();

}  // namespace h264
}  // namespace v3d
