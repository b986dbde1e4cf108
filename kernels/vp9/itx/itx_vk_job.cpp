// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse-transform job on the GPU: one command buffer and one queue submission per
// frame. Its first dispatch (vp9_itx_records.comp) turns the job's block list into records
// bucketed by size (one transform dispatch per size) and, inside a size, by type (less
// divergence); the host only copies the list and each block's pixels (both in parts that several
// threads may share: ItxGpuPrep) and counts the buckets. Frames and coefficients in shared memory
// are bound in place, others are copied. The job's wait() copies staged blocks back, or after a
// failure restores the blocks the GPU wrote in place.
//
// Ownership and threads: a prep and then its job hold the Gpu (shared) and one slot until wait()
// or destruction; distinct parts of a prep may run on different threads at once, anything else
// of a prep or job is used by one thread at a time; different jobs may run on different threads.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/log.h"
#include "vp9/itx/itx_frame.h"
#include "gpu/gpu.h"
#include "gpu/vk_job.h"
#include "vp9/itx/itx_vk_state.h"
#include "vp9/itx/itx_gpu.h"

#include "vp9_itx_layout.h"

namespace v3d {
namespace {

// Longest wait for a job before reporting V3D_ERROR_GPU instead of hanging: 10 s (a 1080p
// frame takes milliseconds even on lavapipe). After that the Gpu is marked lost and the frame's
// GPU blocks are restored and redone on the CPU.
constexpr uint64_t kWaitTimeoutNs = 10ull * 1000 * 1000 * 1000;
constexpr int kNumSizes = kItxNumSizes;
constexpr int kNumTypes = kItxNumTypes;

constexpr int kNumBuckets = V3D_ITX_NUM_BUCKETS;
static_assert(kNumBuckets == kNumSizes * kNumTypes, "bucket = tx_size * 5 + tx_type");
constexpr VkDeviceSize kRecordBytes = 16;  // a record is a uvec4 (vp9_itx_layout.h)
static_assert(sizeof(V3dItxPush) == 8, "push constants as in vp9_itx_layout.h");
static_assert(sizeof(V3dItxRecordsPush) == 60, "push constants as in vp9_itx_layout.h");
static_assert(sizeof(V3dVp9TxBlock) == 16 && offsetof(V3dVp9TxBlock, eob) == 8 &&
                  offsetof(V3dVp9TxBlock, coeff_offset) == 12,
              "the record builder reads V3dVp9TxBlock as a uvec4");

VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

// Copies a w x h block of bytes. Whole transform blocks (w = h = 4, 8, 16, 32) take a path
// whose row length is a constant (a few vector moves per row): the job's host-side preparation
// copies every block's pixels once or twice, and a frame of 4x4 blocks has ~200,000 of them.
template <uint32_t kN>
inline void copy_rows(uint8_t *dst, size_t dst_stride, const uint8_t *src, size_t src_stride) {
  for (uint32_t row = 0; row < kN; row++) memcpy(dst + row * dst_stride, src + row * src_stride, kN);
}
inline void copy_block(uint8_t *dst, size_t dst_stride, const uint8_t *src, size_t src_stride,
                       uint32_t w, uint32_t h) {
  if (w == h) {
    switch (w) {
      case 4: return copy_rows<4>(dst, dst_stride, src, src_stride);
      case 8: return copy_rows<8>(dst, dst_stride, src, src_stride);
      case 16: return copy_rows<16>(dst, dst_stride, src, src_stride);
      case 32: return copy_rows<32>(dst, dst_stride, src, src_stride);
      default: break;
    }
  }
  for (uint32_t row = 0; row < h; row++) memcpy(dst + row * dst_stride, src + row * src_stride, w);
}

// A block's width and height inside its plane (blocks reaching past the plane are clipped).
struct Extent {
  uint32_t w, h;
};
inline Extent clipped(const V3dVp9TxBlock &b, const FramePlanes &frame) {
  const uint32_t n = 4u << b.tx_size;
  return Extent{std::min<uint32_t>(n, frame.width[b.plane] - b.x),
                std::min<uint32_t>(n, frame.height[b.plane] - b.y)};
}

// Where a plane is during a job.
enum class PlaneBinding { kUnused, kInPlace, kStaged };

class ItxJob final : public GpuJob {
 public:
  ItxJob(std::shared_ptr<Gpu> gpu, ItxSlot *slot, const FramePlanes &frame)
      : gpu_(std::move(gpu)), slot_(slot), frame_(frame) {}
  ~ItxJob() override {
    if (slot_) wait();
  }
  int wait() override { return finish(false); }
  int wait_and_undo() override { return finish(true); }
  bool ready() override {
    if (!slot_) return true;
    if (!submitted) return true;
    return gpu_->vk.vkGetFenceStatus(gpu_->device, slot_->fence) == VK_SUCCESS;
  }
  int copies() const override { return copies_; }
  int imports() const override { return imports_; }
  ItxSlot *slot() { return slot_; }
  const FramePlanes &frame() const { return frame_; }
  // Where the pixels of plane p's blocks as they were before the job lie (row stride = the
  // plane's width): slot->backup for a plane in shared memory, slot->pixels (GPU-visible) for
  // one that may have to be staged.
  uint8_t *pre[3] = {nullptr, nullptr, nullptr};
  // Each plane's bytes from its first pixel to its last, and whether they lie in shared memory
  // (found by gpu_vp9_itx_prepare: bound in place).
  size_t span[3] = {0, 0, 0};
  bool in_shared[3] = {false, false, false};
  SharedSpan shared_span[3];

