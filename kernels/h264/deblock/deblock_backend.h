// SPDX-License-Identifier: LGPL-2.1-or-later
// The backend choice of v3d_h264_deblock_frame(_from) (deblock_backend.cpp says which backend
// puts which planes where), and the statistics of the call.
#pragma once

#include <vector>

#include "h264/deblock/deblock_frame.h"
#include "v3d/v3d.h"

namespace v3d {
namespace h264 {

// Deblocks pic (validated; src set for copy-and-filter) on ctx's backend and records the
// context's and V3D_KERNEL_H264_DEBLOCK's statistics. The caller holds ctx->frame_mutex. Uses
// ctx's pool and GPU; blocks until the picture is done.
void deblock_run(V3dContext *ctx, const DeblockPicture &pic);

// Deblocks pictures (validated, without src) as v3d_h264_deblock_frames says, and records the
// statistics. The caller holds ctx->frame_mutex.
void deblock_run_batch(V3dContext *ctx, const std::vector<DeblockPicture> &pics);

}  // namespace h264
}  // namespace v3d
