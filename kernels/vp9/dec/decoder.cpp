// SPDX-License-Identifier: LGPL-2.1-or-later
// The public VP9 decoder API (v3d/vp9_decoder.h): packets, the output queue, pictures.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/log.h"
#include "vp9/dec/decoder_impl.h"
#include "vp9/dec/superframe.h"

struct V3dVp9Decoder {
  v3d::vp9::Decoder impl;
  V3dVp9Decoder(V3dContext *ctx, const V3dVp9DecoderSettings &s) : impl(ctx, s) {}
};

namespace v3d::vp9 {

Decoder::Decoder(V3dContext *ctx, const V3dVp9DecoderSettings &settings)
    : ctx_(v3d_context_ref(ctx)), settings_(settings) {}

void Decoder::set_context(V3dContext *ctx) {
  v3d_context_ref(ctx);
  v3d_context_free(ctx_);
  ctx_ = ctx;
}

Decoder::~Decoder() {
  reset_state();
  pool_.clear();
  v3d_context_free(ctx_);
}

void Decoder::reset_state() {
  for (const Output &o : queue_) o.frame->unref();
  queue_.clear();
  for (FrameBuffer *&s : slots_) {
    if (s) s->unref();
    s = nullptr;
  }
  hs_ = HeaderState();
  for (bool &v : saved_valid_) v = false;
  have_last_ = false;
  last_frame_type_ = KEY_FRAME;
  last_intra_only_ = last_show_frame_ = false;
  last_width_ = last_height_ = 0;
  need_resync_ = true;
}

int Decoder::send_data(const uint8_t *data, size_t size, int64_t pts) {
  if (!data || size == 0) return set_error(V3D_ERROR_INVALID_ARGUMENT, "VP9: empty packet");
  if (queue_.size() >= size_t(settings_.max_queued_pictures))
    return set_error(V3D_ERROR_AGAIN, "VP9: output queue full, get pictures first");
  SuperframeIndex index;
  std::string err;
  if (!parse_superframe_index(data, size, index, err)) return fail(V3D_ERROR_INVALID_DATA, err);
  // libvpx outputs at most one picture per packet: the last frame's, when it is shown.
  FrameBuffer *shown = nullptr;
  const uint8_t *end;
  if (index.count > 0) {
    const uint8_t *p = data;
    for (int i = 0; i < index.count; ++i) {
      if (shown) shown->unref();
      if (index.sizes[i] == 0) return fail(V3D_ERROR_INVALID_DATA, "empty frame in superframe");
      const int rc = decode_frame(p, index.sizes[i], &shown, &end);
      ++frame_index_;
      if (rc < 0) return rc;
      p += index.sizes[i];
    }
  } else {
    // Without an index, libvpx decodes another frame from where the previous one's data ended
    // (after any zero bytes), as long as bytes remain.
    const uint8_t *p = data, *data_end = data + size;
    while (p < data_end) {
      if (shown) shown->unref();
      const int rc = decode_frame(p, size_t(data_end - p), &shown, &end);
      ++frame_index_;
      if (rc < 0) return rc;
      p = end;
      while (p < data_end && *p == 0) ++p;
    }
  }
  if (shown) queue_.push_back(Output{shown, pts, frame_index_ - 1});
  return V3D_OK;
}

int Decoder::get_picture(V3dVp9Picture *pic) {
  if (queue_.empty()) return V3D_ERROR_AGAIN;
  const Output out = queue_.front();
  queue_.pop_front();
  FrameBuffer *f = out.frame;
  for (int p = 0; p < 3; ++p) {
    pic->planes[p] = f->planes[p];
    pic->strides[p] = f->strides[p];
  }
  pic->width = f->width;
  pic->height = f->height;
  pic->render_width = f->render_width;
  pic->render_height = f->render_height;
  pic->color_space = f->color_space;
  pic->color_range = f->color_range;
  pic->pts = out.pts;
  pic->frame_index = out.frame_index;
  pic->ref = f;
  return V3D_OK;
}

void Decoder::flush() { reset_state(); }

int Decoder::out_of_memory() {
  // The frame stopped half-way: like any failed frame, the next must be a key or intra-only one.
  need_resync_ = true;
  return set_error(V3D_ERROR_NO_MEMORY, "VP9 frame %u: out of memory", frame_index_);
}

const char *Decoder::stats() {
  V3dVp9DecoderCounters c;
  tile_stats_to_counters(tile_.stats(), &c);
  stats_text_ = format_counters(c);
  return stats_text_.c_str();
}

int Decoder::get_counters(V3dVp9DecoderCounters *counters) const {
  constexpr uint32_t kHeader = offsetof(V3dVp9DecoderCounters, frames);
  if (counters->size < kHeader)
    return set_error(V3D_ERROR_INVALID_ARGUMENT,
                     "v3d_vp9_decoder_get_counters: size %u is below %u", counters->size, kHeader);
  V3dVp9DecoderCounters all;
  tile_stats_to_counters(tile_.stats(), &all);
  // Whole uint64_t fields only: a caller's older struct ends at a field boundary.
  uint32_t filled = counters->size < all.size ? counters->size : all.size;
  filled = kHeader + (filled - kHeader) / sizeof(uint64_t) * sizeof(uint64_t);
  all.size = filled;
  std::memcpy(counters, &all, filled);
  return V3D_OK;
}

}  // namespace v3d::vp9

