// SPDX-License-Identifier: LGPL-2.1-or-later
// The backends of v3d_h264_deblock_frame(_from) once the arguments are checked: scalar (the
// references in sequence), simd (the SIMD wavefront on the CPU workers), gpu (every plane on the
// GPU, shaders/h264_deblock.comp), hybrid and auto (the exact plane split: the planes are
// independent, so the GPU deblocks some while the CPU wavefront does the others, joined before
// returning; the context's deblocking split controller picks CPU alone, GPU alone or the split, and
// which planes, from measured times per frame size, as for the VP9 loop filter). A GPU job that
// cannot be submitted or fails leaves its planes untouched (they are staged), and they are
// deblocked on the CPU (one warning per context): the output is the same.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <functional>
#include <vector>

#include "sched/context.h"
#include "sched/frame_call.h"
#include "sched/frame_sched.h"
#include "runtime/log.h"
#include "threads/thread_pool.h"
#include "h264/deblock/deblock_backend.h"
#include "h264/deblock/deblock_gpu.h"
#include "gpu/gpu.h"
#include "h264/deblock/deblock_vk.h"

namespace v3d {
namespace h264 {
namespace {

void run_cpu(V3dContext *ctx, const DeblockPicture &pic, unsigned mask) {
  if (!mask) return;
  if (ctx->backend == Backend::kScalar) {
    DeblockDsp ref;
    deblock_dsp_init_ref(&ref);
    deblock_sequential(pic, ref, mask);
  } else {
    deblock_wavefront(pic, deblock_dsp(), *ctx->pool, mask);
  }
}

// Whether ctx may give deblocking work to its GPU: gpu, hybrid and auto (a hybrid whose split
// controller picks CPU, GPU or a plane split from measurements) with a usable GPU that has the
// pipeline (else the CPU, with one warning per process).
bool gpu_wanted(V3dContext *ctx) {
  return family_gpu_usable(ctx, V3D_KERNEL_H264_DEBLOCK, gpu_has_h264_deblock,
                           "the Vulkan device has no H.264 deblocking pipeline: deblocking runs "
                           "on the CPU");
}

// Builds the GPU's records of pic's planes in mask and submits them (from pic.src when set).
std::unique_ptr<GpuJob> submit_picture(V3dContext *ctx, const DeblockPicture &pic, unsigned mask,
                                       std::string *error, bool *busy) {
  std::vector<uint32_t> records, steps;
  deblock_gpu_records(pic, mask, &records, &steps);
  FramePlanes fp;
  for (int p = 0; p < 3; p++) {
    fp.data[p] = pic.data[p];
    fp.stride[p] = pic.stride[p];
    fp.width[p] = pic.width[p];
    fp.height[p] = pic.height[p];
  }
  return gpu_h264_deblock_submit(*ctx->gpu, fp, pic.src[0] ? pic.src : nullptr, pic.src_stride,
                                 static_cast<int>(mask), records.data(), steps, error, busy);
}

}  // namespace

void deblock_run(V3dContext *ctx, const DeblockPicture &pic) {
  const auto t0 = Clock::now();
  const double mbs = static_cast<double>(pic.mb_rows) * pic.mb_cols;
  const bool use_gpu = gpu_wanted(ctx);
  SplitController *split = nullptr;
  double share = 0;
  if (use_gpu && ctx->backend == Backend::kGpu) {
    share = 1;
  } else if (use_gpu) {
    split = &ctx->family[V3D_KERNEL_H264_DEBLOCK].split.for_size(pic.width[0], pic.height[0]);
    share = split->next_share(ctx->fixed_share, lean_split_allowed(ctx));
  }
  unsigned gpu_mask = planes_for_share(share);
  const unsigned cpu_mask = kPlanesAll & ~gpu_mask;

  // The GPU's host-side work (the records, the staging copy — from the source planes when
  // copying and deblocking — and the submission) runs beside (GpuBeside) while the CPU
  // workers deblock their planes; a lean split (auto, when it measured faster) leaves it a core
  // (one worker fewer), as the other kernels' splits do.
  std::unique_ptr<GpuJob> job;
  std::string submit_error;
  bool gpu_busy = false;  // another caller's job holds the GPU's deblocking slot
  double submit_seconds = 0;
  auto submit = [&]() {
    job = submit_picture(ctx, pic, gpu_mask, &submit_error, &gpu_busy);
    submit_seconds = seconds_since(t0);
  };
  std::optional<PoolLimit> limit;
  const std::function<void()> submit_fn = submit;
  GpuBeside side(ctx);
  if (gpu_mask && cpu_mask) {
    if (split && split->lean()) limit.emplace(*ctx->pool, ctx->pool->capacity() - 1);
    side.start(&submit_fn);  // without a side thread: submit first, then the CPU's planes
  } else if (gpu_mask) {
    submit();
  }
  const auto t_cpu = Clock::now();
  run_cpu(ctx, pic, cpu_mask);
  double cpu_seconds = cpu_mask ? seconds_since(t_cpu) : 0;
  side.finish();
  limit.reset();
  if (gpu_mask && job) {
    ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].gpu_job(+1);
  } else if (gpu_mask) {
    // The planes are untouched (nothing was submitted). A busy slot is not a failure: another
    // element or context sharing the GPU has it for this picture.
    if (gpu_busy)
      log(kLogDebug, "H.264 deblocking: %s; its planes run on the CPU", submit_error.c_str());
    else
      warn_gpu_failure(ctx, submit_error.c_str(), "its planes are deblocked on the CPU");
    const auto t_redo = Clock::now();
    run_cpu(ctx, pic, gpu_mask);
    cpu_seconds += seconds_since(t_redo);
  }
  unsigned done_gpu = job ? gpu_mask : 0;
  double gpu_seconds = 0;
  uint64_t copies = 0;
  if (job) {
    // The GPU's span: from the call's start until its planes were back. When it had finished
    // before the CPU did, waiting says nothing about its speed: its host work plus the device's
    // timestamps (and the copy back) measure it instead.
    const bool was_ready = job->ready();
    const auto t_wait = Clock::now();
    const int rc = job->wait();
    ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].gpu_job(-1);
    gpu_seconds = seconds_since(t0);
    if (was_ready)
      gpu_seconds = gpu_span(gpu_seconds, submit_seconds, *ctx->gpu, seconds_since(t_wait));
    copies = static_cast<uint64_t>(job->copies());
    if (rc) {
      const std::string why = v3d_last_error();
      warn_gpu_failure(ctx, why.c_str(), "its planes are deblocked on the CPU");
      const auto t_redo = Clock::now();
      run_cpu(ctx, pic, gpu_mask);  // the planes are untouched (staged)
      cpu_seconds += seconds_since(t_redo);
      done_gpu = 0;
    }
  }
  const double frame_seconds = seconds_since(t0);
  const double units_gpu = plane_weight(done_gpu) * mbs;
  const double units_cpu = mbs - units_gpu;
  // The controller learns from frames that ran as planned (a redo's times are not a rate).
  if (split && done_gpu == gpu_mask)
    split->record(units_cpu, units_cpu > 0 ? cpu_seconds : 0, units_gpu,
                  done_gpu ? gpu_seconds : 0, frame_seconds);
  ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].record(kernel_frame(
      static_cast<uint64_t>(units_cpu + 0.5), static_cast<uint64_t>(units_gpu + 0.5),
      frame_seconds, units_cpu > 0 ? cpu_seconds : 0, done_gpu ? gpu_seconds : 0));
  add_call_stats(ctx, call_stats(1, units_cpu, units_gpu, cpu_seconds, done_gpu ? gpu_seconds : 0,
                                 copies, job ? 1 : 0, mbs > 0 ? units_gpu / mbs : 0));
}

