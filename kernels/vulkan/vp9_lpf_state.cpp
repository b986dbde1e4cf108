// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vulkan/vp9_lpf_state.h"

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
  const VkApi &vk = gpu.vk;
  host_buffer_destroy(gpu, &s->records);
  host_buffer_destroy(gpu, &s->staging);
  if (s->query) vk.vkDestroyQueryPool(gpu.device, s->query, nullptr);
  if (s->fence) vk.vkDestroyFence(gpu.device, s->fence, nullptr);
  if (s->pool) vk.vkDestroyCommandPool(gpu.device, s->pool, nullptr);
  // Descriptor sets go with the descriptor pool.
}

bool slot_create(Gpu &gpu, LpfSlot *s, std::string *error) {
  const VkApi &vk = gpu.vk;
  auto pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pi.queueFamilyIndex = gpu.queue_family;
  VkResult r = vk.vkCreateCommandPool(gpu.device, &pi, nullptr, &s->pool);
  if (r == VK_SUCCESS) {
    auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    ai.commandPool = s->pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    r = vk.vkAllocateCommandBuffers(gpu.device, &ai, &s->cmd);
  }
  if (r == VK_SUCCESS) {
    auto fi = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    r = vk.vkCreateFence(gpu.device, &fi, nullptr, &s->fence);
  }
  if (r == VK_SUCCESS && gpu.timestamp_bits) {
    auto qi = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    if (vk.vkCreateQueryPool(gpu.device, &qi, nullptr, &s->query) != VK_SUCCESS)
      s->query = VK_NULL_HANDLE;  // timing is optional
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating a loop-filter job slot: ") + vk_result_name(r);
    return false;
  }
  return true;
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
  if (!slot_create(gpu, s.get(), error)) {
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
  const VkApi &vk = gpu.vk;
  if (gpu.props.limits.maxPerStageDescriptorStorageBuffers < V3D_LPF_NUM_BINDINGS) {
    *error = "the loop-filter shader needs 7 storage buffers per stage";
    return nullptr;
  }
  auto st = std::make_unique<Vp9LpfState>();
  st->array = gpu.ssbo_array;
  // Layout: bindings 0..5 (windows) and 6 (records); or, as an array, binding 0 with 6 elements
  // and binding 6.
  VkDescriptorSetLayoutBinding b[V3D_LPF_NUM_BINDINGS];
  uint32_t n_bindings = 0;
  for (uint32_t i = 0; i < V3D_LPF_NUM_BINDINGS; i++) {
    if (st->array && i > 0 && i < V3D_LPF_NUM_WINDOWS) continue;
    VkDescriptorSetLayoutBinding &x = b[n_bindings++];
    x = VkDescriptorSetLayoutBinding{};
    x.binding = i;
    x.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    x.descriptorCount = st->array && i == 0 ? V3D_LPF_NUM_WINDOWS : 1;
    x.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto li = vk_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  li.bindingCount = n_bindings;
  li.pBindings = b;
  VkResult r = vk.vkCreateDescriptorSetLayout(gpu.device, &li, nullptr, &st->set_layout);
  VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(V3dLpfPush)};
  if (r == VK_SUCCESS) {
    auto pi = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pi.setLayoutCount = 1;
    pi.pSetLayouts = &st->set_layout;
    pi.pushConstantRangeCount = 1;
    pi.pPushConstantRanges = &pcr;
    r = vk.vkCreatePipelineLayout(gpu.device, &pi, nullptr, &st->layout);
  }
  if (r == VK_SUCCESS) {
    const uint32_t sets = static_cast<uint32_t>(kMaxSlots * kLpfMaxGroups);
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sets * V3D_LPF_NUM_BINDINGS};
    auto di = vk_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    di.maxSets = sets;
    di.poolSizeCount = 1;
    di.pPoolSizes = &ps;
    r = vk.vkCreateDescriptorPool(gpu.device, &di, nullptr, &st->descriptor_pool);
  }
  for (int one = 0; one < (st->array ? 1 : 2) && r == VK_SUCCESS; one++) {
    auto mi = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    mi.codeSize = st->array ? sizeof(vp9_lpf_array_spv)
                  : one     ? sizeof(vp9_lpf_w1_spv)
                            : sizeof(vp9_lpf_w6_spv);
    mi.pCode = st->array ? vp9_lpf_array_spv : one ? vp9_lpf_w1_spv : vp9_lpf_w6_spv;
    VkShaderModule module = VK_NULL_HANDLE;
    r = vk.vkCreateShaderModule(gpu.device, &mi, nullptr, &module);
    if (r != VK_SUCCESS) break;
    auto ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = st->layout;
    r = vk.vkCreateComputePipelines(gpu.device, VK_NULL_HANDLE, 1, &ci, nullptr, &st->pipeline[one]);
    vk.vkDestroyShaderModule(gpu.device, module, nullptr);
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating the loop-filter pipeline: ") + vk_result_name(r);
    vp9_lpf_state_destroy(gpu, st.release());
    return nullptr;
  }
  return st.release();
}

void vp9_lpf_state_destroy(Gpu &gpu, Vp9LpfState *st) {
  const VkApi &vk = gpu.vk;
  // The caller (Gpu's destructor) waited for the device to be idle.
  for (auto &s : st->slots) slot_destroy(gpu, s.get());
  if (st->descriptor_pool) vk.vkDestroyDescriptorPool(gpu.device, st->descriptor_pool, nullptr);
  for (VkPipeline p : st->pipeline)
    if (p) vk.vkDestroyPipeline(gpu.device, p, nullptr);
  if (st->layout) vk.vkDestroyPipelineLayout(gpu.device, st->layout, nullptr);
  if (st->set_layout) vk.vkDestroyDescriptorSetLayout(gpu.device, st->set_layout, nullptr);
  delete st;
}

}  // namespace v3d
