// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inter prediction (motion compensation): the kernel table (one prototype per kind, one table,
// filled with the scalar references first, then overridden slot by slot by the SIMD target chosen
// at init), the sub-pixel filter kernels, and the reference-border emulation.
//
// Exactness: every slot gives the results of libvpx's C convolutions as libvpx's VP9 decoder
// selects them (vp9_scale.c: predict[subpel_x != 0][subpel_y != 0][avg]): each 1-D pass is
// clip8(Round2(sum of 8 taps, 7)); the 2-D case filters rows first into 8-bit intermediates,
// then columns. Because phase 0 of every kernel is the identity {0, 0, 0, 128, 0, 0, 0, 0}, the
// copy, 1-D and 2-D selections agree on every pixel; they differ only in which source pixels they
// read, which the read contracts below state.
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

// libvpx's INTERP_FILTER values (vp9_filter.h), which the decoder produces after mapping the
// bitstream's literal (spec: literal_to_type) to a type.
enum InterpFilter {
  kFilterRegular = 0,  // EIGHTTAP
  kFilterSmooth = 1,   // EIGHTTAP_SMOOTH
  kFilterSharp = 2,    // EIGHTTAP_SHARP
  kFilterBilinear = 3,
  kNumInterpFilters = 4
};

// Unscaled prediction of a w x h block, w = 4 << (table index), h in 4..64, a multiple of 4
// (every VP9 block size and its chroma for 4:2:0, 4:2:2, 4:4:0 and 4:4:4; 4:2:0 chroma of sub8x8
// blocks is 4x4 in libvpx's decoder, never 2xN).
// src: the integer-pel position of the block's top-left in the reference plane; mx, my: the
// sub-pixel phase in 1/16 pel, 0..15 (luma: (mv * 2) & 15; 4:2:0 chroma: mv & 15).
// avg 0: dst = prediction. avg 1: dst = (dst + prediction + 1) >> 1 (compound prediction's
// second reference).
// Reads: rows 0..h-1, or -3..h+3 when my != 0; columns 0..w-1, or -3..w+4 when mx != 0 (nothing
// else; column w+4 lies inside the block libvpx's decoder emulates at the borders, and lets SIMD
// loads cover 8 outputs with 16 bytes). Writes exactly the w x h pixels of dst. No alignment
// promise on any pointer or stride; strides may be negative.
using McFn = void (*)(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride,
                      int h, int mx, int my);

// Scaled prediction (a reference frame of another size): libvpx's vpx_scaled_2d, _horiz, _vert
// and their _avg forms, or the unscaled convolutions when both steps are 16, as vp9_scale.c
// selects them for the steps. Output pixel (r, c) is centred on source position
// (x0_q4 + c * x_step_q4, y0_q4 + r * y_step_q4) in 1/16 pel relative to src.
// w in 1..64, h in 1..64. x0_q4, y0_q4: start phase, 0..15. x_step_q4, y_step_q4: 1/16-pel step
// per output pixel, 1..64. A valid VP9 stream gives 1..32 (the reference is at most twice and at
// least 1/16 the frame's size: libvpx's valid_ref_frame_size; step = (16 * scale_fp) >> 14 with
// scale_fp = (ref_size << 14) / frame_size), and 16 also for references of nearly equal size.
// The decoder calls it once per prediction block (no split: libvpx predicts the whole w x h).
// Reads: columns 0..xl with xl = (x0_q4 + (w - 1) * x_step_q4) >> 4, extended to -3..xl+4 when
// horizontal filtering applies (x0_q4 != 0 or x_step_q4 != 16); rows likewise with y.
// Writes exactly the w x h pixels of dst.
using McScaledFn = void (*)(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                            ptrdiff_t src_stride, int w, int h, int x0_q4, int x_step_q4,
                            int y0_q4, int y_step_q4);

struct McDsp {
  // [log2(w) - 2: 4, 8, 16, 32, 64][filter][avg]
  McFn mc[5][kNumInterpFilters][2];
  // [filter][avg]
  McScaledFn scaled[kNumInterpFilters][2];
};

// Fills every slot with the scalar reference (mc_ref.cpp).
void mc_dsp_init_ref(McDsp *dsp);
// Overrides slots with the SIMD implementation of the Highway target currently chosen by
// hwy::GetChosenTarget() (mc_hwy.cpp). Called through the DspTable, never per call.
void mc_dsp_init_simd(McDsp *dsp);
// The scaled slots' part of mc_dsp_init_simd (mc_scaled_hwy.cpp), which calls it.
void mc_dsp_init_scaled_simd(McDsp *dsp);

// The table in use now (set up once, or again by v3d_cpu_force_target()). Thread-safe.
const McDsp &mc_dsp();

// The sub-pixel interpolation kernels, [filter][phase][tap] (VP9 specification, the
// subpel_filters table of the inter prediction process, rows reordered to InterpFilter's order).
// Tap t weighs the pixel at offset t - 3; every row sums to 128.
extern const int16_t kSubpelFilters[kNumInterpFilters][16][8];

// Border emulation: writes the bw x bh block whose top-left is (x, y) in a plane_w x plane_h
// plane (x, y may be negative or past the edges, bw, bh >= 1) to dst, each pixel taken from the
// plane at the coordinates clamped into it (the edge pixels replicated outward, as libvpx's
// decoder builds the blocks that reach outside the reference: build_mc_border). Reads only
// pixels inside the plane; writes exactly bw x bh pixels of dst.
void mc_emu_edge(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src_plane, ptrdiff_t src_stride,
                 int plane_w, int plane_h, int x, int y, int bw, int bh);

}  // namespace vp9
}  // namespace v3d