  PlaneBinding binding[3] = {PlaneBinding::kUnused, PlaneBinding::kUnused, PlaneBinding::kUnused};
  ImportedSpan imported[3];  // planes imported for this job (VK_EXT_external_memory_host)
  VkDeviceSize pixels_offset[3] = {0, 0, 0};  // of a plane not in shared memory, in slot->pixels
  size_t n_list = 0;  // entries in slot->list
  int copies_ = 0;
  int imports_ = 0;
  bool submitted = false;  // false: wait() only returns the slot

 private:
  std::shared_ptr<Gpu> gpu_;
  ItxSlot *slot_;
  FramePlanes frame_;
  int result_ = V3D_OK;

  // Copies the list's blocks of planes bound `which` from their copies (pre) into the frame or,
  // fault injection only, fills them with garbage as a lost device may leave them.
  void blocks_of(PlaneBinding which, bool scribble);
  // wait() (undo false) or wait_and_undo(): waits for the GPU, then puts its results into the
  // frame (the staged blocks copied back), or with undo leaves the frame as it was before the
  // job (the in-place blocks restored from their backup, the staged ones not copied back).
  int finish(bool undo);
};

void ItxJob::blocks_of(PlaneBinding which, bool scribble) {
  const V3dVp9TxBlock *list = slot_->list_host.data();
  for (size_t i = 0; i < n_list; i++) {
    const V3dVp9TxBlock &b = list[i];
    if (!b.eob || binding[b.plane] != which) continue;
    const int p = b.plane;
    const auto [w, h] = clipped(b, frame_);
    uint8_t *dst = frame_.data[p] + b.y * frame_.stride[p] + b.x;
    if (scribble) {
      for (uint32_t row = 0; row < h; row++) memset(dst + row * frame_.stride[p], 0x5A, w);
    } else {
      const uint8_t *src = pre[p] + static_cast<size_t>(b.y) * frame_.width[p] + b.x;
      copy_block(dst, frame_.stride[p], src, frame_.width[p], w, h);
    }
  }
}

int ItxJob::finish(bool undo) {
  if (!slot_) return result_;
  Gpu &gpu = *gpu_;
  if (!submitted) {
    for (ImportedSpan &im : imported) host_import_release(gpu, &im);
    slot_release(*itx_state(gpu), slot_);
    slot_ = nullptr;
    return result_ = V3D_ERROR_GPU;
  }
  bool injected;
  const VkResult r = job_wait(gpu, slot_->fence, kWaitTimeoutNs, &injected);
  if (injected) blocks_of(PlaneBinding::kInPlace, true);
  if (r != VK_SUCCESS) {
    // Lost, or not done in time (then perhaps never): the slot and the Gpu are not used again,
    // and the in-place blocks get their old pixels back so the caller can redo them on the CPU.
    // (A GPU that finishes after the timeout could still write them: see docs/reliability.md.)
    slot_->lost = true;
    gpu.lost.store(true, std::memory_order_release);
    // The imports stay until the slot is destroyed with the Gpu: the GPU may still be using them.
    for (ImportedSpan &im : imported)
      if (im.buffer || im.memory) slot_->orphans.push_back(std::exchange(im, ImportedSpan{}));
    blocks_of(PlaneBinding::kInPlace, false);
    result_ = set_error(V3D_ERROR_GPU, "job %s%s", vk_result_name(r),
                        injected               ? ", injected by V3D_FAULT"
                        : r == VK_TIMEOUT      ? ": not done after 10 s"
                                               : "");
  } else if (undo) {
    blocks_of(PlaneBinding::kInPlace, false);  // (the staged blocks' results stay in the copy)
  } else {
    job_store_time(gpu, slot_->query);
    // The staged blocks' results: only their clipped pixels (the CPU may own the rest).
    blocks_of(PlaneBinding::kStaged, false);
  }
  if (result_ == V3D_OK)
    for (ImportedSpan &im : imported) host_import_release(gpu, &im);
  slot_release(*itx_state(gpu), slot_);
  slot_ = nullptr;
  return result_;
}

// Points the slot's descriptors at info[], records the record builder's dispatch (split where
// the device's group count limit requires), a barrier, one transform dispatch per size with
// blocks, and submits it all with the slot's fence. Returns "" or the failure.
std::string record_and_submit(Gpu &gpu, Vp9ItxState &st, ItxSlot *slot,
                              const VkDescriptorBufferInfo *info, V3dItxRecordsPush rp,
                              size_t n_list, const size_t *size_first, const size_t *size_count) {
  const VkApi &vk = gpu.vk;
  const VkPhysicalDeviceLimits &lim = gpu.props.limits;
  VkWriteDescriptorSet wr[V3D_ITX_NUM_BINDINGS];
  for (uint32_t i = 0; i < V3D_ITX_NUM_BINDINGS; i++) {
    wr[i] = vk_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    wr[i].dstSet = slot->set;
    wr[i].dstBinding = i;
    wr[i].descriptorCount = 1;
    wr[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    wr[i].pBufferInfo = &info[i];
  }
  vk.vkUpdateDescriptorSets(gpu.device, V3D_ITX_NUM_BINDINGS, wr, 0, nullptr);

  VkCommandBuffer cmd = slot->cmd;
  std::string err = job_begin(gpu, slot->pool, cmd, slot->query);
  if (!err.empty()) return err;
  vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.layout, 0, 1, &slot->set, 0,
                             nullptr);
  size_t total = 0;
  for (int s = 0; s < kNumSizes; s++) total += size_count[s];
  if (total) {
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.pipeline[kNumSizes]);
    const size_t max_list = static_cast<size_t>(lim.maxComputeWorkGroupCount[0]) * V3D_ITX_RECORDS_GROUP;
    for (size_t first = 0; first < n_list; first += max_list) {
      rp.block_first = static_cast<uint32_t>(first);
      rp.block_count = static_cast<uint32_t>(std::min(max_list, n_list - first));
      vk.vkCmdPushConstants(cmd, st.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(rp), &rp);
      vk.vkCmdDispatch(cmd, (rp.block_count + V3D_ITX_RECORDS_GROUP - 1) / V3D_ITX_RECORDS_GROUP, 1, 1);
    }
    auto barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                            nullptr);
  }
  for (int s = 0; s < kNumSizes; s++) {
    if (!size_count[s]) continue;
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.pipeline[s]);
    const size_t per_group = V3D_ITX_BLOCKS_PER_GROUP(s + 2);
    const size_t max_blocks = static_cast<size_t>(lim.maxComputeWorkGroupCount[0]) * per_group;
    for (size_t first = 0; first < size_count[s]; first += max_blocks) {
      V3dItxPush push;
      push.block_first = static_cast<uint32_t>(size_first[s] + first);
      push.block_count = static_cast<uint32_t>(std::min(max_blocks, size_count[s] - first));
      vk.vkCmdPushConstants(cmd, st.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
      vk.vkCmdDispatch(cmd, static_cast<uint32_t>((push.block_count + per_group - 1) / per_group),
                       1, 1);
    }
  }
  return job_end_and_submit(gpu, cmd, slot->fence, slot->query);
}

