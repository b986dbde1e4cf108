// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse-transform job on the GPU: gpu_vp9_itx_submit() builds one command buffer and
// makes one queue submission per frame, with the blocks bucketed by size (one dispatch per size)
// and, inside a size, by type (less divergence); frames and coefficients in shared memory are
// bound in place, others are copied. The job's wait() copies staged blocks back.
//
// Ownership and threads: a job holds its Gpu (shared) and one slot until wait() or destruction;
// a job is used by one thread at a time; different jobs may run on different threads.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/log.h"
#include "vulkan/gpu.h"
#include "vulkan/vk_job.h"
#include "vulkan/vp9_itx_state.h"

#include "vp9_itx_layout.h"

namespace v3d {
namespace {

// Longest wait for a job before reporting V3D_ERROR_GPU instead of hanging: 10 s (a 1080p
// frame takes milliseconds even on lavapipe). After that the Gpu is marked lost and the frame's
// GPU blocks are restored and redone on the CPU.
constexpr uint64_t kWaitTimeoutNs = 10ull * 1000 * 1000 * 1000;
constexpr int kNumSizes = kItxNumSizes;
constexpr int kNumTypes = kItxNumTypes;

struct BlockRecord {
  uint32_t coeff;   // first coefficient (int16 units) in the coefficient binding
  uint32_t pixel;   // byte offset of the top-left pixel in the plane binding
  uint32_t packed;  // V3D_ITX_REC_PACK(plane, type, w, h)
  uint32_t stride;  // plane row stride in bytes
};
static_assert(sizeof(BlockRecord) == 16, "block record is a uvec4 in the shader");
static_assert(sizeof(V3dItxPush) == 8, "push constants as in vp9_itx_layout.h");

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

class ItxJob final : public GpuJob {
 public:
  ItxJob(std::shared_ptr<Gpu> gpu, ItxSlot *slot, const FramePlanes &frame)
      : gpu_(std::move(gpu)), slot_(slot), frame_(frame) {}
  ~ItxJob() override {
    if (slot_) wait();
  }
  int wait() override;
  bool ready() override {
    if (!slot_) return true;
    if (!submitted) return true;
    return gpu_->vk.vkGetFenceStatus(gpu_->device, slot_->fence) == VK_SUCCESS;
  }
  int copies() const override { return copies_; }
  int imports() const override { return imports_; }
  // Saves the pixels of an in-place block (before submission); see ItxSlot::backup.
  void save_in_place(const CopyBack &c);

  // Staged planes: where each lies in the slot's staging buffer (stride = plane width).
  bool staged[3] = {false, false, false};
  ImportedSpan imported[3];  // planes imported for this job (VK_EXT_external_memory_host)
  VkDeviceSize stage_offset[3] = {0, 0, 0};
  int copies_ = 0;
  int imports_ = 0;
  bool submitted = false;  // false: wait() only returns the slot

 private:
  std::shared_ptr<Gpu> gpu_;
  ItxSlot *slot_;
  FramePlanes frame_;
  int result_ = V3D_OK;

