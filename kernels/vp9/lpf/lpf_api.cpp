// SPDX-License-Identifier: LGPL-2.1-or-later
// Public entry points of the VP9 frame loop filter (v3d_vp9_loop_filter_frame, _frames) and the
// choice of backend: scalar (sequential references), simd (the CPU wavefront), gpu (one job per
// up to 16 frames, lpf_vk_job.cpp), hybrid (planes of one frame, or whole frames of a
// batch, divided between the GPU and the CPU by the context's loop-filter split controller).
#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sched/frame_call.h"
#include "sched/frame_sched.h"
#include "sched/context.h"
#include "runtime/log.h"
#include "vp9/lpf/lpf_api.h"
#include "vp9/lpf/lpf_frame.h"
#include "vp9/lpf/lpf_gpu.h"
#include "gpu/gpu.h"
#include "vp9/lpf/lpf_vk.h"

namespace v3d {
namespace vp9 {
namespace {

// One frame's arguments as the entry points take them.
struct LfArgs {
  uint8_t *const *planes;
  const ptrdiff_t *strides;
  int width, height;
  const V3dVp9LfInfo *grid;
  int grid_stride, sharpness;
};

// Grid rows (8 luma rows each) per validation task, and the number of grid entries below which a
// call checks them on the calling thread alone (waking the workers would cost more). A 1080p
// frame's 32,640 entries took ~0.27 ms on one of the device machine's cores, before the frame's
// filtering could start: a sixth of the frame on 16 threads.
constexpr int kValidateRows = 16;
constexpr long kValidateInline = 16384;

// The checks of a frame other than its grid entries: `before` those done before the entries
// (the plane and stride arrays, sizes, sharpness, grid pointer and stride), else those after them
// (each plane and stride). Returns V3D_OK or the error (the thread's message set).
int check_outside_grid(const LfArgs &a, bool *before) {
  *before = true;
  if (!a.planes || !a.strides)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !a.planes ? "planes" : "strides");
  int rc = lpf_validate_header(a.width, a.height, a.grid, a.grid_stride, a.sharpness);
  if (rc) return rc;
  *before = false;
  const int mi_cols = (a.width + 7) / 8;
  for (int p = 0; p < 3; p++) {
    const int w = p ? mi_cols * 4 : mi_cols * 8;
    if (!a.planes[p]) return set_error(V3D_ERROR_INVALID_ARGUMENT, "plane %d is NULL", p);
    if (a.strides[p] < w)
      return set_error(V3D_ERROR_INVALID_ARGUMENT, "stride %td of plane %d is below its width %d",
                       a.strides[p], p, w);
  }
  return V3D_OK;
}

// Checks frames' arguments and describes them in *out; touches nothing. The error reported is the
// one checking the frames one after another would find first (per frame: the checks before the
// grid, its entries in raster order, then the planes), named "frame i: " when name_frames; but
// the grid entries of all the frames are checked in one loop of the pool's threads. Without
// check_grid the grid entries are taken as valid (lpf_filter_frame_trusted's callers).
int check_frames(ThreadPool &pool, const std::vector<LfArgs> &args, bool name_frames,
                 bool check_grid, std::vector<LpfFrame> *out) {
  const size_t n = args.size();
  struct Err {
    int rc = V3D_OK;
    std::string msg;
  };
  // The first frame failing a check outside its grid, and whether before its entries.
  size_t first_bad = n;
  bool bad_before = false;
  Err bad;
  for (size_t i = 0; i < n && first_bad == n; i++) {
    if (int rc = check_outside_grid(args[i], &bad_before)) {
      first_bad = i;
      bad = {rc, v3d_last_error()};
    }
  }
  clear_error();
  // The grid entries of the frames up to that one (itself included when its error comes after
  // its entries), in tasks of kValidateRows grid rows, frame after frame.
  const size_t n_grids = !check_grid ? 0 : first_bad == n ? n : first_bad + (bad_before ? 0 : 1);
  struct Task {
    size_t frame;
    int row_begin, row_end;
  };
  std::vector<Task> tasks;
  long entries = 0;
  for (size_t i = 0; i < n_grids; i++) {
    const int rows = (args[i].height + 7) / 8;
    entries += static_cast<long>(rows) * ((args[i].width + 7) / 8);
    for (int r = 0; r < rows; r += kValidateRows)
      tasks.push_back({i, r, std::min(rows, r + kValidateRows)});
  }
  std::vector<Err> errs(tasks.size());
  auto check_task = [&](size_t t) {
    const Task &k = tasks[t];
    const LfArgs &a = args[k.frame];
    if (int rc = lpf_validate_rows(a.width, a.height, a.grid, a.grid_stride, k.row_begin, k.row_end))
      errs[t] = {rc, v3d_last_error()};
  };
  if (entries < kValidateInline || pool.size() <= 1 || tasks.size() < 2) {
    for (size_t t = 0; t < tasks.size(); t++) {
      check_task(t);
      if (errs[t].rc) break;
    }
    clear_error();
  } else {
    pool.run(static_cast<int>(tasks.size()), [&](int t, int) { check_task(static_cast<size_t>(t)); });
  }
  size_t where = first_bad;
  const Err *e = first_bad < n ? &bad : nullptr;
  for (size_t t = 0; t < tasks.size(); t++)
    if (errs[t].rc) {  // the first failing task is the frame's first bad row
      where = tasks[t].frame;
      e = &errs[t];
      break;
    }
  if (e) {
    if (name_frames) return set_error(e->rc, "frame %zu: %s", where, e->msg.c_str());
    return set_error(e->rc, "%s", e->msg.c_str());
  }
  out->resize(n);
  for (size_t i = 0; i < n; i++) {
    const LfArgs &a = args[i];
    lpf_frame_setup(a.planes, a.strides, a.width, a.height, a.grid, a.grid_stride, a.sharpness,
                    &(*out)[i]);
  }
  return V3D_OK;
}

// The CPU process of one frame on the planes of mask.
void run_cpu(V3dContext *ctx, const LpfFrame &frame, int mask) {
  if (!mask) return;
  LpfFrame f = frame;
  f.plane_mask = mask;
  if (ctx->backend == Backend::kScalar) {
    LpfDsp ref;
    lpf_dsp_init_ref(&ref);
    lpf_frame_sequential(f, ref);
  } else {
    lpf_frame_wavefront(f, lpf_dsp(), *ctx->pool);
  }
}

// Frames (each with its plane_mask) on the CPU: the scalar references one after another, or the
// SIMD wavefronts of all of them in one loop of the pool (lpf_frames_wavefront).
void run_cpu_frames(V3dContext *ctx, const std::vector<LpfFrame> &frames) {
  if (ctx->backend == Backend::kScalar) {
    for (const LpfFrame &f : frames) run_cpu(ctx, f, f.plane_mask);
    return;
  }
  std::vector<const LpfFrame *> list;
  for (const LpfFrame &f : frames) list.push_back(&f);
  lpf_frames_wavefront(list, lpf_dsp(), *ctx->pool);
}

// What one call did, for the statistics and the split controller.
struct Tally {
  double cost_cpu = 0, cost_gpu = 0;  // frames x plane_weight, scaled to 8x8 luma blocks below
  double blocks_cpu = 0, blocks_gpu = 0;
  double cpu_seconds = 0, gpu_seconds = 0;
  uint64_t copies = 0, submissions = 0;
};

double mi_of(const LpfFrame &f) { return static_cast<double>(f.grid.mi_rows) * f.grid.mi_cols; }

// GPU work of one call: frames[i] with plane masks masks[i], as jobs of up to kLpfMaxJobFrames.
// submit() builds the cells and submits (on the calling thread; it uses the pool), finish()
// waits. A frame whose job could not be submitted, or failed with its planes only staged, runs
// on the CPU (one warning); one that failed after the GPU wrote it in place is an error.
class GpuBatch {
 public:
  GpuBatch(V3dContext *ctx, std::vector<const LpfFrame *> frames, std::vector<int> masks)
      : ctx_(ctx), frames_(std::move(frames)), masks_(std::move(masks)),
        on_cpu_(frames_.size(), false) {}

