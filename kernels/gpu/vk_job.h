// SPDX-License-Identifier: LGPL-2.1-or-later
// Pieces every GPU job of the runtime shares (vp9_itx_*, vp9_lpf_*, h264_deblock_*): a job
// slot's command pool, command buffer, fence and timestamp queries; compute pipelines from
// embedded SPIR-V; the start and the end of a job's one command buffer (timestamps, the barrier
// that makes shader writes visible to the host, one queue submission with the slot's fence);
// the bounded wait for it (with V3D_FAULT's injected losses); reading its device time.
//
// Threads: the functions touch only the handles passed in, plus gpu.queue under
// gpu.queue_mutex (job_end_and_submit) and gpu.last_job_seconds (atomic).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu/vk_device.h"

namespace v3d {

// Creates a transient command pool with one primary command buffer, an unsignalled fence and,
// where the queue has timestamps, a pool of 2 timestamp queries (*query stays null otherwise).
// On failure returns false with *error set; what was created is left in the outputs for
// job_commands_destroy.
bool job_commands_create(Gpu &gpu, VkCommandPool *pool, VkCommandBuffer *cmd, VkFence *fence,
                         VkQueryPool *query, std::string *error);
void job_commands_destroy(Gpu &gpu, VkCommandPool pool, VkFence fence, VkQueryPool query);

// The layouts of one job family: a descriptor set layout whose binding i holds counts[i]
// storage buffers (0: no binding i), a pipeline layout with push_bytes of push constants, and a
// descriptor pool for max_sets such sets. Outputs left null on failure are fine for
// job_layouts_destroy.
VkResult job_layouts_create(Gpu &gpu, const uint32_t *counts, uint32_t n, uint32_t push_bytes,
                            uint32_t max_sets, VkDescriptorSetLayout *set_layout,
                            VkPipelineLayout *layout, VkDescriptorPool *pool);
// Destroys the family's pipelines[0..n) (null ones skipped) and its layouts and pool. The
// device must be idle.
void job_layouts_destroy(Gpu &gpu, const VkPipeline *pipelines, size_t n,
                         VkDescriptorSetLayout set_layout, VkPipelineLayout layout,
                         VkDescriptorPool pool);

// A compute pipeline of `layout` from SPIR-V (entry point "main").
VkResult compute_pipeline_create(Gpu &gpu, VkPipelineLayout layout, const uint32_t *code,
                                 size_t bytes, VkPipeline *out);

// Resets the pool, begins cmd (one-time submit) and writes the start timestamp. "" or failure.
std::string job_begin(Gpu &gpu, VkCommandPool pool, VkCommandBuffer cmd, VkQueryPool query);
// Ends the job: the compute-to-host barrier, the end timestamp, vkEndCommandBuffer, and one
// vkQueueSubmit with fence (reset first). "" or the failure.
std::string job_end_and_submit(Gpu &gpu, VkCommandBuffer cmd, VkFence fence, VkQueryPool query);
// Waits at most timeout_ns for fence: polls it for a short while (kFenceSpinNs, vk_job.cpp;
// not on CPU devices), then sleeps in vkWaitForFences. Blocks; returns vkWaitForFences' result.
VkResult fence_wait(Gpu &gpu, VkFence fence, uint64_t timeout_ns);
// Waits at most timeout_ns for a job's fence (fence_wait). V3D_FAULT's device-lost and
// gpu-timeout turn a signalled fence into VK_ERROR_DEVICE_LOST / VK_TIMEOUT and set *injected
// (else false).
VkResult job_wait(Gpu &gpu, VkFence fence, uint64_t timeout_ns, bool *injected);
// After the fence signalled: stores the job's device time in gpu.last_job_seconds.
void job_store_time(Gpu &gpu, VkQueryPool query);

}  // namespace v3d
