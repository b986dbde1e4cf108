// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 transforms' GPU job when the library is built without Vulkan: every submission fails.
#include "vp9/itx/itx_gpu.h"

namespace v3d {

std::unique_ptr<GpuJob> gpu_vp9_itx_submit(Gpu &, const FramePlanes &, const V3dVp9TxBlock *,
                                           const uint32_t *, size_t, const int16_t *, size_t,
                                           std::string *error) {
  if (error) *error = "built without Vulkan support";
  return nullptr;
}

std::unique_ptr<ItxGpuPrep> gpu_vp9_itx_prepare(Gpu &, const FramePlanes &, const V3dVp9TxBlock *,
                                                const uint32_t *, size_t, const int16_t *, size_t,
                                                int, std::string *error) {
  if (error) *error = "built without Vulkan support";
  return nullptr;
}

}  // namespace v3d
