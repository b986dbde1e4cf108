// SPDX-License-Identifier: LGPL-2.1-or-later
// A batch of transform frames on both sides at once (itx_frames_hybrid, itx_sched.h says what it
// does): the CPU workers take whole frames from the front, the feeder gives the GPU parts of
// frames from the back, until they meet.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/log.h"
#include "vp9/itx/itx.h"
#include "vp9/itx/itx_sched.h"

namespace v3d {
namespace {

// GPU jobs kept queued while the CPU works through a hybrid batch: enough that the GPU never
// runs dry while the feeder prepares the next one, few enough to leave slots to other callers.
constexpr size_t kHybridGpuDepth = 3;
// The fewest blocks the GPU takes in one job of a hybrid batch: below that a job's fixed cost
// outweighs its work.
constexpr size_t kMinGpuPart = 256;
// The GPU's parts of a hybrid batch: a frame's blocks with work in this many (kMinGpuPart at
// least). Each is a job (a job has a fixed cost of tens of microseconds).
constexpr size_t kGpuPartsPerFrame = 4;

// One hybrid batch. Frames are divided in validation's chunks of the block list (kItxChunk blocks
// each), whose totals say how many blocks with work and how much cost each holds: no pass over
// the blocks before the sides start. mutex_ guards lo_, hi_, gpu_from_, taking_ and the counters
// the two threads share; the feeder's queue is its own.
class HybridBatch {
 public:
  HybridBatch(V3dContext *ctx, const V3dVp9ItxFrame *frames,
              const std::vector<FramePlanes> &planes, std::vector<ItxScratch> &scratch,
              size_t n_frames, const double *test_rates)
      : ctx_(ctx), frames_(frames), planes_(planes), scratch_(scratch), n_(n_frames),
        book_(ctx->kernel_stats[V3D_KERNEL_VP9_ITX]), hi_(n_frames), gpu_from_(n_frames) {
    cuts_.reserve(n_);
    for (size_t f = 0; f < n_; f++) cuts_.emplace_back(frames[f].blocks, frames[f].n_blocks, scratch[f]);
    for (size_t f = 0; f < n_; f++) gpu_from_[f] = n_chunks(f);
    rates_ = measured_rates(ctx, V3D_KERNEL_VP9_ITX);
    if (test_rates) {
      rates_.cpu = test_rates[0];
      rates_.gpu = test_rates[1];
    }
  }

  int run(bool probe_gpu, BatchSides *sides);

 private:
  // A part of a frame given to the GPU: chunks [begin, end) of frame f (SIZE_MAX: none).
  struct Claim {
    size_t f = SIZE_MAX, begin = 0, end = 0;
  };
  // A GPU job of the feeder's queue.
  struct InFlight {
    std::unique_ptr<GpuJob> job;
    size_t frame;
    size_t begin, end;        // its part of the frame: blocks [begin, end)
    uint64_t active;          // blocks with work in it
    Clock::time_point start;  // when its preparation began
  };

  size_t n_chunks(size_t f) const { return scratch_[f].chunks.size(); }
  // Blocks with work in chunks [0, c) of frame f, and the first block of chunk c.
  size_t active_before(size_t f, size_t c) const { return scratch_[f].chunk_first[c]; }
  size_t block_of(size_t f, size_t c) const { return std::min(frames_[f].n_blocks, c * vp9::kItxChunk); }

  bool gpu_takes(uint64_t queued, uint64_t blocks, uint64_t cpu_left) const;
  Claim claim_next(uint64_t queued);
  void reserve_first(bool probe_gpu);
  void feeder();
  void retire_front();
  void cpu_frames();
  void finish_log(double cpu_done, Clock::time_point t_batch);

