// SPDX-License-Identifier: LGPL-2.1-or-later
// One validated transform frame on the context's backend: the GPU's share (a run of the block
// list chosen by cost), its host-side preparation and submission beside the CPU's share, the
// wait, the redo after a GPU failure, and the frame's measurements.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/log.h"
#include "vp9/itx/itx.h"
#include "vp9/itx/itx_sched.h"

namespace v3d {
namespace {

// One frame's way through the scheduler, step by step (itx_frame_validated): plan() the GPU's
// share, prepare() its job, run_sides() (the CPU's share with the GPU's submission beside it),
// collect() what was submitted during validation, wait() for the GPU (redoing a failed share on
// the CPU), measure(). The caller holds ctx->frame_mutex.
struct ItxFrameRun {
  ItxFrameRun(V3dContext *c, const FramePlanes &f, const V3dVp9TxBlock *b, size_t nb,
              const int16_t *co, size_t nc, ItxScratch &sc, Clock::time_point tc, bool cpu,
              ItxEarly *e)
      : ctx(c), frame(f), blocks(b), n_blocks(nb), coeffs(co), n_coeffs(nc), scratch(sc),
        t_call(tc), cpu_only(cpu), early(e), t_frame(Clock::now()), cuts(b, nb, sc),
        n_active(cuts.active()), total(cuts.total()),
        split(c->family[V3D_KERNEL_VP9_ITX].split.for_size(f.width[0], f.height[0])),
        spec(e && e->posted()), use_ref(c->backend == Backend::kScalar) {}

  void plan();
  void prepare();
  void submit_gpu();
  void run_sides();
  void collect();
  void wait();
  void measure();
  double since_call(Clock::time_point t) const {
    return std::chrono::duration<double>(t - t_call).count();
  }

