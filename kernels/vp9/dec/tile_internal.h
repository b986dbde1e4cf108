// SPDX-License-Identifier: LGPL-2.1-or-later
// State shared by the tile decoder's files (tile_*.cpp): the per-block mode info, the frame and
// tile contexts, and the functions each file provides. Internal to kernels/vp9/dec.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "vp9/dec/bool_decoder.h"
#include "vp9/dec/frame_header.h"
#include "vp9/dec/probs.h"
#include "vp9/dec/tile_decoder.h"
#include "vp9/dec/tile_tables.h"
#include "vp9/ipred/ipred.h"

namespace v3d {
namespace vp9 {

// A motion vector in 1/8 luma pel.
struct Mv {
  int16_t row = 0, col = 0;
};
inline bool operator==(Mv a, Mv b) { return a.row == b.row && a.col == b.col; }
inline bool operator!=(Mv a, Mv b) { return !(a == b); }

// Mode info of one block (libvpx MODE_INFO); every 8x8 cell a block covers points to it.
struct ModeInfo {
  BlockSize sb_type = kBlock8x8;
  uint8_t mode = DC_PRED;     // y mode; for sub-8x8 blocks the last sub-block's mode
  uint8_t uv_mode = DC_PRED;
  uint8_t tx_size = 0;
  uint8_t skip = 0;           // cleared-to-set by reconstruction for >= 8x8 inter blocks w/o coefs
  uint8_t segment_id = 0;
  uint8_t seg_id_predicted = 0;
  uint8_t interp_filter = 3;  // kSwitchableFilters (3) for intra blocks: the filter context's "none"
  int8_t ref_frame[2] = {INTRA_FRAME, -1};
  uint8_t bmode[4] = {};      // sub-8x8 intra modes / inter modes, raster order of 4x4 sub-blocks
  Mv mv[2];                   // the block's vectors (sub-8x8: those of sub-block 3)
  Mv bmv[4][2];               // sub-8x8 vectors [sub-block][ref]

  bool is_inter() const { return ref_frame[0] > INTRA_FRAME; }
  bool has_second_ref() const { return ref_frame[1] > INTRA_FRAME; }
};

// Scale factors of one reference (libvpx struct scale_factors, spec 8.5.2.3).
struct RefScale {
  int x_scale_fp = 0, y_scale_fp = 0;  // (ref size << 14) / cur size
  int x_step_q4 = 16, y_step_q4 = 16;
  bool scaled = false, valid = false;
};

// The block being decoded.
struct BlockCtx {
  ModeInfo *mi = nullptr;
  const ModeInfo *above = nullptr;  // nullptr when unavailable (first row)
  const ModeInfo *left = nullptr;   // nullptr at the tile's left edge
  int mi_row = 0, mi_col = 0;
  BlockSize bsize = kBlock8x8;
  int bwl = 1, bhl = 1;      // luma size in 4x4 units, log2 (sub-8x8 blocks count as 8x8)
  int x_mis = 1, y_mis = 1;  // 8x8 cells inside the frame
  // Distances to the frame edges in 1/8 luma pel (libvpx mb_to_*_edge).
  int to_left = 0, to_right = 0, to_top = 0, to_bottom = 0;
};

// One intra block of an inter frame whose reconstruction waits for the frame's transform pass
// (tile_defer.cpp): its context, and where its transform blocks' records start in
// TileDefer::intra_tx (one record per transform block it has, in reconstruction order: plane,
// then rows, then columns; none when the block is skipped).
struct DeferredIntra {
  BlockCtx b;
  uint32_t first_tx = 0;
};
struct DeferredIntraTx {
  uint32_t eob = 0;
  uint32_t coeff_offset = 0;  // in TileDefer::intra_coeffs (when eob > 0)
};

// One worker's part of an inter frame's frame-level residual path (tile_defer.cpp): the inter
// blocks' transform blocks for v3d_vp9_itx_frame, and what the intra blocks need to be
// reconstructed after it. Cleared per frame; the arrays keep their capacity across frames.
struct TileDefer {
  bool on = false;                      // this frame's residuals take the frame path
  std::vector<V3dVp9TxBlock> blocks;    // inter transform blocks with eob > 0, decode order
  std::vector<int16_t> coeffs;          // their dequantised coefficients (n*n each, raster)
  std::vector<DeferredIntra> intra;     // intra blocks, decode order
  std::vector<DeferredIntraTx> intra_tx;
  std::vector<int16_t> intra_coeffs;