  V3dContext *ctx_;
  const V3dVp9ItxFrame *frames_;
  const std::vector<FramePlanes> &planes_;
  std::vector<ItxScratch> &scratch_;
  const size_t n_;
  KernelStatsBook &book_;
  std::vector<ItxCuts> cuts_;
  SideRates rates_;
  std::mutex mutex_;
  size_t lo_ = 0, hi_;  // the CPU has taken frames [0, lo_), the GPU all of [hi_, n)
  // Frame f's chunks from gpu_from_[f] on are the GPU's: the GPU claims parts from the back of
  // frame hi_ - 1 (only that frame can be partly claimed).
  std::vector<size_t> gpu_from_;
  Claim reserved_;      // the GPU's first part, claimed before the feeder starts
  bool taking_ = true;  // false once the sides have met
  uint64_t blocks_cpu_ = 0, blocks_gpu_ = 0, copies_ = 0, submissions_ = 0;
  double cpu_seconds_ = 0, gpu_seconds_ = 0;
  Clock::time_point gpu_end_;  // when the feeder returned
  // The feeder's own state (its thread only).
  std::deque<InFlight> queue_;
  uint64_t queued_ = 0;
  bool gpu_ok_ = true;
  GpuBusyClock busy_clock_;
};

// Whether the GPU, with `queued` blocks waiting, should take `blocks` more while the CPU has
// `cpu_left` blocks of the batch left to it: whether it still finishes no later than the CPU (the
// batch divider, gpu_keeps_up). Unmeasured: only when its queue is empty.
bool HybridBatch::gpu_takes(uint64_t queued, uint64_t blocks, uint64_t cpu_left) const {
  if (!rates_.measured()) return queued == 0;
  return gpu_keeps_up(static_cast<double>(blocks), static_cast<double>(queued),
                      static_cast<double>(cpu_left - std::min(cpu_left, blocks)), rates_);
}

// The GPU's next part, with `queued` blocks in its queue (the caller holds mutex_): the last
// kGpuPartsPerFrame-th of the chunks not yet claimed, of the last frame the CPU has not taken,
// while gpu_takes says so; else the sides meet there: the GPU takes the chunks that make both
// finish together at the measured rates (balanced_gpu_units), when they are worth a job (the CPU
// does the rest of the frame when it gets to it), and nothing more. Parts rather than whole
// frames keep the GPU's queue short, so that a side running slower than its rate said is made up
// for by the other (the CPU takes the frames the GPU has not claimed yet).
HybridBatch::Claim HybridBatch::claim_next(uint64_t queued) {
  Claim c;
  while (lo_ < hi_ && active_before(hi_ - 1, gpu_from_[hi_ - 1]) == 0) hi_--;
  if (!taking_ || lo_ >= hi_) return c;
  const size_t f = hi_ - 1, avail = gpu_from_[f];
  uint64_t cpu_left = active_before(f, avail);
  for (size_t k = lo_; k < f; k++) cpu_left += cuts_[k].active();
  const size_t part = std::min(avail, std::max<size_t>(1, (n_chunks(f) + kGpuPartsPerFrame - 1) /
                                                               kGpuPartsPerFrame));
  size_t take = 0;
  if (gpu_takes(queued, active_before(f, avail) - active_before(f, avail - part), cpu_left)) {
    take = part;
  } else {
    taking_ = false;
    const size_t m = static_cast<size_t>(balanced_gpu_units(
        static_cast<double>(cpu_left), static_cast<double>(queued), rates_));
    while (take < part && active_before(f, avail) - active_before(f, avail - take - 1) <= m) take++;
    if (active_before(f, avail) - active_before(f, avail - take) < kMinGpuPart) take = 0;
  }
  if (!take) return c;
  c.f = f;
  c.begin = avail - take;
  c.end = avail;
  gpu_from_[f] = c.begin;
  if (c.begin == 0) hi_--;
  return c;
}

// The GPU's first part, claimed before the workers start (they could otherwise finish a batch of
// small frames before the feeder has started): an unmeasured GPU, or the first batch split
// between the sides (so that its measurement is of both), gets the last frame whole; else
// claim_next's part. No other thread runs yet.
void HybridBatch::reserve_first(bool probe_gpu) {
  if ((rates_.gpu <= 0 || probe_gpu) && n_ > 1) {
    while (hi_ > 1 && cuts_[hi_ - 1].active() == 0) hi_--;
    if (cuts_[hi_ - 1].active() > 0) {
      reserved_.f = --hi_;
      reserved_.end = n_chunks(reserved_.f);
      gpu_from_[reserved_.f] = 0;
    }
  } else {
    reserved_ = claim_next(0);
  }
}

// Waits for the feeder's oldest job; a failed one is redone on the CPU (the frame has none of the
// GPU's results: the job restores what it wrote).
void HybridBatch::retire_front() {
  InFlight q = std::move(queue_.front());
  queue_.pop_front();
  const int rc = q.job->wait();
  book_.gpu_job(-1);
  const double busy = busy_clock_.retired(q.start);
  const uint64_t n = q.active;
  queued_ -= n;
  if (rc == V3D_OK) {
    book_.record(kernel_frame(0, n, busy, 0, busy));
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_gpu_ += n;
    gpu_seconds_ += busy;
    copies_ += q.job->copies();
    return;
  }
  std::string why = v3d_last_error();
  clear_error();
  const bool part = q.begin > 0 || q.end < frames_[q.frame].n_blocks;
  std::string now_what = (part ? "the GPU's part of frame " : "frame ") + std::to_string(q.frame) +
                         " of the batch is redone on the CPU";
  warn_gpu_failure(ctx_, why.c_str(), now_what.c_str());
  vp9::itx_apply_cpu(planes_[q.frame], frames_[q.frame].blocks, nullptr, q.begin, q.end,
                     frames_[q.frame].coeffs, false);
  std::lock_guard<std::mutex> lock(mutex_);
  blocks_cpu_ += n;
  gpu_ok_ = gpu_usable(ctx_);
}

// The feeder (beside the workers: GpuBeside): takes parts from the back while claim_next gives
// them and a slot is free, waits for the oldest job otherwise; ends when the GPU takes no more
// and its queue is empty. A part that could not be submitted it does itself (the workers may be
// done with the front already, so it cannot go back to them).
void HybridBatch::feeder() {
  struct FeederEnd {  // stamps the GPU side's end however the feeder returns
    Clock::time_point &end;
    ~FeederEnd() { end = Clock::now(); }
  } feeder_end{gpu_end_};
  for (;;) {
    while (!queue_.empty() && queue_.front().job->ready()) retire_front();
    Claim c = reserved_;
    reserved_ = Claim();
    if (c.f == SIZE_MAX && gpu_ok_ && queue_.size() < kHybridGpuDepth) {
      std::lock_guard<std::mutex> lock(mutex_);
      c = claim_next(queued_);
    }
    const size_t f = c.f;
    if (f == SIZE_MAX) {
      if (queue_.empty()) return;
      retire_front();
      continue;
    }
    const size_t begin = block_of(f, c.begin), end = block_of(f, c.end);
    const uint64_t n_active = active_before(f, c.end) - active_before(f, c.begin);
    const auto start = Clock::now();
    std::string err;
    const V3dVp9ItxFrame &fr = frames_[f];
    auto job = gpu_vp9_itx_submit(*ctx_->gpu, planes_[f], fr.blocks + begin, nullptr, end - begin,
                                  fr.coeffs, fr.n_coeffs, &err);
    if (!job) {  // no free slot (others use the GPU) or a failure
      vp9::itx_apply_cpu(planes_[f], fr.blocks, nullptr, begin, end, fr.coeffs, false);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        blocks_cpu_ += n_active;
      }
      if (queue_.empty()) {
        warn_gpu_failure(ctx_, err.c_str(), "the rest of the batch runs on the CPU");
        gpu_ok_ = false;
      }
      continue;
    }
    book_.gpu_job(+1);
    queued_ += n_active;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      submissions_++;
    }
    queue_.push_back({std::move(job), f, begin, end, n_active, start});
  }
}

