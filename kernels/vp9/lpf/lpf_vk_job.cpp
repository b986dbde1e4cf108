// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 loop-filter job on the GPU: gpu_vp9_lpf_submit() binds each frame's planes (in place
// when they lie in shared memory, else copied into the slot's staging buffer), writes the frame
// table and the superblock records ordered by wavefront step, and records ONE command buffer:
// per step t = sb_col + 2 * sb_row, one dispatch per group of frames (a group: frames whose
// buffers fit the shader's 6 memory windows, one descriptor set), then a compute->compute
// barrier; one queue submission. Why the step order is exact: docs/architecture.md.
//
// Ownership and threads: a job holds its Gpu (shared) and one slot until wait() or destruction;
// a job is used by one thread at a time; different jobs may run on different threads.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/log.h"
#include "gpu/gpu.h"
#include "gpu/vk_job.h"
#include "vp9/lpf/lpf_vk_state.h"
#include "vp9/lpf/lpf_vk.h"

#include "vp9_lpf_layout.h"

namespace v3d {
namespace {

// Longest wait for a job before reporting V3D_ERROR_GPU instead of hanging: 30 s, plus 5 s per
// further frame of the job. A 1080p frame takes milliseconds on a GPU, but lavapipe compiles
// the (large, unrolled) shader at its first dispatch, which took over 10 s once on a loaded
// 2-core machine, and then filters a frame in ~0.1-0.5 s.
constexpr uint64_t kWaitTimeoutNs = 30ull * 1000 * 1000 * 1000;
constexpr uint64_t kWaitPerFrameNs = 5ull * 1000 * 1000 * 1000;
static_assert(kLpfCellWords == V3D_LPF_CELLS, "cell words as in vp9_lpf_layout.h");
static_assert(sizeof(V3dLpfPush) == 8, "push constants as in vp9_lpf_layout.h");

VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

// Test hook: V3D_TEST_LPF_GPU_FAIL=submit makes every submission fail, =wait makes every job
// report a GPU failure after the GPU finished (its staged planes are then not copied back), so
// tests reach the CPU fallbacks and the in-place error on a working device.
bool test_fail(const char *what) {
  const char *e = getenv("V3D_TEST_LPF_GPU_FAIL");
  return e && strcmp(e, what) == 0;
}

// Where one plane of a job lives: a shared buffer (in place) or the staging buffer.
struct PlaneBind {
  bool used = false, staged = false;
  VkBuffer buffer = VK_NULL_HANDLE;  // VK_NULL_HANDLE while staged (the staging key)
  VkDeviceSize offset = 0;           // of pixel (0, 0) in buffer (or staging)
  VkDeviceSize span = 0;             // bytes from pixel (0, 0) to the end of the last row
  VkDeviceSize buffer_size = 0;
};

// One memory window of a group: a buffer and the byte range of it the descriptor covers.
struct Window {
  VkBuffer buffer;
  VkDeviceSize lo, hi, buffer_size;
};

struct Group {
  std::vector<Window> windows;  // at most V3D_LPF_NUM_WINDOWS
  std::vector<size_t> frames;
};

class LpfJob final : public LpfGpuJob {
 public:
  LpfJob(std::shared_ptr<Gpu> gpu, LpfSlot *slot, const LpfGpuFrame *frames, size_t n)
      : gpu_(std::move(gpu)), slot_(slot), frames_(frames, frames + n), bind_(n) {}
  ~LpfJob() override {
    if (slot_) wait();
  }
  int wait() override;
  bool ready() override {
    if (!slot_ || !submitted) return true;
    return gpu_->vk.vkGetFenceStatus(gpu_->device, slot_->fence) == VK_SUCCESS;
  }
  int copies() const override { return copies_; }
  bool in_place(size_t f) const override {
    for (const PlaneBind &b : bind_[f])
      if (b.used && !b.staged) return true;
    return false;
  }

