// SPDX-License-Identifier: LGPL-2.1-or-later
// The H.264 deblocking job on the GPU (shaders/h264_deblock.comp): the pipeline and the one job
// slot of a Gpu, and gpu_h264_deblock_submit(), which copies the job's planes into the slot's
// staging buffer, copies the records (already ordered by wavefront step, kernels/h264/
// deblock_gpu.cpp), and records ONE command buffer: one dispatch per step with a
// compute->compute barrier between steps; one queue submission. wait() copies the planes back
// only when the GPU finished, so a failed job leaves the caller's planes untouched (the caller
// redoes them on the CPU).
//
// Ownership and threads: H264DeblockState belongs to its Gpu (created by gpu_open(), destroyed
// with it once the device is idle). Its one slot belongs to one job from submission to wait()
// (`busy`, a try-lock: a second concurrent job fails to submit and its caller uses the CPU).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/log.h"
#include "gpu/gpu.h"
#include "gpu/vk_device.h"
#include "gpu/vk_job.h"
#include "gpu/vk_memory.h"
#include "h264/deblock/deblock_vk.h"

#include "h264_deblock_layout.h"
#include "h264_deblock_spv.h"

namespace v3d {

struct H264DeblockState {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkQueryPool query = VK_NULL_HANDLE;
  HostBuffer records, staging;
  std::mutex busy;    // held by the job that owns the slot
  bool lost = false;  // a job never finished: the slot is not used again
};

H264DeblockState *h264_deblock_state_create(Gpu &gpu, std::string *error);
void h264_deblock_state_destroy(Gpu &gpu, H264DeblockState *st);
// This family's state on gpu (gpu_register_family, below); nullptr when the device has none.
H264DeblockState *deblock_state(const Gpu &gpu);

namespace {

static_assert(kH264RecordWords == V3D_H264_REC_WORDS, "record words as in h264_deblock_layout.h");
static_assert(sizeof(V3dH264Push) == 8, "push constants as in h264_deblock_layout.h");

// Longest wait (as the loop filter's: lavapipe compiles the shader at its first dispatch).
constexpr uint64_t kWaitTimeoutNs = 30ull * 1000 * 1000 * 1000;

// Test hook: V3D_TEST_H264_GPU_FAIL=submit makes every submission fail, =wait makes every job
// report a failure after the GPU finished (its staged planes are then not copied back), so tests
// reach the CPU fallbacks on a working device. (V3D_FAULT's device-lost / gpu-timeout /
// submit-lost / gpu-alloc reach the same paths and also lose the Gpu.)
bool test_fail(const char *what) {
  const char *e = getenv("V3D_TEST_H264_GPU_FAIL");
  return e && strcmp(e, what) == 0;
}

class DeblockJob final : public GpuJob {
 public:
  DeblockJob(std::shared_ptr<Gpu> gpu, const FramePlanes &planes, int mask, VkDeviceSize off[3])
      : gpu_(std::move(gpu)), planes_(planes), mask_(mask) {
    for (int p = 0; p < 3; p++) off_[p] = off[p];
  }
  ~DeblockJob() override {
    if (!done_) wait();
  }
  int wait() override;
  int copies() const override { return copies_; }
  bool ready() override {
    if (done_ || !submitted) return true;
    return gpu_->vk.vkGetFenceStatus(gpu_->device, deblock_state(*gpu_)->fence) == VK_SUCCESS;
  }
  int copies_ = 0;
  bool submitted = false;