  // True when every job has completed (without waiting).
  bool ready() {
    for (size_t i = head_; i < jobs_.size(); i++)
      if (!jobs_[i].job->ready()) return false;
    return true;
  }
  // Seconds submit() took (the host side: cells and submission).
  double submit_seconds() const { return submit_seconds_; }

  void submit() {
    t0_ = Clock::now();
    for (size_t first = 0; first < frames_.size(); first += kLpfMaxJobFrames) {
      const size_t n = std::min(kLpfMaxJobFrames, frames_.size() - first);
      Job job;
      job.first = first;
      job.n = n;
      job.cells.resize(n);
      std::vector<LpfGpuFrame> g(n);
      for (size_t i = 0; i < n; i++) {
        const LpfFrame &f = *frames_[first + i];
        uint64_t edges[3];
        lpf_gpu_frame_cells(f, *ctx_->pool, &job.cells[i], edges);
        for (int p = 0; p < 3; p++) {
          g[i].planes.data[p] = f.data[p];
          g[i].planes.stride[p] = f.stride[p];
          g[i].planes.width[p] = f.width[p];
          g[i].planes.height[p] = f.height[p];
        }
        g[i].plane_mask = masks_[first + i];
        g[i].sharpness = f.sharpness;
        g[i].sb_rows = lpf_sb_rows(f);
        g[i].sb_cols = lpf_sb_cols(f);
        g[i].cells = job.cells[i].data();
      }
      for (;;) {
        std::string err;
        job.job = gpu_vp9_lpf_submit(*ctx_->gpu, g.data(), n, &err);
        if (job.job) {
          submissions_++;
          ctx_->kernel_stats[V3D_KERNEL_VP9_LPF].gpu_job(+1);
          break;
        }
        if (retire_oldest()) continue;  // a slot may be free now
        log(kLogWarning, "GPU loop filter submission failed (%s): %zu frame(s) run on the CPU",
            err.c_str(), n);
        for (size_t i = 0; i < n; i++) cpu_redo(first + i);
        break;
      }
      job.cells.clear();
      if (job.job) jobs_.push_back(std::move(job));
    }
    submit_seconds_ = seconds_since(t0_);
  }

