// SPDX-License-Identifier: LGPL-2.1-or-later
#include "runtime/context.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <strings.h>
#include <vector>

#include "runtime/cpu.h"
#include "sched/frame_call.h"
#include "runtime/gpu_cache.h"
#include "runtime/log.h"
#include "vp9/itx/itx.h"
#include "vp9/itx/itx_frame.h"

namespace v3d {
namespace {

// Tunables of the first scheduler.
// Smoothing of measured times: 0.25 follows a change of content within a few frames while one
// noisy frame moves an estimate by at most a quarter of its error.
constexpr double kRateSmoothing = 0.25;
// The split's share never goes below this (nor above 1 - it): a side given less would cost its
// fixed overhead (a GPU submission is ~33 us on a Pi 5) for next to no work; if even this share
// is slower than one side alone, the controller runs that side alone instead.
constexpr double kMinShare = 0.03;
// Re-balancing of the split: the share moves this fraction of the way to where the two sides,
// at the rates they had side by side (smoothed), finish together. Measured in
// tests/test_split_controller.cpp: 1 converges fastest; 0.5 left the split short of its best on
// machines whose GPU slows down a lot next to the CPU (fewer split frames to learn from).
constexpr double kShareStep = 1.0;
// A way of running frames other than the fastest is tried again after kExplorePeriod frames, or
// later when it was slower: a way r times as slow as the best is retried every (r - 1) /
// kExploreBudget frames, so each retry costs kExploreBudget (0.5 %) of the frame time on average;
// a GPU 30x slower than the CPU is retried every 5800 frames (about 4 minutes at 25 frames/s).
constexpr int kExplorePeriod = 24;
// A split whose sides' spans differed by more than kBalanceTolerance is retried after
// kRebalancePeriod frames at its new share, at most kRebalanceTries times in a row.
constexpr double kBalanceTolerance = 1.25;
constexpr int kRebalancePeriod = 4;
constexpr int kRebalanceTries = 4;
constexpr double kExploreBudget = 0.005;
// Shared hosts stall: the device machine's showed single frames at 2-10x their median (another
// tenant on the cores or the memory bus), and a plain average let one such frame double a way's
// estimate, so that the controller ran a 3x slower way for frames on end. A measurement moves an
// estimate by at most a factor kStallCap before smoothing (a real slowdown is followed within a
// dozen frames); a way's first estimate is the better of its first kFirstSamples measurements (a
// way measured once within kConfirmRatio of the best is measured again after kRebalancePeriod
// frames), and while it has fewer than kTrustSamples measurements, one better than its estimate
// by more than kStallCap replaces it.
constexpr double kStallCap = 1.25;
// A split is chosen over the faster side alone only when its estimate is faster by more than
// kSplitMargin: a split's frames vary more (two sides, a GPU latency, a meeting point), and a
// split measured within the hosts' noise of the CPU alone won on noise now and then (device
// machine, transforms one frame per call, 43 frames: auto ran 7-16 splits, 16-37 %, whose median
// call took 18-30 % longer than its CPU-alone frames'; auto 91-98 % of CPU-16 over 17 workloads).
constexpr double kSplitMargin = 0.03;
constexpr double kConfirmRatio = 4;
constexpr int kFirstSamples = 2;
constexpr int kTrustSamples = 4;
// CPU tasks per worker thread in one frame: several, so that uneven blocks even out.
constexpr int kTasksPerThread = 4;
// Smallest CPU task, in cost units (pixels): below this, thread hand-off costs more than it saves.
constexpr uint64_t kMinTaskCost = 16 * 1024;
// GPU transform blocks per part of the job's host-side preparation in a split frame (at most one
// part per thread): small enough that the threads awake first share it.
constexpr size_t kPrepPartBlocks = 256;

// Parts of the host-side preparation of a GPU job of n blocks on ctx: one per kPrepPartBlocks,
// at least one, at most one per worker.
int prep_parts(const V3dContext *ctx, size_t n) {
  return static_cast<int>(std::clamp<size_t>(n / kPrepPartBlocks, 1, ctx->pool->size()));
}

// Fraction of the blocks the GPU did (0 when there were none).
double block_share(uint64_t cpu, uint64_t gpu) {
  return cpu + gpu ? static_cast<double>(gpu) / static_cast<double>(cpu + gpu) : 0;
}

bool parse_backend(const char *name, Backend *out, bool *is_auto) {
  *is_auto = false;
  if (!name || !*name || strcasecmp(name, "auto") == 0) {
    *is_auto = true;
    return true;
  }
  if (strcasecmp(name, "scalar") == 0) *out = Backend::kScalar;
  else if (strcasecmp(name, "simd") == 0 || strcasecmp(name, "cpu") == 0) *out = Backend::kSimd;
  else if (strcasecmp(name, "gpu") == 0) *out = Backend::kGpu;
  else if (strcasecmp(name, "hybrid") == 0) *out = Backend::kHybrid;
  else return false;
  return true;
}

}  // namespace

bool gpu_usable(const V3dContext *ctx) { return ctx->gpu && !gpu_lost(*ctx->gpu); }

void warn_gpu_failure(V3dContext *ctx, const char *why, const char *now) {
  const bool lost = gpu_lost(*ctx->gpu);
  const int n = ctx->gpu_failures.fetch_add(1, std::memory_order_relaxed);
  log(n == 0 ? kLogWarning : kLogDebug, "GPU %s %s (%s): %s%s", ctx->gpu_name.c_str(),
      lost ? "lost" : "failed", why, now, lost ? "; all later work runs on the CPU" : "");
}

const char *backend_name(Backend b) {
  switch (b) {
    case Backend::kScalar: return "scalar";
    case Backend::kSimd: return "simd";
    case Backend::kGpu: return "gpu";
    case Backend::kHybrid: return "hybrid";
  }
  return "?";
}

double SplitController::share_for(Mode m) const {
  if (m == kCpu) return 0;
  if (m == kGpu) return 1;
  return share_[m - kSplit];
}

double SplitController::next_share(double fixed, bool offer_lean) {
  if (fixed >= 0) {
    planned_ = kNone;
    return std::min(1.0, fixed);
  }
  const int n_modes = offer_lean ? kModes : kSplitLean;
  // Measure each way once: CPU alone, GPU alone, then the splits at the two sides' rates.
  Mode m = kNone;
  for (int i = 0; i < n_modes && m == kNone; i++)
    if (time_per_cost_[i] == 0) m = static_cast<Mode>(i);
  if (m == kNone) {
    int best = time_per_cost_[kGpu] < time_per_cost_[kCpu] ? kGpu : kCpu;
    const double single = time_per_cost_[best];
    for (int i = kSplit; i < n_modes; i++)
      if (time_per_cost_[i] < single * (1 - kSplitMargin) && time_per_cost_[i] < time_per_cost_[best])
        best = i;
    m = static_cast<Mode>(best);
    // Try the slower ways again now and then, each when its time has come (the most overdue
    // first): every kExplorePeriod frames for one about as fast as the best, less often the
    // slower it was, so that each retry costs at most kExploreBudget of the frame time on average.
    double most_overdue = 0;
    for (int i = 0; i < n_modes; i++) {
      if (i == best) continue;
      const double ratio = time_per_cost_[i] / time_per_cost_[best];
      double period = std::max<double>(kExplorePeriod, (ratio - 1) / kExploreBudget);
      // A split measured while its sides were far from finishing together has been rebalanced
      // since: try the new share soon (a few times at most), its measurement was not of it —
      // unless even both sides' combined rate (the best a balanced split could do, serial work
      // aside) loses to the best way: then rebalancing cannot make it pay (e.g. H.264's split by
      // whole planes, which cannot balance a GPU 12x slower than the workers).
      if (samples_[i] < kFirstSamples && ratio <= kConfirmRatio) period = kRebalancePeriod;
      const int v = i - kSplit;
      if (is_split(i) && rebalance_tries_[v] > 0 && rebalance_tries_[v] <= kRebalanceTries &&
          1.0 / (split_cpu_rate_[v] + split_gpu_rate_[v]) < time_per_cost_[best])
        period = kRebalancePeriod;
      const double overdue = (frame_ - last_run_[i]) / period;
      if (overdue >= 1 && overdue > most_overdue) {
        most_overdue = overdue;
        m = static_cast<Mode>(i);
      }
    }
  }
  planned_ = m;
  return share_for(m);
}

void SplitController::record(double cpu_cost, double cpu_seconds, double gpu_cost,
                             double gpu_seconds, double frame_seconds) {
  const double total = cpu_cost + gpu_cost;
  const Mode m = planned_;
  planned_ = kNone;
  if (m == kNone || total <= 0 || frame_seconds <= 0) return;
  last_run_[m] = frame_;
  frame_++;
  const int n = samples_[m]++;  // the way's measurements before this one
  const bool keep_best = n > 0 && n < kFirstSamples, young = n < kTrustSamples;
  // Moves estimate v (a rate in cost per second when higher_better, else a time in seconds per
  // cost) towards measurement x, first limited to a factor kStallCap of v either way: a stalled
  // frame, or a lucky one of a way whose frames vary a lot (a split's), moves it a little. While
  // the way is young, a measurement better by more than kStallCap replaces the estimate (its
  // first measurements may have been stalled); keep: the better of the two is kept (a way's first
  // measurements: stalls only ever slow a frame down).
  auto update = [young](double &v, double x, bool higher_better, bool keep) {
    const bool much_better = higher_better ? x > v * kStallCap : x < v / kStallCap;
    if (v == 0 || (young && much_better)) v = x;
    else if (keep) v = higher_better ? std::max(v, x) : std::min(v, x);
    else v += kRateSmoothing * (std::clamp(x, v / kStallCap, v * kStallCap) - v);
  };
  if (cpu_cost > 0 && gpu_cost == 0 && cpu_seconds > 0)
    update(cpu_rate_, cpu_cost / cpu_seconds, true, keep_best);
  if (gpu_cost > 0 && cpu_cost == 0 && gpu_seconds > 0)
    update(gpu_rate_, gpu_cost / gpu_seconds, true, keep_best);
  if (is_split(m) && cpu_cost > 0 && gpu_cost > 0 && cpu_seconds > 0 && gpu_seconds > 0) {
    const int v = m - kSplit;
    // Both sides' rates as they ran side by side (sharing memory bandwidth and cores): the next
    // split takes the share at which they finish together, and is expected to take what both
    // sides together do at these rates (an unbalanced frame says little about a balanced one).
    update(split_cpu_rate_[v], cpu_cost / cpu_seconds, true, false);
    update(split_gpu_rate_[v], gpu_cost / gpu_seconds, true, false);
    share_[v] += kShareStep * (split_gpu_rate_[v] / (split_gpu_rate_[v] + split_cpu_rate_[v]) - share_[v]);
    // The split's estimate is what it measured (a prediction from the rates proved optimistic on
    // the device machine: the split kept being chosen and kept measuring slower). A measurement
    // at a share far from balance replaces the estimate rather than averaging into it (raising it
    // by at most kStallCap); while the sides were far from finishing together, next_share()
    // retries the rebalanced split soon.
    const double measured = frame_seconds / total;
    const double imbalance = std::max(cpu_seconds, gpu_seconds) / std::min(cpu_seconds, gpu_seconds);
    double &est = time_per_cost_[m];
    if (!keep_best && rebalance_tries_[v] > 0) est = std::min(measured, est * kStallCap);
    else update(est, measured, false, keep_best);
    rebalance_tries_[v] = imbalance > kBalanceTolerance ? rebalance_tries_[v] + 1 : 0;
  } else {
    update(time_per_cost_[m], frame_seconds / total, false, keep_best);
    // First splits: from the standalone rates.
    for (int v = 0; v < 2; v++)
      if (time_per_cost_[kSplit + v] == 0 && cpu_rate_ > 0 && gpu_rate_ > 0)
        share_[v] = gpu_rate_ / (gpu_rate_ + cpu_rate_);
  }
  for (double &sh : share_) sh = std::min(1 - kMinShare, std::max(kMinShare, sh));
}

}  // namespace v3d

