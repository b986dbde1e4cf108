// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking on the GPU, the CPU's part: every decision of deblock_mb.cpp (which edges,
// qPav, indexA/indexB, alpha, beta, bS and tC0 per segment, edges whose taps leave the plane)
// made per (macroblock, plane) into the records of shaders/common/h264_deblock_layout.h, ordered
// by the GPU's wavefront step t = c + 2 r (docs/architecture.md says why that order is exact).
#pragma once

#include <cstdint>
#include <vector>

#include "h264/deblock/deblock_frame.h"
#include "h264/deblock/deblock_vk.h"

namespace v3d {
namespace h264 {

// Records of the planes in `planes` (bit p = plane p) of pic, in step order, into *records
// (kH264RecordWords words each; (macroblock, plane) pairs with nothing to filter are left out),
// and the number of records of each step into *step_counts (mb_cols + 2 (mb_rows - 1) steps).
// Returns the number of edges with something to filter (statistics).
// Test hook: V3D_TEST_H264_GPU_ORDER=wrong orders by t = c + r instead, bottom row first inside
// a step, which is NOT exact (tests show that the order is observable).
uint64_t deblock_gpu_records(const DeblockPicture &pic, unsigned planes,
                             std::vector<uint32_t> *records, std::vector<uint32_t> *step_counts);

}  // namespace h264
}  // namespace v3d
