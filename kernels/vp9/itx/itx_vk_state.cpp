// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/itx/itx_vk_state.h"

#include "gpu/vk_job.h"

#include "vp9_itx_layout.h"
#include "vp9_itx_4_c16_spv.h"
#include "vp9_itx_4_u32_spv.h"
#include "vp9_itx_8_c16_spv.h"
#include "vp9_itx_8_u32_spv.h"
#include "vp9_itx_16_c16_spv.h"
#include "vp9_itx_16_u32_spv.h"
#include "vp9_itx_32_c16_spv.h"
#include "vp9_itx_32_u32_spv.h"
#include "vp9_itx_records_spv.h"

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
  host_buffer_destroy(gpu, &s->records);
  host_buffer_destroy(gpu, &s->coeffs);
  host_buffer_destroy(gpu, &s->pixels);
  host_buffer_destroy(gpu, &s->list);
  host_buffer_destroy(gpu, &s->buckets);
  for (ImportedSpan &im : s->orphans) host_import_release(gpu, &im);
  job_commands_destroy(gpu, s->pool, s->fence, s->query);
  // The descriptor set goes with the pool.
}

bool slot_create(Gpu &gpu, Vp9ItxState &st, ItxSlot *s, std::string *error) {
  if (!job_commands_create(gpu, &s->pool, &s->cmd, &s->fence, &s->query, error)) return false;
  auto di = vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  di.descriptorPool = st.descriptor_pool;
  di.descriptorSetCount = 1;
  di.pSetLayouts = &st.set_layout;
  const VkResult r = gpu.vk.vkAllocateDescriptorSets(gpu.device, &di, &s->set);
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
  auto st = std::make_unique<Vp9ItxState>();
  const uint32_t counts[V3D_ITX_NUM_BINDINGS] = {1, 1, 1, 1, 1, 1, 1};
  // One pipeline layout for both shaders: its push constant range is the larger struct.
  VkResult r = job_layouts_create(gpu, counts, V3D_ITX_NUM_BINDINGS, sizeof(V3dItxRecordsPush),
                                  kMaxSlots, &st->set_layout, &st->layout, &st->descriptor_pool);
  for (int s = 0; s < kItxNumSizes && r == VK_SUCCESS; s++) {
    const Spirv &spv = kSpirv[s][gpu.coef16 ? 1 : 0];
    r = compute_pipeline_create(gpu, st->layout, spv.code, spv.bytes, &st->pipeline[s]);
  }
  if (r == VK_SUCCESS)
    r = compute_pipeline_create(gpu, st->layout, vp9_itx_records_spv, sizeof(vp9_itx_records_spv),
                                &st->pipeline[kItxNumSizes]);
  if (r != VK_SUCCESS) {
    *error = std::string("creating pipelines: ") + vk_result_name(r);
    vp9_itx_state_destroy(gpu, st.release());
    return nullptr;
  }
  return st.release();
}

void vp9_itx_state_destroy(Gpu &gpu, Vp9ItxState *st) {
  // The caller (Gpu's destructor) waited for the device to be idle.
  for (auto &s : st->slots) slot_destroy(gpu, s.get());
  job_layouts_destroy(gpu, st->pipeline, sizeof(st->pipeline) / sizeof(st->pipeline[0]),
                      st->set_layout, st->layout, st->descriptor_pool);
  delete st;
}

// This family's place in every Gpu (gpu_register_family).
namespace {
void *family_create(Gpu &gpu, std::string *error) { return vp9_itx_state_create(gpu, error); }
void family_destroy(Gpu &gpu, void *st) {
  vp9_itx_state_destroy(gpu, static_cast<Vp9ItxState *>(st));
}
void family_free_host(void *st) { delete static_cast<Vp9ItxState *>(st); }
void lost_fences(void *st, std::vector<VkFence> *out) {
  for (const auto &s : static_cast<Vp9ItxState *>(st)->slots)
    if (s->lost) out->push_back(s->fence);
}
const GpuFamily kFamily = {"VP9 transform pipelines", true, family_create, family_destroy,
                             family_free_host, lost_fences};
const int kSlot = gpu_register_family(&kFamily);
}  // namespace

Vp9ItxState *itx_state(const Gpu &gpu) {
  return static_cast<Vp9ItxState *>(gpu_family_state(gpu, kSlot));
}

}  // namespace v3d