  // Waits for every job. Returns V3D_OK or V3D_ERROR_GPU (a frame written in place failed).
  int finish(Tally *t) {
    while (retire_oldest()) {
    }
    t->gpu_seconds += seconds_since(t0_);
    t->copies += copies_;
    t->submissions += submissions_;
    for (size_t i = 0; i < frames_.size(); i++) {
      const double w = plane_weight(masks_[i]) * mi_of(*frames_[i]);
      if (on_cpu_[i]) t->blocks_cpu += w;
      else t->blocks_gpu += w;
    }
    return rc_;
  }

  // Cost of the frames the GPU was given (their pixel share), for the split controller.
  double cost() const {
    double c = 0;
    for (size_t i = 0; i < frames_.size(); i++) c += plane_weight(masks_[i]) * mi_of(*frames_[i]);
    return c;
  }

 private:
  struct Job {
    size_t first = 0, n = 0;
    std::vector<std::vector<uint32_t>> cells;
    std::unique_ptr<LpfGpuJob> job;
  };

  void cpu_redo(size_t i) {
    run_cpu(ctx_, *frames_[i], masks_[i]);
    on_cpu_[i] = true;
  }

  bool retire_oldest() {
    if (head_ >= jobs_.size()) return false;
    Job &j = jobs_[head_++];
    const int rc = j.job->wait();
    ctx_->kernel_stats[V3D_KERNEL_VP9_LPF].gpu_job(-1);
    copies_ += static_cast<uint64_t>(j.job->copies());
    if (rc) {
      const std::string why = v3d_last_error();
      for (size_t i = 0; i < j.n; i++) {
        if (!j.job->in_place(i)) {
          log(kLogWarning, "GPU loop filter failed (%s): frame %zu runs on the CPU", why.c_str(),
              j.first + i);
          cpu_redo(j.first + i);
        } else if (rc_ == V3D_OK) {
          rc_ = set_error(V3D_ERROR_GPU, "frame %zu: GPU failed while filtering in place: %s",
                          j.first + i, why.c_str());
        }
      }
    }
    j.job.reset();
    return true;
  }