using v3d::Backend;

extern "C" {

V3dContext *v3d_context_new(const char *backend, int cpu_threads) {
  V3dContextOptions o{};
  o.backend = backend;
  o.cpu_threads = cpu_threads;
  o.gpu_share = -1;
  return v3d_context_new_with_options(&o);
}

V3dContext *v3d_context_new_with_options(const V3dContextOptions *options) {
  v3d::clear_error();
  V3dContextOptions o{};
  o.gpu_share = -1;
  if (options) o = *options;
  const char *name = o.backend;
  bool is_auto = false;
  Backend backend = Backend::kSimd;
  if (!v3d::parse_backend(name, &backend, &is_auto)) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT,
                   "unknown backend '%s' (scalar, simd, gpu, hybrid or auto)", name);
    v3d::log(v3d::kLogError, "%s", v3d_last_error());
    return nullptr;
  }
  if (is_auto) {
    const char *env = getenv("V3D_BACKEND");
    bool env_auto = true;
    if (env && *env && !v3d::parse_backend(env, &backend, &env_auto))
      v3d::log(v3d::kLogWarning, "ignoring V3D_BACKEND=%s: unknown backend", env);
    is_auto = env_auto;
    if (is_auto) backend = Backend::kHybrid;
  }
  if (o.cpu_threads < 0 || o.cpu_threads > 1024) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "cpu_threads %d out of range 0..1024",
                   o.cpu_threads);
    v3d::log(v3d::kLogError, "%s", v3d_last_error());
    return nullptr;
  }
  v3d::cpu_init();

  auto ctx = std::make_unique<V3dContext>();
  if (backend == Backend::kGpu || backend == Backend::kHybrid) {
    std::string err;
    ctx->gpu = v3d::open_shared_gpu(o.gpu_device, &err);
    if (!ctx->gpu) {
      if (backend == Backend::kGpu || (!is_auto && o.gpu_device && *o.gpu_device)) {
        v3d::set_error(V3D_ERROR_UNAVAILABLE, "backend '%s' needs a Vulkan device: %s",
                       v3d::backend_name(backend), err.c_str());
        v3d::log(v3d::kLogError, "%s", v3d_last_error());
        return nullptr;
      }
      v3d::log(v3d::kLogWarning, "no usable Vulkan device (%s): using the CPU only", err.c_str());
      backend = Backend::kSimd;
    } else {
      ctx->gpu_name = v3d::gpu_name(*ctx->gpu);
    }
  }
  ctx->backend = backend;
  ctx->auto_backend = is_auto;
  ctx->fixed_share = o.gpu_share >= 0 ? std::min(1.0, o.gpu_share) : -1;
  // Default: V3D_CPU_THREADS when set to 1..1024, else online cores - 1 (the GPU gets a core's
  // worth of memory bandwidth and the submitting thread: measured better on a Pi 5 than N).
  // auto: a thread per core; a lean split leaves one to the GPU (SplitController).
  int default_threads = is_auto ? v3d::online_cores() : std::max(1, v3d::online_cores() - 1);
  long env_threads = 0;
  if (v3d::env_int("V3D_CPU_THREADS", 1, 1024, &env_threads, "ignored"))
    default_threads = static_cast<int>(env_threads);
  int threads = o.cpu_threads > 0 ? o.cpu_threads : default_threads;
  ctx->pool = std::make_unique<v3d::ThreadPool>(threads);
  if (ctx->gpu && (backend == Backend::kGpu || backend == Backend::kHybrid))
    ctx->gpu_side = std::make_unique<v3d::SideThread>();
  v3d::log(v3d::kLogInfo, "context %p: backend %s%s, %d CPU threads, SIMD %s, GPU %s",
           static_cast<const void *>(ctx.get()), v3d::backend_name(backend),
           is_auto ? " (auto)" : "", threads, v3d_cpu_target(),
           ctx->gpu ? ctx->gpu_name.c_str() : "none");
  return ctx.release();
}