  void clear() {
    blocks.clear();
    coeffs.clear();
    intra.clear();
    intra_tx.clear();
    intra_coeffs.clear();
  }
};

// One tile column's decoder. Tiles of one tile row are independent: each worker has its own
// bool decoder, left contexts, scratch, counts and counters, and writes only its tile's columns
// of the shared frame arrays (grid, above contexts, loop-filter grid, motion, segment map,
// pixels), so the tile columns of a tile row may run on different threads.
struct TileWorker {
  // Frame (copied from the decoder before each frame; the pointers are the decoder's arrays)
  const FrameHeader *hdr = nullptr;
  const FrameContext *fc = nullptr;
  Counts *counts = nullptr;            // own_counts, or nullptr when the frame is not adapted
  TileFrameInput in;
  int mi_rows = 0, mi_cols = 0;
  int aligned_w = 0, aligned_h = 0;    // luma decode area (8-aligned)
  ModeInfo *mi_pool = nullptr;         // one slot per 8x8 cell, handed out in decoding order
  ModeInfo **grid = nullptr;           // mi_rows x mi_cols
  uint8_t *above_nz[3] = {};           // non-zero flags per 4x4 column, per plane
  uint8_t *above_part = nullptr;       // partition context per 8x8 column
  V3dVp9LfInfo *lf_grid = nullptr;
  // The DSP tables in force, fetched once per frame (their slots are called per block).
  const ItxDsp *itx = nullptr;
  // Per transform slot [tx_size][itx type], set with itx: true where the block's coefficients
  // are written column-major and added by itx->add_exact_eob_cm (the slot's cm_native, unless
  // coef_layout.h's hook says otherwise), false where raster and add_exact_eob. The frame
  // path's inter blocks are raster whatever this says (v3d_vp9_itx_frame's contract).
  bool coef_cm[kNumTxSizes][kNumTxTypes] = {};
  const IpredDsp *ipred = nullptr;
  const McDsp *mc = nullptr;
  RefScale scale[3];
  // Dequantisation factors [segment][0 luma, 1 chroma][0 dc, 1 ac] (spec 8.6.1).
  int16_t dequant[8][2][2] = {};
  // Loop filter levels [segment][ref frame][0: intra or ZEROMV, 1: other inter modes] (8.8.1).
  uint8_t lf_level[8][4][2] = {};
  bool lossless = false;

  // Tile
  BoolDecoder r;
  int tile_col_start = 0, tile_col_end = 0;  // in 8x8 units
  ModeInfo *mi_next = nullptr;               // the next block's slot in mi_pool
  uint8_t left_nz[3][16] = {};
  uint8_t left_part[8] = {};
  std::string block_error;  // set by a block that cannot be decoded; checked per superblock row
  TileStats stats;
  Counts own_counts;

  TileDefer defer;

  // Scratch
  alignas(32) int16_t coeffs[32 * 32] = {};
  // Where read_coefs writes (zeroed n*n int16): coeffs, or a block's place in a TileDefer array.
  int16_t *coef_out = coeffs;
  alignas(32) uint8_t emu_buf[(64 * 2 + 16) * (64 * 2 + 16)];
  alignas(32) uint8_t pred_tmp[64 * 64];

