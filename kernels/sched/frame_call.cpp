// SPDX-License-Identifier: LGPL-2.1-or-later
#include "sched/frame_call.h"

#include <mutex>

#include "sched/context.h"
#include "runtime/log.h"

namespace v3d {

int check_frame_pointers(const V3dContext *ctx, uint8_t *const planes[3],
                         const ptrdiff_t strides[3]) {
  if (ctx && planes && strides) return V3D_OK;
  return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s",
                   !ctx ? "context" : !planes ? "planes" : "strides");
}

int check_batch_pointers(const V3dContext *ctx, const void *frames, size_t n_frames) {
  if (ctx && (frames || !n_frames)) return V3D_OK;
  return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !ctx ? "context" : "frames");
}

int check_plane_strides(uint8_t *const planes[3], const ptrdiff_t strides[3],
                        const int widths[3]) {
  for (int p = 0; p < 3; p++) {
    if (!planes[p]) return set_error(V3D_ERROR_INVALID_ARGUMENT, "plane %d is NULL", p);
    if (strides[p] < widths[p])
      return set_error(V3D_ERROR_INVALID_ARGUMENT, "stride %td of plane %d is below its width %d",
                       strides[p], p, widths[p]);
  }
  return V3D_OK;
}

CallStats call_stats(uint64_t frames, double units_cpu, double units_gpu, double cpu_seconds,
                     double gpu_seconds, uint64_t copies, uint64_t submissions, double gpu_share) {
  CallStats c;
  c.frames = frames;
  c.blocks_cpu = static_cast<uint64_t>(units_cpu + 0.5);
  c.blocks_gpu = static_cast<uint64_t>(units_gpu + 0.5);
  c.cpu_seconds = cpu_seconds;
  c.gpu_seconds = gpu_seconds;
  c.gpu_share = gpu_share >= 0 ? gpu_share
                : units_cpu + units_gpu > 0 ? units_gpu / (units_cpu + units_gpu) : 0;
  c.copies = copies;
  c.submissions = submissions;
  return c;
}

void add_call_stats(V3dContext *ctx, const CallStats &c) {
  std::lock_guard<std::mutex> lock(ctx->stats_mutex);
  V3dStats &s = ctx->stats;
  s.frames += c.frames;
  s.blocks_cpu += c.blocks_cpu;
  s.blocks_gpu += c.blocks_gpu;
  s.cpu_seconds += c.cpu_seconds;
  s.gpu_seconds += c.gpu_seconds;
  s.gpu_share = c.gpu_share;
  s.copies += c.copies;
  s.gpu_submissions += c.submissions;
}

void record_cpu_frame(V3dContext *ctx, int kernel, uint64_t blocks, double seconds) {
  if (kernel >= 0 && kernel < V3D_KERNEL_COUNT)
    ctx->kernel_stats[kernel].record(kernel_frame(blocks, 0, seconds, seconds, 0));
  add_call_stats(ctx, call_stats(1, static_cast<double>(blocks), 0, seconds, 0, 0, 0));
}

}  // namespace v3d
