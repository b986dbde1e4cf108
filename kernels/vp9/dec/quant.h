// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 quantiser and loop-filter level derivation per segment (spec 8.6.1, 8.8.1), 8-bit only.
#pragma once

#include <cstdint>

#include "vp9/dec/frame_header.h"

namespace v3d::vp9 {

// Spec get_qindex(0, segment_id): the segment's quantiser index, 0..255.
int get_qindex(const FrameHeader &fh, int segment_id);
// dc_qlookup / ac_qlookup at clamp(qindex + delta, 0, 255).
int dc_q(int qindex, int delta);
int ac_q(int qindex, int delta);

// Dequantisation factors of one segment: index 0 of a block's coefficients uses the dc factor,
// every other index the ac factor.
struct SegmentDequant {
  int16_t y_dc, y_ac, uv_dc, uv_ac;
};
SegmentDequant segment_dequant(const FrameHeader &fh, int segment_id);

// Loop filter level per segment, reference frame and mode type (spec 8.8.1):
// level[segment_id][ref_frame][mode_type], mode_type 0 for ZEROMV (and intra blocks), 1 for the
// other inter modes. Intra blocks use [INTRA_FRAME][0] (equal to [INTRA_FRAME][1]).
// A frame with filter_level == 0 is not filtered at all, whatever these levels are.
struct LoopFilterLevels {
  uint8_t level[kMaxSegments][4][2];
};
void loop_filter_levels(const FrameHeader &fh, LoopFilterLevels &out);

}  // namespace v3d::vp9
