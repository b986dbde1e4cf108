// SPDX-License-Identifier: LGPL-2.1-or-later
#include "sched/frame_sched.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "runtime/log.h"

namespace v3d {

bool family_gpu_usable(V3dContext *ctx, int kernel, bool (*has_pipeline)(const Gpu &),
                       const char *no_pipeline) {
  if ((ctx->backend != Backend::kGpu && ctx->backend != Backend::kHybrid) || !gpu_usable(ctx))
    return false;
  if (!has_pipeline || has_pipeline(*ctx->gpu)) return true;
  static std::atomic<bool> warned[V3D_KERNEL_COUNT];
  if (kernel >= 0 && kernel < V3D_KERNEL_COUNT && !warned[kernel].exchange(true))
    log(kLogWarning, "%s", no_pipeline);
  return false;
}

SideRates measured_rates(const V3dContext *ctx, int kernel) {
  const V3dKernelStats ks = ctx->kernel_stats[kernel].snapshot();
  SideRates r;
  r.cpu = ks.cpu_units_per_second;
  r.gpu = ks.gpu_units_per_second;
  return r;
}

double balanced_gpu_units(double units, double queued, SideRates rates) {
  if (!rates.measured()) return 0;
  const double m = (units / rates.cpu - queued / rates.gpu) / (1 / rates.gpu + 1 / rates.cpu);
  return m > 0 ? std::min(m, units) : 0;
}

bool gpu_keeps_up(double units, double queued, double cpu_units, SideRates rates) {
  return (queued + units) / rates.gpu <= cpu_units / rates.cpu;
}

double batch_gpu_frames(size_t n, double fixed_share, SideRates rates, double cpu_frame_seconds,
                        double host_seconds_per_gpu_frame) {
  const double frames = static_cast<double>(n);
  if (fixed_share >= 0) return std::min(1.0, fixed_share) * frames;
  if (!rates.measured()) return n > 1 ? 1 : 0;
  const double x = frames * rates.gpu / (rates.gpu + rates.cpu);
  if (cpu_frame_seconds > 0 && host_seconds_per_gpu_frame > 0 &&
      x * cpu_frame_seconds <= host_seconds_per_gpu_frame * std::ceil(x))
    return 0;
  return x;
}

double gpu_span(double waited, double submitted_at, const Gpu &gpu, double after) {
  const double device = gpu_last_job_seconds(gpu);
  return device > 0 ? std::min(waited, submitted_at + device + after) : waited;
}

void GpuBeside::start(const std::function<void()> *fn) {
  if (ctx_->gpu_side) {
    ctx_->gpu_side->post(fn);  // runs fn here when the side thread could not be started
    posted_ = true;
  } else {
    (*fn)();
  }
}

void GpuBeside::finish() {
  if (posted_) ctx_->gpu_side->wait();
  posted_ = false;
}

}  // namespace v3d