 private:
  std::shared_ptr<Gpu> gpu_;
  FramePlanes planes_;
  int mask_;
  VkDeviceSize off_[3];
  bool done_ = false;
  int result_ = V3D_OK;
};

int DeblockJob::wait() {
  if (done_) return result_;
  done_ = true;
  Gpu &gpu = *gpu_;
  H264DeblockState &st = *deblock_state(gpu);
  if (!submitted) {
    st.busy.unlock();
    return result_ = V3D_ERROR_GPU;
  }
  bool injected;
  const VkResult r = job_wait(gpu, st.fence, kWaitTimeoutNs, &injected);
  if (r != VK_SUCCESS) {
    // The staged samples are not copied back: the caller's planes are untouched.
    st.lost = true;
    gpu.lost.store(true, std::memory_order_release);
    return result_ = set_error(V3D_ERROR_GPU, "GPU H.264 deblocking on %s failed: %s%s%s",
                               gpu.name.c_str(), vk_result_name(r),
                               r == VK_TIMEOUT ? " (not done in time)" : "",
                               injected ? ", injected by V3D_FAULT" : "");
  }
  if (test_fail("wait")) {
    st.busy.unlock();
    return result_ = set_error(V3D_ERROR_GPU,
                               "GPU H.264 deblocking failed (V3D_TEST_H264_GPU_FAIL=wait)");
  }
  job_store_time(gpu, st.query);
  for (int p = 0; p < 3; p++) {
    if (!(mask_ & (1 << p))) continue;
    const uint8_t *src = st.staging.map + off_[p];
    for (int y = 0; y < planes_.height[p]; y++)
      memcpy(planes_.data[p] + y * planes_.stride[p],
             src + static_cast<size_t>(y) * planes_.width[p], planes_.width[p]);
  }
  st.busy.unlock();
  return result_;
}

}  // namespace

H264DeblockState *h264_deblock_state_create(Gpu &gpu, std::string *error) {
  auto st = std::make_unique<H264DeblockState>();
  const uint32_t counts[2] = {1, 1};
  VkResult r = job_layouts_create(gpu, counts, 2, sizeof(V3dH264Push), 1, &st->set_layout,
                                  &st->layout, &st->descriptor_pool);
  if (r == VK_SUCCESS)
    r = compute_pipeline_create(gpu, st->layout, h264_deblock_spv, sizeof(h264_deblock_spv),
                                &st->pipeline);
  if (r == VK_SUCCESS) {
    auto di = vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    di.descriptorPool = st->descriptor_pool;
    di.descriptorSetCount = 1;
    di.pSetLayouts = &st->set_layout;
    r = gpu.vk.vkAllocateDescriptorSets(gpu.device, &di, &st->set);
  }
  if (r != VK_SUCCESS) {
    *error = std::string("creating the H.264 deblocking pipeline: ") + vk_result_name(r);
    h264_deblock_state_destroy(gpu, st.release());
    return nullptr;
  }
  if (!job_commands_create(gpu, &st->pool, &st->cmd, &st->fence, &st->query, error)) {
    h264_deblock_state_destroy(gpu, st.release());
    return nullptr;
  }
  return st.release();
}

void h264_deblock_state_destroy(Gpu &gpu, H264DeblockState *st) {
  host_buffer_destroy(gpu, &st->records);
  host_buffer_destroy(gpu, &st->staging);
  job_commands_destroy(gpu, st->pool, st->fence, st->query);
  job_layouts_destroy(gpu, &st->pipeline, 1, st->set_layout, st->layout, st->descriptor_pool);
  delete st;
}

bool gpu_has_h264_deblock(const Gpu &gpu) { return deblock_state(gpu) != nullptr; }

std::unique_ptr<GpuJob> gpu_h264_deblock_submit(Gpu &gpu, const FramePlanes &planes,
                                                const uint8_t *const *from,
                                                const ptrdiff_t *from_stride, int plane_mask, const uint32_t *records,
                                                const std::vector<uint32_t> &step_counts,
                                                std::string *error, bool *busy) {
  if (busy) *busy = false;
  if (!deblock_state(gpu)) {
    *error = "no H.264 deblocking pipeline on this device";
    return nullptr;
  }
  if (test_fail("submit")) {
    *error = "V3D_TEST_H264_GPU_FAIL=submit";
    return nullptr;
  }
  H264DeblockState &st = *deblock_state(gpu);
  if (gpu.lost.load(std::memory_order_acquire) || st.lost) {
    *error = "the GPU was lost";
    return nullptr;
  }
  if (!st.busy.try_lock()) {
    if (busy) *busy = true;
    *error = "another H.264 deblocking job is in flight";
    return nullptr;
  }
  const VkPhysicalDeviceLimits &lim = gpu.props.limits;
  VkDeviceSize off[3] = {0, 0, 0}, size = 0;
  for (int p = 0; p < 3; p++) {
    if (!(plane_mask & (1 << p))) continue;
    off[p] = size;
    size += (static_cast<VkDeviceSize>(planes.width[p]) * planes.height[p] + 3) / 4 * 4;
  }
  auto job = std::make_unique<DeblockJob>(gpu.shared_from_this(), planes, plane_mask, off);
  auto fail = [&](const std::string &why) -> std::unique_ptr<GpuJob> {
    *error = why;
    return nullptr;  // the job's destructor frees the slot (nothing was submitted)
  };
  size_t n_records = 0;
  for (uint32_t c : step_counts) n_records += c;
  const size_t words = V3D_H264_TABLE_WORDS + n_records * V3D_H264_REC_WORDS;
  if (size > lim.maxStorageBufferRange || words * 4 > lim.maxStorageBufferRange)
    return fail("picture too large for the GPU's storage buffers");
  std::string err;
  if (!host_buffer_reserve(gpu, &st.staging, std::max<VkDeviceSize>(size, 4), &err) ||
      !host_buffer_reserve(gpu, &st.records, words * 4, &err))
    return fail(err);
  uint32_t *rec = reinterpret_cast<uint32_t *>(st.records.map);
  for (int p = 0; p < 3; p++) {
    uint32_t *t = rec + p * V3D_H264_PLANE_WORDS;
    t[0] = static_cast<uint32_t>(off[p]);
    t[1] = t[2] = static_cast<uint32_t>(planes.width[p]);
    t[3] = static_cast<uint32_t>(planes.height[p]);
    if (!(plane_mask & (1 << p))) continue;
    uint8_t *dst = st.staging.map + off[p];
    const uint8_t *src = from ? from[p] : planes.data[p];
    const ptrdiff_t src_stride = from ? from_stride[p] : planes.stride[p];
    for (int y = 0; y < planes.height[p]; y++)
      memcpy(dst + static_cast<size_t>(y) * planes.width[p], src + y * src_stride, planes.width[p]);
    job->copies_++;
  }
  if (n_records)  // none when nothing in the planes is filtered (records may then be null)
    memcpy(rec + V3D_H264_TABLE_WORDS, records, n_records * V3D_H264_REC_WORDS * 4);

  VkDescriptorBufferInfo info[2] = {{st.staging.buffer, 0, VK_WHOLE_SIZE},
                                    {st.records.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet wr[2];
  for (uint32_t i = 0; i < 2; i++) {
    wr[i] = vk_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    wr[i].dstSet = st.set;
    wr[i].dstBinding = i;
    wr[i].descriptorCount = 1;
    wr[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    wr[i].pBufferInfo = &info[i];
  }
  gpu.vk.vkUpdateDescriptorSets(gpu.device, 2, wr, 0, nullptr);

  const VkApi &vk = gpu.vk;
  err = job_begin(gpu, st.pool, st.cmd, st.query);
  if (!err.empty()) return fail(err);
  vk.vkCmdBindPipeline(st.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.pipeline);
  vk.vkCmdBindDescriptorSets(st.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.layout, 0, 1, &st.set, 0,
                             nullptr);
  auto step_barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  step_barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  step_barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  const uint32_t max_groups = lim.maxComputeWorkGroupCount[0];
  uint32_t first = V3D_H264_TABLE_WORDS;
  bool any = false;
  for (uint32_t count : step_counts) {
    if (!count) continue;
    if (any)
      vk.vkCmdPipelineBarrier(st.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &step_barrier, 0,
                              nullptr, 0, nullptr);
    any = true;
    for (uint32_t done = 0; done < count; done += max_groups) {
      V3dH264Push push;
      push.rec_first = first + done * V3D_H264_REC_WORDS;
      push.rec_count = std::min(max_groups, count - done);
      vk.vkCmdPushConstants(st.cmd, st.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
      vk.vkCmdDispatch(st.cmd, push.rec_count, 1, 1);
    }
    first += count * V3D_H264_REC_WORDS;
  }
  err = job_end_and_submit(gpu, st.cmd, st.fence, st.query);
  if (!err.empty()) return fail(err);
  job->submitted = true;
  return job;
}

// This family's place in every Gpu (gpu_register_family).
namespace {
void *family_create(Gpu &gpu, std::string *error) { return h264_deblock_state_create(gpu, error); }
void family_destroy(Gpu &gpu, void *st) {
  h264_deblock_state_destroy(gpu, static_cast<H264DeblockState *>(st));
}

const GpuFamily kFamily = {"H.264 deblocking", false, family_create, family_destroy,
                             nullptr, nullptr};
const int kSlot = gpu_register_family(&kFamily);
}  // namespace

H264DeblockState *deblock_state(const Gpu &gpu) {
  return static_cast<H264DeblockState *>(gpu_family_state(gpu, kSlot));
}

}  // namespace v3d
