// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 loop filter's GPU job (lpf_vk_job.cpp), as the scheduler calls it.
// Without Vulkan at build time, lpf_vk_none.cpp implements it with every submission failing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu.h"

namespace v3d {

// Cell words per superblock in LpfGpuFrame::cells (V3D_LPF_CELLS of shaders/common/vp9_lpf_layout.h).
constexpr int kLpfCellWords = 80;
// Frames one loop-filter job takes at most (callers split longer batches).
constexpr size_t kLpfMaxJobFrames = 16;

// One frame of a loop-filter job: its planes (processed area: luma 8*mi_cols x 8*mi_rows, chroma
// half that), the planes to filter (bit p = plane p), its sharpness, and what filters each of its
// superblocks: kLpfCellWords words per superblock in raster order (vp9/lpf_gpu.h builds them).
struct LpfGpuFrame {
  FramePlanes planes;
  int plane_mask;
  int sharpness;
  int sb_rows, sb_cols;
  const uint32_t *cells;  // read during gpu_vp9_lpf_submit only
};

// A loop-filter job. in_place(i): whether frame i had a plane bound in place (shared memory);
// after a failed wait() such a frame may be partly filtered, while a frame whose planes were all
// staged is untouched (the results are copied back only on success).
class LpfGpuJob : public GpuJob {
 public:
  virtual bool in_place(size_t frame) const = 0;
};

// Whether the device has the loop-filter pipeline (it needs 7 storage buffers per stage).
bool gpu_has_vp9_lpf(const Gpu &gpu);

// Submits the loop filter of frames[0..n) (n <= kLpfMaxJobFrames; the frames share no pixels):
// one command buffer, one queue submission, one dispatch per wavefront step and group of frames
// that fits the shader's memory windows. Writes only the planes named in each plane_mask, inside
// their processed area, so the CPU may filter the other planes meanwhile. Returns nullptr with
// *error set on failure (nothing was submitted; no frame touched).
std::unique_ptr<LpfGpuJob> gpu_vp9_lpf_submit(Gpu &gpu, const LpfGpuFrame *frames, size_t n,
                                              std::string *error);

}  // namespace v3d
