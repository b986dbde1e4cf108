// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse transforms' GPU job (itx_vk_job.cpp), as the scheduler calls it.
// Without Vulkan at build time, itx_vk_none.cpp implements it with every submission failing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu.h"

namespace v3d {

// VP9 inverse transforms: submits blocks[index[0..n_index)] (already validated; blocks reaching
// past a plane are clipped by the GPU to FramePlanes' width/height; eob 0 blocks skipped).
// Writes only pixels inside the chosen blocks (clipped), so the CPU may process the other blocks
// of the same frame concurrently. Returns nullptr with *error set on failure (the frame is
// untouched). The same as gpu_vp9_itx_prepare(..., 1 part), run_part(0), submit().
std::unique_ptr<GpuJob> gpu_vp9_itx_submit(Gpu &gpu, const FramePlanes &frame,
                                           const V3dVp9TxBlock *blocks, const uint32_t *index,
                                           size_t n_index, const int16_t *coeffs, size_t n_coeffs,
                                           std::string *error);

// A transform job in preparation, whose host-side work per block can be spread over threads:
// run_part(k) for every k in 0..parts()-1 (distinct parts may run at once on different threads,
// beside CPU work on the frame's other blocks: a part only reads the frame), then submit() once
// (after every part has returned). Parts may run before the blocks are validated (beside the
// validation): a part skips a block failing its own checks (vp9::itx_block_ok: outside its
// plane, an unknown size or type, coefficients past n_coeffs), and submit() then refuses the job.
// submit() may also come before validation has ended: every block has passed its own checks, so
// the GPU reads and writes only inside the frame's planes and the coefficients; blocks that
// overlap (which only validation finds) would race, and a frame that fails validation has the
// job's work taken out again (GpuJob::wait_and_undo). The GPU itself turns the block list into
// its bucketed records.
// A prep dropped without submit() returns its slot; the frame is untouched until submit().
class ItxGpuPrep {
 public:
  virtual ~ItxGpuPrep() = default;
  virtual int parts() const = 0;
  // Copies part k of the block list and the pixels of its blocks, and counts them.
  virtual void run_part(int k) = 0;
  // Binds the planes and coefficients, records the command buffer and submits it. nullptr with
  // *error set on failure (nothing submitted, the frame untouched).
  virtual std::unique_ptr<GpuJob> submit(std::string *error) = 0;
};
// Starts a job for blocks[index[0..n_index)] (as gpu_vp9_itx_submit) whose list is cut into
// `parts` parts (at least 1). The frame, blocks, index and coeffs must stay as they are until
// submit() has returned (the frame's pixels: until the job is waited for). nullptr with *error
// set on failure (no job slot, no memory).
std::unique_ptr<ItxGpuPrep> gpu_vp9_itx_prepare(Gpu &gpu, const FramePlanes &frame,
                                                const V3dVp9TxBlock *blocks, const uint32_t *index,
                                                size_t n_index, const int16_t *coeffs,
                                                size_t n_coeffs, int parts, std::string *error);

}  // namespace v3d
