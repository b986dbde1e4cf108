// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/lpf/lpf_mask.h"

#include <cstring>

namespace v3d {
namespace vp9 {
namespace {

constexpr int kTx4 = 0, kTx8 = 1, kTx16 = 2, kTx32 = 3;

// Masks of one superblock while its blocks are added, by transform size (as libvpx keeps them
// before its adjustment): [TX_4X4 .. TX_32X32].
struct TxMasks {
  uint64_t left_y[4], above_y[4], int_y;
  uint16_t left_uv[4], above_uv[4], int_uv;
};

// Bits of the w x h rectangle of cells at (r, c) in a grid of n cells per row (n = 8 or 4).
uint64_t rect_bits(int r, int c, int w, int h, int n) {
  uint64_t row = (w >= 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1)) << c;
  uint64_t bits = 0;
  for (int i = 0; i < h; i++) bits |= row << ((r + i) * n);
  return bits;
}

// Cells of the rectangle whose column (for left edges) or row (for above edges) offset from the
// superblock's origin is a multiple of step: the transform edges of a transform step cells wide.
// The rectangle is a block, aligned to its size, which is at least the transform's: r and c are
// multiples of step.
uint64_t tx_edge_bits(int r, int c, int w, int h, int n, int step, bool columns) {
  uint64_t bits = 0;
  if (columns) {
    for (int j = 0; j < w; j += step) bits |= rect_bits(r, c + j, 1, h, n);
  } else {
    for (int i = 0; i < h; i += step) bits |= rect_bits(r + i, c, w, 1, n);
  }
  return bits;
}

// Transform size in cells of 8 pixels (4x4 and 8x8 transforms: an edge at every cell).
int tx_step(int tx) { return tx == kTx32 ? 4 : tx == kTx16 ? 2 : 1; }

// Adds one block whose top-left 8x8 luma block is cell (r, c) of the superblock (libvpx's
// decoder does this for every decoded block, vp9_build_mask).
void add_block(const V3dVp9LfInfo &b, int r, int c, TxMasks *m, LpfSbMask *out) {
  const int level = b.filter_level;
  if (!level) return;  // a block of level 0 filters none of its edges
  const int bs = b.block_size, tx = b.tx_size;
  const int w = kBlockWidthLog2[bs] > 3 ? 1 << (kBlockWidthLog2[bs] - 3) : 1;  // in 8x8 cells
  const int h = kBlockHeightLog2[bs] > 3 ? 1 << (kBlockHeightLog2[bs] - 3) : 1;
  for (int i = 0; i < h; i++) memset(&out->lvl_y[(r + i) * 8 + c], level, w);
  const bool skip = b.skip_inter != 0;
  // Chroma masks come only from blocks starting on a 16x16 luma boundary: a smaller block's
  // chroma is that of the first (top-left) block of its 16x16 area.
  const bool uv = !(r & 1) && !(c & 1);
  const int ur = r >> 1, uc = c >> 1;
  const int uw = w > 1 ? w >> 1 : 1, uh = h > 1 ? h >> 1 : 1;
  const int txuv = lpf_uv_tx_size(bs, tx);

  // The block's own left and top edges, in the class of its transform size.
  m->left_y[tx] |= rect_bits(r, c, 1, h, 8);
  m->above_y[tx] |= rect_bits(r, c, w, 1, 8);
  if (uv) {
    m->left_uv[txuv] |= static_cast<uint16_t>(rect_bits(ur, uc, 1, uh, 4));
    m->above_uv[txuv] |= static_cast<uint16_t>(rect_bits(ur, uc, uw, 1, 4));
  }
  // An inter block without residual has no transform edges inside it.
  if (skip) return;
  m->left_y[tx] |= tx_edge_bits(r, c, w, h, 8, tx_step(tx), true);
  m->above_y[tx] |= tx_edge_bits(r, c, w, h, 8, tx_step(tx), false);
  if (tx == kTx4) m->int_y |= rect_bits(r, c, w, h, 8);
  if (uv) {
    m->left_uv[txuv] |= static_cast<uint16_t>(tx_edge_bits(ur, uc, uw, uh, 4, tx_step(txuv), true));
    m->above_uv[txuv] |=
        static_cast<uint16_t>(tx_edge_bits(ur, uc, uw, uh, 4, tx_step(txuv), false));
    if (txuv == kTx4) m->int_uv |= static_cast<uint16_t>(rect_bits(ur, uc, uw, uh, 4));
  }
}

}  // namespace

void lpf_build_sb_mask(const LpfGrid &grid, int sb_row, int sb_col, LpfSbMask *out) {
  memset(out, 0, sizeof(*out));
  TxMasks m;
  memset(&m, 0, sizeof(m));
  const int mi_row = sb_row * 8, mi_col = sb_col * 8;
  const int rows = grid.mi_rows - mi_row < 8 ? grid.mi_rows - mi_row : 8;
  const int cols = grid.mi_cols - mi_col < 8 ? grid.mi_cols - mi_col : 8;
  // Every block whose top-left 8x8 lies in the picture (blocks are aligned to their size).
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      const V3dVp9LfInfo &b = grid.at(mi_row + r, mi_col + c);
      const int w =
          kBlockWidthLog2[b.block_size] > 3 ? 1 << (kBlockWidthLog2[b.block_size] - 3) : 1;
      const int h =
          kBlockHeightLog2[b.block_size] > 3 ? 1 << (kBlockHeightLog2[b.block_size] - 3) : 1;
      if ((r & (h - 1)) || (c & (w - 1))) continue;  // not the block's top-left 8x8
      add_block(b, r, c, &m, out);
    }
  }

  // Filter widths: 16 for 16x16 and 32x32 transform edges; the 4x4-transform edges on a 32-pixel
  // boundary (luma columns/rows 0 and 4 of the superblock, chroma column/row 0) take the 8-wide
  // filter.
  const uint64_t border_left_y = 0x1111111111111111ull, border_above_y = 0x000000ff000000ffull;
  const uint16_t border_left_uv = 0x1111, border_above_uv = 0x000f;
  out->left_y[kLpf16] = m.left_y[kTx16] | m.left_y[kTx32];
  out->above_y[kLpf16] = m.above_y[kTx16] | m.above_y[kTx32];
  out->left_y[kLpf8] = m.left_y[kTx8] | (m.left_y[kTx4] & border_left_y);
  out->above_y[kLpf8] = m.above_y[kTx8] | (m.above_y[kTx4] & border_above_y);
  out->left_y[kLpf4] = m.left_y[kTx4] & ~border_left_y;
  out->above_y[kLpf4] = m.above_y[kTx4] & ~border_above_y;
  out->int_y = m.int_y;
  out->left_uv[kLpf16] = m.left_uv[kTx16] | m.left_uv[kTx32];
  out->above_uv[kLpf16] = m.above_uv[kTx16] | m.above_uv[kTx32];
  out->left_uv[kLpf8] = m.left_uv[kTx8] | (m.left_uv[kTx4] & border_left_uv);
  out->above_uv[kLpf8] = m.above_uv[kTx8] | (m.above_uv[kTx4] & border_above_uv);
  out->left_uv[kLpf4] = m.left_uv[kTx4] & ~border_left_uv;
  out->above_uv[kLpf4] = m.above_uv[kTx4] & ~border_above_uv;
  out->int_uv = m.int_uv;

  // Bottom picture edge: nothing below the last 8x8 row (chroma: its last, possibly half, row).
  if (rows < 8) {
    const uint64_t keep_y = (uint64_t{1} << (rows * 8)) - 1;
    const int uv_rows = (rows + 1) >> 1;
    const uint16_t keep_uv = static_cast<uint16_t>((1u << (uv_rows * 4)) - 1);
    for (int k = 0; k < kNumLpfWidths; k++) {
      out->left_y[k] &= keep_y;
      out->above_y[k] &= keep_y;
      out->left_uv[k] &= keep_uv;
      out->above_uv[k] &= keep_uv;
    }
    out->int_y &= keep_y;
    out->int_uv &= keep_uv;
    // A chroma row only 4 pixels high (odd row count) gets no 16-wide top edge: it would read
    // past the plane. libvpx converts them to 8-wide (rows 1 and 5: chroma rows 0 and 2).
    const uint16_t half_row = rows == 1 ? 0xffff : rows == 5 ? 0xff00 : 0;
    out->above_uv[kLpf8] |= out->above_uv[kLpf16] & half_row;
    out->above_uv[kLpf16] &= ~half_row;
  }
  // Right picture edge, likewise; a half-width last chroma column also loses its internal 4x4
  // edge (it would lie on the plane's edge).
  if (cols < 8) {
    const uint64_t keep_y = ((uint64_t{1} << cols) - 1) * 0x0101010101010101ull;
    const uint16_t keep_uv = static_cast<uint16_t>(((1u << ((cols + 1) >> 1)) - 1) * 0x1111u);
    const uint16_t keep_uv_int = static_cast<uint16_t>(((1u << (cols >> 1)) - 1) * 0x1111u);
    for (int k = 0; k < kNumLpfWidths; k++) {
      out->left_y[k] &= keep_y;
      out->above_y[k] &= keep_y;
      out->left_uv[k] &= keep_uv;
      out->above_uv[k] &= keep_uv;
    }
    out->int_y &= keep_y;
    out->int_uv &= keep_uv_int;
    const uint16_t half_col = cols == 1 ? 0xffff : cols == 5 ? 0xcccc : 0;
    out->left_uv[kLpf8] |= out->left_uv[kLpf16] & half_col;
    out->left_uv[kLpf16] &= ~half_col;
  }
  // Nothing at the picture's left edge (the top edge is left out when filtering).
  if (mi_col == 0) {
    for (int k = 0; k < kNumLpfWidths; k++) {
      out->left_y[k] &= ~0x0101010101010101ull;
      out->left_uv[k] &= static_cast<uint16_t>(~0x1111u);
    }
  }
  // Chroma levels: the level of the luma 8x8 block at each chroma block's top-left.
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) out->lvl_uv[r * 4 + c] = out->lvl_y[r * 16 + c * 2];
}

}  // namespace vp9
}  // namespace v3d