V3dContext *v3d_context_ref(V3dContext *ctx) {
  if (ctx) ctx->refcount.fetch_add(1, std::memory_order_relaxed);
  return ctx;
}

void v3d_context_free(V3dContext *ctx) {
  if (ctx && ctx->refcount.fetch_sub(1, std::memory_order_acq_rel) == 1) delete ctx;
}

const char *v3d_context_backend(const V3dContext *ctx) {
  return ctx ? v3d::backend_name(ctx->backend) : "";
}

const char *v3d_context_gpu_name(const V3dContext *ctx) {
  return ctx && ctx->gpu ? ctx->gpu_name.c_str() : nullptr;
}

int v3d_context_cpu_threads(const V3dContext *ctx) { return ctx ? ctx->pool->capacity() : 0; }

void v3d_context_set_gpu_share(V3dContext *ctx, double share) {
  if (!ctx) return;
  std::lock_guard<std::mutex> lock(ctx->frame_mutex);
  ctx->fixed_share = share >= 0 ? std::min(1.0, share) : -1;
}

void v3d_context_get_stats(const V3dContext *ctx, V3dStats *stats) {
  if (!ctx || !stats) return;
  std::lock_guard<std::mutex> lock(ctx->stats_mutex);
  *stats = ctx->stats;
}

}  // extern "C"

