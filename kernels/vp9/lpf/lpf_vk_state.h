// SPDX-License-Identifier: LGPL-2.1-or-later
// State of the VP9 loop-filter jobs of one Gpu: the pipeline (shaders/vp9_lpf.comp) and the
// reusable job slots (command pool/buffer, fence, descriptor sets, timestamp queries, and buffers
// that only grow, so steady-state frames allocate no GPU resources).
//
// Ownership and threads: Vp9LpfState belongs to its Gpu (created by gpu_open(), destroyed with
// the Gpu once the device is idle); its slot lists are guarded by its mutex. A slot belongs to
// one job from lpf_slot_acquire() until that job calls lpf_slot_release().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/vk_device.h"
#include "gpu/vk_memory.h"

namespace v3d {

// Descriptor sets per slot: one per group of frames whose planes fit the shader's memory windows
// (a frame uses at most 3 windows, a group has 6, so 16 frames need at most 8 groups; 16 leaves
// room).
constexpr size_t kLpfMaxGroups = 16;

struct LpfSlot {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkQueryPool query = VK_NULL_HANDLE;  // 2 timestamps, or none
  std::vector<VkDescriptorSet> sets;   // allocated on first use, up to kLpfMaxGroups
  HostBuffer records, staging;
  bool lost = false;  // the GPU never finished it: never reused
};

struct Vp9LpfState {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  // vp9_lpf.comp's variants: [0] six memory windows, [1] one. With gpu.ssbo_array (`array`
  // true) the windows are one descriptor array (binding 0, 6 elements) and [0] is the array
  // variant, used for every group; [1] stays null.
  bool array = false;
  VkPipeline pipeline[2] = {};
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  std::mutex mutex;  // guards slots, free_slots and descriptor set allocation
  std::vector<std::unique_ptr<LpfSlot>> slots;
  std::vector<LpfSlot *> free_slots;
};

// Creates/destroys the pipeline and slots. Creation fails (nullptr, *error set) on devices with
// fewer than 7 storage buffers per stage: the loop filter then runs on the CPU only.
Vp9LpfState *vp9_lpf_state_create(Gpu &gpu, std::string *error);
void vp9_lpf_state_destroy(Gpu &gpu, Vp9LpfState *state);
// This family's state on gpu; nullptr when the device has no loop-filter pipeline.
Vp9LpfState *lpf_state(const Gpu &gpu);
// A free slot, created if fewer than the maximum exist; nullptr with *error set when all are in
// use.
LpfSlot *lpf_slot_acquire(Gpu &gpu, Vp9LpfState &st, std::string *error);
// Makes the slot's descriptor sets number at least n (n <= kLpfMaxGroups). False on failure.
bool lpf_slot_sets(Gpu &gpu, Vp9LpfState &st, LpfSlot *s, size_t n, std::string *error);
void lpf_slot_release(Vp9LpfState &st, LpfSlot *s);

}  // namespace v3d
