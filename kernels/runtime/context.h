// SPDX-License-Identifier: LGPL-2.1-or-later
// V3dContext: the CPU worker pool, the optional GPU, and the split of each frame's work between
// them (the first scheduler; see docs/architecture.md).
//
// Ownership: reference counted (v3d_context_ref/free). Thread-safety: frame-level calls lock
// frame_mutex, so calls on one context run one at a time; stats have their own lock and are
// never held while running kernels or calling the GPU.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sched/kernel_stats.h"
#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx_frame.h"
#include "gpu/gpu.h"

namespace v3d {

enum class Backend { kScalar, kSimd, kGpu, kHybrid };

const char *backend_name(Backend b);

// Adaptive division of one kernel family's work between the CPU workers and the GPU, frame by
// frame. Ways to run a frame: CPU alone, GPU alone, split (a share of the frame's cost to the GPU,
// the rest to the CPU, at the same time) and, where the caller offers it (auto), a lean split:
// the same with one worker fewer, its core left to the GPU's host-side work (better on a Pi 5,
// ../shared/V3D_NOTES.md; worse where cores are many and the GPU has its own memory). The
// controller measures each way's frame time per unit of cost (EMA), runs the fastest, and now
// and then tries the others again (less often the slower they were) so that a change of content
// or load is noticed. Each split's share is balanced from the two sides' own spans inside its
// frames, so that both finish together. Tunables are named constants in context.cpp with their
// reasons.
class SplitController {
 public:
  // Fraction of the next frame's cost to give to the GPU (0..1). fixed >= 0 overrides (and
  // record() then learns nothing). offer_lean: the lean split is one of the ways to choose from.
  double next_share(double fixed, bool offer_lean = false);
  // Whether the frame planned by the last next_share() is a lean split (one worker fewer).
  bool lean() const { return planned_ == kSplitLean; }
  // Whether the frame planned by the last next_share() is the first of its split.
  bool first_split() const { return is_split(planned_) && time_per_cost_[planned_] == 0; }
  // Records the frame planned by the last next_share(): cost on each side (0 = side unused), each
  // side's span (seconds from the frame's start until that side's last result; the GPU's
  // includes its host-side preparation) and the frame's wall time.
  void record(double cpu_cost, double cpu_seconds, double gpu_cost, double gpu_seconds,
              double frame_seconds);
  // The (full) split's current GPU share (for statistics and tests).
  double split_share() const { return share_[0]; }

 private:
  enum Mode { kCpu = 0, kGpu = 1, kSplit = 2, kSplitLean = 3, kModes = 4, kNone = -1 };
  static bool is_split(int m) { return m == kSplit || m == kSplitLean; }
  double share_for(Mode m) const;
  int frame_ = 0;
  Mode planned_ = kNone;
  double time_per_cost_[kModes] = {0, 0, 0, 0};  // EMA of frame seconds per cost unit; 0 = unmeasured
  int last_run_[kModes] = {-1, -1, -1, -1};       // frame the mode last ran
  int samples_[kModes] = {0, 0, 0, 0};            // frames the mode ran (measurements)
  double cpu_rate_ = 0, gpu_rate_ = 0;            // cost per second of each side alone (EMA)
  // Per split (0: kSplit, 1: kSplitLean): the GPU share, each side's rate in its frames (EMA),
  // and how many of its frames in a row had sides far from finishing together.
  double share_[2] = {0.5, 0.5};
  double split_cpu_rate_[2] = {0, 0}, split_gpu_rate_[2] = {0, 0};
  int rebalance_tries_[2] = {0, 0};
};

// The split controllers of one kernel family, one per frame size: the GPU's fixed cost per frame
// makes the best split (and whether splitting pays at all) depend on the size. A stream keeps
// one size; a renegotiation gets a controller of its own (at most kMaxSizes are kept).
// Guarded by the context's frame_mutex.
class SplitBook {
 public:
  SplitController &for_size(int width, int height) {
    if (by_size_.size() >= kMaxSizes && !by_size_.count({width, height})) by_size_.clear();
    return by_size_[{width, height}];
  }

 private:
  static constexpr size_t kMaxSizes = 8;
  std::map<std::pair<int, int>, SplitController> by_size_;
};

// Arrays of v3d_vp9_itxfm_add_frame kept between frames (no allocation in steady state):
// validation's per-chunk totals and their prefix sums.
struct ItxScratch {
  std::vector<vp9::ItxChunk> chunks;
  std::vector<size_t> chunk_first;
  std::vector<uint64_t> chunk_cost;
  std::vector<size_t> cut;  // a frame's CPU tasks: blocks[cut[t], cut[t + 1])
  // The GPU's share of a frame is chosen by cost, but a share prepared beside validation (before
  // the costs are known) is chosen by block count: the last frame's ratio of the two at its split
  // (count fraction / cost fraction; 1 for blocks of one size).
  double count_per_cost = 1;

  // chunk_first and chunk_cost from chunks: blocks with work and cost before each chunk.
  void chunk_prefixes() {
    chunk_first.assign(chunks.size() + 1, 0);
    chunk_cost.assign(chunks.size() + 1, 0);
    for (size_t c = 0; c < chunks.size(); c++) {
      chunk_first[c + 1] = chunk_first[c] + chunks[c].active;
      chunk_cost[c + 1] = chunk_cost[c] + chunks[c].cost;
    }
  }
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
  v3d::SplitBook itx_split;  // guarded by frame_mutex
  v3d::SplitBook itx_batch_split;  // the way of running transform batches; frame_mutex
  v3d::ItxScratch itx_scratch;  // guarded by frame_mutex
  std::vector<v3d::ItxScratch> itx_batch_scratch;  // one per frame of a batch; frame_mutex
  v3d::SplitBook lpf_split;  // the VP9 loop filter's hybrid split (vp9/lpf_api.cpp)
  // Seconds the calling thread spends per frame given to the GPU in a loop-filter batch before
  // the CPU's frames can start (building the frame's cells, submitting), EMA; 0 = unmeasured.
  // frame_mutex.
  double lpf_gpu_submit_per_frame = 0;
  v3d::SplitBook h264_split;  // H.264 deblocking's hybrid split (h264/deblock_backend.cpp)
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
