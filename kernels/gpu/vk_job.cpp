// SPDX-License-Identifier: LGPL-2.1-or-later
#include "gpu/vk_job.h"

#include "runtime/fault.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace v3d {

// How long a fence wait polls the fence before it sleeps in vkWaitForFences: 300 us. On the
// device machine's NVIDIA driver a one-block transform job took 86-99 us from submission to the
// wait's return with a sleeping wait, 34-37 us with polling (10-22 us of it on the GPU); split
// frames last 0.3 ms there, so the sleeping wait's wake-up was a fifth of a frame. The
// thread that waits is the one that prepared the GPU's share: in a lean split its core is left
// to the GPU anyway. Never on a CPU device (lavapipe), where polling would take a core from the
// "GPU" itself.
constexpr uint64_t kFenceSpinNs = 300 * 1000;

bool job_commands_create(Gpu &gpu, VkCommandPool *pool, VkCommandBuffer *cmd, VkFence *fence,
                         VkQueryPool *query, std::string *error) {
  const VkApi &vk = gpu.vk;
  auto pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pi.queueFamilyIndex = gpu.queue_family;
  VkResult r = vk.vkCreateCommandPool(gpu.device, &pi, nullptr, pool);
  if (r == VK_SUCCESS) {
    auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    ai.commandPool = *pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    r = vk.vkAllocateCommandBuffers(gpu.device, &ai, cmd);
  }
  if (r == VK_SUCCESS) {
    auto fi = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    r = vk.vkCreateFence(gpu.device, &fi, nullptr, fence);
  }
  if (r == VK_SUCCESS && gpu.timestamp_bits) {
    auto qi = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    if (vk.vkCreateQueryPool(gpu.device, &qi, nullptr, query) != VK_SUCCESS)
      *query = VK_NULL_HANDLE;  // timing is optional
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating a job slot: ") + vk_result_name(r);
    return false;
  }
  return true;
}

void job_commands_destroy(Gpu &gpu, VkCommandPool pool, VkFence fence, VkQueryPool query) {
  const VkApi &vk = gpu.vk;
  if (query) vk.vkDestroyQueryPool(gpu.device, query, nullptr);
  if (fence) vk.vkDestroyFence(gpu.device, fence, nullptr);
  if (pool) vk.vkDestroyCommandPool(gpu.device, pool, nullptr);  // frees its command buffer
}

VkResult job_layouts_create(Gpu &gpu, const uint32_t *counts, uint32_t n, uint32_t push_bytes,
                            uint32_t max_sets, VkDescriptorSetLayout *set_layout,
                            VkPipelineLayout *layout, VkDescriptorPool *pool) {
  const VkApi &vk = gpu.vk;
  std::vector<VkDescriptorSetLayoutBinding> b;
  uint32_t per_set = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!counts[i]) continue;
    VkDescriptorSetLayoutBinding x{};
    x.binding = i;
    x.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    x.descriptorCount = counts[i];
    x.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    b.push_back(x);
    per_set += counts[i];
  }
  auto li = vk_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  li.bindingCount = static_cast<uint32_t>(b.size());
  li.pBindings = b.data();
  VkResult r = vk.vkCreateDescriptorSetLayout(gpu.device, &li, nullptr, set_layout);
  VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  if (r == VK_SUCCESS) {
    auto pi = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pi.setLayoutCount = 1;
    pi.pSetLayouts = set_layout;
    pi.pushConstantRangeCount = 1;
    pi.pPushConstantRanges = &pcr;
    r = vk.vkCreatePipelineLayout(gpu.device, &pi, nullptr, layout);
  }
  if (r == VK_SUCCESS) {
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, max_sets * per_set};
    auto di = vk_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    di.maxSets = max_sets;
    di.poolSizeCount = 1;
    di.pPoolSizes = &ps;
    r = vk.vkCreateDescriptorPool(gpu.device, &di, nullptr, pool);
  }
  return r;
}

void job_layouts_destroy(Gpu &gpu, const VkPipeline *pipelines, size_t n,
                         VkDescriptorSetLayout set_layout, VkPipelineLayout layout,
                         VkDescriptorPool pool) {
  const VkApi &vk = gpu.vk;
  for (size_t i = 0; i < n; i++)
    if (pipelines[i]) vk.vkDestroyPipeline(gpu.device, pipelines[i], nullptr);
  if (pool) vk.vkDestroyDescriptorPool(gpu.device, pool, nullptr);  // frees its sets
  if (layout) vk.vkDestroyPipelineLayout(gpu.device, layout, nullptr);
  if (set_layout) vk.vkDestroyDescriptorSetLayout(gpu.device, set_layout, nullptr);
}

