// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter on the GPU, the CPU's part: what filters each 8x8 cell of a superblock, as the
// cell words of shaders/common/vp9_lpf_layout.h (every decision of lpf_frame.cpp's passes made
// here: masks, widths, levels, libvpx's pairings, picture edges), built for a whole frame in
// parallel; and the count of 8-pixel edge segments filtered (benchmarks, statistics).
#pragma once

#include <cstdint>
#include <vector>

#include "threads/thread_pool.h"
#include "vp9/lpf/lpf_frame.h"
#include "vp9/lpf/lpf_vk.h"

namespace v3d {
namespace vp9 {

// Cell words of one superblock (kLpfCellWords = 80: 64 luma cells, then 16 chroma cells).
// edges (optional): adds the 8-pixel edge segments filtered in each plane (vertical and
// horizontal, block and internal edges), U and V counted separately.
void lpf_gpu_cells(const LpfFrame &f, int sb_row, int sb_col, uint32_t *cells, uint64_t edges[3]);

// Cell words of every superblock of the frame in raster order (resized to sb_rows * sb_cols *
// 80), built on the pool's threads (the caller's pool.run must be free). Returns the edge
// segments filtered per plane.
void lpf_gpu_frame_cells(const LpfFrame &f, ThreadPool &pool, std::vector<uint32_t> *cells,
                         uint64_t edges[3]);

// Superblock rows and columns of a frame.
inline int lpf_sb_rows(const LpfFrame &f) { return (f.grid.mi_rows + 7) / 8; }
inline int lpf_sb_cols(const LpfFrame &f) { return (f.grid.mi_cols + 7) / 8; }

}  // namespace vp9
}  // namespace v3d