  // Puts back the in-place blocks' pixels saved before submission (after a failed job).
  void restore_in_place();
  // Fault injection only: garbage over the in-place blocks, as a lost device may leave them.
  void scribble_in_place();
};

void ItxJob::save_in_place(const CopyBack &c) {
  slot_->in_place.push_back(c);
  const size_t bytes = static_cast<size_t>(c.w) * c.h;
  // backup keeps its largest size (no zero-filling per frame); backup_used is what holds data.
  if (slot_->backup.size() < slot_->backup_used + bytes)
    slot_->backup.resize(std::max(slot_->backup_used + bytes, 2 * slot_->backup.size()));
  copy_block(slot_->backup.data() + slot_->backup_used, c.w,
             frame_.data[c.plane] + c.y * frame_.stride[c.plane] + c.x, frame_.stride[c.plane],
             c.w, c.h);
  slot_->backup_used += bytes;
}

void ItxJob::restore_in_place() {
  const uint8_t *src = slot_->backup.data();
  for (const CopyBack &c : slot_->in_place) {
    uint8_t *dst = frame_.data[c.plane] + c.y * frame_.stride[c.plane] + c.x;
    copy_block(dst, frame_.stride[c.plane], src, c.w, c.w, c.h);
    src += static_cast<size_t>(c.w) * c.h;
  }
}

void ItxJob::scribble_in_place() {
  for (const CopyBack &c : slot_->in_place) {
    uint8_t *dst = frame_.data[c.plane] + c.y * frame_.stride[c.plane] + c.x;
    for (uint32_t row = 0; row < c.h; row++) memset(dst + row * frame_.stride[c.plane], 0x5A, c.w);
  }
}

int ItxJob::wait() {
  if (!slot_) return result_;
  Gpu &gpu = *gpu_;
  if (!submitted) {
    for (ImportedSpan &im : imported) host_import_release(gpu, &im);
    slot_release(*gpu.vp9_itx, slot_);
    slot_ = nullptr;
    return result_ = V3D_ERROR_GPU;
  }
  bool injected;
  const VkResult r = job_wait(gpu, slot_->fence, kWaitTimeoutNs, &injected);
  if (injected) scribble_in_place();
  if (r != VK_SUCCESS) {
    // Lost, or not done in time (then perhaps never): the slot and the Gpu are not used again,
    // and the in-place blocks get their old pixels back so the caller can redo them on the CPU.
    // (A GPU that finishes after the timeout could still write them: see docs/reliability.md.)
    slot_->lost = true;
    gpu.lost.store(true, std::memory_order_release);
    // The imports stay until the slot is destroyed with the Gpu: the GPU may still be using them.
    for (ImportedSpan &im : imported)
      if (im.buffer || im.memory) slot_->orphans.push_back(std::exchange(im, ImportedSpan{}));
    restore_in_place();
    result_ = set_error(V3D_ERROR_GPU, "job %s%s", vk_result_name(r),
                        injected               ? ", injected by V3D_FAULT"
                        : r == VK_TIMEOUT      ? ": not done after 10 s"
                                               : "");
  } else {
    job_store_time(gpu, slot_->query);
    // Copy the staged blocks back: only their clipped pixels (the CPU may own the rest).
    for (const CopyBack &c : slot_->copy_back) {
      const int p = static_cast<int>(c.plane);
      const uint8_t *src = slot_->staging.map + stage_offset[p] +
                           static_cast<size_t>(c.y) * frame_.width[p] + c.x;
      uint8_t *dst = frame_.data[p] + c.y * frame_.stride[p] + c.x;
      copy_block(dst, frame_.stride[p], src, frame_.width[p], c.w, c.h);
    }
  }
  if (result_ == V3D_OK)
    for (ImportedSpan &im : imported) host_import_release(gpu, &im);
  slot_release(*gpu.vp9_itx, slot_);
  slot_ = nullptr;
  return result_;
}

// Points the slot's descriptors at info[], records one dispatch per size with blocks (split where
// the device's group count limit requires) and submits it with the slot's fence. Returns "" or
// the failure.
std::string record_and_submit(Gpu &gpu, Vp9ItxState &st, ItxSlot *slot,
                              const VkDescriptorBufferInfo *info, const size_t *size_first,
                              const size_t *size_count) {
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

}  // namespace

std::unique_ptr<GpuJob> gpu_vp9_itx_submit(Gpu &gpu, const FramePlanes &frame,
                                           const V3dVp9TxBlock *blocks, const uint32_t *index,
                                           size_t n_index, const int16_t *coeffs, size_t n_coeffs,
                                           std::string *error) {
  std::string err;
  if (gpu_lost(gpu)) {
    if (error) *error = "the GPU was lost";
    return nullptr;
  }
  Vp9ItxState &st = *gpu.vp9_itx;
  ItxSlot *slot = slot_acquire(gpu, st, &err);
  if (!slot) {
    if (error) *error = err;
    return nullptr;
  }
  auto job = std::make_unique<ItxJob>(gpu.shared_from_this(), slot, frame);
  auto fail = [&](const std::string &why) -> std::unique_ptr<GpuJob> {
    if (error) *error = why;
    return nullptr;  // the job's destructor returns the slot (nothing was submitted)
  };
  const VkPhysicalDeviceLimits &lim = gpu.props.limits;
  // Descriptor offsets: the device's alignment, and whole uint words for the coefficient pairs.
  const VkDeviceSize align = std::max<VkDeviceSize>(lim.minStorageBufferOffsetAlignment, 4);

  // 1. Count the blocks with work per (size, type) and note the planes they use.
  size_t count[kNumSizes][kNumTypes] = {};
  bool plane_used[3] = {false, false, false};
  size_t total = 0, coeff_total = 0;
  for (size_t i = 0; i < n_index; i++) {
    const V3dVp9TxBlock &b = blocks[index ? index[i] : i];
    if (!b.eob) continue;
    count[b.tx_size][b.tx_type]++;
    plane_used[b.plane] = true;
    total++;
    coeff_total += 16u << (2 * b.tx_size);
  }
  // Each (size, type) bucket's first record, and its first place in the packed coefficients.
  size_t start[kNumSizes][kNumTypes], packed_at[kNumSizes][kNumTypes];
  size_t size_first[kNumSizes], size_count[kNumSizes];
  size_t pos = 0, packed_pos = 0;
  for (int s = 0; s < kNumSizes; s++) {
    size_first[s] = pos;
    for (int t = 0; t < kNumTypes; t++) {
      start[s][t] = pos;
      packed_at[s][t] = packed_pos;
      pos += count[s][t];
      packed_pos += count[s][t] << (4 + 2 * s);
    }
    size_count[s] = pos - size_first[s];
  }

  // 2. Planes: in shared memory (bound in place) or copied into the staging buffer.
  VkDescriptorBufferInfo info[V3D_ITX_NUM_BINDINGS];
  uint32_t plane_base[3] = {0, 0, 0};  // byte offset of the plane's first pixel in its binding
  uint32_t plane_stride[3] = {0, 0, 0};
  VkDeviceSize staging_size = 0;
  for (int p = 0; p < 3; p++) {
    info[p] = VkDescriptorBufferInfo{VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
    if (!plane_used[p]) continue;
    const size_t span = static_cast<size_t>(frame.height[p] - 1) * frame.stride[p] + frame.width[p];
    // Binds the plane in place from `buffer`, where it starts at byte `offset`; false when the
    // binding would exceed the device's limits.
    auto bind_in_place = [&](VkBuffer buffer, VkDeviceSize offset, VkDeviceSize buffer_size) {
      const VkDeviceSize off = offset / align * align;
      const VkDeviceSize range = std::min(buffer_size - off, align_up(offset - off + span, 4));
      if (range > lim.maxStorageBufferRange || offset - off + span > UINT32_MAX) return false;
      info[p] = VkDescriptorBufferInfo{buffer, off, range};
      plane_base[p] = static_cast<uint32_t>(offset - off);
      plane_stride[p] = static_cast<uint32_t>(frame.stride[p]);
      return true;
    };
    SharedSpan sh;
    if (shared_lookup(gpu, frame.data[p], span, &sh) &&
        bind_in_place(sh.buffer, sh.offset, sh.buffer_size))
      continue;
    // Not in shared memory: import its pages when the device can, else stage a copy.
    ImportedSpan &im = job->imported[p];
    if (host_import(gpu, frame.data[p], span, &im)) {
      if (bind_in_place(im.buffer, im.offset, im.buffer_size)) {
        job->imports_++;
        continue;
      }
      host_import_release(gpu, &im);
    }
    job->staged[p] = true;
    job->stage_offset[p] = staging_size;
    staging_size = align_up(staging_size + static_cast<VkDeviceSize>(frame.width[p]) * frame.height[p], align);
  }
  if (staging_size) {
    if (staging_size > lim.maxStorageBufferRange) return fail("frame too large for the GPU's storage buffers");
    if (!host_buffer_reserve(gpu, &slot->staging, staging_size, &err)) return fail(err);
    for (int p = 0; p < 3; p++) {
      if (!job->staged[p]) continue;
      info[p] = VkDescriptorBufferInfo{slot->staging.buffer, job->stage_offset[p],
                                       align_up(static_cast<VkDeviceSize>(frame.width[p]) * frame.height[p], 4)};
      plane_stride[p] = static_cast<uint32_t>(frame.width[p]);
      job->copies_++;  // the job's blocks are copied in step 4
    }
  }

  // 3. Coefficients: in shared memory (bound in place) or packed block after block.
  bool coeffs_shared = false;
  uint32_t coeff_base = 0;
  {
    SharedSpan sh;
    if (n_coeffs && shared_lookup(gpu, coeffs, n_coeffs * sizeof(int16_t), &sh)) {
      const VkDeviceSize off = sh.offset / align * align;
      const VkDeviceSize range =
          std::min(sh.buffer_size - off, align_up(sh.offset - off + n_coeffs * sizeof(int16_t), 4));
      if (range <= lim.maxStorageBufferRange) {
        info[V3D_ITX_BINDING_COEFFS] = VkDescriptorBufferInfo{sh.buffer, off, range};
        coeff_base = static_cast<uint32_t>((sh.offset - off) / sizeof(int16_t));
        coeffs_shared = true;
      }
    }
  }
  if (!coeffs_shared) {
    const VkDeviceSize bytes = std::max<VkDeviceSize>(coeff_total * sizeof(int16_t), 4);
    if (bytes > lim.maxStorageBufferRange) return fail("too many coefficients for one GPU job");
    if (!host_buffer_reserve(gpu, &slot->coeffs, bytes, &err)) return fail(err);
    info[V3D_ITX_BINDING_COEFFS] = VkDescriptorBufferInfo{slot->coeffs.buffer, 0, bytes};
  }

  // 4. One pass over the list in its own order (a decoder's raster order, so the frame is walked
  // front to back; in the bucketed order the host preparation of a mixed frame took twice as
  // long on the device machine): each block's record goes to its (size, type) bucket's next
  // place, its coefficients (when not in shared memory) to the bucket's next place in the packed
  // buffer; staged blocks' pixels are copied into the staging buffer, in-place blocks' pixels
  // saved (save_in_place).
  const VkDeviceSize rec_bytes = std::max<size_t>(total, 1) * sizeof(BlockRecord);
  if (!host_buffer_reserve(gpu, &slot->records, rec_bytes, &err)) return fail(err);
  info[V3D_ITX_BINDING_BLOCKS] = VkDescriptorBufferInfo{slot->records.buffer, 0, rec_bytes};
  BlockRecord *rec = reinterpret_cast<BlockRecord *>(slot->records.map);
  int16_t *packed = reinterpret_cast<int16_t *>(slot->coeffs.map);
  slot->copy_back.clear();
  slot->in_place.clear();
  slot->backup_used = 0;
  slot->copy_back.reserve(total);
  slot->in_place.reserve(total);
  for (size_t i = 0; i < n_index; i++) {
    const V3dVp9TxBlock &b = blocks[index ? index[i] : i];
    if (!b.eob) continue;
    const uint32_t n = 4u << b.tx_size, p = b.plane;
    const uint32_t w = std::min<uint32_t>(n, frame.width[p] - b.x);
    const uint32_t h = std::min<uint32_t>(n, frame.height[p] - b.y);
    BlockRecord &r = rec[start[b.tx_size][b.tx_type]++];
    if (coeffs_shared) {
      r.coeff = coeff_base + b.coeff_offset;
    } else {
      size_t &at = packed_at[b.tx_size][b.tx_type];
      const int16_t *from = coeffs + b.coeff_offset;
      switch (b.tx_size) {  // constant sizes: inlined vector moves
        case 0: memcpy(packed + at, from, 16 * sizeof(int16_t)); break;
        case 1: memcpy(packed + at, from, 64 * sizeof(int16_t)); break;
        case 2: memcpy(packed + at, from, 256 * sizeof(int16_t)); break;
        default: memcpy(packed + at, from, 1024 * sizeof(int16_t)); break;
      }
      r.coeff = static_cast<uint32_t>(at);
      at += n * n;
    }
    r.pixel = plane_base[p] + b.y * plane_stride[p] + b.x;
    r.packed = V3D_ITX_REC_PACK(p, static_cast<uint32_t>(b.tx_type), w, h);
    r.stride = plane_stride[p];
    if (job->staged[p]) {
      // Only the job's own pixels: the CPU workers may be writing the frame's other blocks at
      // this moment (hybrid), so copying whole rows would read pixels they write (a data race
      // ThreadSanitizer reported). The GPU touches nothing else of the staged plane.
      slot->copy_back.push_back(CopyBack{p, b.x, b.y, w, h});
      uint8_t *dst = slot->staging.map + job->stage_offset[p] +
                     static_cast<size_t>(b.y) * frame.width[p] + b.x;
      const uint8_t *src = frame.data[p] + b.y * frame.stride[p] + b.x;
      copy_block(dst, frame.width[p], src, frame.stride[p], w, h);
    } else {
      job->save_in_place(CopyBack{p, b.x, b.y, w, h});
    }
  }
  // Unused plane bindings still need a valid buffer.
  for (int p = 0; p < 3; p++)
    if (!info[p].buffer) info[p] = VkDescriptorBufferInfo{slot->records.buffer, 0, VK_WHOLE_SIZE};

  // 5. Descriptors, commands, submission.
  err = record_and_submit(gpu, st, slot, info, size_first, size_count);
  if (!err.empty()) return fail(err);
  job->submitted = true;
  return job;
}

}  // namespace v3d
