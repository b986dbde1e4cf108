// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter: which edges of one 64x64 superblock are filtered, with which filter width and
// level, as libvpx's decoder decides (vp9_loopfilter.c: the per-block masks it builds while
// decoding, then its per-superblock adjustment at the picture's edges). 4:2:0 only.
//
// Bit layout (as libvpx's): luma bit r*8+c is the 8x8 luma block at row r, column c of the
// superblock; chroma bit r*4+c the 8x8 chroma block (16x16 luma). A bit in left_* means the
// block's left edge (a vertical edge) is filtered, in above_* its top edge; int_* marks blocks
// whose internal 4x4 edge (4 pixels right of / below the block's edge) is filtered with the
// 4-wide filter. Each edge is filtered with the level of the block right of / below it.
#pragma once

#include <cstdint>

#include "v3d/v3d.h"
#include "vp9/lpf/lpf.h"

namespace v3d {
namespace vp9 {

// The grid of the public API, with the frame's size in 8x8 luma blocks (libvpx's mi units).
struct LpfGrid {
  const V3dVp9LfInfo *info;
  int stride;   // entries per grid row
  int mi_rows;  // (height + 7) / 8
  int mi_cols;  // (width + 7) / 8
  const V3dVp9LfInfo &at(int row, int col) const {
    return info[static_cast<ptrdiff_t>(row) * stride + col];
  }
};

struct LpfSbMask {
  uint64_t left_y[kNumLpfWidths];  // [kLpf4, kLpf8, kLpf16]
  uint64_t above_y[kNumLpfWidths];
  uint64_t int_y;
  uint16_t left_uv[kNumLpfWidths];
  uint16_t above_uv[kNumLpfWidths];
  uint16_t int_uv;
  uint8_t lvl_y[64];   // filter level of each luma 8x8 block (0 where no block filters)
  uint8_t lvl_uv[16];  // level of each chroma 8x8 block: that of its top-left luma 8x8 block
};

// Builds the masks of superblock (sb_row, sb_col) of a grid accepted by lpf_validate_header and
// lpf_validate_rows (vp9/lpf_frame.h).
void lpf_build_sb_mask(const LpfGrid &grid, int sb_row, int sb_col, LpfSbMask *mask);

// Block size tables of the VP9 specification (BLOCK_4X4 .. BLOCK_64X64): log2 of the width and
// height in pixels.
constexpr int kBlockWidthLog2[13] = {2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6};
constexpr int kBlockHeightLog2[13] = {2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6, 5, 6};

// Largest transform size allowed in a block (the specification's max_txsize_lookup: the largest
// square transform that fits, at most 32x32).
inline int lpf_max_tx_size(int block_size) {
  int m = kBlockWidthLog2[block_size] < kBlockHeightLog2[block_size] ? kBlockWidthLog2[block_size]
                                                                     : kBlockHeightLog2[block_size];
  return m - 2 > 3 ? 3 : m - 2;
}

// Transform size of a block's 4:2:0 chroma (the specification's get_uv_tx_size): the luma one,
// limited to the largest square that fits in the chroma block (4x4 at least).
inline int lpf_uv_tx_size(int block_size, int tx_size) {
  int m = kBlockWidthLog2[block_size] < kBlockHeightLog2[block_size] ? kBlockWidthLog2[block_size]
                                                                     : kBlockHeightLog2[block_size];
  int uv_max = m - 3 < 0 ? 0 : m - 3;
  return tx_size < uv_max ? tx_size : uv_max;
}

}  // namespace vp9
}  // namespace v3d