  // Starts tile (tile_row, tile_col): its column bounds and its bool decoder over data. Returns
  // false with *err naming the tile when the data cannot start a tile.
  bool begin_tile(int tile_row, int tile_col, const uint8_t *data, size_t size, std::string *err);
  // Decodes the superblock row at mi_row of the tile begun last (rows in order). Returns false
  // with *err naming the tile and the problem.
  bool decode_sb_row(int tile_row, int tile_col, int mi_row, std::string *err);
  void decode_partition(int mi_row, int mi_col, BlockSize bsize);
  void decode_block(int mi_row, int mi_col, BlockSize bsize, int bwl, int bhl);
};

struct TileDecoder::Impl {
  TileStats stats;
  std::vector<ModeInfo> mi_pool;
  std::vector<ModeInfo *> grid;
  std::vector<uint8_t> above_nz[3];
  std::vector<uint8_t> above_part;
  std::vector<V3dVp9LfInfo> lf_grid;
  std::vector<std::unique_ptr<TileWorker>> workers;  // one per tile column
  size_t last_worker = ~size_t{0};  // the worker that decoded the frame's last tile
  // The frame path's list of several tile columns, gathered (tile_defer.cpp); kept between
  // frames.
  std::vector<V3dVp9TxBlock> defer_blocks;
  std::vector<int16_t> defer_coeffs;
  std::vector<size_t> defer_first_block, defer_first_coeff;
};

using Tile = TileWorker;

// One tile's compressed data.
struct TileData {
  const uint8_t *data;
  size_t size;
};

// tile_sched.cpp: decodes every tile of the frame (tiles[tile_row * tile_cols + tile_col]) on
// the workers d.workers[0 .. tile_cols-1], set up for the frame, and with in_loop_filter also
// loop filters the frame (in.cur, d.lf_grid) on the CPU's SIMD kernels behind the decoding.
// Runs on pool's threads when pool is not null. Returns false with *error naming the first
// failing tile (lowest tile row, then lowest tile column), as decoding the tile rows in order,
// the tile columns of each in order, would.
bool decode_tiles(TileDecoder::Impl &d, const TileFrameInput &in,
                  const std::vector<TileData> &tiles, ThreadPool *pool, bool in_loop_filter,
                  std::string *error);

// tile_modes.cpp: mode info of one block (spec 6.4.5 intra_frame_mode_info / inter_frame_...).
void read_mode_info(Tile &t, BlockCtx &b);
// tile_mvs.cpp: reference frames already read; reads the inter modes and vectors.
void read_inter_block_mode_info(Tile &t, BlockCtx &b);
// tile_coefs.cpp: tokens of one transform block at (x4, y4) (4x4 units inside the block's
// plane); writes the dequantised coefficients into t.coef_out (zeroed n*n values; t.coeffs,
// zeroed again by the caller's transform, unless a TileDefer array is being filled), at raster
// positions, or at their transposes (column-major) when col_major; returns eob. Only the
// positions coef_out_scan(tx_size, tx_type, col_major) gives for scan indices below eob are
// written.
int read_coefs(Tile &t, const BlockCtx &b, int plane, int x4, int y4, int tx_size, int tx_type,
               int max_x4, int max_y4, bool col_major);
// Where read_coefs stores the c-th coefficient of a block of tx_size and tx_type (WHT_WHT as
// DCT_DCT) in that layout: the scan, or the transposed scan.
const int16_t *coef_out_scan(int tx_size, int tx_type, bool col_major);
// tile_recon.cpp
void reconstruct_intra(Tile &t, const BlockCtx &b);
int reconstruct_inter_residual(Tile &t, const BlockCtx &b);  // returns the eob total
// Frame path (t.defer.on): an intra block's tokens into t.defer (no prediction yet), and its
// reconstruction from them once the frame's inter residuals are in the frame.
void record_intra(Tile &t, const BlockCtx &b);
void replay_intra(Tile &t, const DeferredIntra &d);
// tile_defer.cpp: one transform block's tokens into a TileDefer coefficient array (zeroed space
// appended for it, taken back when eob is 0); returns eob, *offset where they lie.
int read_coefs_into(Tile &t, std::vector<int16_t> &dst, const BlockCtx &b, int plane, int x4,
                    int y4, int tx_size, int tx_type, int max_x4, int max_y4, bool col_major,
                    uint32_t *offset);
// tile_defer.cpp: whether an inter frame's residuals take the frame path (residuals:
// V3D_VP9_RESIDUALS_*; never for intra frames), and passes 2 and 3 of that path once every tile
// is decoded (workers[0, tile_cols) filled their TileDefer): false with *error when the
// transform call fails.
bool frame_path_wanted(V3dContext *ctx, int residuals, const FrameHeader &h);
bool run_frame_path(TileDecoder::Impl &d, const TileFrameInput &in, int tile_cols,
                    std::string *error);
// tile_inter.cpp
void predict_inter(Tile &t, const BlockCtx &b);
void setup_scale(RefScale *s, int ref_w, int ref_h, int cur_w, int cur_h);

}  // namespace vp9
}  // namespace v3d
