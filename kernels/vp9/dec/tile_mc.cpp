// SPDX-License-Identifier: LGPL-2.1-or-later
// See tile_mc.h.
#include "vp9/dec/tile_mc.h"

#include "vp9/mc/mc.h"

namespace v3d {
namespace vp9 {

void tile_mc(int log2w, int filter, int avg, uint8_t *dst, ptrdiff_t dst_stride,
             const uint8_t *src, ptrdiff_t src_stride, int h, int mx, int my) {
  mc_dsp().mc[log2w - 2][filter][avg](dst, dst_stride, src, src_stride, h, mx, my);
}

void tile_mc_scaled(int filter, int avg, uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                    ptrdiff_t src_stride, int w, int h, int x0_q4, int x_step_q4, int y0_q4,
                    int y_step_q4) {
  mc_dsp().scaled[filter][avg](dst, dst_stride, src, src_stride, w, h, x0_q4, x_step_q4, y0_q4,
                               y_step_q4);
}

void tile_emu_edge(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src_plane,
                   ptrdiff_t src_stride, int plane_w, int plane_h, int x, int y, int bw, int bh) {
  mc_emu_edge(dst, dst_stride, src_plane, src_stride, plane_w, plane_h, x, y, bw, bh);
}

}  // namespace vp9
}  // namespace v3d
