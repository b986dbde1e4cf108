// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 transforms' scheduling, shared by its entry points (itx_api.cpp: one frame;
// itx_batch.cpp: batches) and the frame path (itx_frame_sched.cpp): the arrays kept between
// calls, the checks of a frame's arguments, the cut of a frame's block list by cost, and the
// parts of a GPU job's host-side preparation shared between threads.
// Threads: everything here is used under the context's frame_mutex, except PrepParts and
// ItxEarly::submit, which the threads of one frame share as their comments say.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gpu/gpu.h"
#include "sched/context.h"
#include "sched/frame_call.h"
#include "sched/frame_sched.h"
#include "vp9/itx/itx_frame.h"
#include "vp9/itx/itx_gpu.h"

namespace v3d {

// CPU tasks per worker thread in one frame: several, so that uneven blocks even out.
inline constexpr int kTasksPerThread = 4;
// Smallest CPU task, in cost units (pixels): below this, thread hand-off costs more than it saves.
inline constexpr uint64_t kMinTaskCost = 16 * 1024;
// GPU transform blocks per part of the job's host-side preparation in a split frame (at most one
// part per thread): small enough that the threads awake first share it.
inline constexpr size_t kPrepPartBlocks = 256;

// Parts of the host-side preparation of a GPU job of n blocks on ctx: one per kPrepPartBlocks,
// at least one, at most one per worker.
inline int prep_parts(const V3dContext *ctx, size_t n) {
  return static_cast<int>(std::clamp<size_t>(n / kPrepPartBlocks, 1, ctx->pool->size()));
}

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

// The transforms' arrays of one context (FamilySlot::scratch): a single frame's, and one per
// frame of a batch.
struct ItxScratches {
  ItxScratch frame;
  std::vector<ItxScratch> batch;
};
// ctx's arrays, made on first use. The caller holds ctx->frame_mutex.
ItxScratches &itx_scratches(V3dContext *ctx);

// A frame's checks before its blocks': its pointers.
int check_itx_pointers(uint8_t *const planes[3], const ptrdiff_t strides[3], const int16_t *coeffs,
                       size_t n_coeffs);

// A frame's checks after its blocks' (validated, so width and height are valid): its planes,
// described into *frame.
int check_itx_planes(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                     FramePlanes *frame);

// The parts of a GPU job's preparation (ItxGpuPrep::run_part), shared by whichever threads come:
// each runs parts until none is left (help), and the submitting thread then waits for those that
// others took (wait_all) before it submits. Times the parts for the debug log.
struct PrepParts {
  ItxGpuPrep *prep = nullptr;
  int n = 0;
  std::atomic<int> next{0}, done{0};
  std::atomic<int64_t> end_ticks{0};         // when the last part ended (Clock ticks)
  std::atomic<int64_t> ns{0}, longest_ns{0};  // the parts' time in all, the longest's

  void help() {
    for (int k; (k = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
      const auto t0 = Clock::now();
      prep->run_part(k);
      const auto t1 = Clock::now();
      const int64_t d = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
      ns.fetch_add(d, std::memory_order_relaxed);
      for (int64_t m = longest_ns.load(std::memory_order_relaxed);
           d > m && !longest_ns.compare_exchange_weak(m, d, std::memory_order_relaxed);) {
      }
      if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == n)
        end_ticks.store(t1.time_since_epoch().count(), std::memory_order_relaxed);
    }
  }
  void wait_all() const {
    while (done.load(std::memory_order_acquire) < n) std::this_thread::yield();
  }
};

// A frame's GPU work begun before its validation (v3d_vp9_itxfm_add_frame): the share planned
// by the controller, and the GPU's job for blocks[0, end). Its preparation's parts run as the
// first tasks of validation's first loop, and the context's side thread (GpuBeside) helps
// with them, waits for the last and submits the job: the GPU starts while the workers validate,
// and validation's loop does not wait for the submission. (As a task of that loop, the
// submission made validation end 0.04-0.07 ms later on the device machine, 0.11-0.16 ms into a
// 16x16 frame against 0.075-0.10; as the calling thread's beside(), the loop still ended only
// after it. Without a side thread, that is the fallback.)
struct ItxEarly {
  bool planned = false;  // share is the controller's plan for this frame
  double share = 0;
  size_t end = 0;
  std::unique_ptr<ItxGpuPrep> prep;  // null: none, or submitted (job) or failed
  PrepParts parts;                   // prep's parts (parts.n > 0: prep was made, and is posted)
  bool side = false;                 // submitted beside (else by the calling thread)
  std::unique_ptr<GpuBeside> beside;  // runs submit() beside validation when side
  std::unique_ptr<GpuJob> job;  // submitted during validation (read after the side thread's wait)
  std::string submit_error;     // why, when posted but no job
  Clock::time_point t_prep, t_submit, t_submitted;  // first part, submission's start and end
  Clock::time_point t_side;  // when the side thread began (debug log)

