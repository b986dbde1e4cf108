// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter over one frame (v3d_vp9_loop_filter_frame): validation of the block grid, and
// the CPU process in libvpx's decoder order, sequential or as a wavefront over superblock rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "vp9/lpf/lpf.h"
#include "vp9/lpf/lpf_mask.h"

namespace v3d {
namespace vp9 {

// Checks the arguments of v3d_vp9_loop_filter_frame other than the context and planes, in two
// parts, so that a frame's grid rows can be checked on several threads. The header: sizes,
// sharpness, the grid pointer and grid_stride. The rows (for a frame whose header was accepted):
// every grid entry of mi rows [row_begin, row_end) in raster order (filter_level, block_size,
// tx_size), and that the grid is a VP9 partition there (each entry equal to the top-left entry of
// its block; a rectangular block's other half, where inside the picture, of the same size). Each
// returns V3D_OK or the error, with the thread's message naming the first offending block.
int lpf_validate_header(int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                        int sharpness);
int lpf_validate_rows(int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                      int row_begin, int row_end);

// Edge thresholds of each level for one sharpness (libvpx's lfi_n.lfthr, from the VP9
// specification's filter level and sharpness rules): E (mblim), I (lim), H (hev_thr).
struct LpfThresholds {
  uint8_t E[64], I[64], H[64];
};
void lpf_thresholds(int sharpness, LpfThresholds *t);

// v3d_vp9_loop_filter_frame for a grid its caller built itself (lpf_api.cpp): the same checks
// and result, except that the grid's entries are not checked (lpf_validate_rows, a pass over
// every entry before any filtering). Precondition: every entry would pass that check (filter
// level, block and transform sizes in range, each block's entries equal and aligned), as the
// VP9 decoder's grid does by construction (debug builds assert it). An entry outside it may
// read outside the tables.
int lpf_filter_frame_own_grid(V3dContext *ctx, uint8_t *const planes[3],
                              const ptrdiff_t strides[3], int width, int height,
                              const V3dVp9LfInfo *grid, int grid_stride, int sharpness);

// One frame's planes (4:2:0, rounded up to whole 8x8 luma blocks) and what filters it.
struct LpfFrame {
  uint8_t *data[3];
  ptrdiff_t stride[3];
  int width[3], height[3];  // plane sizes in pixels (rounded up as above)
  LpfGrid grid;
  LpfThresholds thr;
  int sharpness;
  int plane_mask = 7;  // planes the CPU processes filter (bit p = plane p); the planes are
                       // independent, so a hybrid split gives the others to the GPU
  // Copy-and-filter (v3d_vp9_loop_filter_frame_from): when src[0] is set, the CPU orders copy
  // each superblock row's pixels (the planes of plane_mask) from src into data just before the
  // row is filtered, while they are in cache. Nothing filters a row before it is copied: a
  // superblock row only reads and writes its own rows and the 8 rows above them.
  const uint8_t *src[3] = {nullptr, nullptr, nullptr};
  ptrdiff_t src_stride[3] = {0, 0, 0};
};
// Copies superblock row sb_row of the planes of f.plane_mask from f.src to f.data (nothing when
// f.src[0] is null).
void lpf_copy_sb_row(const LpfFrame &f, int sb_row);
void lpf_frame_setup(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                     const V3dVp9LfInfo *grid, int grid_stride, int sharpness, LpfFrame *f);

// Filters superblock (sb_row, sb_col): for each plane, its vertical edges, then its horizontal
// edges, exactly as libvpx's decoder (vp9_loop_filter_rows with the 4:2:0 path). Reads and
// writes only pixels of the frame's planes within 8 pixels left of / above the superblock
// (filter taps) and inside it.
void lpf_filter_sb(const LpfFrame &f, const LpfDsp &dsp, int sb_row, int sb_col);

// Orders of the whole frame. kSuperblocks is libvpx's (superblocks in raster order, each
// vertical then horizontal). kFrameVerticalFirst (every vertical edge of the frame, then every
// horizontal edge) is NOT VP9: tests use it to show that the order is observable.
enum class LpfOrder { kSuperblocks, kFrameVerticalFirst };
void lpf_frame_sequential(const LpfFrame &f, const LpfDsp &dsp,
                          LpfOrder order = LpfOrder::kSuperblocks);

// The same result as lpf_frame_sequential(kSuperblocks), with superblock rows spread over the
// pool's threads as a wavefront (see lpf_frame.cpp for why this order is equivalent). Blocks.
void lpf_frame_wavefront(const LpfFrame &f, const LpfDsp &dsp, ThreadPool &pool);

// Several frames (their planes disjoint), each as lpf_frame_wavefront would, in one loop of the
// pool (run_wavefronts): threads a frame's wavefront cannot keep busy (10 of 16 at 1080p) start
// the next frame's rows. Blocks until all are done.
void lpf_frames_wavefront(const std::vector<const LpfFrame *> &frames, const LpfDsp &dsp,
                          ThreadPool &pool);

}  // namespace vp9
}  // namespace v3d
