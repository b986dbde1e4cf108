// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/lpf/lpf_vk_state.h"

#include "gpu/vk_job.h"

#include "vp9_lpf_layout.h"
#include "vp9_lpf_array_spv.h"
#include "vp9_lpf_w1_spv.h"
#include "vp9_lpf_w6_spv.h"

namespace v3d {
namespace {

// Loop-filter jobs of one Gpu in flight at once; beyond that a submission fails (the caller waits
// for an older job or uses the CPU) rather than block. 16 frames per job already cover a batch.
constexpr size_t kMaxSlots = 8;

void slot_destroy(Gpu &gpu, LpfSlot *s) {
  host_buffer_destroy(gpu, &s->records);
  host_buffer_destroy(gpu, &s->staging);
  job_commands_destroy(gpu, s->pool, s->fence, s->query);
  // Descriptor sets go with the descriptor pool.
}

}  // namespace

LpfSlot *lpf_slot_acquire(Gpu &gpu, Vp9LpfState &st, std::string *error) {
  std::lock_guard<std::mutex> lock(st.mutex);
  if (!st.free_slots.empty()) {
    LpfSlot *s = st.free_slots.back();
    st.free_slots.pop_back();
    return s;
  }
  if (st.slots.size() >= kMaxSlots) {
    *error = "too many GPU loop-filter jobs in flight";
    return nullptr;
  }
  auto s = std::make_unique<LpfSlot>();
  if (!job_commands_create(gpu, &s->pool, &s->cmd, &s->fence, &s->query, error)) {
    slot_destroy(gpu, s.get());
    return nullptr;
  }
  st.slots.push_back(std::move(s));
  return st.slots.back().get();
}

bool lpf_slot_sets(Gpu &gpu, Vp9LpfState &st, LpfSlot *s, size_t n, std::string *error) {
  std::lock_guard<std::mutex> lock(st.mutex);  // the descriptor pool is shared by the slots
  while (s->sets.size() < n) {
    auto di = vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    di.descriptorPool = st.descriptor_pool;
    di.descriptorSetCount = 1;
    di.pSetLayouts = &st.set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkResult r = gpu.vk.vkAllocateDescriptorSets(gpu.device, &di, &set);
    if (r != VK_SUCCESS) {
      *error = std::string("allocating a descriptor set: ") + vk_result_name(r);
      return false;
    }
    s->sets.push_back(set);
  }
  return true;
}

void lpf_slot_release(Vp9LpfState &st, LpfSlot *s) {
  if (s->lost) return;
  std::lock_guard<std::mutex> lock(st.mutex);
  st.free_slots.push_back(s);
}

Vp9LpfState *vp9_lpf_state_create(Gpu &gpu, std::string *error) {
  if (gpu.props.limits.maxPerStageDescriptorStorageBuffers < V3D_LPF_NUM_BINDINGS) {
    *error = "the loop-filter shader needs 7 storage buffers per stage";
    return nullptr;
  }
  auto st = std::make_unique<Vp9LpfState>();
  st->array = gpu.ssbo_array;
  // Layout: bindings 0..5 (windows) and 6 (records); or, as an array, binding 0 with 6 elements
  // and binding 6.
  uint32_t counts[V3D_LPF_NUM_BINDINGS];
  for (uint32_t i = 0; i < V3D_LPF_NUM_BINDINGS; i++)
    counts[i] = !st->array || i == V3D_LPF_BINDING_RECORDS ? 1 : i == 0 ? V3D_LPF_NUM_WINDOWS : 0;
  VkResult r = job_layouts_create(gpu, counts, V3D_LPF_NUM_BINDINGS, sizeof(V3dLpfPush),
                                  static_cast<uint32_t>(kMaxSlots * kLpfMaxGroups),
                                  &st->set_layout, &st->layout, &st->descriptor_pool);
  for (int one = 0; one < (st->array ? 1 : 2) && r == VK_SUCCESS; one++) {
    if (st->array)
      r = compute_pipeline_create(gpu, st->layout, vp9_lpf_array_spv, sizeof(vp9_lpf_array_spv),
                                  &st->pipeline[0]);
    else if (one)
      r = compute_pipeline_create(gpu, st->layout, vp9_lpf_w1_spv, sizeof(vp9_lpf_w1_spv),
                                  &st->pipeline[1]);
    else
      r = compute_pipeline_create(gpu, st->layout, vp9_lpf_w6_spv, sizeof(vp9_lpf_w6_spv),
                                  &st->pipeline[0]);
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating the loop-filter pipeline: ") + vk_result_name(r);
    vp9_lpf_state_destroy(gpu, st.release());
    return nullptr;
  }
  return st.release();
}

void vp9_lpf_state_destroy(Gpu &gpu, Vp9LpfState *st) {
  // The caller (Gpu's destructor) waited for the device to be idle.
  for (auto &s : st->slots) slot_destroy(gpu, s.get());
  job_layouts_destroy(gpu, st->pipeline, sizeof(st->pipeline) / sizeof(st->pipeline[0]),
                      st->set_layout, st->layout, st->descriptor_pool);
  delete st;
}

// This family's place in every Gpu (gpu_register_family).
namespace {
void *family_create(Gpu &gpu, std::string *error) { return vp9_lpf_state_create(gpu, error); }
void family_destroy(Gpu &gpu, void *st) {
  vp9_lpf_state_destroy(gpu, static_cast<Vp9LpfState *>(st));
}
void family_free_host(void *st) { delete static_cast<Vp9LpfState *>(st); }
void lost_fences(void *st, std::vector<VkFence> *out) {
  for (const auto &s : static_cast<Vp9LpfState *>(st)->slots)
    if (s->lost) out->push_back(s->fence);
}
const GpuFamily kFamily = {"VP9 loop filter", false, family_create, family_destroy,
                             family_free_host, lost_fences};
const int kSlot = gpu_register_family(&kFamily);
}  // namespace

Vp9LpfState *lpf_state(const Gpu &gpu) {
  return static_cast<Vp9LpfState *>(gpu_family_state(gpu, kSlot));
}

}  // namespace v3d