  V3dContext *ctx;
  const FramePlanes &frame;
  const V3dVp9TxBlock *blocks;
  size_t n_blocks;
  const int16_t *coeffs;
  size_t n_coeffs;
  ItxScratch &scratch;
  Clock::time_point t_call;
  bool cpu_only;
  ItxEarly *early;
  Clock::time_point t_frame;
  const ItxCuts cuts;
  const size_t n_active;
  const uint64_t total;
  SplitController &split;
  const bool spec;     // the GPU's share was submitted during validation (early)
  const bool use_ref;  // the scalar backend
  double share = 0;
  // The GPU takes blocks[0, gpu_end): n_gpu blocks with work, of cost gpu_cost.
  size_t gpu_end = 0, n_gpu = 0;
  uint64_t gpu_cost = 0, cpu_cost = 0;
  bool lean = false;
  std::unique_ptr<ItxGpuPrep> prep;
  PrepParts parts;
  std::unique_ptr<GpuJob> job;
  bool gpu_failed_submit = false;
  double gpu_prep_seconds = 0;  // host-side preparation of the GPU's share, submission included
  Clock::time_point t_gpu, cpu_done, t_wait;  // cpu_done: the CPU side's last result
  double cpu_seconds = 0, gpu_seconds = 0;
  int copies = 0;
  bool gpu_early = false;  // the GPU had finished before it was waited for
};

void ItxFrameRun::plan() {
  if (cpu_only) share = 0;
  else if (early && early->planned) share = early->share;
  else if (ctx->backend == Backend::kGpu) share = 1;
  else if (ctx->backend == Backend::kHybrid)
    share = split.next_share(ctx->fixed_share, lean_split_allowed(ctx));
  // The GPU takes blocks[0, gpu_end): a contiguous run of the list, i.e. one region of the
  // frame, holding n_gpu blocks with work of cost gpu_cost. Submitted during validation (early):
  // the run chosen then, by count (the last frame's count per cost, updated here from this
  // frame).
  if (spec) {
    gpu_end = early->end;
    gpu_cost = cuts.prefix(gpu_end, &n_gpu);
    if (share > 0 && share < 1 && n_blocks && total) {
      uint64_t c;
      size_t a;
      const size_t exact = cuts.exact(static_cast<uint64_t>(share * total), &c, &a);
      const double ratio = (static_cast<double>(exact) / n_blocks) / share;
      scratch.count_per_cost = std::clamp(ratio, 0.25, 4.0);
    }
  } else if (share > 0 && gpu_usable(ctx)) {
    gpu_end = cuts.exact(share >= 1 ? total : static_cast<uint64_t>(share * total), &gpu_cost, &n_gpu);
  }
  // A lean split (auto, when it measured faster) runs the CPU's share on the workers less one:
  // that core is left to the GPU's share (V3D_NOTES: N-1 cores + GPU beat N cores + GPU on a
  // Pi 5). A full split gives the GPU's host-side work to one of the workers as a task.
  lean = split.lean() && n_gpu > 0 && n_gpu < n_active;

}

void ItxFrameRun::prepare() {
  // The GPU's submission runs beside the CPU's share (a task of its loop, or the calling thread
  // in a lean split), so the CPU workers never wait for it. Its host-side work per block (copying
  // the block list and each block's pixels: ItxGpuPrep) is cut into parts that the first tasks
  // of the loop share with the submitting thread, so it is spread over whichever threads are
  // awake first instead of delaying the GPU by its whole length; the submission waits for the
  // last part. (The GPU builds the records itself.)
  t_gpu = Clock::now();
  if (n_gpu && !spec) {
    // Not planned before validation (e.g. a frame of a batch's context): a split frame's parts
    // go to the first tasks of its loop; a frame on the GPU alone has its
    // parts run by the workers in a loop of their own before the submission (one thread took
    // ~1 ms of a 1.5 ms 16x16 frame on the device machine, the GPU idle meanwhile).
    const int want = prep_parts(ctx, n_gpu);
    std::string err;
    prep = gpu_vp9_itx_prepare(*ctx->gpu, frame, blocks, nullptr, gpu_end, coeffs, n_coeffs, want,
                               &err);
    if (prep) {
      parts.prep = prep.get();
      parts.n = prep->parts();
    } else {
      warn_gpu_failure(ctx, err.c_str(), "its share of this frame runs on the CPU");
      gpu_failed_submit = true;
    }
  }
}

void ItxFrameRun::submit_gpu() {
  if (!prep) return;
  const auto t_prep = Clock::now();
  parts.help();
  parts.wait_all();
  std::string err;
  job = prep->submit(&err);
  prep.reset();
  if (!job) {
    warn_gpu_failure(ctx, err.c_str(), "its share of this frame runs on the CPU");
    gpu_failed_submit = true;
  } else {
    ctx->kernel_stats[V3D_KERNEL_VP9_ITX].gpu_job(+1);
  }
  gpu_prep_seconds = seconds_since(t_prep);
}

void ItxFrameRun::run_sides() {
  // Pool tasks that help with the parts (the submitting thread may have run them all already).
  const int n_helpers = parts.n > 1 ? parts.n - 1 : 0;

  // CPU share: blocks[gpu_end, n_blocks), cut into tasks of about equal cost.
  auto t_cpu = Clock::now();
  cpu_cost = total - gpu_cost;
  cpu_done = t_cpu;
  if (n_gpu < n_active) {
    int n_tasks = ctx->pool->size() * kTasksPerThread;
    n_tasks = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(n_tasks, cpu_cost / kMinTaskCost)));
    std::vector<size_t> &cut = scratch.cut;
    cut.resize(n_tasks + 1);
    cut[0] = gpu_end;
    cut[n_tasks] = n_blocks;
    for (int t = 1; t < n_tasks; t++)
      cut[t] = std::min(n_blocks, std::max(cut[t - 1], cuts.approx(gpu_cost + cpu_cost * t / n_tasks)));
    // The CPU side's span ends with its last task (not with the loop, which may end with the
    // GPU's submission).
    std::atomic<int> left{n_tasks};
    Clock::time_point cpu_end = t_cpu;
    auto cpu_task = [&](int task) {
      vp9::itx_apply_cpu(frame, blocks, nullptr, cut[task], cut[task + 1], coeffs, use_ref);
      if (left.fetch_sub(1, std::memory_order_acq_rel) == 1) cpu_end = Clock::now();
    };
    if (n_gpu && lean && spec) {
      // Lean split whose GPU share was submitted during validation (by the side thread): the
      // calling thread has nothing to submit, so it runs CPU tasks, and one worker sits the loop
      // out instead (the core left to the GPU's host work). (Idling the calling thread instead
      // let it fall asleep for the whole CPU share and wake late.)
      ctx->pool->run(n_tasks, [&](int task, int) { cpu_task(task); }, nullptr,
                     std::max(1, ctx->pool->size() - 1));
    } else if (n_gpu && lean) {
      // Lean split: the calling thread submits the GPU's share while the other workers run the
      // CPU's (after helping with its parts); it takes no CPU task afterwards (its core stays the
      // GPU's).
      const std::function<void()> beside = [this] { submit_gpu(); };
      ctx->pool->run(n_helpers + n_tasks, [&](int task, int) {
        if (task < n_helpers) parts.help();
        else cpu_task(task - n_helpers);
      }, &beside);
    } else {
      // Tasks: the helpers, then the submission (it waits for the parts), then the CPU's share.
      const int first = prep ? n_helpers + 1 : 0;
      ctx->pool->run(n_tasks + first, [&](int task, int) {
        if (task < n_helpers) parts.help();
        else if (task < first) submit_gpu();
        else cpu_task(task - first);
      });
    }
    cpu_seconds = std::chrono::duration<double>(cpu_end - t_cpu).count();
    cpu_done = cpu_end;
  } else if (n_gpu) {
    if (parts.n > 1) ctx->pool->run(parts.n, [&](int, int) { parts.help(); });
    submit_gpu();
  }
}

