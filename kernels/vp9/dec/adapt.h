// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 backward adaptation (spec 8.4.2-8.4.4), equal to libvpx's vp9_adapt_coef_probs,
// vp9_adapt_mode_probs and vp9_adapt_mv_probs. Run after a frame's tiles when
// error_resilient_mode == 0 and frame_parallel_decoding_mode == 0: coefficients always, modes and
// mvs only for inter frames. pre is the saved context the frame loaded (frame_contexts[
// frame_context_idx] before the compressed header's deltas), fc the frame's context, which
// receives the adapted probabilities.
#pragma once

#include <cstdint>

#include "vp9/dec/frame_header.h"
#include "vp9/dec/probs.h"

namespace v3d::vp9 {

// Spec merge_prob(preProb, ct0, ct1, countSat, maxUpdateFactor).
uint8_t merge_prob(uint8_t pre_prob, uint32_t ct0, uint32_t ct1, uint32_t count_sat,
                   uint32_t max_update_factor);
// libvpx mode_mv_merge_probs (count saturation 20, factor 128; no change without counts).
uint8_t merge_prob_mode_mv(uint8_t pre_prob, uint32_t ct0, uint32_t ct1);

// frame_is_intra: this frame is a key frame or intra-only; last_frame_was_key: the previous
// decoded frame was a key frame (its adaptation uses a larger update factor).
void adapt_coef_probs(const FrameContext &pre, const Counts &counts, bool frame_is_intra,
                      bool last_frame_was_key, FrameContext &fc);
// Mode probabilities; tx probs only with TX_MODE_SELECT, interp filter probs only when the
// frame's filter is switchable (FrameHeader::is_filter_switchable).
void adapt_mode_probs(const FrameContext &pre, const Counts &counts, bool is_filter_switchable,
                      TxMode tx_mode, FrameContext &fc);
void adapt_mv_probs(const FrameContext &pre, const Counts &counts, bool allow_high_precision_mv,
                    FrameContext &fc);

}  // namespace v3d::vp9
