// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 decoder behind kernels/include/v3d/vp9_decoder.h: packets to frames (superframe index),
// each frame through the header parsers, the tile decoder and backward adaptation, with the
// state VP9 carries from frame to frame (reference slots, saved probability contexts, loop
// filter and segmentation parameters, motion vectors and segmentation map of the previous frame).
// One thread at a time (the public API's contract).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "v3d/vp9_decoder.h"
#include "vp9/dec/frame_buffer.h"
#include "vp9/dec/frame_header.h"
#include "vp9/dec/probs.h"
#include "vp9/dec/tile_decoder.h"
#include "vp9/dec/uncompressed_header.h"

namespace v3d::vp9 {

class Decoder {
 public:
  Decoder(V3dContext *ctx, const V3dVp9DecoderSettings &settings);
  ~Decoder();

  // The public API's send_data / get_picture / flush / stats.
  int send_data(const uint8_t *data, size_t size, int64_t pts);
  int get_picture(V3dVp9Picture *pic);
  void flush();
  const char *stats();
  int get_counters(V3dVp9DecoderCounters *counters) const;
  // After a std::bad_alloc escaped send_data: sets the error and waits for a key frame.
  int out_of_memory();
  // The public API's set_context: later frames use ctx (referenced).
  void set_context(V3dContext *ctx);

 private:
  // Decodes one frame of data[0, size); *shown receives a reference to the frame when it is to
  // be shown, *end where its data ended (libvpx: after the last tile's bool decoder).
  int decode_frame(const uint8_t *data, size_t size, FrameBuffer **shown, const uint8_t **end);
  // The frame's dependent state, after its header: segmentation maps, mv buffers.
  void prepare_frame_state(const FrameHeader &fh);
  // Adaptation, context saving, reference slots and the previous-frame state after a frame.
  void finish_frame(const FrameHeader &fh, const FrameContext &pre, FrameContext &fc,
                    FrameBuffer *cur);
  int fail(int code, const std::string &msg);
  void reset_state();

  V3dContext *ctx_;
  V3dVp9DecoderSettings settings_;
  FramePool pool_;
  TileDecoder tile_;
  HeaderState hs_;
  FrameBuffer *slots_[kNumRefFrames] = {};
  FrameContext saved_[4] = {};
  bool saved_valid_[4] = {};
  Counts counts_ = {};
  // Previous decoded frame (libvpx's last_* fields), for use_prev_frame_mvs and adaptation.
  bool have_last_ = false;
  FrameType last_frame_type_ = KEY_FRAME;
  bool last_intra_only_ = false;
  bool last_show_frame_ = false;
  uint32_t last_width_ = 0, last_height_ = 0;
  std::vector<MvRef> mvs_[2];  // [cur_mv_] is written by the frame, the other is the previous
  int cur_mv_ = 0;
  std::vector<uint8_t> seg_maps_[2];  // [cur_seg_] written by the frame, the other is the last
  int cur_seg_ = 0;
  bool need_resync_ = true;   // a key frame (or intra-only frame) must come first
  uint32_t frame_index_ = 0;  // decode order, hidden frames included
  // Pictures to output: a frame shown by several packets (show_existing_frame) is queued with
  // each packet's pts and frame index.
  struct Output {
    FrameBuffer *frame;
    int64_t pts;
    uint32_t frame_index;
  };
  std::deque<Output> queue_;
  std::string stats_text_;
};

}  // namespace v3d::vp9
