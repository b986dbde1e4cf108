// SPDX-License-Identifier: LGPL-2.1-or-later
// The frame scheduler's pieces that every kernel family's frame path uses, written once:
//   - whether a call may give the family's work to the GPU (family_gpu_usable);
//   - the one batch divider: how much of a batch the GPU takes so that both sides finish
//     together at their measured rates (balanced_gpu_units, batch_gpu_frames);
//   - the GPU side's span from the device's own timestamps (gpu_span);
//   - the one way of running the GPU's host-side work beside the CPU workers (GpuBeside).
// A family's frame path plugs its own work into these: the cost of its units, its CPU share (on
// the pool), its GPU share (prepare, submit, wait: its *_vk.h job) and the redo of a failed GPU
// share on the CPU; the split controller (split_controller.h) chooses the way per frame, and the
// call's statistics go through CallStats (frame_call.h).
// Threads: called under the context's frame_mutex, except where a comment says otherwise.
#pragma once

#include <cstddef>
#include <functional>

#include "gpu/gpu.h"
#include "sched/context.h"

namespace v3d {

// Whether ctx may give work of family `kernel` (V3D_KERNEL_*) to its GPU: backend gpu or hybrid
// (auto included), a GPU that is not lost, and the family's pipeline on it (has_pipeline(gpu),
// asked only when the rest holds; null: every device has it). A
// device without the pipeline is reported once per process and family (no_pipeline, a warning);
// the family's work then runs on the CPU.
bool family_gpu_usable(V3dContext *ctx, int kernel, bool (*has_pipeline)(const Gpu &),
                       const char *no_pipeline);

// Each side's measured throughput for one family (units per busy second, the family's kernel
// statistics); 0 while a side is unmeasured.
struct SideRates {
  double cpu = 0, gpu = 0;
  bool measured() const { return cpu > 0 && gpu > 0; }
};
SideRates measured_rates(const V3dContext *ctx, int kernel);

// The batch divider. Units the GPU takes of `units` left to divide so that both sides finish
// together when the GPU already has `queued` units to do: (queued + m) / gpu = (units - m) / cpu.
// 0 when either rate is unmeasured or the GPU's queue alone outlasts the CPU's share.
double balanced_gpu_units(double units, double queued, SideRates rates);

// Whether the GPU, with `queued` units to do, finishes `units` more no later than the CPU does
// cpu_units (what is left to it once the GPU has taken them), at the measured rates.
bool gpu_keeps_up(double units, double queued, double cpu_units, SideRates rates);

// The GPU's part of a batch of n frames, in frames (whole frames, then a fraction of the next):
// fixed_share s >= 0: s * n (s at most 1); adaptive: balanced at the measured rates, one frame
// while either side is unmeasured. cpu_frame_seconds and host_seconds_per_gpu_frame (when both
// > 0): the GPU's frames are prepared on the calling thread before the CPU's start, which pays
// only when the CPU time they take off exceeds that delay; else the GPU gets none.
double batch_gpu_frames(size_t n, double fixed_share, SideRates rates,
                        double cpu_frame_seconds = 0, double host_seconds_per_gpu_frame = 0);

// The GPU side's span of a share that had finished before it was waited for (waiting says
// nothing of its speed then): from its submission (submitted_at, seconds from the span's start)
// plus the device's own time for the job (timestamps) plus `after` (copying results back), when
// the device has timestamps and that is shorter than `waited` (the span measured by waiting);
// else `waited`.
double gpu_span(double waited, double submitted_at, const Gpu &gpu, double after = 0);

// Runs the GPU's host-side work of one call (preparing, submitting, waiting for its jobs) beside
// the CPU workers: on the context's side thread, which gpu and hybrid contexts have; where it could
// not be started (or the context has none), on the calling thread at start(), before the CPU's
// share. finish() (or the destructor) waits for the work. One start() per GpuBeside.
class GpuBeside {
 public:
  explicit GpuBeside(V3dContext *ctx) : ctx_(ctx) {}
  ~GpuBeside() { finish(); }
  GpuBeside(const GpuBeside &) = delete;
  GpuBeside &operator=(const GpuBeside &) = delete;
  // Whether start() runs the work beside the caller (else before returning).
  bool beside() const { return ctx_->gpu_side && ctx_->gpu_side->running(); }
  // fn must stay valid until finish() has returned.
  void start(const std::function<void()> *fn);
  // For host work that itself runs loops of the context's pool (which serves one loop at a time,
  // so it cannot run beside the CPU's share): runs fn on the calling thread now, before the CPU's
  // share; the jobs it submits then run beside it.
  void run_first(const std::function<void()> *fn) { (*fn)(); }
  void finish();

 private:
  V3dContext *ctx_;
  bool posted_ = false;
};

}  // namespace v3d