  std::vector<std::array<PlaneBind, 3>> &bind() { return bind_; }
  int copies_ = 0;
  bool submitted = false;  // false: wait() only returns the slot

 private:
  std::shared_ptr<Gpu> gpu_;
  LpfSlot *slot_;
  std::vector<LpfGpuFrame> frames_;  // cells not used after submission
  std::vector<std::array<PlaneBind, 3>> bind_;
  int result_ = V3D_OK;
};

int LpfJob::wait() {
  if (!slot_) return result_;
  Gpu &gpu = *gpu_;
  if (!submitted) {
    lpf_slot_release(*lpf_state(gpu), slot_);
    slot_ = nullptr;
    return result_ = V3D_ERROR_GPU;
  }
  const uint64_t timeout = kWaitTimeoutNs + kWaitPerFrameNs * (frames_.size() - 1);
  VkResult r = fence_wait(gpu, slot_->fence, timeout);
  if (r == VK_SUCCESS && test_fail("wait")) {
    result_ = set_error(V3D_ERROR_GPU, "GPU loop filter failed (V3D_TEST_LPF_GPU_FAIL=wait)");
  } else if (r != VK_SUCCESS) {
    slot_->lost = true;
    result_ = set_error(V3D_ERROR_GPU, "GPU loop filter on %s failed: %s%s", gpu.name.c_str(),
                        vk_result_name(r), r == VK_TIMEOUT ? " (not done in time)" : "");
  } else {
    job_store_time(gpu, slot_->query);
    // Staged planes back into the frames (only planes this job filtered).
    for (size_t f = 0; f < frames_.size(); f++) {
      const FramePlanes &fp = frames_[f].planes;
      for (int p = 0; p < 3; p++) {
        const PlaneBind &b = bind_[f][p];
        if (!b.used || !b.staged) continue;
        const uint8_t *src = slot_->staging.map + b.offset;
        for (int y = 0; y < fp.height[p]; y++)
          memcpy(fp.data[p] + y * fp.stride[p], src + static_cast<size_t>(y) * fp.width[p],
                 fp.width[p]);
      }
    }
  }
  lpf_slot_release(*lpf_state(gpu), slot_);
  slot_ = nullptr;
  return result_;
}

// Adds the buffers of frame f's planes to group g if they fit its windows. False if not.
bool add_to_group(Group &g, const std::array<PlaneBind, 3> &planes, size_t f) {
  std::vector<Window> w = g.windows;
  for (const PlaneBind &b : planes) {
    if (!b.used) continue;
    auto it = std::find_if(w.begin(), w.end(), [&](const Window &x) { return x.buffer == b.buffer; });
    if (it == w.end()) {
      if (w.size() >= V3D_LPF_NUM_WINDOWS) return false;
      w.push_back(Window{b.buffer, b.offset, b.offset + b.span, b.buffer_size});
    } else {
      it->lo = std::min(it->lo, b.offset);
      it->hi = std::max(it->hi, b.offset + b.span);
    }
  }
  g.windows = std::move(w);
  g.frames.push_back(f);
  return true;
}

// Per wavefront step and frame group: the first superblock record and the record count.
using Dispatch = std::vector<std::vector<std::pair<uint32_t, uint32_t>>>;

// Records the dispatches of every step and submits them with the slot's fence. dispatches[t][g]:
// (first record word, superblock count). Returns "" or the failure.
std::string record_and_submit(Gpu &gpu, Vp9LpfState &st, LpfSlot *slot, const Dispatch &steps,
                              const std::vector<Group> &groups) {
  const VkApi &vk = gpu.vk;
  const uint32_t max_groups = gpu.props.limits.maxComputeWorkGroupCount[0];
  VkCommandBuffer cmd = slot->cmd;
  std::string err = job_begin(gpu, slot->pool, cmd, slot->query);
  if (!err.empty()) return err;
  int pipeline = -1;  // bound variant: 1 = one window
  // Each step reads and writes what the previous steps wrote.
  auto step_barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  step_barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  step_barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  size_t bound = SIZE_MAX;
  for (size_t t = 0; t < steps.size(); t++) {
    if (t)
      vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &step_barrier, 0,
                              nullptr, 0, nullptr);
    for (size_t g = 0; g < steps[t].size(); g++) {
      const uint32_t first = steps[t][g].first, count = steps[t][g].second;
      if (!count) continue;
      const int want = !st.array && groups[g].windows.size() == 1 ? 1 : 0;
      if (pipeline != want) {
        vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.pipeline[want]);
        pipeline = want;
      }
      if (bound != g) {
        vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.layout, 0, 1,
                                   &slot->sets[g], 0, nullptr);
        bound = g;
      }
      for (uint32_t done = 0; done < count; done += max_groups) {
        V3dLpfPush push;
        push.sb_first = first + done * V3D_LPF_SB_WORDS;
        push.sb_count = std::min(max_groups, count - done);
        vk.vkCmdPushConstants(cmd, st.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vk.vkCmdDispatch(cmd, push.sb_count, 1, 1);
      }
    }
  }
  return job_end_and_submit(gpu, cmd, slot->fence, slot->query);
}