extern "C" {

V3D_API void v3d_vp9_decoder_default_settings(V3dVp9DecoderSettings *s) {
  if (!s) return;
  s->frame_size_limit = 0;
  s->max_queued_pictures = 8;
  s->residuals = V3D_VP9_RESIDUALS_AUTO;
}

V3D_API V3dVp9Decoder *v3d_vp9_decoder_new(V3dContext *ctx, const V3dVp9DecoderSettings *settings) {
  if (!ctx) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "v3d_vp9_decoder_new: no context");
    return nullptr;
  }
  V3dVp9DecoderSettings s;
  v3d_vp9_decoder_default_settings(&s);
  if (settings) s = *settings;
  if (s.max_queued_pictures < 1) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "v3d_vp9_decoder_new: max_queued_pictures %d < 1",
                   s.max_queued_pictures);
    return nullptr;
  }
  if (s.residuals < V3D_VP9_RESIDUALS_AUTO || s.residuals > V3D_VP9_RESIDUALS_FRAME) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "v3d_vp9_decoder_new: unknown residuals value %d",
                   s.residuals);
    return nullptr;
  }
  if (s.residuals == V3D_VP9_RESIDUALS_AUTO) {
    // The override that lets CPU-only machines (and their CI) run the frame path.
    const char *env = std::getenv("V3D_VP9_DEFER_RESIDUALS");
    if (env && std::strcmp(env, "1") == 0) s.residuals = V3D_VP9_RESIDUALS_FRAME;
    else if (env && std::strcmp(env, "0") == 0) s.residuals = V3D_VP9_RESIDUALS_PER_BLOCK;
    else if (env && *env)
      v3d::log(v3d::kLogWarning, "ignoring V3D_VP9_DEFER_RESIDUALS=%s: not 0 or 1", env);
  }
  auto *dec = new (std::nothrow) V3dVp9Decoder(ctx, s);
  if (!dec) v3d::set_error(V3D_ERROR_NO_MEMORY, "v3d_vp9_decoder_new: out of memory");
  return dec;
}

V3D_API int v3d_vp9_decoder_send_data(V3dVp9Decoder *dec, const uint8_t *data, size_t size,
                                      int64_t pts) {
  if (!dec) return v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "VP9: no decoder");
  // Frame-sized vectors (mode info, motion vectors, maps) of a huge frame may not fit.
  try {
    return dec->impl.send_data(data, size, pts);
  } catch (const std::bad_alloc &) {
    return dec->impl.out_of_memory();
  }
}

V3D_API int v3d_vp9_decoder_set_context(V3dVp9Decoder *dec, V3dContext *ctx) {
  if (!dec || !ctx)
    return v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "v3d_vp9_decoder_set_context: no decoder "
                          "or context");
  dec->impl.set_context(ctx);
  return V3D_OK;
}

V3D_API int v3d_vp9_decoder_get_picture(V3dVp9Decoder *dec, V3dVp9Picture *pic) {
  if (!dec || !pic) return v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "VP9: no decoder or picture");
  return dec->impl.get_picture(pic);
}

V3D_API void v3d_vp9_picture_unref(V3dVp9Picture *pic) {
  if (!pic || !pic->ref) return;
  static_cast<v3d::vp9::FrameBuffer *>(pic->ref)->unref();
  *pic = V3dVp9Picture();
}

V3D_API void v3d_vp9_decoder_flush(V3dVp9Decoder *dec) {
  if (dec) dec->impl.flush();
}

V3D_API void v3d_vp9_decoder_free(V3dVp9Decoder *dec) { delete dec; }

V3D_API int v3d_vp9_decoder_get_counters(V3dVp9Decoder *dec, V3dVp9DecoderCounters *counters) {
  if (!dec || !counters)
    return v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "v3d_vp9_decoder_get_counters: NULL %s",
                          !dec ? "decoder" : "counters");
  return dec->impl.get_counters(counters);
}

V3D_API const char *v3d_vp9_decoder_stats(V3dVp9Decoder *dec) {
  return dec ? dec->impl.stats() : "";
}

}  // extern "C"
