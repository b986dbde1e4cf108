// SPDX-License-Identifier: LGPL-2.1-or-later
// Internal entry points of the VP9 frame loop filter for callers inside the library.
#pragma once

#include <cstddef>
#include <cstdint>

#include "v3d/context.h"
#include "v3d/vp9_lpf.h"

namespace v3d {
namespace vp9 {

// v3d_vp9_lpf_frame for a grid the caller built itself as a valid VP9 partition (the VP9
// decoder): the same whole-frame process (the context's backend, the CPU wavefront, the GPU job
// and hybrid split, the statistics) and the same checks of the context, planes, strides, sizes,
// sharpness and grid pointer, but the grid's entries are not checked. Contract: every entry of
// the (height + 7) / 8 rows of (width + 7) / 8 entries has filter_level <= 63, block_size <= 12,
// a tx_size its block_size allows, and equals the top-left entry of its block (what
// v3d_vp9_lpf_frame would check); anything else is undefined behaviour. Returns what
// v3d_vp9_lpf_frame returns. Blocks until the frame is done; thread-safe, calls on one context
// run one at a time.
int lpf_filter_frame_trusted(V3dContext *ctx, uint8_t *const planes[3], const ptrdiff_t strides[3],
                             int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                             int sharpness);

}  // namespace vp9
}  // namespace v3d
