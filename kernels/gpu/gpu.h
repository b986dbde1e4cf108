// SPDX-License-Identifier: LGPL-2.1-or-later
// The GPU side of the library as the scheduler sees it: a Vulkan device with one compute queue,
// shared (host-visible) memory, and the asynchronous job every kernel family's GPU work returns.
// No codec names: each family declares its own job entry points (vp9/itx/itx_gpu.h, ...).
// Without Vulkan at build time, gpu_none.cpp implements this with gpu_open() always failing.
//
// Ownership and threads: a Gpu is shared (std::shared_ptr) by the contexts and the shared
// allocations that use it. All functions are thread-safe; jobs of one Gpu are submitted to its one
// queue under its internal lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "v3d/v3d.h"

namespace v3d {

class Gpu;

// Opens a Vulkan device for compute. device: an index ("1") or a case-insensitive substring of
// the device name; nullptr or "" = V3D_VULKAN_DEVICE if set, else the default choice: a V3D
// device (Raspberry Pi) if present, else the first usable device that is not of type CPU, else
// (unless gpus_only) the first usable CPU-type one (lavapipe, llvmpipe). A named device is used
// whatever its type. Returns nullptr with *error set to the reason (no loader, no device, missing
// feature) when none is usable; *cpu_only (when not null) is set when gpus_only turned down the
// only usable devices, which are CPU-type. Blocks (creates pipelines).
std::shared_ptr<Gpu> gpu_open(const char *device, std::string *error, bool gpus_only = false,
                              bool *cpu_only = nullptr);

// Device name, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". Owned by the Gpu.
const char *gpu_name(const Gpu &gpu);
// Subgroup size the device reported (informational only: shaders never depend on it).
int gpu_subgroup_size(const Gpu &gpu);

// Whether the CPU caches the GPU's host-visible memory (false on v3dv, whose memory the kernel
// maps write-combined: CPU reads of it are uncached). shared_alloc.cpp keeps frames in plain
// memory by default when it does not.
bool gpu_host_cached(const Gpu &gpu);

// Host-visible, host-coherent memory mapped for the CPU and usable by the GPU without copies.
// 64-byte aligned. The allocation holds a reference to the Gpu. nullptr on failure.
void *gpu_shared_alloc(const std::shared_ptr<Gpu> &gpu, size_t size);
// Frees memory from gpu_shared_alloc; returns false if ptr did not come from it (so the caller
// can free it another way).
bool gpu_shared_free(void *ptr);

// The planes of one 4:2:0 frame, as passed to a frame-level function. width/height per plane are
// the processed area (luma rounded up to 8, chroma half that).
struct FramePlanes {
  uint8_t *data[3];
  ptrdiff_t stride[3];
  int width[3];
  int height[3];
};

// One submitted frame of GPU work. wait() blocks until the GPU finished and the results are in
// the frame's planes (copied back if the frame was not in shared memory); returns V3D_OK or
// V3D_ERROR_GPU. Destroying an unwaited job waits for it.
class GpuJob {
 public:
  virtual ~GpuJob() = default;
  virtual int wait() = 0;
  // Number of plane copies this job made (0 when the planes were in shared memory).
  virtual int copies() const = 0;
  // True when the GPU has finished (wait() will not block); never blocks. Jobs that cannot tell
  // answer false until waited for.
  virtual bool ready() { return false; }
  // Number of planes imported from foreign host memory instead of copied
  // (VK_EXT_external_memory_host; see vk_memory.h).
  virtual int imports() const { return 0; }
  // Waits for the job, then takes its results out of the frame again: every pixel it may have
  // written is as it was before the job (a job submitted before its frame's validation had
  // ended, whose validation then failed). V3D_OK; V3D_ERROR_GPU when the GPU failed (the frame
  // is restored all the same) or when the job cannot undo its work (the frame is not restored).
  virtual int wait_and_undo() {
    wait();
    return V3D_ERROR_GPU;
  }
};

// ---- Device queries (gpu_none.cpp needs stubs: empty list, 0, -1) ----

// Names of the Vulkan devices present, in the order gpu_open() numbers them (index = position),
// whether usable or not. Empty, with *error set, when there is no loader or no device. Blocks
// (creates and destroys a Vulkan instance).
std::vector<std::string> gpu_list_devices(std::string *error);
// Number of messages (errors and warnings) the validation layers reported on this Gpu; 0 when
// they are off (they are on when V3D_VULKAN_VALIDATION=1 and the layers are installed).
int gpu_validation_messages(const Gpu &gpu);
// Device time of the most recently completed job (timestamp queries), in seconds; -1 if the
// queue has no timestamps or no job completed yet.
double gpu_last_job_seconds(const Gpu &gpu);
// Whether the device is of type CPU (VK_PHYSICAL_DEVICE_TYPE_CPU: lavapipe, llvmpipe), i.e. runs
// its work on the same cores as the CPU workers.
bool gpu_cpu_type(const Gpu &gpu);
// True once a job of this Gpu failed for good (device lost, or not done within the bounded
// wait): it accepts no more jobs (submissions fail), and its users run everything on the CPU.
bool gpu_lost(const Gpu &gpu);

}  // namespace v3d
