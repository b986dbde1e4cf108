// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_vp9_itxfm_add_frames: a batch of transform frames, validated together, then run frame
// after frame, on the GPU alone, or on both sides at once (itx_frames_hybrid).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <functional>
#include <vector>

#include "runtime/log.h"
#include "vp9/itx/itx.h"
#include "vp9/itx/itx_sched.h"

namespace v3d {
namespace {

// Test hook: V3D_TEST_ITX_BATCH_RATES=CPU:GPU (blocks per second, both > 0) makes an adaptive
// hybrid context run every batch of several frames on both sides, divided by these rates instead
// of measured ones, so that tests reach a given division (e.g. the frame where the sides meet
// shared) on any machine. Returns false when unset or malformed.
bool itx_batch_test_rates(double rates[2]) {
  const char *e = getenv("V3D_TEST_ITX_BATCH_RATES");
  return e && sscanf(e, "%lf:%lf", &rates[0], &rates[1]) == 2 && rates[0] > 0 && rates[1] > 0;
}

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

// A batch on the GPU alone (defined below).
int itx_frames_gpu(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                   const std::vector<FramePlanes> &planes, const std::vector<ItxScratch> &scratch,
                   size_t n_frames);

// What each side of a hybrid batch did (itx_frames_hybrid).
struct BatchSides {
  uint64_t blocks_cpu = 0, blocks_gpu = 0;
  double cpu_span = 0, gpu_span = 0;
};

// GPU jobs kept queued while the CPU works through a hybrid batch: enough that the GPU never
// runs dry while the feeder prepares the next one, few enough to leave slots to other callers.
constexpr size_t kHybridGpuDepth = 3;
// The fewest blocks the GPU takes in one job of a hybrid batch: below that a job's fixed cost
// outweighs its work.
constexpr size_t kMinGpuPart = 256;
// The GPU's parts of a hybrid batch: a frame's blocks with work in this many (kMinGpuPart at
// least). Each is a job (on the device machine a job's fixed cost was ~40 us, M5).
constexpr size_t kGpuPartsPerFrame = 4;

// Hybrid batch: frames on each side at once. The CPU workers take whole frames from the front of
// the batch (the calling thread drives them), and a feeder thread gives the GPU parts of frames
// (a quarter of a frame's blocks with work, claim_next) from the back, until they meet; frames
// are independent (they share no pixels), so the order in which they are done does not matter.
// Where they meet, a frame is shared: the CPU does what the GPU has not claimed (as a split
// frame's, the two parts share no pixels). With whole frames only, the sides finished up to a
// frame apart (8 frames and a GPU worth 1.5 of them: it took one and the CPU did half a frame
// more than its share), and the GPU's rate from earlier batches decided how many it queued.
// The feeder (on the side thread: GpuBeside) does the GPU's host-side work (bucketing, the in-place blocks' backups, submission,
// completion) off the workers: done as a task of the workers' loop, that work (milliseconds per
// frame on the device machine's host) held up every CPU frame it ran beside. The GPU is given a
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
                      const double *test_rates = nullptr) {
  KernelStatsBook &book = ctx->kernel_stats[V3D_KERNEL_VP9_ITX];
  // Frames are divided in validation's chunks of the block list (kItxChunk blocks each), whose
  // totals say how many blocks with work and how much cost each holds: no pass over the blocks
  // before the sides start (a list of each frame's blocks with work took ~0.3 ms of a 3 ms batch
  // of eight 1080p frames on the device machine, the GPU idle meanwhile).
  std::vector<ItxCuts> cuts;
  cuts.reserve(n_frames);
  for (size_t f = 0; f < n_frames; f++) cuts.emplace_back(frames[f].blocks, frames[f].n_blocks, scratch[f]);
  auto n_chunks = [&](size_t f) { return scratch[f].chunks.size(); };
  // Blocks with work in chunks [0, c) of frame f, and the first block of chunk c.
  auto active_before = [&](size_t f, size_t c) { return scratch[f].chunk_first[c]; };
  auto block_of = [&](size_t f, size_t c) { return std::min(frames[f].n_blocks, c * vp9::kItxChunk); };
  std::mutex mutex;              // guards lo, hi, gpu_from and the counters below
  size_t lo = 0, hi = n_frames;  // the CPU has taken frames [0, lo), the GPU all of [hi, n)
  // Frame f's chunks from gpu_from[f] on are the GPU's: the GPU claims parts from the back of
  // frame hi - 1 (only that frame can be partly claimed).
  std::vector<size_t> gpu_from(n_frames);
  for (size_t f = 0; f < n_frames; f++) gpu_from[f] = n_chunks(f);
  // A part of a frame given to the GPU: chunks [begin, end) of frame f (SIZE_MAX: none).
  struct Claim {
    size_t f = SIZE_MAX, begin = 0, end = 0;
  };
  Claim reserved;      // the GPU's first part, claimed before the feeder starts
  bool taking = true;  // false once the sides have met (guarded by mutex)
  uint64_t blocks_cpu = 0, blocks_gpu = 0, copies = 0, submissions = 0;
  double cpu_seconds = 0, gpu_seconds = 0;
  SideRates side_rates = measured_rates(ctx, V3D_KERNEL_VP9_ITX);
  if (test_rates) {
    side_rates.cpu = test_rates[0];
    side_rates.gpu = test_rates[1];
  }
  Clock::time_point gpu_end;  // when the feeder returned

  // Whether the GPU, with `queued` blocks waiting, should take `blocks` more while the CPU has
  // `cpu_left` blocks of the batch left to it: whether it still finishes no later than the CPU
  // (the batch divider, gpu_keeps_up). Unmeasured: only when its queue is empty.
  auto gpu_takes = [&](uint64_t queued, uint64_t blocks, uint64_t cpu_left) {
    if (!side_rates.measured()) return queued == 0;
    return gpu_keeps_up(static_cast<double>(blocks), static_cast<double>(queued),
                        static_cast<double>(cpu_left - std::min(cpu_left, blocks)), side_rates);
  };
  // The most blocks the GPU can take so that it still finishes no later than the CPU.
  auto gpu_part = [&](uint64_t queued, uint64_t cpu_left) -> size_t {
    return static_cast<size_t>(
        balanced_gpu_units(static_cast<double>(cpu_left), static_cast<double>(queued), side_rates));
  };
  // The GPU's next part, with `queued` blocks in its queue (the caller holds mutex): the last
  // kGpuPartsPerFrame-th of the chunks not yet claimed, of the last frame the CPU has not taken,
  // while gpu_takes says so; else the sides meet there: the GPU takes the chunks that make both
  // finish together at the measured rates, (queued + m) / gpu <= (cpu_left - m) / cpu, when
  // they are worth a job (the CPU does the rest of the frame when it gets to it), and nothing
  // more. Parts rather than whole frames keep the GPU's queue short, so that a side running
  // slower than its rate said is made up for by the other (the CPU takes the frames the GPU has
  // not claimed yet).
  auto claim_next = [&](uint64_t queued) {
    Claim c;
    while (lo < hi && active_before(hi - 1, gpu_from[hi - 1]) == 0) hi--;
    if (!taking || lo >= hi) return c;
    const size_t f = hi - 1, avail = gpu_from[f];
    uint64_t cpu_left = active_before(f, avail);
    for (size_t k = lo; k < f; k++) cpu_left += cuts[k].active();
    const size_t part = std::min(avail, std::max<size_t>(1, (n_chunks(f) + kGpuPartsPerFrame - 1) /
                                                                 kGpuPartsPerFrame));
    size_t take = 0;
    if (gpu_takes(queued, active_before(f, avail) - active_before(f, avail - part), cpu_left)) {
      take = part;
    } else {
      taking = false;
      const size_t m = gpu_part(queued, cpu_left);
      while (take < part && active_before(f, avail) - active_before(f, avail - take - 1) <= m) take++;
      if (active_before(f, avail) - active_before(f, avail - take) < kMinGpuPart)
        take = 0;
    }
    if (!take) return c;
    c.f = f;
    c.begin = avail - take;
    c.end = avail;
    gpu_from[f] = c.begin;
    if (c.begin == 0) hi--;
    return c;
  };
  // The feeder: takes parts from the back while claim_next gives them and a slot is free, waits
  // for the oldest job otherwise; ends when the GPU takes no more and its queue is empty.
  auto feeder = [&]() {
    struct FeederEnd {  // stamps the GPU side's end however the feeder returns
      Clock::time_point &end;
      ~FeederEnd() { end = Clock::now(); }
    } feeder_end{gpu_end};
    struct InFlight {
      std::unique_ptr<GpuJob> job;
      size_t frame;
      size_t begin, end;        // its part of the frame: blocks [begin, end)
      uint64_t active;          // blocks with work in it
      Clock::time_point start;  // when its preparation began
    };
    std::deque<InFlight> queue;
    uint64_t queued = 0;
    bool gpu_ok = true;
    GpuBusyClock busy_clock;
    auto retire_front = [&]() {
      InFlight q = std::move(queue.front());
      queue.pop_front();
      const int rc = q.job->wait();
      book.gpu_job(-1);
      const double busy = busy_clock.retired(q.start);
      const uint64_t n = q.active;
      queued -= n;
      if (rc == V3D_OK) {
        book.record(kernel_frame(0, n, busy, 0, busy));
        std::lock_guard<std::mutex> lock(mutex);
        blocks_gpu += n;
        gpu_seconds += busy;
        copies += q.job->copies();
      } else {  // the frame has none of the GPU's results (the job restores what it wrote)
        std::string why = v3d_last_error();
        clear_error();
        const bool part = q.begin > 0 || q.end < frames[q.frame].n_blocks;
        std::string now_what = (part ? "the GPU's part of frame " : "frame ") +
                               std::to_string(q.frame) + " of the batch is redone on the CPU";
        warn_gpu_failure(ctx, why.c_str(), now_what.c_str());
        vp9::itx_apply_cpu(planes[q.frame], frames[q.frame].blocks, nullptr, q.begin, q.end,
                           frames[q.frame].coeffs, false);
        std::lock_guard<std::mutex> lock(mutex);
        blocks_cpu += n;
        gpu_ok = gpu_usable(ctx);
      }
    };
    for (;;) {
      while (!queue.empty() && queue.front().job->ready()) retire_front();
      Claim c = reserved;
      reserved = Claim();
      if (c.f == SIZE_MAX && gpu_ok && queue.size() < kHybridGpuDepth) {
        std::lock_guard<std::mutex> lock(mutex);
        c = claim_next(queued);
      }
      const size_t f = c.f;
      if (f == SIZE_MAX) {
        if (queue.empty()) return;
        retire_front();
        continue;
      }
      const size_t begin = block_of(f, c.begin), end = block_of(f, c.end);
      const uint64_t n_active = active_before(f, c.end) - active_before(f, c.begin);
      const auto start = Clock::now();
      std::string err;
      auto job = gpu_vp9_itx_submit(*ctx->gpu, planes[f], frames[f].blocks + begin, nullptr,
                                    end - begin, frames[f].coeffs, frames[f].n_coeffs, &err);
      if (!job) {  // no free slot (others use the GPU) or a failure: the feeder does the part
        // (the workers may be done with the front already, so it cannot go back to them)
        vp9::itx_apply_cpu(planes[f], frames[f].blocks, nullptr, begin, end, frames[f].coeffs,
                           false);
        {
          std::lock_guard<std::mutex> lock(mutex);
          blocks_cpu += n_active;
        }
        if (queue.empty()) {
          warn_gpu_failure(ctx, err.c_str(), "the rest of the batch runs on the CPU");
          gpu_ok = false;
        }
        continue;
      }
      book.gpu_job(+1);
      queued += n_active;
      {
        std::lock_guard<std::mutex> lock(mutex);
        submissions++;
      }
      queue.push_back({std::move(job), f, begin, end, n_active, start});
    }
  };

  std::optional<PoolLimit> limit;
  if (ctx->auto_backend && ctx->pool->capacity() > 1)
    limit.emplace(*ctx->pool, ctx->pool->capacity() - 1);
  const auto t_batch = Clock::now();
  const std::function<void()> feeder_fn = feeder;
  GpuBeside side(ctx);
  if (gpu_usable(ctx)) {
    // The GPU's first part is claimed before the workers start (they could otherwise finish a
    // batch of small frames before the feeder thread has started): an unmeasured GPU, or the
    // first batch split between the sides (so that its measurement is of both), gets the last
    // frame whole; else claim_next's part.
    if ((side_rates.gpu <= 0 || probe_gpu) && n_frames > 1) {
      while (hi > 1 && cuts[hi - 1].active() == 0) hi--;
      if (cuts[hi - 1].active() > 0) {
        reserved.f = --hi;
        reserved.end = n_chunks(reserved.f);
        gpu_from[reserved.f] = 0;
      }
    } else {
      reserved = claim_next(0);  // no other thread yet
    }
    if (side.beside()) {
      side.start(&feeder_fn);
    } else if (reserved.f != SIZE_MAX) {
      // No side thread (it could not be started: the context warned): the batch runs on the
      // CPU, which is faster than the feeder's part first and the CPU's after it. The first
      // claim is given back.
      gpu_from[reserved.f] = reserved.end;
      hi = std::max(hi, reserved.f + 1);
    }
  }
  std::vector<size_t> cut;
  for (;;) {
    size_t f, c_end;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (lo >= hi) break;
      f = lo++;
      c_end = gpu_from[f];  // the GPU has claimed the rest (it claims no more of this frame)
    }
    const auto t_cpu = Clock::now();
    // Blocks [0, end) of the frame, holding n blocks with work of this cost, cut into tasks of
    // about equal cost.
    const size_t end = block_of(f, c_end), n = active_before(f, c_end);
    const uint64_t cost = scratch[f].chunk_cost[c_end];
    int n_tasks = ctx->pool->size() * kTasksPerThread;
    n_tasks = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(n_tasks, cost / kMinTaskCost)));
    cut.assign(n_tasks + 1, 0);
    cut[n_tasks] = end;
    for (int t = 1; t < n_tasks; t++)
      cut[t] = std::min(end, std::max(cut[t - 1], cuts[f].approx(cost * t / n_tasks)));
    ctx->pool->run(n_tasks, [&](int task, int) {
      vp9::itx_apply_cpu(planes[f], frames[f].blocks, nullptr, cut[task], cut[task + 1],
                         frames[f].coeffs, false);
    });
    const double s = seconds_since(t_cpu);
    book.record(kernel_frame(n, 0, s, s, 0));
    std::lock_guard<std::mutex> lock(mutex);
    cpu_seconds += s;
    blocks_cpu += n;
  }
  const double cpu_done = seconds_since(t_batch);
  side.finish();
  sides->blocks_cpu = blocks_cpu;
  sides->blocks_gpu = blocks_gpu;
  sides->cpu_span = cpu_done;
  sides->gpu_span = blocks_gpu ? std::chrono::duration<double>(gpu_end - t_batch).count() : 0;
  // The frame where the sides met, if they met inside one: the CPU took it (frames [0, lo)) and
  // did its chunks before gpu_from, the GPU the rest.
  char shared[96] = "none";
  for (size_t f = 0; f < lo; f++)
    if (gpu_from[f] > 0 && gpu_from[f] < n_chunks(f))
      snprintf(shared, sizeof shared, "frame %zu (CPU %zu, GPU %zu blocks)", f,
               active_before(f, gpu_from[f]), cuts[f].active() - active_before(f, gpu_from[f]));
  log(kLogDebug, "itx batch: %zu frames, CPU %llu blocks in %.3f ms (done at %.3f ms), GPU %llu "
      "blocks in %llu jobs busy %.3f ms, shared %s, batch %.3f ms", n_frames,
      static_cast<unsigned long long>(blocks_cpu), cpu_seconds * 1e3, cpu_done * 1e3,
      static_cast<unsigned long long>(blocks_gpu), static_cast<unsigned long long>(submissions),
      gpu_seconds * 1e3, shared, seconds_since(t_batch) * 1e3);
  add_call_stats(ctx, call_stats(n_frames, static_cast<double>(blocks_cpu),
                                 static_cast<double>(blocks_gpu), cpu_seconds, gpu_seconds, copies,
                                 submissions));
  return V3D_OK;
}

}  // namespace
}  // namespace v3d

