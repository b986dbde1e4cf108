// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 uncompressed header (spec 6.2 syntax, 7.2 semantics). Where libvpx differs from the spec's
// prose in a way that changes decoding, libvpx's behaviour is followed and named.
#include "vp9/dec/uncompressed_header.h"

#include <algorithm>

#include "vp9/dec/bit_reader.h"

namespace v3d::vp9 {
namespace {

constexpr uint32_t kSyncCode = 0x498342;

bool fail(std::string &error, const char *msg) {
  error = msg;
  return false;
}

// color_config() of key frames (and intra-only frames of profiles > 0).
bool read_color_config(BitReader &br, FrameHeader &fh, std::string &error) {
  fh.bit_depth = fh.profile >= 2 ? (br.f1() ? 12 : 10) : 8;
  fh.color_space = static_cast<ColorSpace>(br.f(3));
  if (fh.color_space != CS_RGB) {
    fh.color_range = br.f1();
    if (fh.profile == 1 || fh.profile == 3) {
      fh.subsampling_x = br.f1();
      fh.subsampling_y = br.f1();
      if (fh.subsampling_x && fh.subsampling_y)
        return fail(error, "4:2:0 color not supported in profile 1 or 3");
      if (br.f1()) return fail(error, "reserved bit set in color config");
    } else {
      fh.subsampling_x = fh.subsampling_y = true;
    }
  } else {
    fh.color_range = true;
    if (fh.profile == 1 || fh.profile == 3) {
      fh.subsampling_x = fh.subsampling_y = false;
      if (br.f1()) return fail(error, "reserved bit set in color config");
    } else {
      return fail(error, "4:4:4 color not supported in profile 0 or 2");
    }
  }
  return true;
}

void read_frame_size(BitReader &br, FrameHeader &fh) {
  fh.frame_width = br.f(16) + 1;
  fh.frame_height = br.f(16) + 1;
}

void read_render_size(BitReader &br, FrameHeader &fh) {
  fh.render_and_frame_size_different = br.f1();
  if (fh.render_and_frame_size_different) {
    fh.render_width = br.f(16) + 1;
    fh.render_height = br.f(16) + 1;
  } else {
    fh.render_width = fh.frame_width;
    fh.render_height = fh.frame_height;
  }
}

// frame_size_with_refs(): the size of the first reference flagged, else coded; then libvpx's
// checks that some reference can be scaled to it and that all share the color format.
bool read_frame_size_with_refs(BitReader &br, const HeaderState &state, FrameHeader &fh,
                               std::string &error) {
  fh.found_ref = false;
  for (int i = 0; i < kRefsPerFrame; ++i) {
    if (br.f1()) {
      const RefSlotInfo &slot = state.slots[fh.ref_frame_idx[i]];
      fh.found_ref = true;
      fh.found_ref_idx = static_cast<uint8_t>(i);
      fh.frame_width = slot.width;
      fh.frame_height = slot.height;
      break;
    }
  }
  if (!fh.found_ref) read_frame_size(br, fh);
  if (fh.frame_width == 0 || fh.frame_height == 0) return fail(error, "invalid frame size");
  bool any_valid = false;
  for (int i = 0; i < kRefsPerFrame; ++i) {
    const RefSlotInfo &r = state.slots[fh.ref_frame_idx[i]];
    // A reference may be at most 2x larger and 16x smaller than the frame.
    any_valid |= 2 * fh.frame_width >= r.width && 2 * fh.frame_height >= r.height &&
                 fh.frame_width <= 16 * r.width && fh.frame_height <= 16 * r.height;
  }
  if (!any_valid) return fail(error, "referenced frame has invalid size");
  for (int i = 0; i < kRefsPerFrame; ++i) {
    const RefSlotInfo &r = state.slots[fh.ref_frame_idx[i]];
    if (r.bit_depth != fh.bit_depth || r.subsampling_x != fh.subsampling_x ||
        r.subsampling_y != fh.subsampling_y)
      return fail(error, "referenced frame has incompatible color format");
  }
  read_render_size(br, fh);
  return true;
}

void read_loop_filter(BitReader &br, LoopFilterParams &lf) {
  lf.filter_level = static_cast<uint8_t>(br.f(6));
  lf.sharpness_level = static_cast<uint8_t>(br.f(3));
  lf.delta_update = false;
  lf.delta_enabled = br.f1();
  if (!lf.delta_enabled) return;
  lf.delta_update = br.f1();
  if (!lf.delta_update) return;
  for (int8_t &d : lf.ref_deltas)
    if (br.f1()) d = static_cast<int8_t>(br.su(6));
  for (int8_t &d : lf.mode_deltas)
    if (br.f1()) d = static_cast<int8_t>(br.su(6));
}

int read_delta_q(BitReader &br) { return br.f1() ? br.su(4) : 0; }

void read_segmentation(BitReader &br, SegmentationParams &seg) {
  // Feature value bits and signedness per SEG_LVL_* (spec segmentation_feature_bits/_signed).
  static constexpr int kBits[kSegLvlMax] = {8, 6, 2, 0};
  static constexpr bool kSigned[kSegLvlMax] = {true, true, false, false};
  seg.update_map = false;
  seg.update_data = false;
  seg.enabled = br.f1();
  if (!seg.enabled) return;
  seg.update_map = br.f1();
  if (seg.update_map) {
    for (uint8_t &p : seg.tree_probs) p = br.f1() ? static_cast<uint8_t>(br.f(8)) : 255;
    seg.temporal_update = br.f1();
    for (uint8_t &p : seg.pred_probs)
      p = seg.temporal_update && br.f1() ? static_cast<uint8_t>(br.f(8)) : 255;
  }
  seg.update_data = br.f1();
  if (!seg.update_data) return;
  seg.abs_or_delta_update = br.f1();
  for (int i = 0; i < kMaxSegments; ++i) {
    for (int j = 0; j < kSegLvlMax; ++j) {
      int value = 0;
      seg.feature_enabled[i][j] = br.f1();
      if (seg.feature_enabled[i][j]) {
        value = static_cast<int>(br.f(kBits[j]));
        if (kSigned[j] && br.f1()) value = -value;
      }
      seg.feature_data[i][j] = static_cast<int16_t>(value);
    }
  }
}

// setup_past_independence()'s header-level part (libvpx vp9_setup_past_independence).
void setup_past_independence(FrameHeader &fh, uint8_t frame_context_idx_read) {
  for (auto &f : fh.seg.feature_enabled) std::fill(std::begin(f), std::end(f), false);
  for (auto &d : fh.seg.feature_data) std::fill(std::begin(d), std::end(d), 0);
  fh.seg.abs_or_delta_update = false;
  fh.lf.ref_deltas[INTRA_FRAME] = 1;
  fh.lf.ref_deltas[LAST_FRAME] = 0;
  fh.lf.ref_deltas[GOLDEN_FRAME] = -1;
  fh.lf.ref_deltas[ALTREF_FRAME] = -1;
  fh.lf.mode_deltas[0] = fh.lf.mode_deltas[1] = 0;
  fh.reset_past = true;
  if (fh.frame_type == KEY_FRAME || fh.error_resilient_mode || fh.reset_frame_context == 3)
    fh.reset_contexts_mask = 0xf;
  else if (fh.reset_frame_context == 2)
    fh.reset_contexts_mask = static_cast<uint8_t>(1u << frame_context_idx_read);
  std::fill(std::begin(fh.ref_frame_sign_bias), std::end(fh.ref_frame_sign_bias), false);
  fh.frame_context_idx = 0;
}

// The part of the header before loop_filter_params() for non-key frames.
bool read_non_key(BitReader &br, HeaderState &state, FrameHeader &fh, std::string &error) {
  fh.intra_only = fh.show_frame ? false : br.f1();
  fh.reset_frame_context = fh.error_resilient_mode ? 0 : static_cast<uint8_t>(br.f(2));
  if (fh.intra_only) {
    if (br.f(24) != kSyncCode) return fail(error, "invalid frame sync code");
    if (fh.profile > 0) {
      if (!read_color_config(br, fh, error)) return false;
    } else {
      // Profile 0 intra-only frames are 8-bit 4:2:0 BT.601 studio swing (normative).
      fh.bit_depth = 8;
      fh.color_space = CS_BT_601;
      fh.color_range = false;
      fh.subsampling_x = fh.subsampling_y = true;
    }
    fh.refresh_frame_flags = static_cast<uint8_t>(br.f(8));
    read_frame_size(br, fh);
    read_render_size(br, fh);
    return true;
  }
  fh.refresh_frame_flags = static_cast<uint8_t>(br.f(8));
  for (int i = 0; i < kRefsPerFrame; ++i) {
    fh.ref_frame_idx[i] = static_cast<uint8_t>(br.f(3));
    if (!state.slots[fh.ref_frame_idx[i]].valid)
      return fail(error, "invalid reference frame index (slot holds no frame)");
    fh.ref_frame_sign_bias[LAST_FRAME + i] = br.f1();
  }
  if (!read_frame_size_with_refs(br, state, fh, error)) return false;
  fh.allow_high_precision_mv = br.f1();
  // read_interp_filter(): is_filter_switchable, else literal_to_type.
  static constexpr InterpFilter kLiteralToType[4] = {kFilterSmooth, kFilterRegular, kFilterSharp,
                                                     kFilterBilinear};
  fh.is_filter_switchable = br.f1();
  fh.interp_filter = fh.is_filter_switchable ? kFilterRegular : kLiteralToType[br.f(2)];
  return true;
}

}  // namespace

int min_log2_tile_cols(int sb64_cols) {
  int k = 0;
  while ((kMaxTileWidthB64 << k) < sb64_cols) ++k;
  return k;
}

int max_log2_tile_cols(int sb64_cols) {
  int k = 1;
  while ((sb64_cols >> k) >= kMinTileWidthB64) ++k;
  return k - 1;
}

bool parse_uncompressed_header(const uint8_t *data, size_t size, HeaderState &state,
                               FrameHeader &fh, std::string &error) {
  BitReader br(data, size);
  fh = FrameHeader();
  // Persistent values first; the header overwrites what it codes.
  fh.lf = state.lf;
  fh.seg = state.seg;
  fh.bit_depth = state.bit_depth;
  fh.color_space = state.color_space;
  fh.color_range = state.color_range;
  fh.subsampling_x = state.subsampling_x;
  fh.subsampling_y = state.subsampling_y;

  if (br.f(2) != 2) return fail(error, "invalid frame marker");
  fh.profile = static_cast<uint8_t>(br.f1());
  fh.profile |= static_cast<uint8_t>(br.f1() << 1);
  if (fh.profile == 3 && br.f1())
    return fail(error, "unsupported bitstream profile (reserved bit)");
  fh.show_existing_frame = br.f1();
  if (fh.show_existing_frame) {
    fh.frame_to_show_map_idx = static_cast<uint8_t>(br.f(3));
    fh.show_frame = true;
    fh.uncompressed_header_size = static_cast<uint32_t>(br.byte_pos());
    if (br.overrun()) return fail(error, "truncated packet (uncompressed header)");
    return true;
  }
  fh.frame_type = static_cast<FrameType>(br.f1());
  fh.show_frame = br.f1();
  fh.error_resilient_mode = br.f1();
  if (fh.frame_type == KEY_FRAME) {
    if (br.f(24) != kSyncCode) return fail(error, "invalid frame sync code");
    if (!read_color_config(br, fh, error)) return false;
    fh.refresh_frame_flags = 0xff;
    read_frame_size(br, fh);
    read_render_size(br, fh);
  } else if (!read_non_key(br, state, fh, error)) {
    return false;
  }
  fh.frame_is_intra = fh.frame_type == KEY_FRAME || fh.intra_only;

  if (!fh.error_resilient_mode) {
    fh.refresh_frame_context = br.f1();
    fh.frame_parallel_decoding_mode = br.f1();
  } else {
    fh.refresh_frame_context = false;
    fh.frame_parallel_decoding_mode = true;
  }
  const uint8_t frame_context_idx_read = static_cast<uint8_t>(br.f(2));
  fh.frame_context_idx = frame_context_idx_read;
  if (fh.frame_is_intra || fh.error_resilient_mode)
    setup_past_independence(fh, frame_context_idx_read);

  read_loop_filter(br, fh.lf);
  fh.quant.base_q_idx = static_cast<uint8_t>(br.f(8));
  fh.quant.delta_q_y_dc = static_cast<int8_t>(read_delta_q(br));
  fh.quant.delta_q_uv_dc = static_cast<int8_t>(read_delta_q(br));
  fh.quant.delta_q_uv_ac = static_cast<int8_t>(read_delta_q(br));
  fh.quant.lossless = fh.quant.base_q_idx == 0 && fh.quant.delta_q_y_dc == 0 &&
                      fh.quant.delta_q_uv_dc == 0 && fh.quant.delta_q_uv_ac == 0;
  read_segmentation(br, fh.seg);

  fh.mi_cols = static_cast<uint16_t>((fh.frame_width + 7) >> 3);
  fh.mi_rows = static_cast<uint16_t>((fh.frame_height + 7) >> 3);
  fh.sb64_cols = static_cast<uint16_t>((fh.mi_cols + 7) >> 3);
  fh.sb64_rows = static_cast<uint16_t>((fh.mi_rows + 7) >> 3);
  // tile_info()
  const int min_log2 = min_log2_tile_cols(fh.sb64_cols);
  const int max_log2 = max_log2_tile_cols(fh.sb64_cols);
  int log2 = min_log2;
  while (log2 < max_log2 && br.f1()) ++log2;
  if (log2 > 6) return fail(error, "invalid number of tile columns");
  fh.tile_cols_log2 = static_cast<uint8_t>(log2);
  fh.tile_rows_log2 = static_cast<uint8_t>(br.f1());
  if (fh.tile_rows_log2) fh.tile_rows_log2 = static_cast<uint8_t>(fh.tile_rows_log2 + br.f1());
  fh.header_size_in_bytes = static_cast<uint16_t>(br.f(16));
  fh.uncompressed_header_bits = static_cast<uint32_t>(br.bit_pos());

  // trailing_bits(): libvpx does not check them; the spec requires zeros.
  const size_t end_bits = br.byte_pos() * 8;
  while (br.bit_pos() < end_bits) fh.trailing_bits_nonzero |= br.f1() != 0;
  if (br.overrun()) return fail(error, "truncated packet (uncompressed header)");
  if (fh.header_size_in_bytes == 0)
    return fail(error, "invalid header size (compressed header of 0 bytes)");
  fh.uncompressed_header_size = static_cast<uint32_t>(br.byte_pos());
  if (fh.header_size_in_bytes > size - fh.uncompressed_header_size)
    return fail(error, "truncated packet or corrupt header length");

  state.lf = fh.lf;
  state.seg = fh.seg;
  if (fh.frame_is_intra) {
    state.bit_depth = fh.bit_depth;
    state.color_space = fh.color_space;
    state.color_range = fh.color_range;
    state.subsampling_x = fh.subsampling_x;
    state.subsampling_y = fh.subsampling_y;
  }
  return true;
}

}  // namespace v3d::vp9
