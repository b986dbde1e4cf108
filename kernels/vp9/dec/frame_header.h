// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 frame header: every syntax element of the uncompressed header (spec 6.2 / 7.2) and of the
// compressed header's frame-level choices (spec 6.3), plus the values derived from them.
//
// Enumerations use libvpx's numbering, which is what the probability and count tables are
// indexed by (e.g. interp_filter kFilterRegular = 0, kFilterSmooth = 1; the spec's
// literal_to_type mapping is applied by the parser). Transform sizes and interpolation filters
// are the DSP families' enumerations (vp9/itx/itx.h TxSize, vp9/mc/mc.h InterpFilter), so that
// a decoded value indexes the family's table directly. Filled by parse_uncompressed_header()
// and parse_compressed_header(); read-only for the tile decoder.
#pragma once

#include <cstdint>

#include "vp9/itx/itx.h"
#include "vp9/mc/mc.h"

namespace v3d::vp9 {

enum FrameType : uint8_t { KEY_FRAME = 0, NON_KEY_FRAME = 1 };

enum TxMode : uint8_t {
  ONLY_4X4 = 0,
  ALLOW_8X8 = 1,
  ALLOW_16X16 = 2,
  ALLOW_32X32 = 3,
  TX_MODE_SELECT = 4,
};

enum ReferenceMode : uint8_t {
  SINGLE_REFERENCE = 0,
  COMPOUND_REFERENCE = 1,
  REFERENCE_MODE_SELECT = 2,
};

enum RefFrame : uint8_t { INTRA_FRAME = 0, LAST_FRAME = 1, GOLDEN_FRAME = 2, ALTREF_FRAME = 3 };

enum ColorSpace : uint8_t {
  CS_UNKNOWN = 0,
  CS_BT_601 = 1,
  CS_BT_709 = 2,
  CS_SMPTE_170 = 3,
  CS_SMPTE_240 = 4,
  CS_BT_2020 = 5,
  CS_RESERVED = 6,
  CS_RGB = 7,
};

// Segment feature indices (spec SEG_LVL_*).
enum SegLevel : uint8_t {
  SEG_LVL_ALT_Q = 0,
  SEG_LVL_ALT_L = 1,
  SEG_LVL_REF_FRAME = 2,
  SEG_LVL_SKIP = 3
};

constexpr int kMaxSegments = 8;
constexpr int kSegLvlMax = 4;
constexpr int kNumRefFrames = 8;  // reference slots
constexpr int kRefsPerFrame = 3;  // LAST, GOLDEN, ALTREF
constexpr int kMaxLoopFilter = 63;
constexpr int kMinTileWidthB64 = 4;  // minimum tile width in 64-pixel superblocks
constexpr int kMaxTileWidthB64 = 64;

// Loop filter parameters (spec loop_filter_params()). ref_deltas and mode_deltas persist from
// frame to frame (the decoder keeps them and setup_past_independence resets them).
struct LoopFilterParams {
  uint8_t filter_level = 0;
  uint8_t sharpness_level = 0;
  bool delta_enabled = false;
  bool delta_update = false;
  int8_t ref_deltas[4] = {1, 0, -1, -1};  // indexed by RefFrame
  int8_t mode_deltas[2] = {0, 0};         // 0: ZEROMV, 1: other inter modes
};

// Quantisation parameters (spec quantization_params()).
struct QuantParams {
  uint8_t base_q_idx = 0;
  int8_t delta_q_y_dc = 0;
  int8_t delta_q_uv_dc = 0;
  int8_t delta_q_uv_ac = 0;
  // Derived: base_q_idx == 0 and all deltas 0. Lossless frames use the WHT and ONLY_4X4.
  bool lossless = false;
};

// Segmentation parameters (spec segmentation_params()). Everything except update_map,
// update_data and temporal_update persists from frame to frame.
struct SegmentationParams {
  bool enabled = false;
  bool update_map = false;
  bool temporal_update = false;
  bool update_data = false;
  bool abs_or_delta_update = false;  // 1: feature_data are absolute values, 0: deltas
  uint8_t tree_probs[7] = {255, 255, 255, 255, 255, 255, 255};
  uint8_t pred_probs[3] = {255, 255, 255};
  bool feature_enabled[kMaxSegments][kSegLvlMax] = {};
  int16_t feature_data[kMaxSegments][kSegLvlMax] = {};

