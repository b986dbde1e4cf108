// SPDX-License-Identifier: LGPL-2.1-or-later
// The one generator of VP9 transform block lists (V3dVp9TxBlock + coefficients) tiling a 4:2:0
// frame, as v3d_vp9_itxfm_add_frame takes them: for the tests, the fuzz corpus, v3d-bench and the
// element v3dvp9residualsrc. Blocks are aligned to their size inside each plane (luma rounded up
// to whole 8x8 blocks, chroma half of that), never overlap, and may reach past the plane's edge
// (the library clips them). Deterministic from the Rng's seed. Header and source use no
// GStreamer and no test harness: the plugin links them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/rng.h"
#include "v3d/v3d.h"

namespace v3dtest {
namespace vp9 {

struct Blocks {
  std::vector<V3dVp9TxBlock> blocks;
  std::vector<int16_t> coeffs;
};

// How each plane is cut into transform blocks.
enum class Layout {
  kCells,     // 32x32 cells, each tiled with blocks of one size (tx_size, else drawn per cell)
  kQuadtree,  // superblocks (64x64 luma, 32x32 chroma) split recursively: 64x64 always, a
              // smaller block with probability split (tx_size < 0), else down to tx_size
};

struct BlockSpec {
  Layout layout = Layout::kCells;
  int tx_size = -1;       // one size (0..3: 4x4..32x32) everywhere, or -1: drawn
  int max_tx = 3;         // kCells, tx_size -1: a cell's size uniform in 0..max_tx
  double split = 2.0 / 3;  // kQuadtree, tx_size -1: chance that a block above 4x4 is split
  int tx_type = -1;       // one type (0..4) everywhere, or -1: DCT/ADST pairs (0..3) uniform,
                          // DCT_DCT for 32x32
  int wht_one_in = 0;     // tx_type -1: a 4x4 block is WHT_WHT with chance 1/wht_one_in (0: never)
  bool type_per_cell = false;  // kCells, tx_type -1: one drawn type per cell, no WHT_WHT
  double coded = 1.0;     // chance that a block position is in the list (< 1: some left out)
  bool shuffle = false;   // the list in random order (any order is valid)
};

// Fills a block's n*n coefficients (zeroed beforehand) and returns its eob (0..n*n).
using CoeffFn = std::function<uint32_t(Rng &rng, const V3dVp9TxBlock &b, int16_t *coeffs)>;

// The block list of a width x height frame. Per block, in order: the coded draw, the type draw,
// then fill. Per cell (kCells): the size draw, then (type_per_cell) the type draw.
Blocks make_blocks(Rng &rng, int width, int height, const BlockSpec &spec, const CoeffFn &fill);

// The tests' blocks: kCells up to max_tx, types per block (WHT_WHT for 1 in 8 4x4 blocks), 9 in
// 10 positions coded, shuffled; coefficients from small_coeffs(raw).
Blocks make_blocks(Rng &rng, int width, int height, int max_tx, bool raw);

// Small low-frequency coefficients, or a DC alone, or (raw) arbitrary int16 values for 1 block in
// 10 (the library defines the result of any input, identically on every backend); eob 0 for 1
// block in 16, n*n or a random position otherwise.
uint32_t small_coeffs(Rng &rng, const V3dVp9TxBlock &b, int16_t *coeffs, bool raw);

// A few low-frequency coefficients: the DC up to max_dc in magnitude (never 0), coefficient
// (i, j) up to max_dc / (1 + i + j) inside the top-left 4x4 (8x8 for 32x32), each present with a
// chance falling with frequency. A third of the blocks are DC-only (eob 1: the DC is the first
// position of every VP9 scan); the others have eob n*n.
uint32_t sparse_coeffs(Rng &rng, const V3dVp9TxBlock &b, int16_t *coeffs, int max_dc);

}  // namespace vp9
}  // namespace v3dtest
