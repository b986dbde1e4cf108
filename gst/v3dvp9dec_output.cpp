// SPDX-License-Identifier: LGPL-2.1-or-later
// The output side of v3dvp9dec. See v3dvp9dec_output.h.
#include "v3dvp9dec_output.h"

#include <gst/v3d/v3dallocator.h>
#include <gst/v3d/v3dpool.h>

#include <cstring>

#include "v3dvp9dec_util.h"

GST_DEBUG_CATEGORY_EXTERN(gst_v3d_vp9_dec_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_dec_debug

namespace v3d {
namespace {

// Elements that pass the allocation query downstream unchanged (a zero-copy buffer reaches the
// element after them as it is).
bool passes_allocation_on(const gchar *factory) {
  static const char *const names[] = {"queue", "queue2", "capsfilter", "identity"};
  for (const char *n : names)
    if (strcmp(factory, n) == 0) return true;
  return false;
}

// Elements that answer allocation queries with GST_VIDEO_META_API_TYPE (GstVideoEncoder's
// default) but write each buffer's bytes out as they are: y4menc of GStreamer 1.22 writes the
// planes with their padding between and after them, giving broken Y4M for any layout other than
// GStreamer's default one.
bool ignores_video_meta(const gchar *factory) { return strcmp(factory, "y4menc") == 0; }

void release_picture(gpointer data) {
  auto *pic = static_cast<V3dVp9Picture *>(data);
  v3d_vp9_picture_unref(pic);
  g_free(pic);
}

}  // namespace

gchar *vp9dec_downstream_ignoring_video_meta(GstPad *src) {
  GstPad *peer = gst_pad_get_peer(src);
  gchar *found = nullptr;
  // A few hops: pipelines put at most a queue or a capsfilter between decoder and encoder.
  for (int hop = 0; peer && hop < 8 && !found; hop++) {
    while (GST_IS_GHOST_PAD(peer)) {  // into bins: the pad the ghost pad leads to
      GstPad *target = gst_ghost_pad_get_target(GST_GHOST_PAD(peer));
      gst_object_unref(peer);
      peer = target;
      if (!peer) return nullptr;
    }
    GstElement *element = gst_pad_get_parent_element(peer);
    gst_object_unref(peer);
    peer = nullptr;
    if (!element) break;
    GstElementFactory *factory = gst_element_get_factory(element);
    const gchar *name = factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : "";
    if (ignores_video_meta(name)) {
      found = g_strdup(GST_OBJECT_NAME(element));
    } else if (passes_allocation_on(name)) {
      if (GstPad *next = gst_element_get_static_pad(element, "src")) {
        peer = gst_pad_get_peer(next);
        gst_object_unref(next);
      }
    }
    gst_object_unref(element);
  }
  if (peer) gst_object_unref(peer);
  return found;
}

bool vp9dec_decide_allocation(GstElement *element, GstQuery *query, V3dContext *ctx,
                              bool allow_zero_copy, Vp9DecOutputMode *mode) {
  GstCaps *caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) return false;
  const bool video_meta =
      gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr) != FALSE;
  guint size = static_cast<guint>(GST_VIDEO_INFO_SIZE(&info)), min = 0, max = 0;
  const bool update = gst_query_get_n_allocation_pools(query) > 0;
  GstBufferPool *pool = nullptr;
  if (update) {
    gst_query_parse_nth_allocation_pool(query, 0, &pool, nullptr, &min, &max);
    if (pool && !GST_IS_V3D_BUFFER_POOL(pool)) gst_clear_object(&pool);
  }
  // Own pool: configured without the v3d pool's video-meta padding (pictures are copied in, so
  // it needs none, and elements that ignore GstVideoMeta strides then get GStreamer's default
  // layout).
  const bool own = pool == nullptr;
  if (own) {
    if (!ctx) return false;
    pool = gst_v3d_buffer_pool_new(ctx);
  }
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, min, max);
  if (video_meta && !own)
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(pool, config)) {
    // The pool adjusted the config (padded size): accept it if it still fits.
    config = gst_buffer_pool_get_config(pool);
    if (!gst_buffer_pool_config_validate_params(config, caps, size, min, max) ||
        !gst_buffer_pool_set_config(pool, config)) {
      GST_ELEMENT_ERROR(element, RESOURCE, SETTINGS, ("Could not configure the v3d buffer pool"),
                        (nullptr));
      gst_object_unref(pool);
      return false;
    }
  }
  config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_get_params(config, nullptr, &size, nullptr, nullptr);
  gst_structure_free(config);
  if (update)
    gst_query_set_nth_allocation_pool(query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool(query, pool, size, min, max);
  gst_object_unref(pool);

  gchar *ignorer = video_meta && own && allow_zero_copy
                       ? vp9dec_downstream_ignoring_video_meta(GST_VIDEO_DECODER_SRC_PAD(element))
                       : nullptr;
  mode->zero_copy = allow_zero_copy && video_meta && own && !ignorer;
  mode->add_video_meta = own && video_meta;
  if (mode->zero_copy) {
    GST_INFO_OBJECT(element, "output: zero copy (the decoder's pictures, read-only, with "
                             "GstVideoMeta)");
  } else {
    const char *why = !allow_zero_copy ? "zero-copy=false"
                      : !video_meta    ? "downstream does not support GstVideoMeta"
                      : !own           ? "downstream offers a v3d pool"
                                       : "downstream writes buffers ignoring GstVideoMeta";
    GST_INFO_OBJECT(element, "output: copies into %s v3d pool (%s%s%s), buffers of %u bytes, "
                    "video meta %s", own ? "the element's own" : "downstream's", why,
                    ignorer ? ": " : "", ignorer ? ignorer : "", size, video_meta ? "yes" : "no");
  }
  g_free(ignorer);
  return true;
}