  V3dContext *ctx_;
  std::vector<const LpfFrame *> frames_;
  std::vector<int> masks_;
  std::vector<bool> on_cpu_;
  std::vector<Job> jobs_;
  size_t head_ = 0;
  int rc_ = V3D_OK;
  uint64_t copies_ = 0, submissions_ = 0;
  Clock::time_point t0_;
  double submit_seconds_ = 0;
};

// Filters frames (validated) on the context's backend. Caller holds ctx->frame_mutex.
int run_frames(V3dContext *ctx, const std::vector<LpfFrame> &frames) {
  const auto t_frame = Clock::now();
  Tally t;
  int rc = V3D_OK;
  // gpu, hybrid and auto (a hybrid whose controller picks CPU, GPU or split from measurements:
  // V3D_NOTES says the Pi's GPU filters edges at 0.41 of one NEON core) use the GPU when it has
  // the loop-filter pipeline (else the CPU, with one warning per process).
  const bool use_gpu = family_gpu_usable(ctx, V3D_KERNEL_VP9_LPF, gpu_has_vp9_lpf,
                                         "the Vulkan device has no loop-filter pipeline: the loop "
                                         "filter runs on the CPU");
  double share = 0;
  SplitController &split = ctx->family[V3D_KERNEL_VP9_LPF].split.for_size(frames[0].width[0], frames[0].height[0]);
  if (use_gpu)
    share = ctx->backend == Backend::kGpu
                ? 1.0
                : split.next_share(ctx->fixed_share, lean_split_allowed(ctx));
  std::vector<const LpfFrame *> gpu_frames;
  std::vector<int> gpu_masks, cpu_masks(frames.size(), 7);
  if (share > 0 && frames.size() == 1) {
    const int m = planes_for_share(share);  // one frame: the planes are independent
    if (m) {
      gpu_frames.push_back(&frames[0]);
      gpu_masks.push_back(m);
      cpu_masks[0] = 7 & ~m;
    }
  } else if (share > 0) {
    // A batch: the GPU's frames are the first ones. gpu: all. hybrid: as much as the GPU
    // finishes while the CPU does the rest, at the throughputs measured so far (8x8 blocks per
    // busy second of each side): x = n * gpu / (gpu + cpu) frames, i.e. floor(x) whole frames
    // and, of the next frame, the planes nearest to what is left of x (chroma, luma or none), so
    // the sides meet inside that frame instead of up to a frame apart. A slow GPU (lavapipe on
    // the CPU's own cores) gets none and the batch runs as fast as the CPU alone; one frame while
    // either side is unmeasured. A fixed share s: x = s * n.
    double x = static_cast<double>(frames.size());
    if (ctx->backend == Backend::kHybrid) {
      // The GPU's frames are prepared before the CPU's start (their cells use the pool): worth
      // it only when the CPU time they take off exceeds that delay (batch_gpu_frames).
      const SideRates rates = measured_rates(ctx, V3D_KERNEL_VP9_LPF);
      double mi = 0;
      for (const LpfFrame &f : frames) mi += mi_of(f);
      const double cpu_frame_seconds = rates.cpu > 0 ? mi / frames.size() / rates.cpu : 0;
      x = batch_gpu_frames(frames.size(), ctx->fixed_share, rates, cpu_frame_seconds,
                           ctx->family[V3D_KERNEL_VP9_LPF].gpu_submit_per_frame);
    }
    const size_t n_whole = std::min(frames.size(), static_cast<size_t>(x));
    for (size_t i = 0; i < n_whole; i++) {
      gpu_frames.push_back(&frames[i]);
      gpu_masks.push_back(7);
      cpu_masks[i] = 0;
    }
    const unsigned m = n_whole < frames.size() ? planes_for_share(x - n_whole) : 0;
    if (m) {
      gpu_frames.push_back(&frames[n_whole]);
      gpu_masks.push_back(static_cast<int>(m));
      cpu_masks[n_whole] = static_cast<int>(7 & ~m);
    }
  }
  // Copy-and-filter frames whose planes go (partly) to the GPU: the GPU reads the destination,
  // so those planes are copied whole first (the CPU's planes are copied row by row as filtered).
  for (size_t i = 0; i < gpu_frames.size(); i++) {
    const LpfFrame &f = *gpu_frames[i];
    if (!f.src[0]) continue;
    LpfFrame whole = f;
    whole.plane_mask = gpu_masks[i];
    const int sb_rows = (f.grid.mi_rows + 7) / 8;
    for (int r = 0; r < sb_rows; r++) lpf_copy_sb_row(whole, r);
  }
  // A lean split (auto, when it measured faster) runs with the workers less one: that core is
  // the GPU's (see SplitController).
  std::optional<PoolLimit> limit;
  if (split.lean() && !gpu_frames.empty() &&
      std::any_of(cpu_masks.begin(), cpu_masks.end(), [](int m) { return m != 0; }))
    limit.emplace(*ctx->pool, ctx->pool->capacity() - 1);
  GpuBatch gpu(ctx, gpu_frames, gpu_masks);
  if (!gpu_frames.empty()) {
    // The jobs' cells are built on the pool: this host work runs before the CPU's frames
    // (GpuBeside::run_first), the jobs themselves beside them.
    const std::function<void()> submit = [&gpu] { gpu.submit(); };
    GpuBeside(ctx).run_first(&submit);
    if (frames.size() > 1) {
      double &v = ctx->family[V3D_KERNEL_VP9_LPF].gpu_submit_per_frame;
      const double per_frame = gpu.submit_seconds() / gpu_frames.size();
      // A faster measurement replaces the estimate (the first job's include pipeline warm-up).
      v = v == 0 || per_frame < v ? per_frame : v + 0.25 * (per_frame - v);
    }
  }
  const auto t_cpu = Clock::now();
  double cpu_cost = 0;
  std::vector<LpfFrame> cpu_frames;
  cpu_frames.reserve(frames.size());
  for (size_t i = 0; i < frames.size(); i++) {
    if (!cpu_masks[i]) continue;
    cpu_frames.push_back(frames[i]);
    cpu_frames.back().plane_mask = cpu_masks[i];
    const double w = plane_weight(cpu_masks[i]) * mi_of(frames[i]);
    cpu_cost += w;
    t.blocks_cpu += w;
  }
  run_cpu_frames(ctx, cpu_frames);
  if (cpu_cost > 0) t.cpu_seconds = seconds_since(t_cpu);
  // A GPU done before the CPU: its span is its submission plus its own clock, not the wait.
  const bool gpu_early = !gpu_frames.empty() && cpu_cost > 0 && gpu.ready();
  const double submit_seconds = gpu.submit_seconds();
  if (!gpu_frames.empty()) rc = gpu.finish(&t);
  const double gpu_span_s = gpu_early ? gpu_span(t.gpu_seconds, submit_seconds, *ctx->gpu)
                                      : t.gpu_seconds;
  const double call_seconds = seconds_since(t_frame);
  if (use_gpu && ctx->backend == Backend::kHybrid && rc == V3D_OK)
    split.record(cpu_cost, t.cpu_seconds, gpu_frames.empty() ? 0 : gpu.cost(), gpu_span_s,
                 call_seconds);
  // The GPU's busy span, not its wait (a GPU done early waited for the CPU): the rates a batch's
  // division works from.
  if (rc == V3D_OK)
    ctx->kernel_stats[V3D_KERNEL_VP9_LPF].record(kernel_frame(
        static_cast<uint64_t>(t.blocks_cpu + 0.5), static_cast<uint64_t>(t.blocks_gpu + 0.5),
        call_seconds, t.cpu_seconds, gpu_span_s, frames.size()));
  log(kLogDebug, "lpf call (context %p): %zu frames, GPU %zu (last planes %d)%s, CPU %.3f ms, "
      "GPU %.3f ms (submit %.3f, %s), call %.3f ms", static_cast<const void *>(ctx),
      frames.size(), gpu_frames.size(), gpu_masks.empty() ? 0 : gpu_masks.back(),
      limit ? ", lean" : "", t.cpu_seconds * 1e3, gpu_span_s * 1e3, submit_seconds * 1e3,
      gpu_frames.empty() ? "none" : gpu_early ? "early" : "late", call_seconds * 1e3);
  add_call_stats(ctx, call_stats(frames.size(), t.blocks_cpu, t.blocks_gpu, t.cpu_seconds,
                                 t.gpu_seconds, t.copies, t.submissions));
  return rc;
}

}  // namespace

int lpf_filter_frame_trusted(V3dContext *ctx, uint8_t *const planes[3], const ptrdiff_t strides[3],
                             int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                             int sharpness) {
  clear_error();
  if (!ctx) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL context");
  FrameScope scope(ctx);
  std::vector<LpfFrame> frames;
  int rc = check_frames(*ctx->pool, {{planes, strides, width, height, grid, grid_stride, sharpness}},
                        false, false, &frames);
  if (rc) return rc;
  // Debug builds (the sanitizer and fuzzing CI builds) still check the precondition, so that a
  // stream making the decoder build an invalid grid stops there.
  assert(lpf_validate_rows(width, height, grid, grid_stride, 0, (height + 7) / 8) == V3D_OK);
  return run_frames(ctx, frames);
}

}  // namespace vp9
}  // namespace v3d

