// SPDX-License-Identifier: LGPL-2.1-or-later
// The backends of v3d_h264_deblock_frame(_from) once the arguments are checked: scalar (the
// references in sequence), simd (the SIMD wavefront on the CPU workers), gpu (every plane on the
// GPU, shaders/h264_deblock.comp), hybrid and auto (the exact plane split: the planes are
// independent, so the GPU deblocks some while the CPU wavefront does the others, joined before
// returning; the context's h264_split controller picks CPU alone, GPU alone or the split, and
// which planes, from measured times per frame size, as for the VP9 loop filter). A GPU job that
// cannot be submitted or fails leaves its planes untouched (they are staged), and they are
// deblocked on the CPU (one warning per context): the output is the same.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/context.h"
#include "core/frame_call.h"
#include "core/log.h"
#include "core/thread_pool.h"
#include "h264/deblock_backend.h"
#include "h264/deblock_gpu.h"
#include "vulkan/gpu.h"

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
  if ((ctx->backend != Backend::kGpu && ctx->backend != Backend::kHybrid) || !gpu_usable(ctx))
    return false;
  if (!gpu_has_h264_deblock(*ctx->gpu)) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      log(kLogWarning, "the Vulkan device has no H.264 deblocking pipeline: deblocking runs on "
                       "the CPU");
    return false;
  }
  return true;
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
    split = &ctx->h264_split.for_size(pic.width[0], pic.height[0]);
    share = split->next_share(ctx->fixed_share, lean_split_allowed(ctx));
  }
  unsigned gpu_mask = planes_for_share(share);
  const unsigned cpu_mask = kPlanesAll & ~gpu_mask;

  // The GPU's host-side work (the records, the staging copy — from the source planes when
  // copying and deblocking — and the submission) runs on a thread of its own while the CPU
  // workers deblock their planes; a lean split (auto, when it measured faster) leaves it a core
  // (one worker fewer), as the other kernels' splits do.
  std::unique_ptr<GpuJob> job;
  std::string submit_error;
  bool gpu_busy = false;  // another caller's job holds the GPU's deblocking slot
  double submit_seconds = 0;
  auto submit = [&]() {
    std::vector<uint32_t> records, steps;
    deblock_gpu_records(pic, gpu_mask, &records, &steps);
    FramePlanes fp;
    for (int p = 0; p < 3; p++) {
      fp.data[p] = pic.data[p];
      fp.stride[p] = pic.stride[p];
      fp.width[p] = pic.width[p];
      fp.height[p] = pic.height[p];
    }
    job = gpu_h264_deblock_submit(*ctx->gpu, fp, pic.src[0] ? pic.src : nullptr, pic.src_stride,
                                  static_cast<int>(gpu_mask), records.data(), steps,
                                  &submit_error, &gpu_busy);
    submit_seconds = seconds_since(t0);
  };
  std::optional<PoolLimit> limit;
  std::thread feeder;
  if (gpu_mask && cpu_mask) {
    if (split && split->lean()) limit.emplace(*ctx->pool, ctx->pool->capacity() - 1);
    try {
      feeder = std::thread(submit);
    } catch (const std::system_error &) {
      submit();  // no thread to spare: submit first, then the CPU's planes
    }
  } else if (gpu_mask) {
    submit();
  }
  const auto t_cpu = Clock::now();
  run_cpu(ctx, pic, cpu_mask);
  double cpu_seconds = cpu_mask ? seconds_since(t_cpu) : 0;
  if (feeder.joinable()) feeder.join();
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
      gpu_seconds = std::min(gpu_seconds, submit_seconds + gpu_last_job_seconds(*ctx->gpu) +
                                              seconds_since(t_wait));
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
  CallStats c;
  c.frames = 1;
  c.blocks_cpu = static_cast<uint64_t>(units_cpu + 0.5);
  c.blocks_gpu = static_cast<uint64_t>(units_gpu + 0.5);
  c.cpu_seconds = cpu_seconds;
  c.gpu_seconds = done_gpu ? gpu_seconds : 0;
  c.gpu_share = mbs > 0 ? units_gpu / mbs : 0;
  c.copies = copies;
  c.submissions = job ? 1 : 0;
  add_call_stats(ctx, c);
}

}  // namespace h264
}  // namespace v3d
