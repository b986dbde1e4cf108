// SPDX-License-Identifier: LGPL-2.1-or-later
// Public entry points of the VP9 frame loop filter (v3d_vp9_loop_filter_frame, _frames) and the
// choice of backend: scalar (sequential references), simd (the CPU wavefront), gpu (one job per
// up to 16 frames, vulkan/vp9_lpf_job.cpp), hybrid (planes of one frame, or whole frames of a
// batch, divided between the GPU and the CPU by the context's lpf_split controller).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/frame_call.h"
#include "core/context.h"
#include "core/log.h"
#include "vp9/lpf_frame.h"
#include "vp9/lpf_gpu.h"
#include "vulkan/gpu.h"

namespace v3d {
namespace vp9 {
namespace {

// Checks one frame's arguments and describes it. Touches nothing.
int check_frame(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                const V3dVp9LfInfo *grid, int grid_stride, int sharpness, LpfFrame *f) {
  if (!planes || !strides)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !planes ? "planes" : "strides");
  int rc = lpf_validate(width, height, grid, grid_stride, sharpness);
  if (rc) return rc;
  const int mi_cols = (width + 7) / 8;
  for (int p = 0; p < 3; p++) {
    const int w = p ? mi_cols * 4 : mi_cols * 8;
    if (!planes[p]) return set_error(V3D_ERROR_INVALID_ARGUMENT, "plane %d is NULL", p);
    if (strides[p] < w)
      return set_error(V3D_ERROR_INVALID_ARGUMENT, "stride %td of plane %d is below its width %d",
                       strides[p], p, w);
  }
  lpf_frame_setup(planes, strides, width, height, grid, grid_stride, sharpness, f);
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
  bool use_gpu = gpu_usable(ctx) &&
                 (ctx->backend == Backend::kGpu || ctx->backend == Backend::kHybrid);
  if (use_gpu && !gpu_has_vp9_lpf(*ctx->gpu)) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      log(kLogWarning, "the Vulkan device has no loop-filter pipeline: the loop filter runs on "
                       "the CPU");
    use_gpu = false;
  }
  double share = 0;
  SplitController &split = ctx->lpf_split.for_size(frames[0].width[0], frames[0].height[0]);
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
    // A batch: whole frames, the GPU's the first ones. gpu: all. hybrid: as many as the GPU
    // finishes while the CPU does the rest, at the throughputs measured so far (8x8 blocks per
    // busy second of each side): floor(n * gpu / (gpu + cpu)), so a slow GPU (lavapipe on the
    // CPU's own cores) gets none and the batch runs as fast as the CPU alone; one frame while
    // either side is unmeasured.
    size_t n_gpu = frames.size();
    if (ctx->backend == Backend::kHybrid && ctx->fixed_share < 0) {
      const V3dKernelStats ks = ctx->kernel_stats[V3D_KERNEL_VP9_LPF].snapshot();
      if (ks.gpu_units_per_second > 0 && ks.cpu_units_per_second > 0)
        n_gpu = static_cast<size_t>(frames.size() * ks.gpu_units_per_second /
                                    (ks.gpu_units_per_second + ks.cpu_units_per_second));
      else
        n_gpu = frames.size() > 1 ? 1 : 0;
    } else if (ctx->backend == Backend::kHybrid) {
      n_gpu = std::min(frames.size(), static_cast<size_t>(share * frames.size() + 0.5));
    }
    for (size_t i = 0; i < n_gpu; i++) {
      gpu_frames.push_back(&frames[i]);
      gpu_masks.push_back(7);
      cpu_masks[i] = 0;
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
  if (!gpu_frames.empty()) gpu.submit();
  const auto t_cpu = Clock::now();
  double cpu_cost = 0;
  for (size_t i = 0; i < frames.size(); i++) {
    if (!cpu_masks[i]) continue;
    run_cpu(ctx, frames[i], cpu_masks[i]);
    const double w = plane_weight(cpu_masks[i]) * mi_of(frames[i]);
    cpu_cost += w;
    t.blocks_cpu += w;
  }
  if (cpu_cost > 0) t.cpu_seconds = seconds_since(t_cpu);
  // A GPU done before the CPU: its span is its submission plus its own clock, not the wait.
  const bool gpu_early = !gpu_frames.empty() && cpu_cost > 0 && gpu.ready();
  const double submit_seconds = gpu.submit_seconds();
  if (!gpu_frames.empty()) rc = gpu.finish(&t);
  double gpu_span = t.gpu_seconds;
  if (gpu_early && gpu_last_job_seconds(*ctx->gpu) > 0)
    gpu_span = std::min(gpu_span, submit_seconds + gpu_last_job_seconds(*ctx->gpu));
  if (use_gpu && ctx->backend == Backend::kHybrid && rc == V3D_OK)
    split.record(cpu_cost, t.cpu_seconds, gpu_frames.empty() ? 0 : gpu.cost(), gpu_span,
                          seconds_since(t_frame));
  if (rc == V3D_OK)
    ctx->kernel_stats[V3D_KERNEL_VP9_LPF].record(kernel_frame(
        static_cast<uint64_t>(t.blocks_cpu + 0.5), static_cast<uint64_t>(t.blocks_gpu + 0.5),
        seconds_since(t_frame), t.cpu_seconds, t.gpu_seconds, frames.size()));
  CallStats c;
  c.frames = frames.size();
  c.blocks_cpu = static_cast<uint64_t>(t.blocks_cpu + 0.5);
  c.blocks_gpu = static_cast<uint64_t>(t.blocks_gpu + 0.5);
  c.cpu_seconds = t.cpu_seconds;
  c.gpu_seconds = t.gpu_seconds;
  c.gpu_share = t.blocks_cpu + t.blocks_gpu > 0 ? t.blocks_gpu / (t.blocks_cpu + t.blocks_gpu) : 0;
  c.copies = t.copies;
  c.submissions = t.submissions;
  add_call_stats(ctx, c);
  return rc;
}

}  // namespace
}  // namespace vp9
}  // namespace v3d

