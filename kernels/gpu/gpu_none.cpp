// SPDX-License-Identifier: LGPL-2.1-or-later
// The GPU interface when the library is built without Vulkan: no device can be opened.
#include "gpu/gpu.h"

namespace v3d {

class Gpu {};

std::shared_ptr<Gpu> gpu_open(const char *, std::string *error, bool, bool *cpu_only) {
  if (cpu_only) *cpu_only = false;
  if (error) *error = "built without Vulkan support";
  return nullptr;
}
const char *gpu_name(const Gpu &) { return ""; }
int gpu_subgroup_size(const Gpu &) { return 0; }
bool gpu_host_cached(const Gpu &) { return false; }
void *gpu_shared_alloc(const std::shared_ptr<Gpu> &, size_t) { return nullptr; }
bool gpu_shared_free(void *) { return false; }
std::vector<std::string> gpu_list_devices(std::string *error) {
  if (error) *error = "built without Vulkan support";
  return {};
}
int gpu_validation_messages(const Gpu &) { return 0; }
double gpu_last_job_seconds(const Gpu &) { return -1; }
bool gpu_lost(const Gpu &) { return true; }
bool gpu_cpu_type(const Gpu &) { return false; }

}  // namespace v3d