// Writes the job's record buffer: the frame table, then the superblock records ordered by (step,
// group), and each (step, group)'s first record and count in dispatch. False with *err set when
// it does not fit.
bool write_records(Gpu &gpu, LpfSlot *slot, const LpfGpuFrame *frames, size_t n, LpfJob &job,
                   const std::vector<Group> &groups, Dispatch &dispatch, std::string *err) {
  size_t total_sbs = 0, steps = 0;
  for (size_t f = 0; f < n; f++) {
    total_sbs += static_cast<size_t>(frames[f].sb_rows) * frames[f].sb_cols;
    steps = std::max<size_t>(steps, frames[f].sb_cols + 2 * (frames[f].sb_rows - 1));
  }
  const size_t words = n * V3D_LPF_FRAME_WORDS + total_sbs * V3D_LPF_SB_WORDS;
  if (words * 4 > gpu.props.limits.maxStorageBufferRange) {
    *err = "too many superblocks for one GPU job";
    return false;
  }
  if (!host_buffer_reserve(gpu, &slot->records, words * 4, err)) return false;
  uint32_t *rec = reinterpret_cast<uint32_t *>(slot->records.map);
  for (size_t gi = 0; gi < groups.size(); gi++) {
    const Group &g = groups[gi];
    for (size_t f : g.frames) {
      uint32_t *ft = rec + f * V3D_LPF_FRAME_WORDS;
      memset(ft, 0, V3D_LPF_FRAME_WORDS * 4);
      const FramePlanes &fp = frames[f].planes;
      for (int p = 0; p < 3; p++) {
        const PlaneBind &b = job.bind()[f][p];
        if (!b.used) continue;
        size_t w = 0;
        while (g.windows[w].buffer != b.buffer) w++;
        ft[4 * p + 0] = static_cast<uint32_t>(w);
        ft[4 * p + 1] = static_cast<uint32_t>(b.offset - g.windows[w].lo);
        ft[4 * p + 2] = static_cast<uint32_t>(b.staged ? fp.width[p] : fp.stride[p]);
        ft[4 * p + 3] = static_cast<uint32_t>(fp.width[p]) | static_cast<uint32_t>(fp.height[p]) << 16;
      }
      ft[V3D_LPF_FT_PLANE_MASK] = static_cast<uint32_t>(frames[f].plane_mask & 7);
      ft[V3D_LPF_FT_SHARPNESS] = static_cast<uint32_t>(frames[f].sharpness);
    }
  }
  dispatch.assign(steps, std::vector<std::pair<uint32_t, uint32_t>>(groups.size(), {0, 0}));
  size_t pos = n * V3D_LPF_FRAME_WORDS;
  for (size_t t = 0; t < steps; t++)
    for (size_t gi = 0; gi < groups.size(); gi++) {
      dispatch[t][gi].first = static_cast<uint32_t>(pos);
      for (size_t f : groups[gi].frames) {
        const LpfGpuFrame &fr = frames[f];
        for (int r = 0; r < fr.sb_rows; r++) {
          const long c = static_cast<long>(t) - 2 * r;
          if (c < 0) break;
          if (c >= fr.sb_cols) continue;
          uint32_t *sb = rec + pos;
          sb[0] = static_cast<uint32_t>(f);
          sb[1] = static_cast<uint32_t>(c) | static_cast<uint32_t>(r) << 16;
          sb[2] = sb[3] = 0;
          memcpy(sb + V3D_LPF_SB_HEADER,
                 fr.cells + (static_cast<size_t>(r) * fr.sb_cols + c) * V3D_LPF_CELLS,
                 V3D_LPF_CELLS * 4);
          pos += V3D_LPF_SB_WORDS;
          dispatch[t][gi].second++;
        }
      }
    }
  return true;
}

