// SPDX-License-Identifier: LGPL-2.1-or-later
// Constant tables of the VP9 tile decoding process (block sizes, mode trees' symbols, scans,
// contexts). Values are those of the VP9 bitstream specification; each table names its source.
#pragma once

#include <cstdint>

#include "vp9/dec/default_probs.h"
#include "vp9/dec/frame_header.h"
#include "vp9/dec/probs.h"

namespace v3d {
namespace vp9 {

// Block sizes in libvpx's BLOCK_SIZE order (spec section 7.4.2, "subsize").
enum BlockSize : uint8_t {
  kBlock4x4 = 0, kBlock4x8, kBlock8x4, kBlock8x8, kBlock8x16, kBlock16x8, kBlock16x16,
  kBlock16x32, kBlock32x16, kBlock32x32, kBlock32x64, kBlock64x32, kBlock64x64, kNumBlockSizes
};

// Interpolation filters are vp9/mc/mc.h's InterpFilter (0 regular, 1 smooth, 2 sharp,
// 3 bilinear), transform sizes vp9/itx/itx.h's TxSize; the partition types, prediction modes and
// reference frames are those of probs.h / frame_header.h.

// Width / height of each block size in 4x4 units, log2 (spec num_4x4_blocks_wide_lookup...).
constexpr uint8_t kBwl[kNumBlockSizes] = {0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4};
constexpr uint8_t kBhl[kNumBlockSizes] = {0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4};
// Width / height in 8x8 units (spec num_8x8_blocks_wide_lookup / high).
constexpr uint8_t kNum8x8W[kNumBlockSizes] = {1, 1, 1, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8};
constexpr uint8_t kNum8x8H[kNumBlockSizes] = {1, 1, 1, 1, 2, 1, 2, 4, 2, 4, 8, 4, 8};
// Largest transform of a block (spec max_txsize_lookup) and its y-mode size group
// (spec size_group_lookup).
constexpr uint8_t kMaxTxSize[kNumBlockSizes] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3};
constexpr uint8_t kSizeGroup[kNumBlockSizes] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3};

// Transform type of an intra mode (spec mode2txfm_map): 0 DCT_DCT, 1 ADST_DCT, 2 DCT_ADST,
// 3 ADST_ADST.
constexpr uint8_t kModeToTxType[10] = {0, 1, 2, 0, 3, 1, 2, 2, 1, 3};

// Largest transform of an inter frame's tx_mode (spec tx_mode_to_biggest_tx_size); mode 4 is
// TX_MODE_SELECT.
constexpr uint8_t kTxModeToBiggestTx[5] = {0, 1, 2, 3, 3};

// Coefficient band of each scan position (spec coefband_4x4, coefband_8x8plus: 0,1,1,2,2,2,
// 3,3,3,3,4 x11 then 5).
constexpr uint8_t kCoefBand4x4[16] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5};
inline int coef_band_8x8plus(int c) {
  return c < 1 ? 0 : c < 3 ? 1 : c < 6 ? 2 : c < 10 ? 3 : c < 21 ? 4 : 5;
}

// Extra-bit probabilities of the token categories (spec cat1_prob .. cat6_prob, 8-bit).
constexpr uint8_t kCat1Prob[1] = {159};
constexpr uint8_t kCat2Prob[2] = {165, 145};
constexpr uint8_t kCat3Prob[3] = {173, 148, 140};
constexpr uint8_t kCat4Prob[4] = {176, 155, 140, 135};
constexpr uint8_t kCat5Prob[5] = {180, 157, 141, 134, 130};
constexpr uint8_t kCat6Prob[14] = {254, 254, 254, 252, 249, 243, 230, 196, 177, 153, 140, 133, 130, 129};