// The CPU's side (the calling thread driving the workers): whole frames from the front, each
// frame's blocks before the GPU's claim cut into tasks of about equal cost.
void HybridBatch::cpu_frames() {
  std::vector<size_t> cut;
  for (;;) {
    size_t f, c_end;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (lo_ >= hi_) break;
      f = lo_++;
      c_end = gpu_from_[f];  // the GPU has claimed the rest (it claims no more of this frame)
    }
    const auto t_cpu = Clock::now();
    const size_t end = block_of(f, c_end), n = active_before(f, c_end);
    const uint64_t cost = scratch_[f].chunk_cost[c_end];
    int n_tasks = ctx_->pool->size() * kTasksPerThread;
    n_tasks = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(n_tasks, cost / kMinTaskCost)));
    cut.assign(n_tasks + 1, 0);
    cut[n_tasks] = end;
    for (int t = 1; t < n_tasks; t++)
      cut[t] = std::min(end, std::max(cut[t - 1], cuts_[f].approx(cost * t / n_tasks)));
    const V3dVp9ItxFrame &fr = frames_[f];
    ctx_->pool->run(n_tasks, [&](int task, int) {
      vp9::itx_apply_cpu(planes_[f], fr.blocks, nullptr, cut[task], cut[task + 1], fr.coeffs, false);
    });
    const double s = seconds_since(t_cpu);
    book_.record(kernel_frame(n, 0, s, s, 0));
    std::lock_guard<std::mutex> lock(mutex_);
    cpu_seconds_ += s;
    blocks_cpu_ += n;
  }
}