namespace v3d {
namespace {

// A frame's checks before its blocks': its pointers.
int check_itx_pointers(uint8_t *const planes[3], const ptrdiff_t strides[3], const int16_t *coeffs,
                       size_t n_coeffs) {
  if (!planes || !strides)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !planes ? "planes" : "strides");
  if (n_coeffs && !coeffs)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "coeffs is NULL but n_coeffs is %zu", n_coeffs);
  return V3D_OK;
}

// A frame's checks after its blocks' (validated, so width and height are valid): its planes,
// described into *frame.
int check_itx_planes(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                     FramePlanes *frame) {
  vp9::itx_plane_sizes(width, height, frame->width, frame->height);
  if (const int rc = check_plane_strides(planes, strides, frame->width)) return rc;
  for (int p = 0; p < 3; p++) {
    frame->data[p] = planes[p];
    frame->stride[p] = strides[p];
  }
  return V3D_OK;
}

// Checks one frame's arguments and blocks, and describes its planes. Touches nothing.
int check_itx_frame(ThreadPool *pool, uint8_t *const planes[3], const ptrdiff_t strides[3],
                    int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                    const int16_t *coeffs, size_t n_coeffs, FramePlanes *frame,
                    std::vector<vp9::ItxChunk> *chunks = nullptr, int n_extra = 0,
                    const std::function<void(int)> *extra = nullptr,
                    const std::function<void()> *beside = nullptr) {
  int rc = check_itx_pointers(planes, strides, coeffs, n_coeffs);
  if (!rc)
    rc = vp9::itx_validate(width, height, blocks, n_blocks, n_coeffs, pool, chunks, n_extra, extra,
                           beside);
  if (!rc) rc = check_itx_planes(planes, strides, width, height, frame);
  return rc;
}

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

}  // namespace

