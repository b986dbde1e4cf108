// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 loop filter's GPU job when the library is built without Vulkan: every submission fails.
#include "vp9/lpf/lpf_vk.h"

namespace v3d {

bool gpu_has_vp9_lpf(const Gpu &) { return false; }

std::unique_ptr<LpfGpuJob> gpu_vp9_lpf_submit(Gpu &, const LpfGpuFrame *, size_t,
                                              std::string *error) {
  if (error) *error = "built without Vulkan support";
  return nullptr;
}

}  // namespace v3d
