// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 loop filter's frame-level calls under the API's family names (v3d/v3d.h, "Naming"):
// each is its older-named function, which stays.
#include "v3d/vp9_lpf.h"

extern "C" {

int v3d_vp9_lpf_frame(V3dContext *ctx, uint8_t *const planes[3], const ptrdiff_t strides[3],
                      int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                      int sharpness) {
  return v3d_vp9_loop_filter_frame(ctx, planes, strides, width, height, grid, grid_stride,
                                   sharpness);
}

int v3d_vp9_lpf_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                           const ptrdiff_t src_strides[3], uint8_t *const planes[3],
                           const ptrdiff_t strides[3], int width, int height,
                           const V3dVp9LfInfo *grid, int grid_stride, int sharpness) {
  return v3d_vp9_loop_filter_frame_from(ctx, src, src_strides, planes, strides, width, height,
                                        grid, grid_stride, sharpness);
}

int v3d_vp9_lpf_frames(V3dContext *ctx, const V3dVp9LfFrame *frames, size_t n_frames) {
  return v3d_vp9_loop_filter_frames(ctx, frames, n_frames);
}

}  // extern "C"
