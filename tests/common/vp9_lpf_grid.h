// SPDX-License-Identifier: LGPL-2.1-or-later
// Test inputs for the VP9 frame loop filter: random VP9 partitions of a frame into blocks (every
// block size 4x4 .. 64x64, the partitions the decoder allows at the picture's right and bottom
// edges), with random transform sizes, levels and skip flags, as the V3dVp9LfInfo grid of
// v3d_vp9_loop_filter_frame; and pixel content that makes the filters fire (smooth areas with
// small steps at 4- and 8-pixel boundaries, some larger steps and noise).
#pragma once

#include <cstdint>
#include <vector>

#include "common/guarded_planes.h"
#include "common/test_util.h"
#include "v3d/v3d.h"

namespace v3dtest {
namespace vp9 {

struct LfGridParams {
  int level_zero_pct = 10;  // blocks of level 0 (not filtered)
  int skip_pct = 30;        // blocks with skip_inter set
  int split_pct = 55;       // partition SPLIT at each level (else NONE/HORZ/VERT)
  int max_level = 63;
};

// A grid of (height+7)/8 rows of stride entries (stride >= (width+7)/8, else abort(); unused
// entries are filled with junk that must be ignored).
std::vector<V3dVp9LfInfo> make_lf_grid(Rng &rng, int width, int height, int stride,
                                       const LfGridParams &params);

// Every 8x8 block the same entry (e.g. {32, 3, 1, 0}: level 32, 8x8 blocks, 8x8 transforms, not
// skipped); (height+7)/8 rows of stride entries.
std::vector<V3dVp9LfInfo> make_uniform_lf_grid(int height, int stride, V3dVp9LfInfo entry);

// A random case: grid parameters drawn from rng (skip 0-60 %, level 0 in 0-25 %, split
// 20-85 %), a grid stride 0-3 entries wider than needed, a sharpness 0..7, and the grid.
struct LfCase {
  int grid_stride, sharpness;
  std::vector<V3dVp9LfInfo> grid;
};
LfCase make_lf_case(Rng &rng, int width, int height);

// One 4:2:0 frame rounded up to whole 8x8 luma blocks, inside guard borders of kGuard bytes.
struct LfFrame : GuardedPlanes {
  static constexpr int kGuard = 24;
  LfFrame(int width, int height);
  void fill_smooth(Rng &rng);  // content that makes the filters fire
};

}  // namespace vp9
}  // namespace v3dtest
