// SPDX-License-Identifier: LGPL-2.1-or-later
// Test inputs for the whole-picture H.264 deblocking (v3d_h264_deblock_frame): a 4:2:0 picture
// inside guard borders with content that makes the filters fire (smooth areas, steps at 4x4
// block boundaries, some noise and some large steps), and random macroblock grids (QP 0..51, bS
// 0..4 per segment in standard-typical and arbitrary patterns, transform_8x8, several slices with
// disable_deblocking_filter_idc 0/1/2, filter and chroma QP offsets).
#pragma once

#include <cstdint>
#include <vector>

#include "common/guarded_planes.h"
#include "common/test_util.h"
#include "v3d/v3d.h"

namespace v3dtest {
namespace h264 {

// One picture: planes of width x height (chroma (width+1)/2 x (height+1)/2) in buffers with a
// guard border of kGuard bytes on every side (padded strides), filled with a known pattern.
struct Picture : GuardedPlanes {
  static constexpr int kGuard = 16;
  Picture(int width, int height, int extra_stride = 0);
  void fill(Rng &rng);  // content that makes the filters fire
};

struct GridParams {
  int n_slices_max = 4;
  int intra_pct = 30;       // macroblocks with the intra pattern (bS 4 on MB edges, 3 inside)
  int inter_pct = 40;       // standard-typical inter patterns (bS 0..2); the rest: bS 0..4 anywhere
  int t8x8_pct = 30;        // transform_size_8x8_flag
  bool per_mb_slices = false;  // slice ids per macroblock at random (else raster runs)
};

// A picture's macroblock input: mb_rows rows of mb_stride entries (unused entries hold junk that
// must be ignored, invalid values included) and its slices.
struct Grid {
  int mb_rows, mb_cols, mb_stride;
  std::vector<V3dH264MbInfo> mbs;
  std::vector<V3dH264SliceInfo> slices;
  V3dH264MbInfo &at(int r, int c) { return mbs[r * mb_stride + c]; }
};
Grid make_grid(Rng &rng, int width, int height, const GridParams &p);

// Every macroblock with one QP, one slice (idc 0, the given offsets), transform_8x8 flag and the
// intra pattern (bS 4 on macroblock edges, 3 on internal ones) or, intra false, bS `inter_bs` on
// every edge.
Grid make_uniform_grid(int width, int height, int qp, int chroma_qp_offset, int offset_a,
                       int offset_b, bool intra, int inter_bs, bool transform_8x8);

// A P-picture as a stream has them: one slice with default offsets, QP 26..34, 1 macroblock in
// 10 intra, the others with bS 1 or 2 on their macroblock edges and the inter patterns of
// make_grid inside.
Grid make_inter_grid(Rng &rng, int width, int height);

}  // namespace h264
}  // namespace v3dtest