extern "C" int v3d_vp9_loop_filter_frame(V3dContext *ctx, uint8_t *const planes[3],
                                         const ptrdiff_t strides[3], int width, int height,
                                         const V3dVp9LfInfo *grid, int grid_stride, int sharpness) {
  using namespace v3d;
  clear_error();
  if (!ctx) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL context");
  FrameScope scope(ctx);
  std::vector<vp9::LpfFrame> frames;
  int rc = vp9::check_frames(*ctx->pool, {{planes, strides, width, height, grid, grid_stride, sharpness}},
                             false, true, &frames);
  if (rc) return rc;
  return vp9::run_frames(ctx, frames);
}

extern "C" int v3d_vp9_loop_filter_frames(V3dContext *ctx, const V3dVp9LfFrame *frames,
                                          size_t n_frames) {
  using namespace v3d;
  clear_error();
  if (const int rc = check_batch_pointers(ctx, frames, n_frames)) return rc;
  if (!n_frames) return V3D_OK;
  std::vector<vp9::LfArgs> args(n_frames);
  for (size_t i = 0; i < n_frames; i++) {
    const V3dVp9LfFrame &fr = frames[i];
    args[i] = {fr.planes, fr.strides, fr.width, fr.height, fr.grid, fr.grid_stride, fr.sharpness};
  }
  FrameScope scope(ctx);
  std::vector<vp9::LpfFrame> f;
  int rc = vp9::check_frames(*ctx->pool, args, true, true, &f);
  if (rc) return rc;
  return vp9::run_frames(ctx, f);
}

extern "C" int v3d_vp9_loop_filter_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                              const ptrdiff_t src_strides[3],
                                              uint8_t *const planes[3], const ptrdiff_t strides[3],
                                              int width, int height, const V3dVp9LfInfo *grid,
                                              int grid_stride, int sharpness) {
  using namespace v3d;
  clear_error();
  if (!ctx) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL context");
  if (!src || !src_strides)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !src ? "src" : "src_strides");
  FrameScope scope(ctx);
  std::vector<vp9::LpfFrame> frames;
  int rc = vp9::check_frames(*ctx->pool, {{planes, strides, width, height, grid, grid_stride, sharpness}},
                             false, true, &frames);
  if (rc) return rc;
  for (int p = 0; p < 3; p++) {
    if (!src[p]) return set_error(V3D_ERROR_INVALID_ARGUMENT, "source plane %d is NULL", p);
    if (src_strides[p] < frames[0].width[p])
      return set_error(V3D_ERROR_INVALID_ARGUMENT,
                       "stride %td of source plane %d is below its width %d", src_strides[p], p,
                       frames[0].width[p]);
    frames[0].src[p] = src[p];
    frames[0].src_stride[p] = src_strides[p];
  }
  return vp9::run_frames(ctx, frames);
}
