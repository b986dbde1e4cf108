// SPDX-License-Identifier: LGPL-2.1-or-later
// Per kernel family statistics. See kernel_stats.h.
#include "sched/kernel_stats.h"

#include <algorithm>
#include <cmath>

#include "sched/context.h"
#include "runtime/log.h"

namespace v3d {

void KernelStatsBook::record(const KernelFrame &f) {
  std::lock_guard<std::mutex> lock(mutex_);
  s_.frames += f.frames;
  s_.units_cpu += f.units_cpu;
  s_.units_gpu += f.units_gpu;
  s_.wall_seconds += f.wall_seconds;
  s_.cpu_busy_seconds += f.cpu_busy_seconds;
  s_.gpu_busy_seconds += f.gpu_busy_seconds;
  if (f.units_cpu && f.units_gpu) {  // both sides worked: whoever finished first waited
    s_.cpu_idle_seconds += std::max(0.0, f.wall_seconds - f.cpu_busy_seconds);
    s_.gpu_idle_seconds += std::max(0.0, f.wall_seconds - f.gpu_busy_seconds);
  }
  const uint64_t units = f.units_cpu + f.units_gpu;
  s_.gpu_share_last = units ? static_cast<double>(f.units_gpu) / units : 0;
  // A batch counts as its frames' average time (they ran together).
  recent_ms_[n_recent_ % kWindow] =
      static_cast<float>(f.wall_seconds * 1e3 / static_cast<double>(f.frames ? f.frames : 1));
  n_recent_++;
}

void KernelStatsBook::gpu_job(int delta) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (delta < 0 && s_.gpu_jobs_in_flight < static_cast<uint32_t>(-delta)) {
    s_.gpu_jobs_in_flight = 0;
    return;
  }
  s_.gpu_jobs_in_flight += delta;
  s_.gpu_jobs_in_flight_max = std::max(s_.gpu_jobs_in_flight_max, s_.gpu_jobs_in_flight);
}

V3dKernelStats KernelStatsBook::snapshot() const {
  std::array<float, kWindow> window;
  V3dKernelStats out;
  size_t n;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    out = s_;
    n = std::min(n_recent_, kWindow);
    std::copy(recent_ms_.begin(), recent_ms_.begin() + n, window.begin());
  }
  out.cpu_units_per_second = out.cpu_busy_seconds > 0 ? out.units_cpu / out.cpu_busy_seconds : 0;
  out.gpu_units_per_second = out.gpu_busy_seconds > 0 ? out.units_gpu / out.gpu_busy_seconds : 0;
  if (n) {
    std::sort(window.begin(), window.begin() + n);
    out.frame_ms_median = window[(n - 1) / 2];
    // Nearest rank: the smallest value with at least 99 % of the frames at or below it.
    size_t rank = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(n)));
    out.frame_ms_p99 = window[std::min(n, std::max<size_t>(rank, 1)) - 1];
  }
  return out;
}

}  // namespace v3d

extern "C" int v3d_context_get_kernel_stats(const V3dContext *ctx, int kernel,
                                            V3dKernelStats *stats) {
  if (!ctx || !stats || kernel < 0 || kernel >= V3D_KERNEL_COUNT) {
    return v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "%s",
                          !ctx ? "NULL context" : !stats ? "NULL stats" : "unknown kernel family");
  }
  *stats = ctx->kernel_stats[kernel].snapshot();
  return V3D_OK;
}