void ItxFrameRun::collect() {
  prep.reset();  // not submitted (a failure): returns its slot
  if (spec) {
    // Submitted during validation: by the side thread, waited for only now (the CPU's share
    // needed nothing from it), or by this thread beside validation.
    if (early->side) early->beside->finish();
    if (early->job) {
      job = std::move(early->job);
      ctx->kernel_stats[V3D_KERNEL_VP9_ITX].gpu_job(+1);
      gpu_prep_seconds = std::chrono::duration<double>(early->t_submitted - early->t_prep).count();
    } else {
      warn_gpu_failure(ctx, early->submit_error.c_str(), "its share of this frame runs on the CPU");
      gpu_failed_submit = true;
    }
  }
  if (gpu_failed_submit) {  // nothing reached the GPU: its share runs here
    vp9::itx_apply_cpu(frame, blocks, nullptr, 0, gpu_end, coeffs, use_ref);
    n_gpu = 0;
    gpu_cost = 0;
  }

}

void ItxFrameRun::wait() {
  // Whether the GPU had finished before the CPU did: then the wait below measures the CPU, not
  // the GPU, and the GPU's span is taken from its own clock instead.
  gpu_early = job && job->ready();
  t_wait = Clock::now();
  if (job) {
    int rc = job->wait();
    ctx->kernel_stats[V3D_KERNEL_VP9_ITX].gpu_job(-1);
    gpu_seconds = seconds_since(spec ? early->t_submit : t_gpu);
    copies = job->copies();
    job.reset();
    if (rc) {
      // The frame has none of the GPU's results (staged blocks were not copied back, in-place
      // blocks were restored by the job): redo them here.
      std::string why = v3d_last_error();
      clear_error();
      warn_gpu_failure(ctx, why.c_str(), "its share of this frame is redone on the CPU");
      vp9::itx_apply_cpu(frame, blocks, nullptr, 0, gpu_end, coeffs, use_ref);
      n_gpu = 0;
      gpu_cost = 0;
      rc = V3D_OK;
    }
  }
}

