// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter's input frames: the pool proposed upstream, read-only frames copied into the
// element's own pool (or left to a copy-and-filter kernel). See v3dfilter_input.h.
#include "v3dfilter_input.h"

#include <gst/v3d/v3dpool.h>

#include "v3dfilter_private.h"

#define GST_CAT_DEFAULT gst_v3d_filter_debug

namespace v3d {

void propose_v3d_pool(GstElement *element, GstQuery *query, V3dContext *ctx) {
  GstCaps *caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation(query, &caps, &need_pool);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) return;
  // Offered whether or not upstream asked for a pool: its allocator alone saves the GPU copies.
  GstBufferPool *pool = gst_v3d_buffer_pool_new(ctx);
  GstAllocator *allocator = gst_v3d_buffer_pool_get_allocator(GST_V3D_BUFFER_POOL(pool));
  GstAllocationParams params;
  gst_allocation_params_init(&params);
  params.align = 63;  // 64-byte rows starts help the CPU kernels and GPU transfers alike
  GstStructure *config = gst_buffer_pool_get_config(pool);
  // No GST_BUFFER_POOL_OPTION_VIDEO_META here: upstream adds it if it supports it, and then the
  // pool pads the planes to whole 8x8 luma blocks.
  gst_buffer_pool_config_set_params(config, caps, GST_VIDEO_INFO_SIZE(&info), 0, 0);
  gst_buffer_pool_config_set_allocator(config, allocator, &params);
  if (!gst_buffer_pool_set_config(pool, config)) {
    GST_WARNING_OBJECT(element, "could not configure the v3d pool");
    gst_object_unref(pool);
    return;
  }
  config = gst_buffer_pool_get_config(pool);
  guint size = 0;
  gst_buffer_pool_config_get_params(config, nullptr, &size, nullptr, nullptr);
  gst_structure_free(config);
  gst_query_add_allocation_pool(query, need_pool ? pool : nullptr, size, 0, 0);
  gst_query_add_allocation_param(query, allocator, &params);
  gst_object_unref(pool);
}

void InputCopies::drop_pending() {
  if (pending_src_) gst_buffer_unref(pending_src_);
  pending_src_ = nullptr;
  pending_dst_ = nullptr;
}

GstBuffer *InputCopies::take_source(GstBuffer *out) {
  if (!pending_src_ || pending_dst_ != out) return nullptr;
  GstBuffer *src = pending_src_;
  pending_src_ = nullptr;
  pending_dst_ = nullptr;
  return src;
}

void InputCopies::reset() {
  drop_pending();
  GstBufferPool *pool;
  {
    std::lock_guard<std::mutex> lock(lock_);
    pool = pool_;
    pool_ = nullptr;
    pool_ctx_ = nullptr;
  }
  if (pool) {
    gst_buffer_pool_set_active(pool, FALSE);
    gst_object_unref(pool);
  }
}

guint64 InputCopies::copies() {
  std::lock_guard<std::mutex> lock(lock_);
  return copies_;
}

double InputCopies::copy_seconds() {
  std::lock_guard<std::mutex> lock(lock_);
  return copy_us_ / 1e6;
}

bool InputCopies::ensure_pool(GstElement *element, V3dContext *ctx, const GstVideoInfo &info) {
  {
    std::lock_guard<std::mutex> lock(lock_);
    if (pool_ && pool_ctx_ == ctx && gst_video_info_is_equal(&info_, &info)) return true;
  }
  reset();
  GstBufferPool *pool = gst_v3d_buffer_pool_new(ctx);
  GstStructure *config = gst_buffer_pool_get_config(pool);
  GstCaps *caps = gst_video_info_to_caps(&info);
  // No upper bound: downstream may hold many frames (queues, sinks), and a bounded pool would
  // block the streaming thread until it lets one go.
  gst_buffer_pool_config_set_params(config, caps, GST_VIDEO_INFO_SIZE(&info), 2, 0);
  gst_caps_unref(caps);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(pool, config) || !gst_buffer_pool_set_active(pool, TRUE)) {
    GST_WARNING_OBJECT(element, "could not set up the output pool");
    gst_object_unref(pool);
    return false;
  }
  std::lock_guard<std::mutex> lock(lock_);
  pool_ = pool;
  pool_ctx_ = ctx;
  info_ = info;
  return true;
}

namespace {
// Copies every meta of `from` that can be copied, except GstVideoMeta.
gboolean copy_meta(GstBuffer *from, GstMeta **meta, gpointer user_data) {
  auto *to = static_cast<GstBuffer *>(user_data);
  const GstMetaInfo *info = (*meta)->info;
  if (info->api == GST_VIDEO_META_API_TYPE || !info->transform_func) return TRUE;
  GstMetaTransformCopy copy = {FALSE, 0, static_cast<gsize>(-1)};
  info->transform_func(to, *meta, from, _gst_meta_transform_copy, &copy);
  return TRUE;
}
}  // namespace

