// SPDX-License-Identifier: LGPL-2.1-or-later
// The backends of v3d_h264_deblock_frame(_from) once the arguments are checked: scalar (the
// references in sequence), simd and auto (the SIMD wavefront on the CPU workers), gpu (every
// plane on the GPU, shaders/h264_deblock.comp), hybrid (the exact plane split: Cb and Cr on the
// GPU while the CPU wavefront does luma, joined before returning; the GPU gets nothing when the
// rates measured so far say it would finish chroma later than the CPU alone finishes the whole
// picture). A GPU job that cannot be submitted or fails leaves its planes untouched (they are
// staged), and they are deblocked on the CPU (one warning per context): the output is the same.
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/frame_call.h"
#include "core/log.h"
#include "h264/deblock_backend.h"
#include "h264/deblock_gpu.h"
#include "vulkan/gpu.h"

namespace v3d {
namespace h264 {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Share of a picture's samples in the planes of mask (luma 4/6, each chroma plane 1/6).
double plane_weight(unsigned mask) {
  return ((mask & kPlaneY ? 4 : 0) + (mask & kPlaneCb ? 1 : 0) + (mask & kPlaneCr ? 1 : 0)) / 6.0;
}

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

// The planes the GPU gets: none unless gpu/hybrid asked for with a usable GPU that has the
// pipeline; gpu: all; hybrid: chroma, unless measured rates (macroblock units per busy second,
// V3D_KERNEL_H264_DEBLOCK) say the GPU does chroma (1/3 of the units) slower than the CPU does
// everything (gpu_rate < cpu_rate / 3), or the context's fixed share is below 1/6.
unsigned gpu_planes(V3dContext *ctx) {
  if (ctx->auto_backend || (ctx->backend != Backend::kGpu && ctx->backend != Backend::kHybrid) ||
      !gpu_usable(ctx))
    return 0;
  if (!gpu_has_h264_deblock(*ctx->gpu)) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      log(kLogWarning, "the Vulkan device has no H.264 deblocking pipeline: deblocking runs on "
                       "the CPU");
    return 0;
  }
  if (ctx->backend == Backend::kGpu) return kPlanesAll;
  if (ctx->fixed_share >= 0) return ctx->fixed_share < 1.0 / 6 ? 0 : kPlaneCb | kPlaneCr;
  const V3dKernelStats ks = ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].snapshot();
  if (ks.gpu_units_per_second > 0 && ks.cpu_units_per_second > 0 &&
      ks.gpu_units_per_second < ks.cpu_units_per_second / 3)
    return 0;
  return kPlaneCb | kPlaneCr;
}

}  // namespace

void deblock_run(V3dContext *ctx, const DeblockPicture &pic) {
  const auto t0 = Clock::now();
  const double mbs = static_cast<double>(pic.mb_rows) * pic.mb_cols;
  unsigned gpu_mask = gpu_planes(ctx);
  std::unique_ptr<GpuJob> job;
  double gpu_seconds = 0;
  uint64_t copies = 0;
  if (gpu_mask) {
    // Copy-and-filter: the GPU reads the destination, so its planes are copied whole first.
    for (int r = 0; r < pic.mb_rows; r++) deblock_copy_mb_row(pic, r, gpu_mask);
    std::vector<uint32_t> records, steps;
    deblock_gpu_records(pic, gpu_mask, &records, &steps);
    FramePlanes fp;
    for (int p = 0; p < 3; p++) {
      fp.data[p] = pic.data[p];
      fp.stride[p] = pic.stride[p];
      fp.width[p] = pic.width[p];
      fp.height[p] = pic.height[p];
    }
    std::string err;
    job = gpu_h264_deblock_submit(*ctx->gpu, fp, static_cast<int>(gpu_mask), records.data(),
                                  steps, &err);
    if (job) {
      ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].gpu_job(+1);
    } else {
      warn_gpu_failure(ctx, err.c_str(), "the picture is deblocked on the CPU");
      gpu_mask = 0;
    }
  }
  const unsigned cpu_mask = kPlanesAll & ~gpu_mask;
  const auto t_cpu = Clock::now();
  run_cpu(ctx, pic, cpu_mask);
  double cpu_seconds = cpu_mask ? seconds_since(t_cpu) : 0;
  unsigned done_gpu = gpu_mask;
  if (job) {
    const int rc = job->wait();
    ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].gpu_job(-1);
    gpu_seconds = seconds_since(t0);
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
  const double units_gpu = plane_weight(done_gpu) * mbs;
  const double units_cpu = mbs - units_gpu;
  // The rates only count sides that were busy (a redo's GPU time is not a rate).
  ctx->kernel_stats[V3D_KERNEL_H264_DEBLOCK].record(kernel_frame(
      static_cast<uint64_t>(units_cpu + 0.5), static_cast<uint64_t>(units_gpu + 0.5),
      seconds_since(t0), units_cpu > 0 ? cpu_seconds : 0, done_gpu ? gpu_seconds : 0));
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