GstBuffer *vp9dec_wrap_picture(GstAllocator *allocator, V3dVp9Picture *pic) {
  gsize offset[GST_VIDEO_MAX_PLANES] = {};
  gint stride[GST_VIDEO_MAX_PLANES] = {};
  guint8 *base = pic->planes[0];
  gsize end = 0;  // end of the previous plane's last visible row
  for (int p = 0; p < 3; p++) {
    const int rows = p ? (pic->height + 1) / 2 : pic->height;
    if (!pic->planes[p] || pic->planes[p] < base || pic->strides[p] <= 0 ||
        pic->strides[p] > G_MAXINT)
      return nullptr;
    offset[p] = static_cast<gsize>(pic->planes[p] - base);
    if (offset[p] < end) return nullptr;  // not Y, U, V one after the other
    stride[p] = static_cast<gint>(pic->strides[p]);
    end = offset[p] + static_cast<gsize>(stride[p]) * static_cast<gsize>(rows);
  }
  auto *held = g_new(V3dVp9Picture, 1);
  *held = *pic;
  *pic = V3dVp9Picture();
  GstMemory *mem = gst_v3d_allocator_wrap(allocator, GST_MEMORY_FLAG_READONLY, base, end, held,
                                          release_picture);
  GstBuffer *buf = gst_buffer_new();
  gst_buffer_append_memory(buf, mem);
  gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420,
                                 static_cast<guint>(held->width), static_cast<guint>(held->height),
                                 3, offset, stride);
  return buf;
}

GstFlowReturn vp9dec_update_output(GstVideoDecoder *vdec, const V3dVp9Picture &pic,
                                   GstVideoCodecState *input_state, Vp9DecOutputFormat *current) {
  Vp9DecOutputFormat f;
  f.width = pic.width;
  f.height = pic.height;
  f.render_width = pic.render_width;
  f.render_height = pic.render_height;
  f.color_space = pic.color_space;
  f.color_range = pic.color_range;
  GstPad *src = GST_VIDEO_DECODER_SRC_PAD(vdec);
  if (f == *current && gst_pad_has_current_caps(src)) return GST_FLOW_OK;
  GST_INFO_OBJECT(vdec, "output %dx%d (render %dx%d), color space %d, range %d", f.width,
                  f.height, f.render_width, f.render_height, f.color_space, f.color_range);
  GstVideoCodecState *state = gst_video_decoder_set_output_state(vdec, GST_VIDEO_FORMAT_I420,
      static_cast<guint>(f.width), static_cast<guint>(f.height), input_state);
  vp9dec_describe_output(&state->info, f.width, f.height, f.render_width, f.render_height,
                         f.color_space, f.color_range);
  gst_video_codec_state_unref(state);
  if (!gst_video_decoder_negotiate(vdec)) {
    *current = Vp9DecOutputFormat();
    return GST_PAD_IS_FLUSHING(src) ? GST_FLOW_FLUSHING : GST_FLOW_NOT_NEGOTIATED;
  }
  *current = f;
  return GST_FLOW_OK;
}

GstFlowReturn vp9dec_copy_to_output(GstVideoDecoder *vdec, GstVideoCodecFrame *frame,
                                    const V3dVp9Picture &pic, const Vp9DecOutputMode &mode) {
  GstFlowReturn ret = gst_video_decoder_allocate_output_frame(vdec, frame);
  if (ret != GST_FLOW_OK) return ret;
  GstVideoCodecState *state = gst_video_decoder_get_output_state(vdec);
  if (mode.add_video_meta && !gst_buffer_get_video_meta(frame->output_buffer)) {
    const GstVideoInfo *vi = &state->info;
    gst_buffer_add_video_meta_full(frame->output_buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT(vi), GST_VIDEO_INFO_WIDTH(vi), GST_VIDEO_INFO_HEIGHT(vi),
        GST_VIDEO_INFO_N_PLANES(vi), const_cast<gsize *>(vi->offset),
        const_cast<gint *>(vi->stride));
  }
  GstVideoFrame out;
  const bool mapped = gst_video_frame_map(&out, &state->info, frame->output_buffer, GST_MAP_WRITE);
  gst_video_codec_state_unref(state);
  if (!mapped) {
    GST_ELEMENT_ERROR(vdec, RESOURCE, WRITE, ("Could not map an output buffer"), (nullptr));
    return GST_FLOW_ERROR;
  }
  vp9dec_copy_picture(pic, &out);
  gst_video_frame_unmap(&out);
  return GST_FLOW_OK;
}

}  // namespace v3d
