// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's calls into the inter prediction DSP family (vp9/mc/mc.h), behind plain
// functions so that the decoder's files need not include mc.h next to frame_header.h (both
// declare an InterpFilter enumeration in namespace v3d::vp9). Contracts: those of mc.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

// mc_dsp().mc[log2w - 2][filter][avg]
void tile_mc(int log2w, int filter, int avg, uint8_t *dst, ptrdiff_t dst_stride,
             const uint8_t *src, ptrdiff_t src_stride, int h, int mx, int my);
// mc_dsp().scaled[filter][avg]
void tile_mc_scaled(int filter, int avg, uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                    ptrdiff_t src_stride, int w, int h, int x0_q4, int x_step_q4, int y0_q4,
                    int y_step_q4);
// mc_emu_edge
void tile_emu_edge(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src_plane,
                   ptrdiff_t src_stride, int plane_w, int plane_h, int x, int y, int bw, int bh);

}  // namespace vp9
}  // namespace v3d