VkResult compute_pipeline_create(Gpu &gpu, VkPipelineLayout layout, const uint32_t *code,
                                 size_t bytes, VkPipeline *out) {
  const VkApi &vk = gpu.vk;
  auto mi = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  mi.codeSize = bytes;
  mi.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult r = vk.vkCreateShaderModule(gpu.device, &mi, nullptr, &module);
  if (r != VK_SUCCESS) return r;
  auto ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module;
  ci.stage.pName = "main";
  ci.layout = layout;
  r = vk.vkCreateComputePipelines(gpu.device, VK_NULL_HANDLE, 1, &ci, nullptr, out);
  vk.vkDestroyShaderModule(gpu.device, module, nullptr);
  return r;
}

std::string job_begin(Gpu &gpu, VkCommandPool pool, VkCommandBuffer cmd, VkQueryPool query) {
  const VkApi &vk = gpu.vk;
  vk.vkResetCommandPool(gpu.device, pool, 0);
  auto bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult r = vk.vkBeginCommandBuffer(cmd, &bi);
  if (r != VK_SUCCESS) return std::string("vkBeginCommandBuffer: ") + vk_result_name(r);
  if (query) {
    vk.vkCmdResetQueryPool(cmd, query, 0, 2);
    vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query, 0);
  }
  return "";
}

std::string job_end_and_submit(Gpu &gpu, VkCommandBuffer cmd, VkFence fence, VkQueryPool query) {
  const VkApi &vk = gpu.vk;
  // Make the shader's writes visible to the host once the fence signals.
  auto mb = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                          1, &mb, 0, nullptr, 0, nullptr);
  if (query) vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, query, 1);
  VkResult r = vk.vkEndCommandBuffer(cmd);
  if (r != VK_SUCCESS) return std::string("vkEndCommandBuffer: ") + vk_result_name(r);
  auto si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  vk.vkResetFences(gpu.device, 1, &fence);
  {
    std::lock_guard<std::mutex> lock(gpu.queue_mutex);
    r = fault_hit(Fault::kSubmitLost) ? VK_ERROR_DEVICE_LOST  // V3D_FAULT (runtime/fault.h)
                                      : vk.vkQueueSubmit(gpu.queue, 1, &si, fence);
  }
  if (r == VK_ERROR_DEVICE_LOST) gpu.lost.store(true, std::memory_order_release);
  if (r != VK_SUCCESS) return std::string("vkQueueSubmit: ") + vk_result_name(r);
  return "";
}

VkResult fence_wait(Gpu &gpu, VkFence fence, uint64_t timeout_ns) {
  const VkApi &vk = gpu.vk;
  if (gpu.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto spin = std::chrono::nanoseconds(std::min(timeout_ns, kFenceSpinNs));
    do {
      const VkResult r = vk.vkGetFenceStatus(gpu.device, fence);
      if (r != VK_NOT_READY) return r;  // signalled, or lost
      std::this_thread::yield();
    } while (std::chrono::steady_clock::now() - t0 < spin);
  }
  return vk.vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, timeout_ns);
}

VkResult job_wait(Gpu &gpu, VkFence fence, uint64_t timeout_ns, bool *injected) {
  const VkResult r = fence_wait(gpu, fence, timeout_ns);
  *injected = true;
  if (r == VK_SUCCESS && fault_hit(Fault::kDeviceLost)) return VK_ERROR_DEVICE_LOST;
  if (r == VK_SUCCESS && fault_hit(Fault::kGpuTimeout)) return VK_TIMEOUT;
  *injected = false;
  return r;
}

void job_store_time(Gpu &gpu, VkQueryPool query) {
  if (!query) return;
  uint64_t ts[2];
  if (gpu.vk.vkGetQueryPoolResults(gpu.device, query, 0, 2, sizeof(ts), ts, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
    return;
  const uint64_t mask = gpu.timestamp_bits >= 64 ? ~0ull : (1ull << gpu.timestamp_bits) - 1;
  gpu.last_job_seconds.store(static_cast<double>((ts[1] - ts[0]) & mask) *
                             gpu.props.limits.timestampPeriod * 1e-9);
}

}  // namespace v3d
