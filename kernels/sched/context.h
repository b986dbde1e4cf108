// SPDX-License-Identifier: LGPL-2.1-or-later
// V3dContext: the CPU worker pool, the optional GPU, and what the frame scheduler keeps for each
// kernel family between calls (its split controllers and arrays; see docs/architecture.md).
//
// Ownership: reference counted (v3d_context_ref/free). Thread-safety: frame-level calls lock
// frame_mutex, so calls on one context run one at a time; stats have their own lock and are
// never held while running kernels or calling the GPU.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sched/kernel_stats.h"
#include "sched/split_controller.h"
#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "gpu/gpu.h"

namespace v3d {

enum class Backend { kScalar, kSimd, kGpu, kHybrid };

const char *backend_name(Backend b);

// What the scheduler keeps between one kernel family's calls on a context (guarded by the
// context's frame_mutex).
struct FamilySlot {
  SplitBook split;        // the way of running single frames (and the split's share)
  SplitBook batch_split;  // the way of running batches, where the family chooses it by measurement
  // Seconds the calling thread spends per frame given to the GPU in a batch before the CPU's
  // frames can start (preparing and submitting), EMA; 0 = unmeasured.
  double gpu_submit_per_frame = 0;
  // The family's own arrays kept between calls (no allocation in steady state); made and read by
  // the family only.
  std::shared_ptr<void> scratch;
};

}  // namespace v3d

struct V3dContext {
  std::atomic<int> refcount{1};
  v3d::Backend backend = v3d::Backend::kSimd;
  std::unique_ptr<v3d::ThreadPool> pool;
  std::shared_ptr<v3d::Gpu> gpu;
  // Submits the GPU's share of a transform frame during the frame's validation (gpu and hybrid
  // contexts; null otherwise). Used under frame_mutex.
  std::unique_ptr<v3d::SideThread> gpu_side;
  std::string gpu_name;
  double fixed_share = -1;  // hybrid: < 0 adaptive

  std::mutex frame_mutex;  // serializes frame-level calls
  v3d::FamilySlot family[V3D_KERNEL_COUNT];  // by V3D_KERNEL_*; guarded by frame_mutex
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
// Whether ctx's split controllers may choose the lean split (auto with more than one worker).
inline bool lean_split_allowed(const V3dContext *ctx) {
  return ctx->auto_backend && ctx->pool->capacity() > 1;
}
// Logs a failed GPU job or allocation of ctx (ctx->gpu set): "GPU <name> failed (<why>): <now>",
// or when the Gpu is lost "GPU <name> lost (<why>): <now>; all later work runs on the CPU".
// now: what happens instead. The context's first failure is a warning, later ones debug
// messages. Thread-safe.
void warn_gpu_failure(V3dContext *ctx, const char *why, const char *now);

// A frame-level call's hold on its context for the call's length: the frame lock (calls on one
// context run one at a time) and the pool kept hot (PoolHot: the call's loops follow each other).
class FrameScope {
 public:
  explicit FrameScope(V3dContext *ctx) : lock_(ctx->frame_mutex), hot_(*ctx->pool) {}
  FrameScope(const FrameScope &) = delete;
  FrameScope &operator=(const FrameScope &) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
  PoolHot hot_;
};

}  // namespace v3d