extern "C" {

int v3d_vp9_itxfm_add_frames(V3dContext *ctx, const V3dVp9ItxFrame *frames, size_t n_frames) {
  using namespace v3d;
  clear_error();
  if (const int rc = check_batch_pointers(ctx, frames, n_frames)) return rc;
  const auto t_call = Clock::now();
  FrameScope scope(ctx);
  std::vector<FramePlanes> planes(n_frames);
  std::vector<ItxScratch> &scratch = itx_scratches(ctx).batch;  // reused between calls
  if (scratch.size() < n_frames) scratch.resize(n_frames);
  // Every frame is validated before any is touched, the frames' blocks together in a few loops
  // of the workers (vp9::itx_validate_frames): frame after frame, each a loop of its own and a
  // serial merge of its tasks' bitmaps, took ~0.15 ms per 1080p frame on the device machine's
  // 16 cores, a third of a CPU batch's time. The first frame (in order) failing any check is
  // reported, with the message a single frame's call would give.
  std::vector<int> rcs(n_frames, V3D_OK);
  std::vector<std::string> why(n_frames);
  std::vector<vp9::ItxFrameArgs> args(n_frames);
  std::vector<std::vector<vp9::ItxChunk> *> chunks(n_frames);
  size_t n_checked = n_frames;  // frames before the first one with a bad pointer
  for (size_t f = 0; f < n_frames && n_checked == n_frames; f++) {
    const V3dVp9ItxFrame &fr = frames[f];
    rcs[f] = check_itx_pointers(fr.planes, fr.strides, fr.coeffs, fr.n_coeffs);
    if (rcs[f]) {
      why[f] = v3d_last_error();
      n_checked = f;
    }
    args[f] = vp9::ItxFrameArgs{fr.width, fr.height, fr.blocks, fr.n_blocks, fr.n_coeffs};
    chunks[f] = &scratch[f].chunks;
  }
  vp9::itx_validate_frames(n_checked, args.data(), ctx->pool.get(), rcs.data(), why.data(),
                           chunks.data());
  for (size_t f = 0; f < n_frames; f++) {
    if (!rcs[f] && f < n_checked) {
      const V3dVp9ItxFrame &fr = frames[f];
      rcs[f] = check_itx_planes(fr.planes, fr.strides, fr.width, fr.height, &planes[f]);
      if (rcs[f]) why[f] = v3d_last_error();
    }
    if (rcs[f]) return set_error(rcs[f], "frame %zu: %s", f, why[f].c_str());
  }
  // Adaptive hybrid: the batch's way is chosen by measurement, as a frame's is (SplitController:
  // the CPU workers alone, the GPU alone, or frames on both sides). Frames on both sides cost
  // the CPU the GPU's host-side work and memory traffic; on the device machine that made such
  // batches slower than the workers alone (docs/benchmarks.md), so it has to earn its place.
  SplitController *batch_split = nullptr;
  uint64_t batch_active = 0;  // the batch's blocks with work (its cost unit)
  bool cpu_only = false;
  if (ctx->backend == Backend::kHybrid && gpu_usable(ctx) && n_frames > 1 && ctx->fixed_share < 0) {
    double test_rates[2];
    if (itx_batch_test_rates(test_rates)) {
      BatchSides sides;
      return itx_frames_hybrid(ctx, frames, planes, scratch, n_frames, false, &sides, test_rates);
    }
    batch_split = &ctx->family[V3D_KERNEL_VP9_ITX].batch_split.for_size(planes[0].width[0], planes[0].height[0]);
    const double share = batch_split->next_share(-1);
    for (size_t f = 0; f < n_frames; f++)
      for (const vp9::ItxChunk &c : scratch[f].chunks) batch_active += c.active;
    const auto t_batch = Clock::now();
    if (share > 0 && share < 1) {
      BatchSides sides;
      const int rc = itx_frames_hybrid(ctx, frames, planes, scratch, n_frames,
                                       batch_split->first_split(), &sides);
      const double s = seconds_since(t_batch);
      batch_split->record(static_cast<double>(sides.blocks_cpu), sides.cpu_span,
                          static_cast<double>(sides.blocks_gpu), sides.gpu_span, s);
      log(kLogDebug, "itx batch way: both sides, %zu frames in %.3f ms", n_frames, s * 1e3);
      return rc;
    }
    if (share >= 1) {
      const int rc = itx_frames_gpu(ctx, frames, planes, scratch, n_frames);
      const double s = seconds_since(t_batch);
      batch_split->record(0, 0, static_cast<double>(batch_active), s, s);
      log(kLogDebug, "itx batch way: GPU alone, %zu frames in %.3f ms", n_frames, s * 1e3);
      return rc;
    }
    cpu_only = true;
  }
  if (cpu_only || ctx->backend != Backend::kGpu || !gpu_usable(ctx)) {
    // CPU (and hybrid with a fixed share): frame after frame, each using every worker (or split).
    const auto t_batch = Clock::now();
    for (size_t f = 0; f < n_frames; f++) {
      const V3dVp9ItxFrame &fr = frames[f];
      itx_frame_validated(ctx, planes[f], fr.blocks, fr.n_blocks, fr.coeffs, fr.n_coeffs,
                          scratch[f], t_call, cpu_only);
    }
    if (batch_split) {
      const double s = seconds_since(t_batch);
      batch_split->record(static_cast<double>(batch_active), s, 0, 0, s);
      log(kLogDebug, "itx batch way: CPU alone, %zu frames in %.3f ms", n_frames, s * 1e3);
    }
    return V3D_OK;
  }
  return itx_frames_gpu(ctx, frames, planes, scratch, n_frames);
}

}  // extern "C"

