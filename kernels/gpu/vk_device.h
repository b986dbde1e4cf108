// SPDX-License-Identifier: LGPL-2.1-or-later
// The Vulkan device behind v3d::Gpu (gpu.h): instance, the chosen physical device, the logical
// device with one compute queue, and the per-kernel state (pipelines, reusable job slots).
//
// Ownership and threads: a Gpu is created by gpu_open() inside a std::shared_ptr and shared by
// contexts, jobs and shared allocations; it is destroyed with its last reference (the destructor
// waits for the device to be idle, bounded for a lost one: see `lost`). All members are
// immutable after gpu_open() except those documented with their lock: submissions to `queue`
// hold `queue_mutex`.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/gpu.h"
#include "gpu/vk_api.h"

namespace v3d {

// A kernel family's GPU state (pipelines, reusable job slots), which a Gpu holds without this
// layer knowing the family. Each family registers one GpuFamily at static initialisation (its
// *_vk_state.cpp: `static const int slot = gpu_register_family(&desc)`) and finds its state with
// gpu_family_state(gpu, slot). gpu_open() creates every registered family's state (the required
// ones first); the Gpu destroys them once the device is idle.
struct GpuFamily {
  const char *what;  // for messages, e.g. "VP9 loop filter"
  // gpu_open() fails when a required family's state cannot be created; an optional family then
  // has no state (a warning), and its work runs on the CPU.
  bool required;
  void *(*create)(Gpu &gpu, std::string *error);  // nullptr with *error set on failure
  void (*destroy)(Gpu &gpu, void *state);          // the device is idle
  // Frees the state's host memory only (its Vulkan objects are left with a device that a failed
  // job still uses). May be null: the state is then left as it is.
  void (*free_host)(void *state);
  // Appends the fences of the state's failed (lost) jobs, which may still run. May be null.
  void (*lost_fences)(void *state, std::vector<VkFence> *out);
};
// Registers a family (desc must outlive the process's Gpus). Returns its slot. Not thread-safe:
// called during static initialisation only.
int gpu_register_family(const GpuFamily *desc);
// The state of the family in `slot` on gpu: nullptr when the device has none (an optional
// family whose creation failed).
void *gpu_family_state(const Gpu &gpu, int slot);

class Gpu : public std::enable_shared_from_this<Gpu> {
 public:
  Gpu() = default;
  Gpu(const Gpu &) = delete;
  Gpu &operator=(const Gpu &) = delete;
  ~Gpu();

  VkApi vk;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  std::mutex queue_mutex;  // held around vkQueueSubmit on `queue`

  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceMemoryProperties memory{};
  std::string name;
  int subgroup_size = 0;
  bool coef16 = false;          // storageBuffer16BitAccess enabled: int16_t coefficient shaders
  bool ssbo_array = false;      // shaderStorageBufferArrayDynamicIndexing enabled (loop filter's
                                // memory windows as one descriptor array)
  uint32_t timestamp_bits = 0;  // of the queue family; 0 = no timestamps
  // VK_EXT_external_memory_host enabled: frames outside shared memory are imported, not copied
  // (vk_memory.h host_import); the import alignment in bytes, 0 when unavailable.
  VkDeviceSize import_align = 0;
  std::atomic<int> validation_messages{0};  // errors/warnings reported by validation layers
  std::atomic<double> last_job_seconds{-1.0};
  // Set when a job failed for good (VK_ERROR_DEVICE_LOST, or no completion within the bounded
  // wait): the Gpu takes no more jobs and leaves the process-wide cache (gpu/gpu_cache.h); it
  // is destroyed with its last reference, the device only once its failed jobs have finished
  // (a hung device would block vkDeviceWaitIdle forever: then the device is left open).
  std::atomic<bool> lost{false};

  // Each registered family's state, by slot (gpu_register_family); owned; null: none.
  std::vector<void *> family_state;

  // Index of the best memory type among type_bits that is host-visible and host-coherent
  // (preferring host-cached, for the CPU's reads of shared frames), or -1.
  int host_memory_type(uint32_t type_bits) const;
  // Whether the CPU caches the memory of host_memory_type(~0u) (VK_MEMORY_PROPERTY_HOST_CACHED_BIT).
  // v3dv (the Raspberry Pi) has one memory type, host-visible and coherent but not cached: the
  // kernel maps it write-combined, and every CPU read of it goes to DRAM uncached. Set once by
  // gpu_open() (V3D_FAULT=host-uncached clears it, for tests).
  bool host_cached = false;
};

}  // namespace v3d