// A frame's GPU work begun before its validation (v3d_vp9_itxfm_add_frame): the share planned
// by the controller, and the GPU's job for blocks[0, end). Its preparation's parts run as the
// first tasks of validation's first loop, and the context's side thread (ctx->gpu_side) helps
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
  bool side = false;                 // submitted by ctx->gpu_side (else by the calling thread)
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

// One validated frame on ctx's backend, or on its CPU workers alone when cpu_only (the caller
// holds ctx->frame_mutex; scratch.chunks from its validation). t_call: when the call began, for
// the debug log. early: what was planned and prepared before validation, or null.
void itx_frame_validated(V3dContext *ctx, const FramePlanes &frame, const V3dVp9TxBlock *blocks,
                         size_t n_blocks, const int16_t *coeffs, size_t n_coeffs,
                         ItxScratch &scratch, Clock::time_point t_call, bool cpu_only = false,
                         ItxEarly *early = nullptr);

}  // namespace v3d

extern "C" {

int v3d_vp9_itxfm_add_frame(V3dContext *ctx, uint8_t *const planes[3], const ptrdiff_t strides[3],
                            int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                            const int16_t *coeffs, size_t n_coeffs) {
  using namespace v3d;
  clear_error();
  if (!ctx) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL context");
  const auto t_call = Clock::now();
  FrameScope scope(ctx);
  ItxScratch &scratch = ctx->itx_scratch;
  FramePlanes frame;
  // The GPU's share is planned, prepared (copying its blocks' list and pixels; nothing is
  // written to the frame) and submitted during validation (ItxEarly), so that the GPU works while
  // the frame is validated; only when the arguments that the preparation relies on are sound
  // (else validation reports them, as without this). Safe before validation has ended: a part
  // skips any block that fails its own checks (the job is then refused), so the GPU writes only
  // inside the frame's planes; a frame that fails validation (blocks overlapping) has the job's
  // work taken out again below.
  ItxEarly early;
  std::function<void(int)> run_part;
  std::function<void()> submit_early;
  int n_parts = 0;
  if ((ctx->backend == Backend::kGpu || ctx->backend == Backend::kHybrid) && gpu_usable(ctx) &&
      blocks && n_blocks > 0 && frame_size_ok(width, height) &&
      !check_itx_pointers(planes, strides, coeffs, n_coeffs) &&
      !check_itx_planes(planes, strides, width, height, &frame)) {
    SplitController &split = ctx->itx_split.for_size(frame.width[0], frame.height[0]);
    early.planned = true;
    early.share = ctx->backend == Backend::kGpu
                      ? 1.0
                      : split.next_share(ctx->fixed_share, lean_split_allowed(ctx));
    const double count_share = std::min(1.0, early.share * scratch.count_per_cost);
    early.end = early.share >= 1 ? n_blocks
                                 : std::min(n_blocks, static_cast<size_t>(count_share * n_blocks + 0.5));
    if (early.end > 0) {
      const int want = prep_parts(ctx, early.end);
      std::string err;
      early.t_prep = Clock::now();
      early.prep = gpu_vp9_itx_prepare(*ctx->gpu, frame, blocks, nullptr, early.end, coeffs,
                                       n_coeffs, want, &err);
      // (A failed preparation is tried again, and reported, after validation.)
      if (early.prep) {
        early.parts.prep = early.prep.get();
        early.parts.n = early.prep->parts();
        run_part = [&early](int) { early.parts.help(); };
        submit_early = [&early]() { early.submit(); };
        if (ctx->gpu_side && ctx->gpu_side->running()) {
          // The parts are tasks of validation's loop; the side thread waits for them and
          // submits. It is waited for once the CPU's share is done (itx_frame_validated), or
          // at once if validation fails.
          n_parts = early.parts.n;
          ctx->gpu_side->post(&submit_early);
          early.side = true;
        } else {
          n_parts = early.parts.n - 1;  // the calling thread takes one at least, then submits
        }
      }
    }
  }
  clear_error();  // the checks above report nothing (validation does, in its order)
  int rc = check_itx_frame(ctx->pool.get(), planes, strides, width, height, blocks, n_blocks,
                           coeffs, n_coeffs, &frame, &scratch.chunks, n_parts,
                           n_parts > 0 ? &run_part : nullptr,
                           submit_early && !early.side ? &submit_early : nullptr);
  if (rc) {
    if (early.side) ctx->gpu_side->wait();
    // The job submitted during validation: its pixels are taken out of the frame again, which
    // is left as it was; the error stays validation's.
    if (early.job) {
      const std::string why = v3d_last_error();
      early.job->wait_and_undo();
      early.job.reset();
      set_error(rc, "%s", why.c_str());
    }
    return rc;
  }
  itx_frame_validated(ctx, frame, blocks, n_blocks, coeffs, n_coeffs, scratch, t_call, false,
                      &early);
  return V3D_OK;
}

}  // extern "C"

