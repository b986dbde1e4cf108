// SPDX-License-Identifier: LGPL-2.1-or-later
// V3dContext: the CPU worker pool, the optional GPU, and the split of each frame's work between
// them (the first scheduler; see docs/architecture.md).
//
// Ownership: reference counted (v3d_context_ref/free). Thread-safety: frame-level calls lock
// frame_mutex, so calls on one context run one at a time; stats have their own lock and are
// never held while running kernels or calling the GPU.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "core/kernel_stats.h"
#include "core/thread_pool.h"
#include "v3d/v3d.h"
#include "vulkan/gpu.h"

namespace v3d {

enum class Backend { kScalar, kSimd, kGpu, kHybrid };

const char *backend_name(Backend b);

// Adaptive division of one kernel family's work between the CPU workers and the GPU.
// Tunables are named constants in context.cpp with their reasons.
class SplitController {
 public:
  // Fraction of the next frame's cost to give to the GPU (0..1). fixed >= 0 overrides.
  double next_share(double fixed);
  // Records a finished frame: cost and seconds on each side (cost 0 = side unused).
  void record(double cpu_cost, double cpu_seconds, double gpu_cost, double gpu_seconds,
              double frame_seconds);

 private:
  int frame_ = 0;
  double cpu_rate_ = 0;  // cost units per second, EMA
  double gpu_rate_ = 0;
  double hybrid_time_per_cost_ = 0;  // EMA of frame seconds per cost unit when split
  int single_side_until_ = 0;        // frames to stay on the single best side
  double single_share_ = 0;          // 0 = CPU, 1 = GPU, while single_side_until_ > frame_
  double last_share_ = 0.5;
};

}  // namespace v3d

struct V3dContext {
  std::atomic<int> refcount{1};
  v3d::Backend backend = v3d::Backend::kSimd;
  std::unique_ptr<v3d::ThreadPool> pool;
  std::shared_ptr<v3d::Gpu> gpu;
  std::string gpu_name;
  double fixed_share = -1;  // hybrid: < 0 adaptive

  std::mutex frame_mutex;  // serializes frame-level calls
  v3d::SplitController itx_split;
  v3d::SplitController lpf_split;  // the VP9 loop filter's hybrid split (vp9/lpf_api.cpp)
  bool auto_backend = false;       // "auto" was asked for (backend holds what it resolved to)

  // GPU failures: the first is logged as a warning, later ones at debug level only (a lost
  // device or exhausted GPU memory would otherwise warn on every frame).
  std::atomic<int> gpu_failures{0};

  mutable std::mutex stats_mutex;
  V3dStats stats{};
  v3d::KernelStatsBook kernel_stats[V3D_KERNEL_COUNT];  // own locks
};

namespace v3d {

// True when ctx has a GPU that is not lost (gpu_lost): frame-level calls give it work only then.
bool gpu_usable(const V3dContext *ctx);
// Logs a failed GPU job or allocation of ctx (ctx->gpu set): "GPU <name> failed (<why>): <now>",
// or when the Gpu is lost "GPU <name> lost (<why>): <now>; all later work runs on the CPU".
// now: what happens instead. The context's first failure is a warning, later ones debug
// messages. Thread-safe.
void warn_gpu_failure(V3dContext *ctx, const char *why, const char *now);

}  // namespace v3d