// Points each group's descriptor set at its memory windows (unused windows at the record buffer).
void write_sets(Gpu &gpu, const Vp9LpfState &st, LpfSlot *slot, const std::vector<Group> &groups) {
  for (size_t gi = 0; gi < groups.size(); gi++) {
    VkDescriptorBufferInfo info[V3D_LPF_NUM_BINDINGS];
    VkWriteDescriptorSet wr[V3D_LPF_NUM_BINDINGS];
    for (uint32_t i = 0; i < V3D_LPF_NUM_BINDINGS; i++) {
      info[i] = VkDescriptorBufferInfo{slot->records.buffer, 0, VK_WHOLE_SIZE};
      if (i < groups[gi].windows.size()) {
        const Window &w = groups[gi].windows[i];
        info[i] = VkDescriptorBufferInfo{w.buffer ? w.buffer : slot->staging.buffer, w.lo, w.hi - w.lo};
      }
    }
    // Windows: bindings 0..5, or elements 0..5 of binding 0 (st.array); records: binding 6.
    uint32_t n_wr = 0;
    for (uint32_t i = 0; i < V3D_LPF_NUM_BINDINGS; i++) {
      if (st.array && i > 0 && i < V3D_LPF_NUM_WINDOWS) continue;
      VkWriteDescriptorSet &x = wr[n_wr++];
      x = vk_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      x.dstSet = slot->sets[gi];
      x.dstBinding = i;
      x.descriptorCount = st.array && i == 0 ? V3D_LPF_NUM_WINDOWS : 1;
      x.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      x.pBufferInfo = &info[i];
    }
    gpu.vk.vkUpdateDescriptorSets(gpu.device, n_wr, wr, 0, nullptr);
  }
}

}  // namespace

bool gpu_has_vp9_lpf(const Gpu &gpu) { return lpf_state(gpu) != nullptr; }

