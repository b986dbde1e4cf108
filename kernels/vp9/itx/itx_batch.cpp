// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_vp9_itxfm_add_frames: a batch of transform frames, validated together, then run frame
// after frame, on the GPU alone, or on both sides at once (itx_hybrid.cpp).
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

// A batch on the GPU alone (defined below).
int itx_frames_gpu(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                   const std::vector<FramePlanes> &planes, const std::vector<ItxScratch> &scratch,
                   size_t n_frames);

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
