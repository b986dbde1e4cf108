// SPDX-License-Identifier: LGPL-2.1-or-later
// Pieces shared by the frame-level C entry points (v3d_h264_deblock_frame, ...): the checks of
// their common arguments and the statistics of a frame done on the CPU workers alone.
// Thread-safety: each function may be called from any thread; record_cpu_frame takes the
// context's stats lock.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "v3d/v3d.h"

namespace v3d {

// The clock of the frame-level calls' timings and statistics.
using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// V3D_OK, or V3D_ERROR_INVALID_ARGUMENT naming the first NULL one of ctx, planes, strides.
int check_frame_pointers(const V3dContext *ctx, uint8_t *const planes[3],
                         const ptrdiff_t strides[3]);

// Whether width x height is a frame size the frame-level calls take (1..65536 each way).
inline bool frame_size_ok(int width, int height) {
  return width > 0 && height > 0 && width <= 65536 && height <= 65536;
}

// V3D_OK, or V3D_ERROR_INVALID_ARGUMENT naming a NULL ctx, or a NULL frames array of n_frames > 0
// (the batch entry points' first check).
int check_batch_pointers(const V3dContext *ctx, const void *frames, size_t n_frames);

// V3D_OK, or V3D_ERROR_INVALID_ARGUMENT naming the first plane that is NULL or whose stride is
// below its width (widths[p] samples).
int check_plane_strides(uint8_t *const planes[3], const ptrdiff_t strides[3],
                        const int widths[3]);

// What one frame-level call did, for the context's V3dStats (v3d_context_get_stats).
struct CallStats {
  uint64_t frames = 0, blocks_cpu = 0, blocks_gpu = 0;
  double cpu_seconds = 0, gpu_seconds = 0;
  double gpu_share = 0;  // of the last frame's work, 0..1
  uint64_t copies = 0, submissions = 0;
};
// A call's statistics: `frames` frames, each side's units of work (rounded to whole units) and
// seconds, plane copies and GPU submissions; gpu_share (of the last frame's work, 0..1): the
// GPU's units over all when < 0.
CallStats call_stats(uint64_t frames, double units_cpu, double units_gpu, double cpu_seconds,
                     double gpu_seconds, uint64_t copies, uint64_t submissions,
                     double gpu_share = -1);
// Adds c to ctx's statistics (under the stats lock).
void add_call_stats(V3dContext *ctx, const CallStats &c);

// 4:2:0 planes as the unit of a hybrid split (bit p = plane p: 1 luma, 2 Cb, 4 Cr). Luma is 4/6
// of a frame's samples, each chroma plane 1/6.
inline double plane_weight(unsigned mask) {
  return ((mask & 1 ? 4 : 0) + (mask & 2 ? 1 : 0) + (mask & 4 ? 1 : 0)) / 6.0;
}
// The planes nearest to a GPU share s (0..1): none below 1/6, chroma below 1/2, luma below 5/6,
// else all.
inline unsigned planes_for_share(double s) {
  if (s < 1.0 / 6) return 0;
  if (s < 0.5) return 6;
  if (s < 5.0 / 6) return 1;
  return 7;
}

// Adds one frame done wholly on the CPU workers to ctx's statistics and to those of its kernel
// family (V3D_KERNEL_*): `blocks` units of work, `seconds` of wall time; the GPU share of the
// last frame becomes 0.
void record_cpu_frame(V3dContext *ctx, int kernel, uint64_t blocks, double seconds);

}  // namespace v3d
