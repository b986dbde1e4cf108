// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 uncompressed header parser (spec 6.2 / 7.2), with libvpx's checks and semantics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vp9/dec/frame_header.h"

namespace v3d::vp9 {

// What the header parser needs to know about a reference slot.
struct RefSlotInfo {
  bool valid = false;  // holds a decoded frame
  uint32_t width = 0, height = 0;
  uint8_t bit_depth = 8;
  bool subsampling_x = true, subsampling_y = true;
};

// Everything the uncompressed header inherits from the frames before it.
struct HeaderState {
  LoopFilterParams lf;     // ref_deltas / mode_deltas persist
  SegmentationParams seg;  // tree/pred probs, features persist
  // Color config of the last intra frame: inter frames inherit it.
  uint8_t bit_depth = 8;
  ColorSpace color_space = CS_UNKNOWN;
  bool color_range = false;
  bool subsampling_x = true, subsampling_y = true;
  RefSlotInfo slots[kNumRefFrames];
};

// Parses the uncompressed header of one frame (data, size: the frame's bytes) into fh, using and
// then updating state's persistent loop-filter, segmentation and color values (slots are only
// read). Applies setup_past_independence's header-level resets (segmentation features, loop
// filter deltas, sign bias, frame_context_idx) and reports the rest in fh.reset_past and
// fh.reset_contexts_mask. For show_existing_frame only profile, show_existing_frame and
// frame_to_show_map_idx are set. Returns false with a message in error (e.g. "invalid frame
// sync code") for unsupported or corrupt headers; state is then unchanged.
bool parse_uncompressed_header(const uint8_t *data, size_t size, HeaderState &state,
                               FrameHeader &fh, std::string &error);

// Spec calc_min_log2_tile_cols / calc_max_log2_tile_cols for sb64_cols superblock columns.
int min_log2_tile_cols(int sb64_cols);
int max_log2_tile_cols(int sb64_cols);

}  // namespace v3d::vp9