void deblock_run_batch(V3dContext *ctx, const std::vector<DeblockPicture> &pics) {
  const size_t n = pics.size();
  if (n == 0) return;
  // One picture, or the GPU alone: picture by picture (the single call's way and statistics).
  if (n == 1 || (ctx->backend == Backend::kGpu && gpu_wanted(ctx))) {
    for (const DeblockPicture &pic : pics) deblock_run(ctx, pic);
    return;
  }
  const auto t0 = Clock::now();
  // hybrid and auto: the GPU's pictures are the first n_gpu, at the throughputs measured so far
  // (macroblocks per busy second of each side): floor(n * gpu / (gpu + cpu)), one while either
  // side is unmeasured; a fixed share s: floor(s * n).
  size_t n_gpu = 0;
  if (ctx->backend == Backend::kHybrid && gpu_wanted(ctx))
    n_gpu = static_cast<size_t>(
        batch_gpu_frames(n, ctx->fixed_share, measured_rates(ctx, V3D_KERNEL_H264_DEBLOCK)));
  // The GPU's pictures one after another beside the workers (submit, wait: GpuBeside), while
  // the workers run the others. A picture the GPU did not deblock is untouched (staged) and redone
  // on the CPU below.
  std::vector<char> gpu_done(n_gpu, 0), gpu_busy(n_gpu, 0);
  std::vector<std::string> gpu_why(n_gpu);
  double gpu_seconds = 0;
  uint64_t copies = 0, submissions = 0;
  auto feed = [&]() {
    for (size_t i = 0; i < n_gpu; i++) {
      std::string err;
      bool busy = false;
      std::unique_ptr<GpuJob> job = submit_picture(ctx, pics[i], kPlanesAll, &err, &busy);
      if (!job) {
        gpu_why[i] = err;
        gpu_busy[i] = busy;
        continue;
      }
      submissions++;
      ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].gpu_job(+1);
      const int rc = job->wait();
      ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].gpu_job(-1);
      copies += static_cast<uint64_t>(job->copies());
      if (rc) {
        gpu_why[i] = v3d_last_error();  // this thread's
        clear_error();
      } else {
        gpu_done[i] = 1;
      }
    }
    gpu_seconds = seconds_since(t0);
  };
  const std::function<void()> feed_fn = feed;
  GpuBeside side(ctx);
  if (n_gpu) side.start(&feed_fn);  // without a side thread: the GPU's pictures first
  const auto t_cpu = Clock::now();
  std::vector<const DeblockPicture *> cpu_pics;
  for (size_t i = n_gpu; i < n; i++) cpu_pics.push_back(&pics[i]);
  if (ctx->backend == Backend::kScalar) {
    for (const DeblockPicture *pic : cpu_pics) run_cpu(ctx, *pic, kPlanesAll);
  } else {
    deblock_wavefronts(cpu_pics, deblock_dsp(), *ctx->pool);
  }
  double cpu_seconds = cpu_pics.empty() ? 0 : seconds_since(t_cpu);
  side.finish();
  double units_cpu = 0, units_gpu = 0;
  for (size_t i = 0; i < n; i++) {
    const double mbs = static_cast<double>(pics[i].mb_rows) * pics[i].mb_cols;
    if (i < n_gpu && gpu_done[i]) {
      units_gpu += mbs;
      continue;
    }
    units_cpu += mbs;
    if (i >= n_gpu) continue;
    if (gpu_busy[i])
      log(kLogDebug, "H.264 deblocking: %s; frame %zu of the batch runs on the CPU",
          gpu_why[i].c_str(), i);
    else
      warn_gpu_failure(ctx, gpu_why[i].c_str(), "the frame is deblocked on the CPU");
    const auto t_redo = Clock::now();
    run_cpu(ctx, pics[i], kPlanesAll);
    cpu_seconds += seconds_since(t_redo);
  }
  const double frame_seconds = seconds_since(t0);
  ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].record(kernel_frame(
      static_cast<uint64_t>(units_cpu + 0.5), static_cast<uint64_t>(units_gpu + 0.5),
      frame_seconds, units_cpu > 0 ? cpu_seconds : 0, units_gpu > 0 ? gpu_seconds : 0, n));
  log(kLogDebug, "h264 batch (context %p): %zu pictures, GPU %zu (%zu done), CPU %.3f ms, GPU "
      "%.3f ms, batch %.3f ms", static_cast<const void *>(ctx), n, n_gpu,
      static_cast<size_t>(std::count(gpu_done.begin(), gpu_done.end(), 1)), cpu_seconds * 1e3,
      gpu_seconds * 1e3, frame_seconds * 1e3);
  add_call_stats(ctx, call_stats(n, units_cpu, units_gpu, cpu_seconds,
                                 units_gpu > 0 ? gpu_seconds : 0, copies, submissions));
}

}  // namespace h264
}  // namespace v3d
