// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse transforms' frame-level calls under the API's family names (v3d/v3d.h,
// "Naming"): each is its older-named function, which stays.
#include "v3d/vp9_itx.h"

extern "C" {

int v3d_vp9_itx_frame(V3dContext *ctx, uint8_t *const planes[3], const ptrdiff_t strides[3],
                      int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                      const int16_t *coeffs, size_t n_coeffs) {
  return v3d_vp9_itxfm_add_frame(ctx, planes, strides, width, height, blocks, n_blocks, coeffs,
                                 n_coeffs);
}

int v3d_vp9_itx_frames(V3dContext *ctx, const V3dVp9ItxFrame *frames, size_t n_frames) {
  return v3d_vp9_itxfm_add_frames(ctx, frames, n_frames);
}

int v3d_vp9_itx_validate(int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                         size_t n_coeffs) {
  return v3d_vp9_itxfm_validate(width, height, blocks, n_blocks, n_coeffs);
}

}  // extern "C"