class ItxPrep final : public ItxGpuPrep {
 public:
  ItxPrep(Gpu &gpu, std::unique_ptr<ItxJob> job, const V3dVp9TxBlock *blocks,
          const uint32_t *index, size_t n_index, const int16_t *coeffs, size_t n_coeffs, int parts)
      : gpu_(gpu), job_(std::move(job)), blocks_(blocks), index_(index), n_index_(n_index),
        coeffs_(coeffs), n_coeffs_(n_coeffs), parts_(parts) {}
  int parts() const override { return parts_; }
  void run_part(int k) override;
  std::unique_ptr<GpuJob> submit(std::string *error) override;

 private:
  Gpu &gpu_;
  std::unique_ptr<ItxJob> job_;
  const V3dVp9TxBlock *blocks_;
  const uint32_t *index_;
  size_t n_index_;
  const int16_t *coeffs_;
  size_t n_coeffs_;
  int parts_;
};

void ItxPrep::run_part(int k) {
  if (!job_ || k < 0 || k >= parts_) return;  // (after submit(): nothing to do)
  ItxSlot *slot = job_->slot();
  const FramePlanes &frame = job_->frame();
  // Counted in a local and stored once: parts run on different threads at once, and the parts'
  // stats lie side by side in slot->parts (an increment per block there bounced cache lines
  // between the threads).
  ItxPartStats st;
  const size_t first = n_index_ * k / parts_, end = n_index_ * (k + 1) / parts_;
  V3dVp9TxBlock *list = reinterpret_cast<V3dVp9TxBlock *>(slot->list.map);
  for (size_t i = first; i < end; i++) {
    // Checked and counted from a copy in registers, which is what the GPU gets: the list's
    // memory is only written (where the CPU does not cache it, as on v3dv, reading it back
    // would cost an uncached read per field).
    const V3dVp9TxBlock b = blocks_[index_ ? index_[i] : i];
    list[i] = b;
    slot->list_host[i] = b;
    if (!b.eob) continue;
    // A part may run before its blocks are validated (beside the validation of the frame): a
    // block failing its own checks (validation's: outside its plane, an unknown size or type,
    // coefficients past n_coeffs...) is not touched, and the job is refused at submit()
    // (validation reports the block).
    if (!vp9::itx_block_ok(b, frame.width, frame.height, n_coeffs_)) {
      st.bad = true;
      continue;
    }
    const int p = b.plane;
    st.count[b.tx_size * kNumTypes + b.tx_type]++;
    st.plane_used[p] = true;
    const uint32_t n = 4u << b.tx_size;
    st.coeff_min = std::min<size_t>(st.coeff_min, b.coeff_offset);
    st.coeff_end = std::max<size_t>(st.coeff_end, static_cast<size_t>(b.coeff_offset) + n * n);
    // The block's pixels before the job: the GPU's copy of a plane it cannot reach in place, or
    // the backup of one it writes in place (which is decided in submit(), per plane).
    const auto [w, h] = clipped(b, frame);
    copy_block(job_->pre[p] + static_cast<size_t>(b.y) * frame.width[p] + b.x, frame.width[p],
               frame.data[p] + b.y * frame.stride[p] + b.x, frame.stride[p], w, h);
  }
  st.ran = true;
  slot->parts[k] = st;
}