  bool posted() const { return parts.n > 0; }
  // The side thread's work (or the calling thread's, beside validation): helps, waits for the
  // parts taken by others, submits. A part that met a block failing its own checks made the job
  // refuse (validation fails too, and reports the block).
  void submit() {
    t_side = Clock::now();
    parts.help();
    parts.wait_all();
    t_submit = Clock::now();
    job = prep->submit(&submit_error);
    t_submitted = Clock::now();
    prep.reset();
  }
};

// A frame's split points, found from validation's chunk totals without a list of the blocks
// with work (building one was a pass over the frame as long as validation's on short frames).
class ItxCuts {
 public:
  ItxCuts(const V3dVp9TxBlock *blocks, size_t n_blocks, ItxScratch &scratch)
      : blocks_(blocks), n_blocks_(n_blocks), chunks_(scratch.chunks), cost_(scratch.chunk_cost),
        first_(scratch.chunk_first) {
    scratch.chunk_prefixes();
  }
  uint64_t total() const { return cost_.back(); }
  size_t active() const { return first_.back(); }
  // The shortest prefix blocks[0, end) whose cost reaches target (exact: walks one chunk), with
  // its cost and its number of blocks with work.
  size_t exact(uint64_t target, uint64_t *cost, size_t *active) const {
    if (target == 0) return *cost = 0, *active = 0, 0;
    if (target >= total()) return *cost = total(), *active = this->active(), n_blocks_;
    const size_t c = chunk_of(target);  // cost_[c] < target <= cost_[c + 1]
    uint64_t sum = cost_[c];
    size_t k = first_[c], i = c * vp9::kItxChunk;
    while (sum < target) {
      const uint32_t b = vp9::itx_block_cost(blocks_[i++]);
      sum += b;
      k += b != 0;
    }
    *cost = sum;
    *active = k;
    return i;
  }
  // The cost of blocks[0, end) and its number of blocks with work (walks one chunk).
  uint64_t prefix(size_t end, size_t *active) const {
    end = std::min(end, n_blocks_);
    const size_t c = end / vp9::kItxChunk;
    uint64_t sum = cost_[c];
    size_t k = first_[c];
    for (size_t i = c * vp9::kItxChunk; i < end; i++) {
      const uint32_t b = vp9::itx_block_cost(blocks_[i]);
      sum += b;
      k += b != 0;
    }
    *active = k;
    return sum;
  }
  // About where the cost reaches target (interpolated inside a chunk): for cutting the CPU's
  // share into tasks, which the workers then take as they come.
  size_t approx(uint64_t target) const {
    if (target == 0) return 0;
    if (target >= total()) return n_blocks_;
    const size_t c = chunk_of(target);
    const size_t begin = c * vp9::kItxChunk, len = std::min(n_blocks_, begin + vp9::kItxChunk) - begin;
    const uint64_t in = chunks_[c].cost ? chunks_[c].cost : 1;
    return begin + static_cast<size_t>(static_cast<double>(target - cost_[c]) / in * len);
  }

