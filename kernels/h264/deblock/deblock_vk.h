// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking's GPU job (deblock_vk_job.cpp), as the scheduler calls it.
// Without Vulkan at build time, deblock_vk_none.cpp implements it with every submission failing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu.h"

namespace v3d {

// Words per (macroblock, plane) record (V3D_H264_REC_WORDS of shaders/common/h264_deblock_layout.h).
constexpr int kH264RecordWords = 18;

// Whether the device has the H.264 deblocking pipeline.
bool gpu_has_h264_deblock(const Gpu &gpu);

// Submits the deblocking of the planes in plane_mask of one picture (planes: the whole planes):
// records[] holds sum(step_counts) records ordered by wavefront step (step t has step_counts[t]
// records; h264/deblock_gpu.h builds them). The samples to deblock are copied into a staging
// buffer now — from from[p] (stride from_stride[p]) when from is given (copy and deblock), else
// from the planes themselves — and the results into the planes by a successful wait(); a failed
// job leaves the planes untouched. One job per Gpu at a time (a second fails to submit with
// *busy set: not a failure of the GPU, another caller has it). nullptr with *error set on
// failure (nothing touched).
std::unique_ptr<GpuJob> gpu_h264_deblock_submit(Gpu &gpu, const FramePlanes &planes,
                                                const uint8_t *const *from,
                                                const ptrdiff_t *from_stride, int plane_mask,
                                                const uint32_t *records,
                                                const std::vector<uint32_t> &step_counts,
                                                std::string *error, bool *busy = nullptr);

}  // namespace v3d