std::unique_ptr<GpuJob> ItxPrep::submit(std::string *error) {
  auto fail = [&](const std::string &why) -> std::unique_ptr<GpuJob> {
    if (error) *error = why;
    job_.reset();  // returns the slot (nothing was submitted)
    return nullptr;
  };
  if (!job_) return fail("the job was already submitted");
  ItxSlot *slot = job_->slot();
  // A part that has not run leaves its list entries stale, which the GPU must never read.
  for (int k = 0; k < parts_; k++) {
    if (!slot->parts[k].ran) return fail("the job was submitted before all of its parts had run");
    if (slot->parts[k].bad) return fail("a block of the job failed its checks");
  }
  Gpu &gpu = gpu_;
  if (gpu_lost(gpu)) return fail("the GPU was lost");
  const FramePlanes &frame = job_->frame();
  const VkPhysicalDeviceLimits &lim = gpu.props.limits;
  // Descriptor offsets: the device's alignment, and whole uint words for the coefficient pairs.
  const VkDeviceSize align = std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4);
  std::string err;

  // 1. The parts' counts: each (size, type) bucket's first record, the planes used, the span of
  // coefficients read.
  ItxPartStats all;
  for (int k = 0; k < parts_; k++) {
    const ItxPartStats &st = slot->parts[k];
    for (int b = 0; b < kNumBuckets; b++) all.count[b] += st.count[b];
    for (int p = 0; p < 3; p++) all.plane_used[p] = all.plane_used[p] || st.plane_used[p];
    all.coeff_min = std::min(all.coeff_min, st.coeff_min);
    all.coeff_end = std::max(all.coeff_end, st.coeff_end);
  }
  uint32_t base[kNumBuckets];
  size_t size_first[kNumSizes], size_count[kNumSizes];
  size_t total = 0;
  for (int s = 0; s < kNumSizes; s++) {
    size_first[s] = total;
    for (int t = 0; t < kNumTypes; t++) {
      base[s * kNumTypes + t] = static_cast<uint32_t>(total);
      total += all.count[s * kNumTypes + t];
    }
    size_count[s] = total - size_first[s];
  }
  if (total > UINT32_MAX / kRecordBytes) return fail("too many blocks for one GPU job");

  // 2. Planes: in shared memory or imported (bound in place; the parts' copy is then the backup of
  // their blocks), or else bound from slot->pixels, the copy the parts made.
  VkDescriptorBufferInfo info[V3D_ITX_NUM_BINDINGS];
  V3dItxRecordsPush rp{};
  for (int p = 0; p < 3; p++) {
    info[p] = VkDescriptorBufferInfo{VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
    rp.plane_width[p] = static_cast<uint32_t>(frame.width[p]);
    rp.plane_height[p] = static_cast<uint32_t>(frame.height[p]);
    if (!all.plane_used[p]) continue;
    const size_t span = job_->span[p];
    // Binds the plane in place from `buffer`, where it starts at byte `offset`; false when the
    // binding would exceed the device's limits.
    auto bind_in_place = [&](VkBuffer buffer, VkDeviceSize offset, VkDeviceSize buffer_size) {
      const VkDeviceSize off = offset / align * align;
      const VkDeviceSize range = std::min(buffer_size - off, align_up(offset - off + span, 4));
      if (range > lim.maxStorageBufferRange || offset - off + span > UINT32_MAX) return false;
      info[p] = VkDescriptorBufferInfo{buffer, off, range};
      rp.plane_base[p] = static_cast<uint32_t>(offset - off);
      rp.plane_stride[p] = static_cast<uint32_t>(frame.stride[p]);
      job_->binding[p] = PlaneBinding::kInPlace;
      return true;
    };
    if (job_->in_shared[p]) {
      const SharedSpan &sh = job_->shared_span[p];
      if (bind_in_place(sh.buffer, sh.offset, sh.buffer_size)) continue;
      // Its copy is in host memory only (slot->backup), not where the GPU could read it.
      return fail("frame plane too large for the GPU's storage buffers");
    }
    // Not in shared memory: import its pages when the device can, else use the copy.
    ImportedSpan &im = job_->imported[p];
    if (host_import(gpu, frame.data[p], span, &im)) {
      if (bind_in_place(im.buffer, im.offset, im.buffer_size)) {
        job_->imports_++;
        continue;
      }
      host_import_release(gpu, &im);
    }
    const VkDeviceSize bytes = static_cast<VkDeviceSize>(frame.width[p]) * frame.height[p];
    if (bytes > lim.maxStorageBufferRange) return fail("frame too large for the GPU's storage buffers");
    info[p] = VkDescriptorBufferInfo{slot->pixels.buffer, job_->pixels_offset[p], align_up(bytes, 4)};
    rp.plane_base[p] = 0;
    rp.plane_stride[p] = static_cast<uint32_t>(frame.width[p]);
    job_->binding[p] = PlaneBinding::kStaged;
    job_->copies_++;  // the parts copied its blocks
  }

  // 3. Coefficients: in shared memory (bound in place), or the span the blocks read, copied.
  bool coeffs_shared = false;
  const size_t c_first = total ? all.coeff_min : 0, c_end = total ? all.coeff_end : 0;
  {
    SharedSpan sh;
    if (n_coeffs_ && shared_lookup(gpu, coeffs_, n_coeffs_ * sizeof(int16_t), &sh)) {
      const VkDeviceSize off = sh.offset / align * align;
      const VkDeviceSize range =
          std::min(sh.buffer_size - off, align_up(sh.offset - off + n_coeffs_ * sizeof(int16_t), 4));
      if (range <= lim.maxStorageBufferRange) {
        info[V3D_ITX_BINDING_COEFFS] = VkDescriptorBufferInfo{sh.buffer, off, range};
        rp.coeff_add = static_cast<uint32_t>((sh.offset - off) / sizeof(int16_t));
        coeffs_shared = true;
      }
    }
  }
  if (!coeffs_shared) {
    const VkDeviceSize bytes = std::max<VkDeviceSize>((c_end - c_first) * sizeof(int16_t), 4);
    if (bytes > lim.maxStorageBufferRange) return fail("too many coefficients for one GPU job");
    if (!host_buffer_reserve(gpu, &slot->coeffs, bytes, &err)) return fail(err);
    if (c_end > c_first) memcpy(slot->coeffs.map, coeffs_ + c_first, (c_end - c_first) * sizeof(int16_t));
    info[V3D_ITX_BINDING_COEFFS] = VkDescriptorBufferInfo{slot->coeffs.buffer, 0, align_up(bytes, 4)};
    rp.coeff_add = static_cast<uint32_t>(0) - static_cast<uint32_t>(c_first);  // modulo 2^32
  }

  // 4. Records (written by the GPU), the list, the buckets' first places and fill counters.
  const VkDeviceSize rec_bytes = std::max<size_t>(total, 1) * kRecordBytes;
  if (rec_bytes > lim.maxStorageBufferRange) return fail("too many blocks for one GPU job");
  if (!host_buffer_reserve(gpu, &slot->records, rec_bytes, &err)) return fail(err);
  info[V3D_ITX_BINDING_BLOCKS] = VkDescriptorBufferInfo{slot->records.buffer, 0, rec_bytes};
  info[V3D_ITX_BINDING_LIST] = VkDescriptorBufferInfo{
      slot->list.buffer, 0, std::max<VkDeviceSize>(job_->n_list, 1) * sizeof(V3dVp9TxBlock)};
  uint32_t *buckets = reinterpret_cast<uint32_t *>(slot->buckets.map);
  memcpy(buckets, base, sizeof(base));
  memset(buckets + kNumBuckets, 0, kNumBuckets * sizeof(uint32_t));
  info[V3D_ITX_BINDING_BUCKETS] =
      VkDescriptorBufferInfo{slot->buckets.buffer, 0, 2 * kNumBuckets * sizeof(uint32_t)};
  // Unused plane bindings still need a valid buffer.
  for (int p = 0; p < 3; p++)
    if (!info[p].buffer) info[p] = VkDescriptorBufferInfo{slot->records.buffer, 0, VK_WHOLE_SIZE};

  // 5. Descriptors, commands, submission.
  err = record_and_submit(gpu, *itx_state(gpu), slot, info, rp, job_->n_list, size_first, size_count);
  if (!err.empty()) return fail(err);
  job_->submitted = true;
  return std::move(job_);
}

}  // namespace