GstFlowReturn InputCopies::prepare(GstElement *element, V3dContext *ctx, const GstVideoInfo &info,
                                  GstBuffer *in, GstBuffer **out, bool defer_pixels) {
  drop_pending();
  if (gst_buffer_is_writable(in) && gst_buffer_is_all_memory_writable(in)) {
    *out = in;
    return GST_FLOW_OK;
  }
  const gint64 t0 = g_get_monotonic_time();
  GstBuffer *buf = nullptr;
  if (!ctx || !ensure_pool(element, ctx, info) ||
      gst_buffer_pool_acquire_buffer(pool_, &buf, nullptr) != GST_FLOW_OK) {
    // Last resort: GstBaseTransform's way.
    *out = gst_buffer_make_writable(gst_buffer_ref(in));
    return GST_FLOW_OK;
  }
  if (!defer_pixels && !copy_pixels(element, info, in, buf)) {
    gst_buffer_unref(buf);
    return GST_FLOW_ERROR;
  }
  gst_buffer_copy_into(buf, in,
                       static_cast<GstBufferCopyFlags>(GST_BUFFER_COPY_FLAGS |
                                                       GST_BUFFER_COPY_TIMESTAMPS),
                       0, static_cast<gsize>(-1));
  gst_buffer_foreach_meta(in, copy_meta, buf);
  if (!defer_pixels) {
    count_copy((g_get_monotonic_time() - t0) / 1e6);
  } else {
    pending_dst_ = buf;
    pending_src_ = gst_buffer_ref(in);
  }
  *out = buf;
  return GST_FLOW_OK;
}

bool InputCopies::copy_pixels(GstElement *element, const GstVideoInfo &info, GstBuffer *in,
                             GstBuffer *out) {
  GstVideoFrame src, dst;
  if (!gst_video_frame_map(&src, &info, in, GST_MAP_READ)) {
    GST_ELEMENT_ERROR(element, RESOURCE, READ, ("Could not map the input frame"), (nullptr));
    return false;
  }
  if (!gst_video_frame_map(&dst, &info, out, GST_MAP_WRITE)) {
    gst_video_frame_unmap(&src);
    GST_ELEMENT_ERROR(element, RESOURCE, WRITE, ("Could not map an output frame"), (nullptr));
    return false;
  }
  gst_video_frame_copy(&dst, &src);
  gst_video_frame_unmap(&dst);
  gst_video_frame_unmap(&src);
  return true;
}

void InputCopies::count_copy(double seconds) {
  std::lock_guard<std::mutex> lock(lock_);
  copies_++;
  copy_us_ += static_cast<gint64>(seconds * 1e6);
}


}  // namespace v3d

// A read-only input frame (a decoder's reference frame, which the decoder still uses) is copied
// into the element's own pool of shared memory instead of GstBaseTransform's fresh allocation
// per frame. One frame at a time, a class that copies inside its kernel gets the pixels left to
// it (InputCopies::take_source).
GstFlowReturn gst_v3d_filter_prepare_output_buffer(GstBaseTransform *trans, GstBuffer *in,
                                                   GstBuffer **out) {
  GstVideoFilter *vf = GST_VIDEO_FILTER(trans);
  if (!vf->negotiated) {
    GST_ELEMENT_ERROR(trans, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  GstV3dFilter *self = GST_V3D_FILTER(trans);
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  V3dContext *ctx = impl->context.ref();
  const bool defer = GST_V3D_FILTER_GET_CLASS(self)->copies_source &&
                     gst_v3d_filter_frames_in_flight(self) <= 1;
  GstFlowReturn ret = impl->input.prepare(GST_ELEMENT(trans), ctx, vf->in_info, in, out, defer);
  if (ctx) v3d_context_free(ctx);
  return ret;
}

// The video meta, the subclass's meta, and the v3d pool (shared memory saves GPU copies; with
// GstVideoMeta its planes are padded to whole 8x8 luma blocks).
gboolean gst_v3d_filter_propose_allocation(GstBaseTransform *trans, GstQuery *, GstQuery *query) {
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  const GType meta_api = GST_V3D_FILTER_GET_CLASS(trans)->meta_api;
  if (meta_api) gst_query_add_allocation_meta(query, meta_api, nullptr);
  V3dContext *ctx = gst_v3d_filter_impl(trans)->context.ref();
  if (ctx) {
    v3d::propose_v3d_pool(GST_ELEMENT(trans), query, ctx);
    v3d_context_free(ctx);
  }
  return TRUE;
}

// Copies src's visible pixels into buf (counted as an input copy). FALSE after an element error.
gboolean gst_v3d_filter_copy_source(GstV3dFilter *self, GstBuffer *src, GstBuffer *buf) {
  const gint64 t0 = g_get_monotonic_time();
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  if (!impl->input.copy_pixels(GST_ELEMENT(self), GST_VIDEO_FILTER(self)->in_info, src, buf))
    return FALSE;
  impl->input.count_copy((g_get_monotonic_time() - t0) / 1e6);
  return TRUE;
}