void ItxFrameRun::measure() {
  const auto t_waited = Clock::now();
  double frame_seconds = seconds_since(t_frame);
  // The GPU side's busy time: its preparation plus the device's own time (timestamps), when the
  // device has timestamps; else submission to the end of the wait, which includes waiting for
  // the CPU side (the wait starts after it).
  double gpu_busy = gpu_seconds, gpu_span = gpu_seconds;
  const double device = n_gpu && ctx->gpu ? gpu_last_job_seconds(*ctx->gpu) : -1;  // -1: unknown
  double cpu_span = cpu_seconds;
  if (spec) {
    // Submitted during validation: both sides' spans run from the call's start (the CPU side's
    // includes validation, the GPU's its preparation and submission), so that the controller
    // balances when each side's last result comes. A GPU done before the wait began: its end
    // is taken from its own clock (the submission's end plus its device time), else the wait's.
    cpu_span = since_call(cpu_done);
    gpu_span = since_call(early->t_submit) + gpu_seconds;
    if (gpu_early)
      gpu_span = v3d::gpu_span(since_call(t_wait), since_call(early->t_submitted), *ctx->gpu);
    if (n_gpu && device > 0) gpu_busy = gpu_prep_seconds + device;
  } else if (n_gpu && ctx->gpu) {
    gpu_busy = v3d::gpu_span(gpu_seconds, gpu_prep_seconds, *ctx->gpu);
    if (gpu_early) gpu_span = gpu_busy;
  }
  ctx->kernel_stats[V3D_KERNEL_VP9_ITX].record(
      kernel_frame(n_active - n_gpu, n_gpu, frame_seconds, cpu_seconds, gpu_busy));
  // The controller's frame time runs from the call's start when the GPU's share was planned
  // before validation; the sides' spans likewise when it was submitted during validation, else
  // from the frame's (validation's end).
  if (ctx->backend == Backend::kHybrid && !cpu_only)
    split.record(static_cast<double>(cpu_cost), cpu_span, static_cast<double>(gpu_cost),
                 gpu_span, early && early->planned ? seconds_since(t_call) : frame_seconds);
  char device_ms[32] = "n/a";  // no GPU job, or no timestamps
  if (device >= 0) snprintf(device_ms, sizeof device_ms, "%.3f", device * 1e3);
  char submitted_at[192] = "";  // submitted during validation: when, from the call's start
  if (spec && early->t_submitted > early->t_submit) {
    const PrepParts &pp = early->parts;
    const Clock::time_point parts_end{Clock::duration(pp.end_ticks.load())};
    snprintf(submitted_at, sizeof submitted_at,
             ", side thread from %.3f, %d parts of %.3f ms in all (longest %.3f) done at %.3f, "
             "submitted at %.3f-%.3f ms",
             since_call(early->t_side) * 1e3, pp.n, pp.ns.load() * 1e-6,
             pp.longest_ns.load() * 1e-6, since_call(parts_end) * 1e3,
             since_call(early->t_submit) * 1e3, since_call(early->t_submitted) * 1e3);
  }
  log(kLogDebug, "itx frame (context %p): %zu blocks, GPU share %.3f (%zu blocks), CPU %.3f ms, "
      "GPU %.3f ms (prep %.3f, device %s, %s%s%s), spans from the call CPU %.3f / GPU %.3f ms, "
      "wait from %.3f to %.3f ms, frame %.3f ms, call %.3f ms",
      static_cast<const void *>(ctx), n_active,
      total ? static_cast<double>(gpu_cost) / total : 0.0, n_gpu, cpu_seconds * 1e3,
      gpu_seconds * 1e3, gpu_prep_seconds * 1e3, device_ms, gpu_early ? "early" : "late",
      lean ? ", lean" : "", submitted_at, since_call(cpu_done) * 1e3,
      spec ? gpu_span * 1e3 : -1.0, since_call(t_wait) * 1e3, since_call(t_waited) * 1e3,
      frame_seconds * 1e3, seconds_since(t_call) * 1e3);
  add_call_stats(ctx, call_stats(1, static_cast<double>(n_active - n_gpu),
                                 static_cast<double>(n_gpu),
                                 cpu_seconds, gpu_seconds, static_cast<uint64_t>(copies),
                                 n_gpu ? 1 : 0, total ? static_cast<double>(gpu_cost) / total : 0));
}

}  // namespace

void itx_frame_validated(V3dContext *ctx, const FramePlanes &frame, const V3dVp9TxBlock *blocks,
                         size_t n_blocks, const int16_t *coeffs, size_t n_coeffs,
                         ItxScratch &scratch, Clock::time_point t_call, bool cpu_only,
                         ItxEarly *early) {
  ItxFrameRun run(ctx, frame, blocks, n_blocks, coeffs, n_coeffs, scratch, t_call, cpu_only, early);
  run.plan();
  run.prepare();
  run.run_sides();
  run.collect();
  run.wait();
  run.measure();
}

}  // namespace v3d