int HybridBatch::run(bool probe_gpu, BatchSides *sides) {
  // auto leaves the feeder a core (one worker fewer) while the GPU has frames.
  std::optional<PoolLimit> limit;
  if (ctx_->auto_backend && ctx_->pool->capacity() > 1)
    limit.emplace(*ctx_->pool, ctx_->pool->capacity() - 1);
  const auto t_batch = Clock::now();
  const std::function<void()> feeder_fn = [this] { feeder(); };
  GpuBeside side(ctx_);
  if (gpu_usable(ctx_)) {
    reserve_first(probe_gpu);
    if (side.beside()) {
      side.start(&feeder_fn);
    } else if (reserved_.f != SIZE_MAX) {
      // No side thread (it could not be started: the context warned): the batch runs on the
      // CPU, which is faster than the feeder's part first and the CPU's after it. The first
      // claim is given back.
      gpu_from_[reserved_.f] = reserved_.end;
      hi_ = std::max(hi_, reserved_.f + 1);
    }
  }
  cpu_frames();
  const double cpu_done = seconds_since(t_batch);
  side.finish();
  sides->blocks_cpu = blocks_cpu_;
  sides->blocks_gpu = blocks_gpu_;
  sides->cpu_span = cpu_done;
  sides->gpu_span = blocks_gpu_ ? std::chrono::duration<double>(gpu_end_ - t_batch).count() : 0;
  finish_log(cpu_done, t_batch);
  add_call_stats(ctx_, call_stats(n_, static_cast<double>(blocks_cpu_),
                                  static_cast<double>(blocks_gpu_), cpu_seconds_, gpu_seconds_,
                                  copies_, submissions_));
  return V3D_OK;
}

// The debug line of a batch, naming the frame where the sides met if they met inside one (the CPU
// took it, frames [0, lo_), and did its chunks before gpu_from_; the GPU the rest).
void HybridBatch::finish_log(double cpu_done, Clock::time_point t_batch) {
  char shared[96] = "none";
  for (size_t f = 0; f < lo_; f++)
    if (gpu_from_[f] > 0 && gpu_from_[f] < n_chunks(f))
      snprintf(shared, sizeof shared, "frame %zu (CPU %zu, GPU %zu blocks)", f,
               active_before(f, gpu_from_[f]), cuts_[f].active() - active_before(f, gpu_from_[f]));
  log(kLogDebug, "itx batch: %zu frames, CPU %llu blocks in %.3f ms (done at %.3f ms), GPU %llu "
      "blocks in %llu jobs busy %.3f ms, shared %s, batch %.3f ms", n_,
      static_cast<unsigned long long>(blocks_cpu_), cpu_seconds_ * 1e3, cpu_done * 1e3,
      static_cast<unsigned long long>(blocks_gpu_), static_cast<unsigned long long>(submissions_),
      gpu_seconds_ * 1e3, shared, seconds_since(t_batch) * 1e3);
}

}  // namespace

int itx_frames_hybrid(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                      const std::vector<FramePlanes> &planes, std::vector<ItxScratch> &scratch,
                      size_t n_frames, bool probe_gpu, BatchSides *sides, const double *test_rates) {
  HybridBatch batch(ctx, frames, planes, scratch, n_frames, test_rates);
  return batch.run(probe_gpu, sides);
}

}  // namespace v3d
