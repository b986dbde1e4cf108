// SPDX-License-Identifier: LGPL-2.1-or-later
// The process-wide Gpu cache and its release at exit (gpu_cache.h).
#include "gpu/gpu_cache.h"

#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace v3d {
namespace {

struct Cache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<Gpu>> gpus;  // key: device choice
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

}  // namespace

std::shared_ptr<Gpu> open_shared_gpu(const char *device, std::string *error) {
  std::string key = device ? device : "";
  if (key.empty()) {
    const char *env = getenv("V3D_VULKAN_DEVICE");
    key = std::string("default:") + (env ? env : "");
  }
  Cache &c = cache();
  std::shared_ptr<Gpu> lost;  // a lost Gpu leaving the cache: released after the lock
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.gpus.find(key);
  if (it != c.gpus.end() && !gpu_lost(*it->second)) return it->second;
  if (it != c.gpus.end()) {
    lost = std::move(it->second);
    c.gpus.erase(it);
    shared_alloc_release_kept(*lost);  // its kept blocks would hold it until exit
  }
  std::shared_ptr<Gpu> gpu = gpu_open(device, error);
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