namespace v3d {
namespace {

// A batch on the GPU alone: every free job slot kept busy, the oldest job waited for when none is
// free (the caller holds ctx->frame_mutex). Each job's host work is cut into parts that the
// context's workers run (a frame's whole list: the GPU skips blocks without work); the count of
// blocks with work comes from validation's chunk totals (scratch[f].chunks).
int itx_frames_gpu(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                   const std::vector<FramePlanes> &planes, const std::vector<ItxScratch> &scratch,
                   size_t n_frames) {
  struct InFlight {
    std::unique_ptr<GpuJob> job;
    size_t frame;
    size_t blocks;
    Clock::time_point start;  // when its preparation began
  };
  KernelStatsBook &book = ctx->kernel_stats[V3D_KERNEL_VP9_ITX];
  std::vector<InFlight> queue;  // oldest first
  size_t head = 0;
  int rc_all = V3D_OK;
  uint64_t blocks_gpu = 0, blocks_cpu = 0, copies = 0, submissions = 0;
  auto t0 = Clock::now();
  GpuBusyClock busy_clock;
  auto retire_oldest = [&]() {
    InFlight &q = queue[head++];
    int rc = q.job->wait();
    book.gpu_job(-1);
    const double busy = busy_clock.retired(q.start);
    copies += q.job->copies();
    if (rc) {  // the frame has none of the GPU's results (see v3d_vp9_itxfm_add_frame)
      const V3dVp9ItxFrame &fr = frames[q.frame];
      std::string why = v3d_last_error();
      clear_error();
      std::string now = "frame " + std::to_string(q.frame) + " of the batch is redone on the CPU";
      warn_gpu_failure(ctx, why.c_str(), now.c_str());
      vp9::itx_apply_cpu(planes[q.frame], fr.blocks, nullptr, 0, fr.n_blocks, fr.coeffs, false);
      blocks_cpu += q.blocks;
    } else {
      blocks_gpu += q.blocks;
      book.record(kernel_frame(0, q.blocks, busy, 0, busy));
    }
    q.job.reset();
  };
  for (size_t f = 0; f < n_frames; f++) {
    const V3dVp9ItxFrame &fr = frames[f];
    size_t active = 0;
    for (const vp9::ItxChunk &c : scratch[f].chunks) active += c.active;
    if (!active) continue;
    for (;;) {
      std::string err;
      const auto start = Clock::now();
      const int want = prep_parts(ctx, active);
      std::unique_ptr<GpuJob> job;
      if (auto prep = gpu_vp9_itx_prepare(*ctx->gpu, planes[f], fr.blocks, nullptr, fr.n_blocks,
                                          fr.coeffs, fr.n_coeffs, want, &err)) {
        if (prep->parts() > 1) ctx->pool->run(prep->parts(), [&](int k, int) { prep->run_part(k); });
        else prep->run_part(0);
        job = prep->submit(&err);
      }
      if (job) {
        book.gpu_job(+1);
        queue.push_back({std::move(job), f, active, start});
        submissions++;
        break;
      }
      if (head < queue.size()) {  // no free slot: wait for the oldest job, then try again
        retire_oldest();
        continue;
      }
      std::string now = "frame " + std::to_string(f) + " of the batch runs on the CPU";
      warn_gpu_failure(ctx, err.c_str(), now.c_str());
      vp9::itx_apply_cpu(planes[f], fr.blocks, nullptr, 0, fr.n_blocks, fr.coeffs, false);
      blocks_cpu += active;
      break;
    }
  }
  while (head < queue.size()) retire_oldest();
  add_call_stats(ctx, call_stats(n_frames, static_cast<double>(blocks_cpu),
                                 static_cast<double>(blocks_gpu), 0, seconds_since(t0), copies,
                                 submissions));
  return rc_all;
}

}  // namespace
}  // namespace v3d