  bool feature_active(int segment_id, int feature) const {
    return enabled && feature_enabled[segment_id][feature];
  }
};

struct FrameHeader {
  // --- uncompressed header (spec 6.2) ---
  uint8_t profile = 0;
  bool show_existing_frame = false;
  uint8_t frame_to_show_map_idx = 0;
  FrameType frame_type = KEY_FRAME;
  bool show_frame = false;
  bool error_resilient_mode = false;
  bool intra_only = false;
  uint8_t reset_frame_context = 0;
  // color_config()
  uint8_t bit_depth = 8;
  ColorSpace color_space = CS_UNKNOWN;
  bool color_range = false;  // 0: studio swing, 1: full swing
  bool subsampling_x = true;
  bool subsampling_y = true;
  uint8_t refresh_frame_flags = 0;            // bit i: slot i receives this frame
  uint8_t ref_frame_idx[kRefsPerFrame] = {};  // slots of LAST, GOLDEN, ALTREF
  // Indexed by RefFrame (entry 0, INTRA_FRAME, is always 0).
  bool ref_frame_sign_bias[4] = {};
  bool allow_high_precision_mv = false;
  // read_interp_filter(): each inter block codes its own filter, or all use interp_filter
  // (after literal_to_type; kFilterRegular when switchable).
  bool is_filter_switchable = false;
  InterpFilter interp_filter = kFilterRegular;
  // frame_size() / frame_size_with_refs()
  uint32_t frame_width = 0;  // 1..65536
  uint32_t frame_height = 0;
  bool found_ref = false;  // frame_size_with_refs(): size copied from ref_frame_idx[found_ref_idx]
  uint8_t found_ref_idx = 0;
  // render_size(): display size only, does not affect decoding.
  bool render_and_frame_size_different = false;
  uint32_t render_width = 0;
  uint32_t render_height = 0;
  bool refresh_frame_context = false;
  bool frame_parallel_decoding_mode = false;
  uint8_t frame_context_idx = 0;
  LoopFilterParams lf;
  QuantParams quant;
  SegmentationParams seg;
  // tile_info()
  uint8_t tile_cols_log2 = 0;
  uint8_t tile_rows_log2 = 0;
  uint16_t header_size_in_bytes = 0;  // size of the compressed header

  // --- derived ---
  uint16_t mi_cols = 0;  // (frame_width + 7) >> 3
  uint16_t mi_rows = 0;
  uint16_t sb64_cols = 0;  // (mi_cols + 7) >> 3
  uint16_t sb64_rows = 0;
  bool frame_is_intra = false;            // key frame or intra-only
  uint32_t uncompressed_header_size = 0;  // bytes, including trailing bits
  uint32_t uncompressed_header_bits = 0;  // bits before trailing_bits()
  // setup_past_independence() applies (intra frames and error-resilient frames): segmentation
  // features cleared, loop filter deltas reset (both already done in this header), the previous
  // segmentation map and MVs unusable, probabilities reset to the defaults, ref_frame_sign_bias
  // cleared (libvpx clears it after reading it), frame_context_idx forced to 0.
  bool reset_past = false;
  // Saved frame contexts (bit i: context i) to set to the default probabilities before this
  // frame loads frame_context_idx: all four for key frames, error-resilient frames and
  // reset_frame_context 3; the one the header named for reset_frame_context 2 on intra-only frames.
  uint8_t reset_contexts_mask = 0;
  // Some bit of trailing_bits() was not zero (libvpx accepts it; nothing else depends on it).
  bool trailing_bits_nonzero = false;

  // --- compressed header (spec 6.3) ---
  TxMode tx_mode = ONLY_4X4;
  ReferenceMode reference_mode = SINGLE_REFERENCE;
  RefFrame comp_fixed_ref = INTRA_FRAME;
  RefFrame comp_var_ref[2] = {INTRA_FRAME, INTRA_FRAME};
};

}  // namespace v3d::vp9