namespace v3d {

namespace {

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

}  // namespace

void itx_frame_validated(V3dContext *ctx, const FramePlanes &frame, const V3dVp9TxBlock *blocks,
                         size_t n_blocks, const int16_t *coeffs, size_t n_coeffs,
                         ItxScratch &scratch, Clock::time_point t_call, bool cpu_only,
                         ItxEarly *early) {
  auto t_frame = Clock::now();
  const ItxCuts cuts(blocks, n_blocks, scratch);
  const size_t n_active = cuts.active();
  const uint64_t total = cuts.total();

  double share = 0;
  SplitController &split = ctx->itx_split.for_size(frame.width[0], frame.height[0]);
  if (cpu_only) share = 0;
  else if (early && early->planned) share = early->share;
  else if (ctx->backend == Backend::kGpu) share = 1;
  else if (ctx->backend == Backend::kHybrid)
    share = split.next_share(ctx->fixed_share, lean_split_allowed(ctx));
  // The GPU takes blocks[0, gpu_end): a contiguous run of the list, i.e. one region of the
  // frame, holding n_gpu blocks with work of cost gpu_cost. Submitted during validation (early):
  // the run chosen then, by count (the last frame's count per cost, updated here from this
  // frame).
  size_t gpu_end = 0, n_gpu = 0;
  uint64_t gpu_cost = 0;
  std::unique_ptr<GpuJob> job;
  bool gpu_failed_submit = false;
  double gpu_prep_seconds = 0;  // host-side preparation of the GPU's share, submission included
  const bool spec = early && early->posted();
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
  const bool lean = split.lean() && n_gpu > 0 && n_gpu < n_active;

  // The GPU's submission runs beside the CPU's share (a task of its loop, or the calling thread
  // in a lean split), so the CPU workers never wait for it. Its host-side work per block (copying
  // the block list and each block's pixels: ItxGpuPrep) is cut into parts that the first tasks
  // of the loop share with the submitting thread, so it is spread over whichever threads are
  // awake first instead of delaying the GPU by its whole length; the submission waits for the
  // last part. (The GPU builds the records itself.)
  auto t_gpu = Clock::now();
  std::unique_ptr<ItxGpuPrep> prep;
  PrepParts parts;
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
  auto submit_gpu = [&]() {
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
  };
  // Pool tasks that help with the parts (the submitting thread may have run them all already).
  const int n_helpers = parts.n > 1 ? parts.n - 1 : 0;

  // CPU share: blocks[gpu_end, n_blocks), cut into tasks of about equal cost.
  auto t_cpu = Clock::now();
  const bool use_ref = ctx->backend == Backend::kScalar;
  const uint64_t cpu_cost = total - gpu_cost;
  double cpu_seconds = 0;
  Clock::time_point cpu_done = t_cpu;  // the CPU side's last result
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
      const std::function<void()> beside = submit_gpu;
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
  prep.reset();  // not submitted (a failure): returns its slot
  if (spec) {
    // Submitted during validation: by the side thread, waited for only now (the CPU's share
    // needed nothing from it), or by this thread beside validation.
    if (early->side) ctx->gpu_side->wait();
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

  double gpu_seconds = 0;
  int copies = 0;
  // Whether the GPU had finished before the CPU did: then the wait below measures the CPU, not
  // the GPU, and the GPU's span is taken from its own clock instead.
  const bool gpu_early = job && job->ready();
  const auto t_wait = Clock::now();
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
  const auto t_waited = Clock::now();
  double frame_seconds = seconds_since(t_frame);
  // The GPU side's busy time: its preparation plus the device's own time (timestamps), when the
  // device has timestamps; else submission to the end of the wait, which includes waiting for
  // the CPU side (the wait starts after it).
  double gpu_busy = gpu_seconds, gpu_span = gpu_seconds;
  const double device = n_gpu && ctx->gpu ? gpu_last_job_seconds(*ctx->gpu) : -1;  // -1: unknown
  double cpu_span = cpu_seconds;
  auto since_call = [&](Clock::time_point t) {  // seconds
    return std::chrono::duration<double>(t - t_call).count();
  };
  if (spec) {
    // Submitted during validation: both sides' spans run from the call's start (the CPU side's
    // includes validation, the GPU's its preparation and submission), so that the controller
    // balances when each side's last result comes. A GPU done before the wait began: its end
    // is taken from its own clock (the submission's end plus its device time), else the wait's.
    cpu_span = since_call(cpu_done);
    gpu_span = since_call(early->t_submit) + gpu_seconds;
    if (gpu_early) {
      gpu_span = since_call(t_wait);
      if (device > 0) gpu_span = std::min(gpu_span, since_call(early->t_submitted) + device);
    }
    if (n_gpu && device > 0) gpu_busy = gpu_prep_seconds + device;
  } else if (n_gpu && ctx->gpu) {
    if (device > 0) gpu_busy = std::min(gpu_seconds, gpu_prep_seconds + device);
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
  CallStats c;
  c.frames = 1;
  c.blocks_cpu = n_active - n_gpu;
  c.blocks_gpu = n_gpu;
  c.cpu_seconds = cpu_seconds;
  c.gpu_seconds = gpu_seconds;
  c.gpu_share = total ? static_cast<double>(gpu_cost) / total : 0;
  c.copies = static_cast<uint64_t>(copies);
  c.submissions = n_gpu ? 1 : 0;
  add_call_stats(ctx, c);
}

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
// The feeder does the GPU's host-side work (bucketing, the in-place blocks' backups, submission,
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
  V3dKernelStats rates = book.snapshot();
  if (test_rates) {
    rates.cpu_units_per_second = test_rates[0];
    rates.gpu_units_per_second = test_rates[1];
  }
  Clock::time_point gpu_end;  // when the feeder returned

  // Whether the GPU, with `queued` blocks waiting, should take `blocks` more while the CPU has
  // `cpu_left` blocks of the batch left to it.
  auto gpu_takes = [&](uint64_t queued, uint64_t blocks, uint64_t cpu_left) {
    if (rates.gpu_units_per_second <= 0 || rates.cpu_units_per_second <= 0) return queued == 0;
    return (queued + blocks) / rates.gpu_units_per_second <=
           (cpu_left - std::min(cpu_left, blocks)) / rates.cpu_units_per_second;
  };
  // The most blocks m the GPU can take so that it still finishes no later than the CPU:
  // (queued + m) / gpu <= (cpu_left - m) / cpu.
  auto gpu_part = [&](uint64_t queued, uint64_t cpu_left) -> size_t {
    const double g = rates.gpu_units_per_second, c = rates.cpu_units_per_second;
    if (g <= 0 || c <= 0) return 0;
    const double m = (cpu_left / c - queued / g) / (1 / g + 1 / c);
    return m > 0 ? static_cast<size_t>(std::min<double>(m, static_cast<double>(cpu_left))) : 0;
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
  std::thread gpu_thread;
  if (gpu_usable(ctx)) {
    // The GPU's first part is claimed before the workers start (they could otherwise finish a
    // batch of small frames before the feeder thread has started): an unmeasured GPU, or the
    // first batch split between the sides (so that its measurement is of both), gets the last
    // frame whole; else claim_next's part.
    if ((rates.gpu_units_per_second <= 0 || probe_gpu) && n_frames > 1) {
      while (hi > 1 && cuts[hi - 1].active() == 0) hi--;
      if (cuts[hi - 1].active() > 0) {
        reserved.f = --hi;
        reserved.end = n_chunks(reserved.f);
        gpu_from[reserved.f] = 0;
      }
    } else {
      reserved = claim_next(0);  // no other thread yet
    }
    try {
      gpu_thread = std::thread(feeder);
    } catch (const std::system_error &e) {
      log(kLogWarning, "could not start the GPU feeder thread (%s): the batch runs on the CPU",
          e.what());
      if (reserved.f != SIZE_MAX) {  // the first claim: give it back
        gpu_from[reserved.f] = reserved.end;
        hi = std::max(hi, reserved.f + 1);
      }
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
  if (gpu_thread.joinable()) gpu_thread.join();
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
  CallStats c;
  c.frames = n_frames;
  c.blocks_cpu = blocks_cpu;
  c.blocks_gpu = blocks_gpu;
  c.cpu_seconds = cpu_seconds;
  c.gpu_seconds = gpu_seconds;
  c.gpu_share = block_share(blocks_cpu, blocks_gpu);
  c.copies = copies;
  c.submissions = submissions;
  add_call_stats(ctx, c);
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
  std::vector<ItxScratch> &scratch = ctx->itx_batch_scratch;  // reused between calls
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
    batch_split = &ctx->itx_batch_split.for_size(planes[0].width[0], planes[0].height[0]);
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
  CallStats c;
  c.frames = n_frames;
  c.blocks_cpu = blocks_cpu;
  c.blocks_gpu = blocks_gpu;
  c.gpu_seconds = seconds_since(t0);
  c.gpu_share = block_share(blocks_cpu, blocks_gpu);
  c.copies = copies;
  c.submissions = submissions;
  add_call_stats(ctx, c);
  return rc_all;
}

}  // namespace
}  // namespace v3d