 private:
  size_t chunk_of(uint64_t target) const {
    return static_cast<size_t>(std::lower_bound(cost_.begin(), cost_.end(), target) - cost_.begin()) - 1;
  }
  const V3dVp9TxBlock *blocks_;
  size_t n_blocks_;
  const std::vector<vp9::ItxChunk> &chunks_;
  const std::vector<uint64_t> &cost_;  // cost of chunks [0, c)
  const std::vector<size_t> &first_;   // blocks with work in chunks [0, c)
};

// One validated frame on ctx's backend, or on its CPU workers alone when cpu_only (the caller
// holds ctx->frame_mutex; scratch.chunks from its validation). t_call: when the call began, for
// the debug log. early: what was planned and prepared before validation, or null.
void itx_frame_validated(V3dContext *ctx, const FramePlanes &frame, const V3dVp9TxBlock *blocks,
                         size_t n_blocks, const int16_t *coeffs, size_t n_coeffs,
                         ItxScratch &scratch, Clock::time_point t_call, bool cpu_only = false,
                         ItxEarly *early = nullptr);

// What each side of a hybrid batch did (itx_frames_hybrid).
struct BatchSides {
  uint64_t blocks_cpu = 0, blocks_gpu = 0;
  double cpu_span = 0, gpu_span = 0;
};

// Hybrid batch: frames on each side at once. The CPU workers take whole frames from the front of
// the batch (the calling thread drives them), and a feeder thread gives the GPU parts of frames
// (a quarter of a frame's blocks with work) from the back, until they meet; frames
// are independent (they share no pixels), so the order in which they are done does not matter.
// Where they meet, a frame is shared: the CPU does what the GPU has not claimed (as a split
// frame's, the two parts share no pixels). With whole frames only, the sides finished up to a
// frame apart, and the GPU's rate from earlier batches decided how many it queued.
// The feeder (on the side thread: GpuBeside) does the GPU's host-side work (bucketing, the
// in-place blocks' backups, submission, completion) off the workers: done as a task of the
// workers' loop, that work held up every CPU frame it ran beside. The GPU is given a
// part only when, at the throughputs measured so far (this context's kernel statistics, the
// GPU's counting its host-side work), it would finish its queue no later than the CPU finishes
// the blocks left to it: a slow GPU (lavapipe on the CPU's own cores) then gets nothing and the
// batch runs as fast as the CPU alone. Before the GPU has been measured, or when probe_gpu (the
// batch controller's first batch of this kind), it gets the last frame whole first. auto leaves
// the feeder a core (one worker fewer) while the GPU has frames.
// The caller holds ctx->frame_mutex; scratch[f].chunks from frame f's validation. Returns each
// side's blocks and span (seconds from the start to its last frame) in *sides.
// test_rates: when not null, the CPU's and the GPU's blocks per second to divide the batch by
// instead of the measured ones (itx_batch_test_rates).
int itx_frames_hybrid(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                      const std::vector<FramePlanes> &planes, std::vector<ItxScratch> &scratch,
                      size_t n_frames, bool probe_gpu, BatchSides *sides,
                      const double *test_rates = nullptr);

// The GPU side's busy time for each job of a queue as it is retired: from the job's preparation
// (start), or from the previous job's completion when it was queued behind it (a job's whole time
// in the queue would count the jobs ahead of it again, and make the GPU look several times
// slower than it is to the hybrid batches dividing work by these rates).
class GpuBusyClock {
 public:
  double retired(Clock::time_point start) {
    const auto now = Clock::now();
    const double busy = std::chrono::duration<double>(now - std::max(start, last_done_)).count();
    last_done_ = now;
    return busy;
  }

 private:
  Clock::time_point last_done_ = Clock::now();
};

}  // namespace v3d
