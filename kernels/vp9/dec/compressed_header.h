// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 compressed header parser (spec 6.3 / 7.3): tx_mode, reference mode and the forward
// probability updates, applied to the frame's probability context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vp9/dec/bool_decoder.h"
#include "vp9/dec/frame_header.h"
#include "vp9/dec/probs.h"

namespace v3d::vp9 {

// Parses the compressed header (data: its fh.header_size_in_bytes bytes) into fh's tx_mode,
// reference_mode, comp_fixed_ref, comp_var_ref, and applies its probability deltas to fc (the
// context loaded from frame_context_idx). Returns false with a message in error when the bool
// decoder's marker bit is set or the header reads past its end (libvpx's "frame data header is
// corrupted").
bool parse_compressed_header(const uint8_t *data, size_t size, FrameHeader &fh, FrameContext &fc,
                             std::string &error);

// Spec diff_update_prob(): a flag at probability 252, then decode_term_subexp() and
// inv_remap_prob() relative to *p. Exposed for tests.
void diff_update_prob(BoolDecoder &bd, uint8_t *p);
// Spec inv_remap_prob(deltaProb, prob).
int inv_remap_prob(int delta, int prob);

}  // namespace v3d::vp9
