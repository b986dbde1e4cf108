// SPDX-License-Identifier: LGPL-2.1-or-later
// Backend "auto" and CPU-type Vulkan devices (lavapipe, llvmpipe: threads on the workers' own
// cores): auto never takes one unless it is named (V3D_VULKAN_DEVICE, V3dContextOptions'
// gpu_device), while gpu and hybrid still do. On a machine whose only devices are CPU-type, auto
// must run on the CPU (backend "simd", no GPU name, the cpu backend's threads); elsewhere its GPU
// must not be CPU-type.
// Linked with the library's objects: it asks the internal GPU layer for the device type.
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/test_util.h"
#include "gpu/gpu.h"
#include "gpu/gpu_cache.h"
#include "sched/context.h"
#include "v3d/v3d.h"

using v3dtest::check;

namespace {

V3dContext *context(const char *backend, const char *device = nullptr, int threads = 2) {
  V3dContextOptions o{};
  o.backend = backend;
  o.cpu_threads = threads;
  o.gpu_share = -1;
  o.gpu_device = device;
  return v3d_context_new_with_options(&o);
}

// The cpu backend's default thread count.
int cpu_threads() {
  V3dContext *ctx = v3d_context_new("cpu", 0);
  const int n = v3d_context_cpu_threads(ctx);
  v3d_context_free(ctx);
  return n;
}

// auto with no device named: the CPU alone when the default choice offers only CPU-type devices,
// else a device that is not CPU-type. Asked twice (the second answer comes from the cache).
void check_auto(bool only_cpu) {
  for (int round = 0; round < 2; round++) {
    V3dContext *ctx = context("auto", nullptr, 0);  // default threads
    if (!check(ctx != nullptr, "auto: no context: %s", v3d_last_error())) return;
    if (only_cpu) {
      check(v3d_context_cpu_threads(ctx) == cpu_threads(), "auto on the CPU: %d threads, the cpu "
            "backend's %d", v3d_context_cpu_threads(ctx), cpu_threads());
      check(strcmp(v3d_context_backend(ctx), "simd") == 0, "auto on a CPU-type device only: "
            "backend %s, simd expected", v3d_context_backend(ctx));
      check(v3d_context_gpu_name(ctx) == nullptr, "auto on a CPU-type device only: GPU %s",
            v3d_context_gpu_name(ctx));
    } else {
      check(ctx->gpu && !v3d::gpu_cpu_type(*ctx->gpu), "auto took a CPU-type device (%s)",
            v3d_context_gpu_name(ctx) ? v3d_context_gpu_name(ctx) : "none");
    }
    v3d_context_free(ctx);
  }
}

// gpu and hybrid take the default device whatever its type; returns its name ("" if none).
std::string check_explicit() {
  std::string name;
  for (const char *b : {"hybrid", "gpu"}) {
    V3dContext *ctx = context(b);
    if (!check(ctx != nullptr, "%s: no context: %s", b, v3d_last_error())) continue;
    check(strcmp(v3d_context_backend(ctx), b) == 0, "%s: backend %s", b, v3d_context_backend(ctx));
    check(v3d_context_gpu_name(ctx) != nullptr, "%s: no GPU", b);
    if (v3d_context_gpu_name(ctx)) name = v3d_context_gpu_name(ctx);
    v3d_context_free(ctx);
  }
  return name;
}

// auto with the CPU-type device named, in the options and in V3D_VULKAN_DEVICE: it takes it.
void check_named(const std::string &name) {
  V3dContext *ctx = context("auto", name.c_str());
  if (check(ctx != nullptr, "auto, gpu_device %s: no context: %s", name.c_str(), v3d_last_error())) {
    check(v3d_context_gpu_name(ctx) && name == v3d_context_gpu_name(ctx),
          "auto, gpu_device %s: GPU %s", name.c_str(),
          v3d_context_gpu_name(ctx) ? v3d_context_gpu_name(ctx) : "none");
    check(strcmp(v3d_context_backend(ctx), "hybrid") == 0, "auto, gpu_device %s: backend %s",
          name.c_str(), v3d_context_backend(ctx));
    v3d_context_free(ctx);
  }
  setenv("V3D_VULKAN_DEVICE", name.c_str(), 1);
  ctx = context("auto");
  if (check(ctx != nullptr, "auto, V3D_VULKAN_DEVICE: no context: %s", v3d_last_error())) {
    check(v3d_context_gpu_name(ctx) && name == v3d_context_gpu_name(ctx),
          "auto, V3D_VULKAN_DEVICE=%s: GPU %s", name.c_str(),
          v3d_context_gpu_name(ctx) ? v3d_context_gpu_name(ctx) : "none");
    v3d_context_free(ctx);
  }
  unsetenv("V3D_VULKAN_DEVICE");
}

}  // namespace

int main(int argc, char **argv) {
  unsetenv("V3D_VULKAN_DEVICE");  // the default choice is under test
  unsetenv("V3D_BACKEND");
  // "probe": Vulkan is asked even without a GPU driver's device node (V3D_AUTO_PROBE), so that
  // the enumeration's own refusal of CPU-type devices is what is tested.
  if (argc > 1 && strcmp(argv[1], "probe") == 0) setenv("V3D_AUTO_PROBE", "1", 1);
  else unsetenv("V3D_AUTO_PROBE");
  // Asked first, with no Gpu cached yet: the answer comes from the device nodes or from Vulkan's
  // enumeration, not from the cache (check_auto asks the cache later).
  std::string err;
  bool only_cpu = false;
  auto gpu = v3d::open_shared_gpu(nullptr, &err, true, &only_cpu);
  printf("default choice for auto: %s\n", gpu ? v3d::gpu_name(*gpu) : err.c_str());
  if (!v3dtest::gpu_or_skip()) return v3dtest::finish();
  check((gpu != nullptr) != only_cpu, "the default choice: a GPU or only CPU-type devices (%s)",
        err.c_str());
  gpu.reset();
  printf("devices: %s\n", only_cpu ? "CPU-type only" : "a device that is not CPU-type");
  check_auto(only_cpu);
  const std::string name = check_explicit();
  if (only_cpu && !name.empty()) check_named(name);
  check_auto(only_cpu);  // naming a device once changes nothing for the default choice
  return v3dtest::finish();
}