std::unique_ptr<LpfGpuJob> gpu_vp9_lpf_submit(Gpu &gpu, const LpfGpuFrame *frames, size_t n,
                                              std::string *error) {
  auto fail_early = [&](const std::string &why) -> std::unique_ptr<LpfGpuJob> {
    if (error) *error = why;
    return nullptr;
  };
  if (!lpf_state(gpu)) return fail_early("no loop-filter pipeline on this device");
  if (test_fail("submit")) return fail_early("V3D_TEST_LPF_GPU_FAIL=submit");
  if (!n || n > kLpfMaxJobFrames) return fail_early("bad number of frames for one job");
  Vp9LpfState &st = *lpf_state(gpu);
  std::string err;
  LpfSlot *slot = lpf_slot_acquire(gpu, st, &err);
  if (!slot) return fail_early(err);
  auto job = std::make_unique<LpfJob>(gpu.shared_from_this(), slot, frames, n);
  auto fail = [&](const std::string &why) -> std::unique_ptr<LpfGpuJob> {
    if (error) *error = why;
    return nullptr;  // the job's destructor returns the slot (nothing was submitted)
  };
  const VkPhysicalDeviceLimits &lim = gpu.props.limits;
  const VkDeviceSize align = std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4);

  // 1. Where each plane lives; staged planes get a place in the staging buffer.
  VkDeviceSize staging_size = 0;
  for (size_t f = 0; f < n; f++) {
    const FramePlanes &fp = frames[f].planes;
    for (int p = 0; p < 3; p++) {
      PlaneBind &b = job->bind()[f][p];
      if (!(frames[f].plane_mask & (1 << p))) continue;
      if (fp.width[p] > 0xffff || fp.height[p] > 0xffff)
        return fail("plane too large for the GPU loop filter");
      b.used = true;
      b.span = static_cast<VkDeviceSize>(fp.height[p] - 1) * fp.stride[p] + fp.width[p];
      SharedSpan sh;
      if (shared_lookup(gpu, fp.data[p], b.span, &sh) && b.span <= lim.maxStorageBufferRange) {
        b.buffer = sh.buffer;
        b.offset = sh.offset;
        b.buffer_size = sh.buffer_size;
        continue;
      }
      b.staged = true;
      b.offset = staging_size;
      b.span = static_cast<VkDeviceSize>(fp.width[p]) * fp.height[p];
      staging_size = align_up(staging_size + b.span, align);
    }
  }
  if (staging_size) {
    if (staging_size > lim.maxStorageBufferRange)
      return fail("frames too large for the GPU's storage buffers");
    if (!host_buffer_reserve(gpu, &slot->staging, staging_size, &err)) return fail(err);
    for (size_t f = 0; f < n; f++)
      for (PlaneBind &b : job->bind()[f])
        if (b.staged) b.buffer_size = slot->staging.size;
  }

  // 2. Groups of frames that fit the memory windows (staged planes share one window), each
  // window's descriptor covering its planes from an aligned offset.
  std::vector<Group> groups(1);
  for (size_t f = 0; f < n; f++) {
    if (add_to_group(groups.back(), job->bind()[f], f)) continue;
    groups.emplace_back();
    if (!add_to_group(groups.back(), job->bind()[f], f)) return fail("internal: frame needs too many windows");
  }
  if (groups.size() > kLpfMaxGroups) return fail("internal: too many frame groups");
  for (Group &g : groups)
    for (Window &w : g.windows) {
      w.lo = w.lo / align * align;
      w.hi = std::min(w.buffer_size, align_up(w.hi, 4));
      if (w.hi - w.lo > lim.maxStorageBufferRange || w.hi - w.lo > UINT32_MAX)
        return fail("frame planes span more than the GPU's storage buffer range");
    }

  // 3. Record buffer: frame table, then superblock records ordered by (step, group).
  Dispatch dispatch;
  if (!write_records(gpu, slot, frames, n, *job, groups, dispatch, &err)) return fail(err);

  // 4. Staged planes in.
  for (size_t f = 0; f < n; f++) {
    const FramePlanes &fp = frames[f].planes;
    for (int p = 0; p < 3; p++) {
      const PlaneBind &b = job->bind()[f][p];
      if (!b.staged) continue;
      uint8_t *dst = slot->staging.map + b.offset;
      for (int y = 0; y < fp.height[p]; y++)
        memcpy(dst + static_cast<size_t>(y) * fp.width[p], fp.data[p] + y * fp.stride[p],
               fp.width[p]);
      job->copies_++;
    }
  }

  // 5. Descriptor sets, commands, submission.
  if (!lpf_slot_sets(gpu, st, slot, groups.size(), &err)) return fail(err);
  write_sets(gpu, st, slot, groups);
  err = record_and_submit(gpu, st, slot, dispatch, groups);
  if (!err.empty()) return fail(err);
  job->submitted = true;
  return job;
}

}  // namespace v3d
