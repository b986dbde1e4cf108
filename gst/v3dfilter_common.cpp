// SPDX-License-Identifier: LGPL-2.1-or-later
// Shared helpers of the v3d filter elements. See v3dfilter_common.h.
#include "v3dfilter_common.h"

#include <gst/video/video.h>

#include <cstring>

#include <gst/v3d/v3dcontext.h>
#include <gst/v3d/v3dpool.h>

namespace v3d {

V3dContext *ElementContext::ref() {
  std::lock_guard<std::mutex> lock(lock_);
  return ctx_ ? v3d_context_ref(ctx_) : nullptr;
}

void ElementContext::offer(GstElement *element, GstContext *context, GstV3dBackend wanted) {
  gchar *offered = nullptr;
  V3dContext *ctx = gst_v3d_context_from_gst_context(context, &offered);
  if (!ctx) return;
  bool adopted = false;
  if (gst_v3d_context_backend_compatible(gst_v3d_backend_to_string(wanted), offered)) {
    std::lock_guard<std::mutex> lock(lock_);
    if (!ctx_) {
      ctx_ = ctx;
      backend_ = offered ? offered : "";
      ctx = nullptr;
      adopted = true;
    }
  }
  GST_DEBUG_OBJECT(element, "%s a v3d context made for backend %s",
                   adopted ? "adopted" : "ignored", offered ? offered : "(unknown)");
  if (ctx) v3d_context_free(ctx);
  g_free(offered);
}

bool ElementContext::ensure(GstElement *element, const ElementContextOptions &s) {
  auto have = [this]() {
    V3dContext *c = ref();
    if (c) v3d_context_free(c);
    return c != nullptr;
  };
  if (have()) return true;
  gst_v3d_context_query_peers(element);
  if (have()) return true;
  gst_v3d_context_post_need(element);
  if (have()) return true;

  const gchar *backend = gst_v3d_backend_to_string(s.backend);
  V3dContextOptions opts = {};
  opts.backend = backend;
  opts.cpu_threads = static_cast<int>(s.cpu_threads);
  opts.gpu_device = s.gpu_device.empty() ? nullptr : s.gpu_device.c_str();
  opts.gpu_share = s.gpu_share;
  V3dContext *ctx = v3d_context_new_with_options(&opts);
  if (!ctx) {
    std::string why = v3d_last_error();
    GST_ELEMENT_ERROR(element, RESOURCE, NOT_FOUND,
        ("Could not set up the v3d \"%s\" backend: %s", backend, why.c_str()),
        ("v3d_context_new_with_options(backend=%s, cpu_threads=%u, gpu_device=%s) failed",
         backend, s.cpu_threads, opts.gpu_device ? opts.gpu_device : "(default)"));
    return false;
  }
  const gchar *used = v3d_context_backend(ctx);
  const gchar *gpu = v3d_context_gpu_name(ctx);
  GST_INFO_OBJECT(element, "created a v3d context: backend %s (asked %s), %d CPU threads, GPU %s",
                  used, backend, v3d_context_cpu_threads(ctx), gpu ? gpu : "none");
  if (s.backend == GST_V3D_BACKEND_HYBRID && !gpu) {
    GST_ELEMENT_WARNING(element, RESOURCE, NOT_FOUND,
        ("No usable GPU for the hybrid backend: running on the CPU only (%s)", used), (nullptr));
  }
  std::string label;
  {
    std::lock_guard<std::mutex> lock(lock_);
    if (ctx_) {  // adopted one meanwhile (another thread's set_context)
      v3d_context_free(ctx);
      return true;
    }
    ctx_ = ctx;
    backend_ = s.backend == GST_V3D_BACKEND_AUTO ? used : backend;
    label = backend_;
  }
  if (GstContext *existing = gst_element_get_context(element, GST_V3D_CONTEXT_TYPE)) {
    gst_context_unref(existing);  // incompatible (ignored): ours stays private
    GST_INFO_OBJECT(element, "the pipeline shares a v3d context of another backend: this "
                             "element uses its own \"%s\" context", backend);
    return true;
  }
  gst_v3d_context_post(element, ctx, label.c_str());
  return true;
}

void ElementContext::drop() {
  V3dContext *ctx;
  {
    std::lock_guard<std::mutex> lock(lock_);
    ctx = ctx_;
    ctx_ = nullptr;
    backend_.clear();
  }
  if (ctx) v3d_context_free(ctx);
}

bool ElementContext::answer_query(GstElement *element, GstQuery *query) {
  V3dContext *ctx;
  std::string backend;
  {
    std::lock_guard<std::mutex> lock(lock_);
    ctx = ctx_ ? v3d_context_ref(ctx_) : nullptr;
    backend = backend_;
  }
  if (!ctx) return false;
  bool answered = gst_v3d_context_handle_query(element, query, ctx,
                                               backend.empty() ? nullptr : backend.c_str());
  v3d_context_free(ctx);
  return answered;
}

void add_context_stats(GstStructure *s, V3dContext *ctx) {
  V3dStats st = {};
  const gchar *backend = "none", *gpu = nullptr;
  gint threads = 0;
  gboolean gpu_memory = FALSE;
  if (ctx) {
    v3d_context_get_stats(ctx, &st);
    gpu_memory = v3d_context_shares_gpu_memory(ctx) != 0;
    backend = v3d_context_backend(ctx);
    gpu = v3d_context_gpu_name(ctx);
    threads = v3d_context_cpu_threads(ctx);
  }
  gst_structure_set(s,
      "backend", G_TYPE_STRING, backend,
      "gpu-device", G_TYPE_STRING, gpu ? gpu : "",
      "cpu-threads", G_TYPE_INT, threads,
      "context-frames", G_TYPE_UINT64, static_cast<guint64>(st.frames),
      "blocks-cpu", G_TYPE_UINT64, static_cast<guint64>(st.blocks_cpu),
      "blocks-gpu", G_TYPE_UINT64, static_cast<guint64>(st.blocks_gpu),
      "cpu-time", G_TYPE_DOUBLE, st.cpu_seconds,
      "gpu-time", G_TYPE_DOUBLE, st.gpu_seconds,
      "gpu-share", G_TYPE_DOUBLE, st.gpu_share,
      "copies", G_TYPE_UINT64, static_cast<guint64>(st.copies),
      "gpu-submissions", G_TYPE_UINT64, static_cast<guint64>(st.gpu_submissions),
      "shared-memory", G_TYPE_STRING, gpu_memory ? "gpu" : "plain",
      nullptr);
}

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

void extend_to_8x8(uint8_t *const planes[3], const ptrdiff_t strides[3], int w, int h) {
  const int rw = (w + 7) / 8 * 8, rh = (h + 7) / 8 * 8;
  for (int p = 0; p < 3; p++) {
    const int vw = p ? (w + 1) / 2 : w, vh = p ? (h + 1) / 2 : h;
    const int pw = p ? rw / 2 : rw, ph = p ? rh / 2 : rh;
    uint8_t *d = planes[p];
    const ptrdiff_t s = strides[p];
    for (int y = 0; y < vh && vw < pw; y++) memset(d + y * s + vw, d[y * s + vw - 1], pw - vw);
    for (int y = vh; y < ph; y++) memcpy(d + y * s, d + (vh - 1) * s, pw);
  }
}

void OutputPool::reset() {
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

guint64 OutputPool::copies() {
  std::lock_guard<std::mutex> lock(lock_);
  return copies_;
}

double OutputPool::copy_seconds() {
  std::lock_guard<std::mutex> lock(lock_);
  return copy_us_ / 1e6;
}

bool OutputPool::ensure_pool(GstElement *element, V3dContext *ctx, const GstVideoInfo &info) {
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

GstFlowReturn OutputPool::prepare(GstElement *element, V3dContext *ctx, const GstVideoInfo &info,
                                  GstBuffer *in, GstBuffer **out, bool defer_pixels) {
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
  if (!defer_pixels) count_copy((g_get_monotonic_time() - t0) / 1e6);
  *out = buf;
  return GST_FLOW_OK;
}

bool OutputPool::copy_pixels(GstElement *element, const GstVideoInfo &info, GstBuffer *in,
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

void OutputPool::count_copy(double seconds) {
  std::lock_guard<std::mutex> lock(lock_);
  copies_++;
  copy_us_ += static_cast<gint64>(seconds * 1e6);
}

}  // namespace v3d
