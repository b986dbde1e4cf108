// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking's GPU job when the library is built without Vulkan: every submission fails.
#include "h264/deblock/deblock_vk.h"

namespace v3d {

bool gpu_has_h264_deblock(const Gpu &) { return false; }

std::unique_ptr<GpuJob> gpu_h264_deblock_submit(Gpu &, const FramePlanes &, const uint8_t *const *,
                                                const ptrdiff_t *, int, const uint32_t *,
                                                const std::vector<uint32_t> &, std::string *error,
                                                bool *) {
  *error = "built without Vulkan";
  return nullptr;
}

}  // namespace v3d
