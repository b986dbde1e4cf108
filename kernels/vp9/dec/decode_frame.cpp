// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 frame driver: one frame from its bytes to a reconstructed, filtered frame, and the
// state it leaves for the frames after it (libvpx vp9_receive_compressed_data /
// vp9_decode_frame semantics).
#include <algorithm>
#include <cstring>

#include "runtime/log.h"
#include "vp9/dec/adapt.h"
#include "vp9/dec/compressed_header.h"
#include "vp9/dec/decoder_impl.h"
#include "vp9/dec/default_probs.h"

namespace v3d::vp9 {

int Decoder::fail(int code, const std::string &msg) {
  // Like libvpx after a failed frame: nothing but a key frame (or intra-only frame) decodes next.
  if (code == V3D_ERROR_INVALID_DATA) need_resync_ = true;
  return set_error(code, "VP9 frame %u: %s", frame_index_, msg.c_str());
}

void Decoder::prepare_frame_state(const FrameHeader &fh) {
  const size_t cells = size_t(fh.mi_rows) * fh.mi_cols;
  // libvpx clears the previous segmentation map when the frame size changes and both maps in
  // setup_past_independence.
  const bool resized = fh.frame_width != last_width_ || fh.frame_height != last_height_;
  for (int i = 0; i < 2; ++i) {
    std::vector<uint8_t> &m = seg_maps_[i];
    if (m.size() < cells) m.assign(cells, 0);
    if (fh.reset_past || resized) std::fill(m.begin(), m.end(), 0);
    if (mvs_[i].size() < cells) mvs_[i].resize(cells);
  }
}

void Decoder::finish_frame(const FrameHeader &fh, const FrameContext &pre, FrameContext &fc,
                           FrameBuffer *cur) {
  if (!fh.error_resilient_mode && !fh.frame_parallel_decoding_mode) {
    adapt_coef_probs(pre, counts_, fh.frame_is_intra, last_frame_type_ == KEY_FRAME, fc);
    if (!fh.frame_is_intra) {
      adapt_mode_probs(pre, counts_, fh.is_filter_switchable, fh.tx_mode, fc);
      adapt_mv_probs(pre, counts_, fh.allow_high_precision_mv, fc);
    }
  }
  if (fh.refresh_frame_context) saved_[fh.frame_context_idx] = fc;

  for (int i = 0; i < kNumRefFrames; ++i) {
    if (!(fh.refresh_frame_flags & (1 << i))) continue;
    cur->ref();
    if (slots_[i]) slots_[i]->unref();
    slots_[i] = cur;
    RefSlotInfo &s = hs_.slots[i];
    s.valid = true;
    s.width = fh.frame_width;
    s.height = fh.frame_height;
    s.bit_depth = fh.bit_depth;
    s.subsampling_x = fh.subsampling_x;
    s.subsampling_y = fh.subsampling_y;
  }

  have_last_ = true;
  last_frame_type_ = fh.frame_type;
  last_intra_only_ = fh.intra_only;
  last_show_frame_ = fh.show_frame;
  last_width_ = fh.frame_width;
  last_height_ = fh.frame_height;
  cur_mv_ ^= 1;  // this frame's motion becomes the previous frame's
  if (fh.seg.enabled) cur_seg_ ^= 1;
}

int Decoder::decode_frame(const uint8_t *data, size_t size, FrameBuffer **shown,
                          const uint8_t **end) {
  *shown = nullptr;
  *end = data + size;
  std::string err;
  FrameHeader fh;
  const HeaderState saved_hs = hs_;
  if (!parse_uncompressed_header(data, size, hs_, fh, err))
    return fail(V3D_ERROR_INVALID_DATA, err);
  if (fh.show_existing_frame) {
    FrameBuffer *f = slots_[fh.frame_to_show_map_idx];
    if (!f)
      return fail(V3D_ERROR_INVALID_DATA, "show_existing_frame of slot " +
                                              std::to_string(fh.frame_to_show_map_idx) +
                                              ", which holds no decoded frame");
    f->ref();
    *shown = f;
    ++tile_.stats().show_existing;
    *end = data + fh.uncompressed_header_size;
    return V3D_OK;
  }
  if (fh.profile != 0 || fh.bit_depth != 8) {
    hs_ = saved_hs;
    return fail(V3D_ERROR_UNSUPPORTED, "profile " + std::to_string(fh.profile) + " (" +
                                           std::to_string(fh.bit_depth) +
                                           "-bit) is not supported, only profile 0 (8-bit 4:2:0)");
  }
  if (need_resync_) {
    if (!fh.frame_is_intra) {
      hs_ = saved_hs;
      return fail(V3D_ERROR_INVALID_DATA,
                  "a key frame or intra-only frame is needed first (stream start or after an "
                  "error)");
    }
    if (fh.intra_only) {  // libvpx forgets every reference when an intra-only frame resyncs
      for (int i = 0; i < kNumRefFrames; ++i) {
        if (slots_[i]) slots_[i]->unref();
        slots_[i] = nullptr;
        hs_.slots[i] = RefSlotInfo();
      }
    }
    need_resync_ = false;
  }
  if (settings_.frame_size_limit &&
      uint64_t(fh.frame_width) * fh.frame_height > settings_.frame_size_limit)
    return fail(V3D_ERROR_INVALID_DATA, "frame size " + std::to_string(fh.frame_width) + "x" +
                                            std::to_string(fh.frame_height) +
                                            " exceeds the decoder's frame_size_limit");

  for (int i = 0; i < 4; ++i) {
    if (fh.reset_contexts_mask & (1 << i)) {
      load_default_probs(saved_[i]);
      saved_valid_[i] = true;
    }
  }
  if (!saved_valid_[fh.frame_context_idx])
    return fail(V3D_ERROR_INVALID_DATA, "uninitialized entropy context");
  const FrameContext &pre = saved_[fh.frame_context_idx];
  FrameContext fc = pre;
  const uint8_t *comp = data + fh.uncompressed_header_size;
  if (!parse_compressed_header(comp, fh.header_size_in_bytes, fh, fc, err))
    return fail(V3D_ERROR_INVALID_DATA, err);

  prepare_frame_state(fh);
  // The frame's reference for this function, dropped on every way out (an exception too).
  struct Ref {
    FrameBuffer *f;
    ~Ref() {
      if (f) f->unref();
    }
  } ref{pool_.get(ctx_, int(fh.frame_width), int(fh.frame_height))};
  FrameBuffer *cur = ref.f;
  if (!cur) return fail(V3D_ERROR_NO_MEMORY, "no memory for a frame");
  cur->render_width = int(fh.render_width);
  cur->render_height = int(fh.render_height);
  cur->color_space = fh.color_space;
  cur->color_range = fh.color_range;

  const bool adapt = !fh.error_resilient_mode && !fh.frame_parallel_decoding_mode;
  if (adapt) std::memset(&counts_, 0, sizeof(counts_));
  TileFrameInput in;
  in.hdr = &fh;
  in.probs = &fc;
  in.counts = adapt ? &counts_ : nullptr;
  const size_t used = fh.uncompressed_header_size + fh.header_size_in_bytes;
  in.data = data + used;
  in.size = size - used;
  for (int p = 0; p < 3; ++p) {
    in.cur.planes[p] = cur->planes[p];
    in.cur.strides[p] = cur->strides[p];
  }
  in.cur.width = cur->width;
  in.cur.height = cur->height;
  if (!fh.frame_is_intra) {
    for (int i = 0; i < kRefsPerFrame; ++i) {
      const FrameBuffer *r = slots_[fh.ref_frame_idx[i]];
      for (int p = 0; p < 3; ++p) {
        in.refs[i].planes[p] = r->planes[p];
        in.refs[i].strides[p] = r->strides[p];
      }
      in.refs[i].width = r->width;
      in.refs[i].height = r->height;
    }
  }
  // libvpx's use_prev_frame_mvs.
  const bool use_prev_mvs = have_last_ && !fh.error_resilient_mode &&
                            fh.frame_width == last_width_ && fh.frame_height == last_height_ &&
                            !last_intra_only_ && last_show_frame_ && last_frame_type_ != KEY_FRAME;
  in.prev_mvs = use_prev_mvs ? mvs_[cur_mv_ ^ 1].data() : nullptr;
  in.cur_mvs = mvs_[cur_mv_].data();
  in.prev_seg_map = seg_maps_[cur_seg_ ^ 1].data();
  in.cur_seg_map = seg_maps_[cur_seg_].data();
  in.lf_context = ctx_;
  in.residuals = settings_.residuals;
  if (in.size == 0) return fail(V3D_ERROR_INVALID_DATA, "no tile data after the headers");
  if (!tile_.decode_frame(in, &err)) return fail(V3D_ERROR_INVALID_DATA, err);
  finish_frame(fh, pre, fc, cur);
  *end = tile_.data_end();
  if (fh.show_frame) {
    *shown = cur;
    ref.f = nullptr;  // the caller's now
  }
  return V3D_OK;
}

}  // namespace v3d::vp9
