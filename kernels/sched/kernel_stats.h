// SPDX-License-Identifier: LGPL-2.1-or-later
// Per kernel family statistics of a context (v3d_context_get_kernel_stats): what each side did,
// how long, how busy, the GPU queue depth and the recent frame-time distribution.
//
// Threads: a KernelStatsBook is guarded by its own mutex; every method is thread-safe and cheap
// (no allocation after construction).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "v3d/v3d.h"

namespace v3d {

enum class Kernel { kVp9Itx = V3D_KERNEL_VP9_ITX, kVp9Lpf = V3D_KERNEL_VP9_LPF,
                    kH264Deblock = V3D_KERNEL_H264_DEBLOCK };

// One finished frame-level call.
struct KernelFrame {
  uint64_t units_cpu = 0, units_gpu = 0;
  uint64_t frames = 1;            // frames the call did (a batch: its frames, timed together)
  double wall_seconds = 0;        // the whole call
  double cpu_busy_seconds = 0;    // 0 when the CPU side had no share
  double gpu_busy_seconds = 0;    // 0 when the GPU side had no share
};
inline KernelFrame kernel_frame(uint64_t units_cpu, uint64_t units_gpu, double wall,
                                double cpu_busy, double gpu_busy, uint64_t frames = 1) {
  KernelFrame f;
  f.units_cpu = units_cpu;
  f.units_gpu = units_gpu;
  f.frames = frames;
  f.wall_seconds = wall;
  f.cpu_busy_seconds = cpu_busy;
  f.gpu_busy_seconds = gpu_busy;
  return f;
}

class KernelStatsBook {
 public:
  void record(const KernelFrame &f);
  // A GPU job of this family was submitted (+1) or completed (-1).
  void gpu_job(int delta);
  V3dKernelStats snapshot() const;

 private:
  static constexpr size_t kWindow = 256;  // frames kept for the distribution
  mutable std::mutex mutex_;
  V3dKernelStats s_{};
  std::array<float, kWindow> recent_ms_{};
  size_t n_recent_ = 0;  // frames recorded (the window holds the last min(n, kWindow))
};

}  // namespace v3d
