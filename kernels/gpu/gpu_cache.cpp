// SPDX-License-Identifier: LGPL-2.1-or-later
// The process-wide Gpu cache and its release at exit (gpu_cache.h).
#include "gpu/gpu_cache.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace v3d {
namespace {

struct Cache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<Gpu>> gpus;  // key: device choice
  // Default choices that offered only CPU-type devices (gpus_only): the reason, by key.
  std::unordered_map<std::string, std::string> cpu_only;
};

// Never destroyed (reachable until exit): contexts may still be opened or freed from other
// threads while the process exits. Its references are dropped by release_at_exit().
Cache &cache() {
  static Cache *c = new Cache;
  return *c;
}

// Runs once, from exit(): cached shared blocks first (they hold Gpu references), then the
// cache's own references. Work of contexts still alive holds its Gpu, which then stays.
void release_at_exit() {
  shared_alloc_release_cache();
  std::unordered_map<std::string, std::shared_ptr<Gpu>> gpus;
  {
    std::lock_guard<std::mutex> lock(cache().mutex);
    gpus.swap(cache().gpus);
  }
  gpus.clear();  // destroys the Gpus nobody else holds, outside the lock
}

// Whether the machine has a device node of a GPU driver: a DRM render node (Mesa's drivers, the
// Raspberry Pi's v3d), NVIDIA's, or WSL's. Without one, the only Vulkan devices there can be are
// CPU-type (lavapipe, llvmpipe), and auto can skip creating a Vulkan instance to find that out
// (tens of milliseconds: the loader opens every installed driver). V3D_AUTO_PROBE=1 asks Vulkan
// all the same (tests of the enumeration's own refusal).
bool gpu_device_nodes() {
  const char *probe = getenv("V3D_AUTO_PROBE");
  if (probe && atoi(probe)) return true;
  if (access("/dev/nvidia0", F_OK) == 0 || access("/dev/dxg", F_OK) == 0) return true;
  DIR *d = opendir("/dev/dri");
  if (!d) return false;
  bool found = false;
  while (const dirent *e = readdir(d))
    if (strncmp(e->d_name, "renderD", 7) == 0) found = true;
  closedir(d);
  return found;
}

}  // namespace

std::shared_ptr<Gpu> open_shared_gpu(const char *device, std::string *error, bool gpus_only,
                                     bool *cpu_only) {
  if (cpu_only) *cpu_only = false;
  std::string key = device ? device : "";
  const char *env = getenv("V3D_VULKAN_DEVICE");
  // A device named (here or in the environment) is used whatever its type.
  if (!key.empty() || (env && *env)) gpus_only = false;
  if (key.empty()) key = std::string("default:") + (env ? env : "");
  Cache &c = cache();
  std::shared_ptr<Gpu> lost;  // a lost Gpu leaving the cache: released after the lock
  std::lock_guard<std::mutex> lock(c.mutex);
  // The default choice prefers devices that are not CPU-type (gpu_open), so a cached CPU-type
  // default means there is no other: gpus_only refuses it without opening anything.
  auto refuse_cpu = [&](const std::string &why) {
    if (error) *error = why;
    if (cpu_only) *cpu_only = true;
    return nullptr;
  };
  auto it = c.gpus.find(key);
  if (it != c.gpus.end() && !gpu_lost(*it->second)) {
    if (gpus_only && gpu_cpu_type(*it->second))
      return refuse_cpu(std::string("only CPU-type Vulkan devices: ") + gpu_name(*it->second));
    return it->second;
  }
  if (gpus_only) {
    auto no = c.cpu_only.find(key);
    if (no != c.cpu_only.end()) return refuse_cpu(no->second);
    if (!gpu_device_nodes())
      return refuse_cpu("no GPU device node (/dev/dri/renderD*, /dev/nvidia0, /dev/dxg)");
  }
  if (it != c.gpus.end()) {
    lost = std::move(it->second);
    c.gpus.erase(it);
    shared_alloc_release_kept(*lost);  // its kept blocks would hold it until exit
  }
  bool only_cpu = false;
  std::shared_ptr<Gpu> gpu = gpu_open(device, error, gpus_only, &only_cpu);
  if (only_cpu) {
    // Remembered: devices do not come and go, and asking again would create a Vulkan instance
    // per context.
    c.cpu_only[key] = error ? *error : std::string("only CPU-type Vulkan devices");
    if (cpu_only) *cpu_only = true;
  }
  if (gpu) {
    c.gpus[key] = gpu;
    // Registered after the driver's first device exists: exit handlers run in reverse order,
    // so this one runs while the driver (and its atexit-registered threads) still works.
    static const bool registered = std::atexit(release_at_exit) == 0;
    (void)registered;
  }
  return gpu;
}

}  // namespace v3d
