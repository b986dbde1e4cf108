// SPDX-License-Identifier: LGPL-2.1-or-later
// State of the VP9 inverse-transform jobs of one Gpu: the pipelines (one per transform size) and
// the reusable job slots (command pool/buffer, fence, descriptor set, timestamp queries, and
// buffers that only grow, so steady-state frames allocate no GPU resources).
//
// Ownership and threads: Vp9ItxState belongs to its Gpu (created by gpu_open(), destroyed with
// the Gpu once the device is idle); its slot lists are guarded by its mutex. A slot belongs to
// one job from slot_acquire() until that job calls slot_release().
#pragma once

#include <cstddef>
#include <climits>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/vk_device.h"
#include "gpu/vk_memory.h"
#include "vp9/itx/itx_gpu.h"

namespace v3d {

constexpr int kItxNumSizes = 4;  // 4x4 .. 32x32
constexpr int kItxNumTypes = 5;  // DCT_DCT .. WHT_WHT

// Counts one part of a job's block list (gpu_vp9_itx_prepare): its blocks with work per
// (size, type) bucket, the planes they use and the span of coefficients they read, and whether
// it has run.
struct ItxPartStats {
  uint32_t count[kItxNumSizes * kItxNumTypes] = {};
  bool plane_used[3] = {false, false, false};
  size_t coeff_min = SIZE_MAX, coeff_end = 0;
  bool ran = false;  // the part has run (submit() refuses a job whose parts have not all run)
  bool bad = false;  // the part met a block that fails its own checks (run before validation)
};

struct ItxSlot {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkQueryPool query = VK_NULL_HANDLE;  // 2 timestamps, or none
  // records: built by the GPU from list (the job's blocks, copied); buckets: their first places
  // and fill counters; coeffs: coefficients outside shared memory; pixels: each of the job's
  // blocks' pixels as they were before the job, in frame-shaped planes (row stride = plane
  // width), for planes outside shared memory — the GPU's copy of a staged plane, the backup of an
  // imported one (restored if the job fails: a lost device may have written some of them).
  HostBuffer records, coeffs, pixels, list, buckets;
  std::vector<uint8_t> backup;  // the same for planes in shared memory (host memory only)
  // The job's blocks as in list, in host memory the CPU caches, for the CPU's own walks over them
  // after submission (copying staged blocks back, restoring in-place ones): list may be memory
  // the CPU reads uncached (v3dv). Size kept at its largest.
  std::vector<V3dVp9TxBlock> list_host;
  std::vector<ItxPartStats> parts;  // capacity kept
  bool lost = false;                 // the GPU never finished it: never reused
  // Imports of the failed job (the GPU may still use them): released with the slot, after the
  // device is idle (vk_device.cpp, Gpu's destructor).
  std::vector<ImportedSpan> orphans;
};

struct Vp9ItxState {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline[kItxNumSizes + 1] = {};  // one per transform size, then the record builder
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  std::mutex mutex;  // guards slots and free_slots
  std::vector<std::unique_ptr<ItxSlot>> slots;
  std::vector<ItxSlot *> free_slots;
};

// Creates/destroys the pipelines and slots (the GPU layer calls them through this family's
// GpuFamily; the device is idle at destruction).
Vp9ItxState *vp9_itx_state_create(Gpu &gpu, std::string *error);
void vp9_itx_state_destroy(Gpu &gpu, Vp9ItxState *state);
// This family's state on gpu (created by gpu_open(): never null on an open Gpu).
Vp9ItxState *itx_state(const Gpu &gpu);

// A free slot, created if fewer than the maximum exist; nullptr with *error set when all are in
// use (the caller then runs the frame on the CPU rather than block).
ItxSlot *slot_acquire(Gpu &gpu, Vp9ItxState &st, std::string *error);
// Returns a slot to the free list (a slot marked lost is kept out of use until destruction).
void slot_release(Vp9ItxState &st, ItxSlot *s);

}  // namespace v3d
