// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking of one picture (v3d_h264_deblock_frame, clause 8.7 of ITU-T H.264): the
// validation of the per-macroblock input, the per-edge derivation (clause 8.7.2.2: indexA/indexB,
// alpha, beta, tC0; filterLeftMbEdge/TopMbEdge; transform_size_8x8_flag), and the CPU process in
// the standard's order, sequential or as a wavefront over macroblock rows.
//
// Backends of v3d_h264_deblock_frame (deblock_backend.cpp): "scalar" runs the scalar references
// in sequence; "simd" and "auto" run the SIMD kernels (deblock_dsp()) as a wavefront on the
// context's CPU threads; "gpu" runs every plane on the GPU (deblock_gpu.h, shaders/
// h264_deblock.comp); "hybrid" runs chroma on the GPU while the CPU wavefront does luma. Luma and
// the two chroma planes are independent (every decision comes from the macroblock input, never
// from samples of another plane), so the process takes a plane mask and the split is exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "threads/thread_pool.h"
#include "h264/deblock/deblock.h"
#include "v3d/v3d.h"

namespace v3d {
namespace h264 {

// Checks the arguments of v3d_h264_deblock_frame other than the context, planes and strides:
// sizes, mb_stride, every slice (idc 0..2, FilterOffsetA/B even in -12..12, chroma offsets in
// -12..12) and every macroblock of the picture (qp <= 51, every bS <= 4, slice < n_slices).
// Returns V3D_OK or the error code, with the thread's message naming the first offending slice or
// macroblock.
int deblock_validate(int width, int height, const V3dH264MbInfo *mbs, int mb_stride,
                     const V3dH264SliceInfo *slices, int n_slices);

// One picture and its input, validated. Plane 0 is luma (width x height), 1 and 2 chroma
// ((width+1)/2 x (height+1)/2). The arrays are the caller's (not owned).
struct DeblockPicture {
  uint8_t *data[3];
  ptrdiff_t stride[3];
  int width[3], height[3];
  const V3dH264MbInfo *mbs;
  ptrdiff_t mb_stride;
  int mb_rows, mb_cols;
  const V3dH264SliceInfo *slices;
  // Copy-and-filter (v3d_h264_deblock_frame_from): when src[0] is set, the sequential and
  // wavefront orders copy each macroblock row's samples from src into data just before the row
  // is deblocked (row r is touched by nobody before it starts: row r-1 reaches only its own rows).
  const uint8_t *src[3] = {nullptr, nullptr, nullptr};
  ptrdiff_t src_stride[3] = {0, 0, 0};

  const V3dH264MbInfo &mb(int r, int c) const { return mbs[r * mb_stride + c]; }
  // The neighbours of macroblock (r, c) across its left (nb[0]) and top (nb[1]) edges, or
  // nullptr where that edge is not filtered: the picture's border, or
  // disable_deblocking_filter_idc 2 and a macroblock of another slice.
  void edge_neighbours(int r, int c, const V3dH264MbInfo *nb[2]) const {
    const V3dH264MbInfo &m = mb(r, c);
    const int idc = slices[m.slice].disable_deblocking_filter_idc;
    nb[0] = c > 0 && (idc == 0 || mb(r, c - 1).slice == m.slice) ? &mb(r, c - 1) : nullptr;
    nb[1] = r > 0 && (idc == 0 || mb(r - 1, c).slice == m.slice) ? &mb(r - 1, c) : nullptr;
  }
};
// Copies macroblock row r of the planes in `planes` (bit p = plane p) from pic.src to pic.data
// (nothing when pic.src[0] is null).
void deblock_copy_mb_row(const DeblockPicture &pic, int r, unsigned planes);
void deblock_picture_setup(uint8_t *const planes[3], const ptrdiff_t strides[3], int width,
                           int height, const V3dH264MbInfo *mbs, int mb_stride,
                           const V3dH264SliceInfo *slices, DeblockPicture *pic);

// Plane mask bits.
enum : unsigned { kPlaneY = 1, kPlaneCb = 2, kPlaneCr = 4, kPlanesAll = 7 };
// Pass mask bits: the vertical edges, the horizontal edges.
enum : unsigned { kPassV = 1, kPassH = 2, kPassesAll = 3 };

// Deblocks macroblock (r, c) of the planes in `planes`: per plane, the vertical edges left to
// right (if kPassV), then the horizontal edges top to bottom (if kPassH). Reads and writes, per
// plane, only samples of the picture in the rectangle from 4 (chroma 2) samples left of / above
// the macroblock to its right / bottom end, and of that only: rows of the macroblock for its
// vertical edges, columns of the macroblock for its horizontal edges.
void deblock_mb(const DeblockPicture &pic, const DeblockDsp &dsp, int r, int c, unsigned planes,
                unsigned passes = kPassesAll);

// Orders of the whole picture. kMacroblocks is the standard's (raster order, each macroblock
// complete). kPictureVerticalFirst (every vertical edge of the picture, then every horizontal
// edge) is NOT H.264: tests use it to show that the order is observable.
enum class DeblockOrder { kMacroblocks, kPictureVerticalFirst };
void deblock_sequential(const DeblockPicture &pic, const DeblockDsp &dsp,
                        unsigned planes = kPlanesAll,
                        DeblockOrder order = DeblockOrder::kMacroblocks);

// Macroblock rows per task of deblock_wavefront on `threads` threads (1 .. kMaxStripRows).
constexpr int kMaxStripRows = 4;
int deblock_strip_rows(int mb_rows, int threads);

// The same result as deblock_sequential(kMacroblocks), with strips of macroblock rows spread
// over the pool's threads as a wavefront (deblock_frame.cpp says why it is exact). strip_rows:
// rows per strip (1 .. kMaxStripRows), 0 = deblock_strip_rows(). Blocks.
void deblock_wavefront(const DeblockPicture &pic, const DeblockDsp &dsp, ThreadPool &pool,
                       unsigned planes = kPlanesAll, int strip_rows = 0);

// Several pictures (sharing no samples), each as deblock_wavefront would, in one loop of the pool
// (run_wavefronts): threads one picture's wavefront leaves waiting work on the next. One strip
// height for all (strip_rows, or 0: deblock_strip_rows of the shortest picture). deblock_wavefront
// is this with one picture. Blocks.
void deblock_wavefronts(const std::vector<const DeblockPicture *> &pics, const DeblockDsp &dsp,
                        ThreadPool &pool, unsigned planes = kPlanesAll, int strip_rows = 0);

}  // namespace h264
}  // namespace v3d