std::unique_ptr<ItxGpuPrep> gpu_vp9_itx_prepare(Gpu &gpu, const FramePlanes &frame,
                                                const V3dVp9TxBlock *blocks, const uint32_t *index,
                                                size_t n_index, const int16_t *coeffs,
                                                size_t n_coeffs, int parts, std::string *error) {
  std::string err;
  if (gpu_lost(gpu)) {
    if (error) *error = "the GPU was lost";
    return nullptr;
  }
  Vp9ItxState &st = *itx_state(gpu);
  ItxSlot *slot = slot_acquire(gpu, st, &err);
  if (!slot) {
    if (error) *error = err;
    return nullptr;
  }
  auto job = std::make_unique<ItxJob>(gpu.shared_from_this(), slot, frame);
  // (On failure below the job's destructor returns the slot: nothing was submitted.)
  // Each plane's copy of its blocks' pixels: a plane in shared memory (bound in place: the copy
  // is only a backup) in host memory, any other in GPU-visible memory (the GPU may have to read
  // it there). Both frame-shaped, so that the parts need no offsets.
  const VkDeviceSize align = std::max<VkDeviceSize>(gpu.props.limits.minStorageBufferOffsetAlignment, 4);
  VkDeviceSize pixels = 0;
  size_t backup = 0, backup_at[3] = {0, 0, 0};
  for (int p = 0; p < 3; p++) {
    const size_t area = static_cast<size_t>(frame.width[p]) * frame.height[p];
    job->span[p] = static_cast<size_t>(frame.height[p] - 1) * frame.stride[p] + frame.width[p];
    job->in_shared[p] = shared_lookup(gpu, frame.data[p], job->span[p], &job->shared_span[p]);
    if (job->in_shared[p]) {
      backup_at[p] = backup;
      backup += area;
    } else {
      job->pixels_offset[p] = pixels;
      pixels = align_up(pixels + area, align);
    }
  }
  const VkDeviceSize list_bytes = std::max<size_t>(n_index, 1) * sizeof(V3dVp9TxBlock);
  if (list_bytes > gpu.props.limits.maxStorageBufferRange) {
    if (error) *error = "too many blocks for one GPU job";
    return nullptr;
  }
  if ((pixels && !host_buffer_reserve(gpu, &slot->pixels, pixels, &err)) ||
      !host_buffer_reserve(gpu, &slot->list, list_bytes, &err) ||
      !host_buffer_reserve(gpu, &slot->buckets, 2 * kNumBuckets * sizeof(uint32_t), &err)) {
    if (error) *error = err;
    return nullptr;
  }
  // The backup and the host copy of the list keep their largest size (no zero-filling per frame).
  if (slot->backup.size() < backup) slot->backup.resize(backup);
  if (slot->list_host.size() < n_index) slot->list_host.resize(n_index);
  for (int p = 0; p < 3; p++)
    job->pre[p] = job->in_shared[p] ? slot->backup.data() + backup_at[p]
                                    : slot->pixels.map + job->pixels_offset[p];
  job->n_list = n_index;
  parts = std::max(1, parts);
  slot->parts.assign(static_cast<size_t>(parts), ItxPartStats{});  // none has run
  return std::make_unique<ItxPrep>(gpu, std::move(job), blocks, index, n_index, coeffs, n_coeffs,
                                   parts);
}

std::unique_ptr<GpuJob> gpu_vp9_itx_submit(Gpu &gpu, const FramePlanes &frame,
                                           const V3dVp9TxBlock *blocks, const uint32_t *index,
                                           size_t n_index, const int16_t *coeffs, size_t n_coeffs,
                                           std::string *error) {
  auto prep = gpu_vp9_itx_prepare(gpu, frame, blocks, index, n_index, coeffs, n_coeffs, 1, error);
  if (!prep) return nullptr;
  prep->run_part(0);
  return prep->submit(error);
}

}  // namespace v3d