// Candidate positions {row, col} in 8x8 units searched for motion vector prediction, per block
// size (spec mv_ref_blocks).
struct MvRefPos { int8_t row, col; };
constexpr MvRefPos kMvRefBlocks[kNumBlockSizes][8] = {
    {{-1, 0}, {0, -1}, {-1, -1}, {-2, 0}, {0, -2}, {-2, -1}, {-1, -2}, {-2, -2}},  // 4X4
    {{-1, 0}, {0, -1}, {-1, -1}, {-2, 0}, {0, -2}, {-2, -1}, {-1, -2}, {-2, -2}},  // 4X8
    {{-1, 0}, {0, -1}, {-1, -1}, {-2, 0}, {0, -2}, {-2, -1}, {-1, -2}, {-2, -2}},  // 8X4
    {{-1, 0}, {0, -1}, {-1, -1}, {-2, 0}, {0, -2}, {-2, -1}, {-1, -2}, {-2, -2}},  // 8X8
    {{0, -1}, {-1, 0}, {1, -1}, {-1, -1}, {0, -2}, {-2, 0}, {-2, -1}, {-1, -2}},   // 8X16
    {{-1, 0}, {0, -1}, {-1, 1}, {-1, -1}, {-2, 0}, {0, -2}, {-1, -2}, {-2, -1}},   // 16X8
    {{-1, 0}, {0, -1}, {-1, 1}, {1, -1}, {-1, -1}, {-3, 0}, {0, -3}, {-3, -3}},    // 16X16
    {{0, -1}, {-1, 0}, {2, -1}, {-1, -1}, {-1, 1}, {0, -3}, {-3, 0}, {-3, -3}},    // 16X32
    {{-1, 0}, {0, -1}, {-1, 2}, {-1, -1}, {1, -1}, {-3, 0}, {0, -3}, {-3, -3}},    // 32X16
    {{-1, 1}, {1, -1}, {-1, 2}, {2, -1}, {-1, -1}, {-3, 0}, {0, -3}, {-3, -3}},    // 32X32
    {{0, -1}, {-1, 0}, {4, -1}, {-1, 2}, {-1, -1}, {0, -3}, {-3, 0}, {2, -1}},     // 32X64
    {{-1, 0}, {0, -1}, {-1, 4}, {2, -1}, {-1, -1}, {-3, 0}, {0, -3}, {-1, 2}},     // 64X32
    {{-1, 3}, {3, -1}, {-1, 4}, {4, -1}, {-1, -1}, {-1, 0}, {0, -1}, {-1, 6}},     // 64X64
};

// Inter mode context from the two nearest candidates (spec mode_2_counter, counter_to_context).
constexpr uint8_t kMode2Counter[14] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 0, 3, 1};
constexpr uint8_t kCounterToContext[19] = {2, 3, 4, 1, 3, 9, 0, 9, 9, 5, 5, 9, 5, 9, 9, 9, 9, 9, 6};

// Sub-8x8 candidate sub-block of a neighbour for block b: [b][candidate is the left one ? 0 : 1]
// (spec idx_n_column_to_subblock).
constexpr uint8_t kIdxNColumnToSubblock[4][2] = {{1, 2}, {1, 3}, {3, 2}, {3, 3}};

// Scans (tile_scan_tables.cpp). Entry c: raster position of the c-th coefficient.
extern const int16_t kDefaultScan4x4[16], kColScan4x4[16], kRowScan4x4[16];
extern const int16_t kDefaultScan8x8[64], kColScan8x8[64], kRowScan8x8[64];
extern const int16_t kDefaultScan16x16[256], kColScan16x16[256], kRowScan16x16[256];
extern const int16_t kDefaultScan32x32[1024];


// Scan for a transform size and type (spec get_scan: ADST_DCT reads rows, DCT_ADST columns).
inline const int16_t *scan_for(int tx_size, int tx_type) {
  static const int16_t *const table[4][4] = {
      {kDefaultScan4x4, kRowScan4x4, kColScan4x4, kDefaultScan4x4},
      {kDefaultScan8x8, kRowScan8x8, kColScan8x8, kDefaultScan8x8},
      {kDefaultScan16x16, kRowScan16x16, kColScan16x16, kDefaultScan16x16},
      {kDefaultScan32x32, kDefaultScan32x32, kDefaultScan32x32, kDefaultScan32x32}};
  return table[tx_size][tx_type];
}

// Subsize of a square block split by a partition (spec subsize_lookup); kNumBlockSizes where
// invalid.
inline BlockSize subsize_of(BlockSize b, int partition) {
  static const uint8_t horz[kNumBlockSizes] = {13, 13, 13, kBlock8x4, 13, 13, kBlock16x8, 13, 13,
                                               kBlock32x16, 13, 13, kBlock64x32};
  static const uint8_t vert[kNumBlockSizes] = {13, 13, 13, kBlock4x8, 13, 13, kBlock8x16, 13, 13,
                                               kBlock16x32, 13, 13, kBlock32x64};
  static const uint8_t split[kNumBlockSizes] = {13, 13, 13, kBlock4x4, 13, 13, kBlock8x8, 13, 13,
                                                kBlock16x16, 13, 13, kBlock32x32};
  switch (partition) {
    case PARTITION_NONE: return b;
    case PARTITION_HORZ: return BlockSize(horz[b]);
    case PARTITION_VERT: return BlockSize(vert[b]);
    default: return BlockSize(split[b]);
  }
}

// Chroma (4:2:0) transform size of a block (spec get_uv_tx_size).
inline int uv_tx_size(BlockSize b, int tx_size) {
  if (b < kBlock8x8) return 0;
  int m = (kBwl[b] < kBhl[b] ? kBwl[b] : kBhl[b]) - 1;
  return tx_size < m ? tx_size : m;
}

}  // namespace vp9
}  // namespace v3d