extern "C" int v3d_vp9_loop_filter_frame(V3dContext *ctx, uint8_t *const planes[3],
                                         const ptrdiff_t strides[3], int width, int height,
                                         const V3dVp9LfInfo *grid, int grid_stride, int sharpness) {
  using namespace v3d;
  clear_error();
  if (!ctx) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL context");
  std::vector<vp9::LpfFrame> frames(1);
  int rc = vp9::check_frame(planes, strides, width, height, grid, grid_stride, sharpness, &frames[0]);
  if (rc) return rc;
  std::lock_guard<std::mutex> frame_lock(ctx->frame_mutex);
  return vp9::run_frames(ctx, frames);
}

extern "C" int v3d_vp9_loop_filter_frames(V3dContext *ctx, const V3dVp9LfFrame *frames,
                                          size_t n_frames) {
  using namespace v3d;
  clear_error();
  if (!ctx || (n_frames && !frames))
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !ctx ? "context" : "frames");
  std::vector<vp9::LpfFrame> f(n_frames);
  for (size_t i = 0; i < n_frames; i++) {
    const V3dVp9LfFrame &fr = frames[i];
    int rc = vp9::check_frame(fr.planes, fr.strides, fr.width, fr.height, fr.grid, fr.grid_stride,
                              fr.sharpness, &f[i]);
    if (rc) {
      const std::string msg = v3d_last_error();
      return set_error(rc, "frame %zu: %s", i, msg.c_str());
    }
  }
  if (!n_frames) return V3D_OK;
  std::lock_guard<std::mutex> frame_lock(ctx->frame_mutex);
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
  std::vector<vp9::LpfFrame> frames(1);
  int rc = vp9::check_frame(planes, strides, width, height, grid, grid_stride, sharpness, &frames[0]);
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
  std::lock_guard<std::mutex> frame_lock(ctx->frame_mutex);
  return vp9::run_frames(ctx, frames);
}
