// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vulkan/vp9_itx_state.h"

#include "vp9_itx_layout.h"
#include "vp9_itx_4_c16_spv.h"
#include "vp9_itx_4_u32_spv.h"
#include "vp9_itx_8_c16_spv.h"
#include "vp9_itx_8_u32_spv.h"
#include "vp9_itx_16_c16_spv.h"
#include "vp9_itx_16_u32_spv.h"
#include "vp9_itx_32_c16_spv.h"
#include "vp9_itx_32_u32_spv.h"

namespace v3d {
namespace {

// Jobs of one Gpu in flight at once (slots). Beyond that, a submission fails (the caller waits
// for an older job or runs the frame on the CPU) rather than block. 16: a batch call
// (v3d_vp9_itxfm_add_frames) keeps up to 16 frames in flight; each slot's buffers only grow to
// the largest frame it carried.
constexpr size_t kMaxSlots = 16;

struct Spirv {
  const uint32_t *code;
  size_t bytes;
};
// [tx_size][coef16]
const Spirv kSpirv[kItxNumSizes][2] = {
    {{vp9_itx_4_u32_spv, sizeof(vp9_itx_4_u32_spv)}, {vp9_itx_4_c16_spv, sizeof(vp9_itx_4_c16_spv)}},
    {{vp9_itx_8_u32_spv, sizeof(vp9_itx_8_u32_spv)}, {vp9_itx_8_c16_spv, sizeof(vp9_itx_8_c16_spv)}},
    {{vp9_itx_16_u32_spv, sizeof(vp9_itx_16_u32_spv)}, {vp9_itx_16_c16_spv, sizeof(vp9_itx_16_c16_spv)}},
    {{vp9_itx_32_u32_spv, sizeof(vp9_itx_32_u32_spv)}, {vp9_itx_32_c16_spv, sizeof(vp9_itx_32_c16_spv)}},
};

void slot_destroy(Gpu &gpu, ItxSlot *s) {
  const VkApi &vk = gpu.vk;
  host_buffer_destroy(gpu, &s->records);
  host_buffer_destroy(gpu, &s->coeffs);
  host_buffer_destroy(gpu, &s->staging);
  if (s->query) vk.vkDestroyQueryPool(gpu.device, s->query, nullptr);
  if (s->fence) vk.vkDestroyFence(gpu.device, s->fence, nullptr);
  if (s->pool) vk.vkDestroyCommandPool(gpu.device, s->pool, nullptr);
  // The descriptor set goes with the pool.
}

bool slot_create(Gpu &gpu, Vp9ItxState &st, ItxSlot *s, std::string *error) {
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
  if (r == VK_SUCCESS) {
    auto di = vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    di.descriptorPool = st.descriptor_pool;
    di.descriptorSetCount = 1;
    di.pSetLayouts = &st.set_layout;
    r = vk.vkAllocateDescriptorSets(gpu.device, &di, &s->set);
  }
  if (r == VK_SUCCESS && gpu.timestamp_bits) {
    auto qi = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    if (vk.vkCreateQueryPool(gpu.device, &qi, nullptr, &s->query) != VK_SUCCESS)
      s->query = VK_NULL_HANDLE;  // timing is optional
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating a job slot: ") + vk_result_name(r);
    return false;
  }
  return true;
}

}  // namespace

ItxSlot *slot_acquire(Gpu &gpu, Vp9ItxState &st, std::string *error) {
  std::lock_guard<std::mutex> lock(st.mutex);
  if (!st.free_slots.empty()) {
    ItxSlot *s = st.free_slots.back();
    st.free_slots.pop_back();
    return s;
  }
  if (st.slots.size() >= kMaxSlots) {
    *error = "too many GPU jobs in flight";
    return nullptr;
  }
  auto s = std::make_unique<ItxSlot>();
  if (!slot_create(gpu, st, s.get(), error)) {
    slot_destroy(gpu, s.get());
    return nullptr;
  }
  st.slots.push_back(std::move(s));
  return st.slots.back().get();
}

void slot_release(Vp9ItxState &st, ItxSlot *s) {
  if (s->lost) return;
  std::lock_guard<std::mutex> lock(st.mutex);
  st.free_slots.push_back(s);
}

Vp9ItxState *vp9_itx_state_create(Gpu &gpu, std::string *error) {
  const VkApi &vk = gpu.vk;
  auto st = std::make_unique<Vp9ItxState>();
  VkDescriptorSetLayoutBinding b[V3D_ITX_NUM_BINDINGS];
  for (uint32_t i = 0; i < V3D_ITX_NUM_BINDINGS; i++) {
    b[i] = VkDescriptorSetLayoutBinding{};
    b[i].binding = i;
    b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    b[i].descriptorCount = 1;
    b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto li = vk_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  li.bindingCount = V3D_ITX_NUM_BINDINGS;
  li.pBindings = b;
  VkResult r = vk.vkCreateDescriptorSetLayout(gpu.device, &li, nullptr, &st->set_layout);
  VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(V3dItxPush)};
  if (r == VK_SUCCESS) {
    auto pi = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pi.setLayoutCount = 1;
    pi.pSetLayouts = &st->set_layout;
    pi.pushConstantRangeCount = 1;
    pi.pPushConstantRanges = &pcr;
    r = vk.vkCreatePipelineLayout(gpu.device, &pi, nullptr, &st->layout);
  }
  if (r == VK_SUCCESS) {
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxSlots * V3D_ITX_NUM_BINDINGS};
    auto di = vk_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    di.maxSets = kMaxSlots;
    di.poolSizeCount = 1;
    di.pPoolSizes = &ps;
    r = vk.vkCreateDescriptorPool(gpu.device, &di, nullptr, &st->descriptor_pool);
  }
  for (int s = 0; s < kItxNumSizes && r == VK_SUCCESS; s++) {
    const Spirv &spv = kSpirv[s][gpu.coef16 ? 1 : 0];
    auto mi = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    mi.codeSize = spv.bytes;
    mi.pCode = spv.code;
    VkShaderModule module = VK_NULL_HANDLE;
    r = vk.vkCreateShaderModule(gpu.device, &mi, nullptr, &module);
    if (r != VK_SUCCESS) break;
    auto ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = st->layout;
    r = vk.vkCreateComputePipelines(gpu.device, VK_NULL_HANDLE, 1, &ci, nullptr, &st->pipeline[s]);
    vk.vkDestroyShaderModule(gpu.device, module, nullptr);
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating pipelines: ") + vk_result_name(r);
    vp9_itx_state_destroy(gpu, st.release());
    return nullptr;
  }
  return st.release();
}

void vp9_itx_state_destroy(Gpu &gpu, Vp9ItxState *st) {
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
