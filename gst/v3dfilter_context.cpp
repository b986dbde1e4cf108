// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter's context sharing: the element's V3dContext slot, its GstContext vfuncs and its
// stats fields. See v3dfilter_context.h and v3dfilter.h.
#include "v3dfilter_context.h"

#include <gst/v3d/v3dcontext.h>

#include <cstring>

#include "v3dfilter_private.h"

#define GST_CAT_DEFAULT gst_v3d_filter_debug

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

bool ElementContext::find_shared(GstElement *element) {
  auto have = [this]() {
    V3dContext *c = ref();
    if (c) v3d_context_free(c);
    return c != nullptr;
  };
  if (have()) return true;
  gst_v3d_context_query_peers(element);
  if (have()) return true;
  gst_v3d_context_post_need(element);
  return have();
}

bool ElementContext::ensure(GstElement *element, const ElementContextOptions &s) {
  if (find_shared(element)) return true;

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
  v3d_context_free(install(element, ctx, s.backend));
  return true;
}

V3dContext *ElementContext::install(GstElement *element, V3dContext *ctx, GstV3dBackend asked) {
  const gchar *backend = gst_v3d_backend_to_string(asked);
  std::string label;
  {
    std::lock_guard<std::mutex> lock(lock_);
    if (ctx_) {  // adopted one meanwhile (another thread's set_context)
      v3d_context_free(ctx);
      return v3d_context_ref(ctx_);
    }
    ctx_ = ctx;
    backend_ = asked == GST_V3D_BACKEND_AUTO ? v3d_context_backend(ctx) : backend;
    label = backend_;
  }
  if (GstContext *existing = gst_element_get_context(element, GST_V3D_CONTEXT_TYPE)) {
    gst_context_unref(existing);  // incompatible (ignored): ours stays private
    GST_INFO_OBJECT(element, "the pipeline shares a v3d context of another backend: this "
                             "element uses its own \"%s\" context", backend);
  } else {
    gst_v3d_context_post(element, ctx, label.c_str());
  }
  return v3d_context_ref(ctx);
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

}  // namespace v3d

V3dContext *gst_v3d_filter_ref_context(GstV3dFilter *self) {
  return gst_v3d_filter_impl(self)->context.ref();
}

// Adopts the context of a "v3d.context" GstContext if the element has none yet and the context
// was made for a compatible backend (see <gst/v3d/v3dcontext.h>).
void gst_v3d_filter_set_context(GstElement *element, GstContext *context) {
  const GstV3dBackend wanted = gst_v3d_filter_settings(GST_V3D_FILTER(element)).backend;
  gst_v3d_filter_impl(element)->context.offer(element, context, wanted);
}

gboolean gst_v3d_filter_open_context(GstV3dFilter *self) {
  // Finds the pipeline's context (peers, then bins/application) or creates one.
  const v3d::FilterSettings s = gst_v3d_filter_settings(self);
  v3d::ElementContextOptions opts;
  opts.backend = s.backend;
  opts.cpu_threads = s.cpu_threads;
  opts.gpu_device = s.gpu_device;
  opts.gpu_share = s.gpu_share;
  return gst_v3d_filter_impl(self)->context.ensure(GST_ELEMENT(self), opts);
}

void gst_v3d_filter_close_context(GstV3dFilter *self) {
  gst_v3d_filter_impl(self)->context.drop();
}

gboolean gst_v3d_filter_answer_context_query(GstV3dFilter *self, GstQuery *query) {
  // Private contexts (made because the pipeline's shared one has another backend) answer too:
  // neighbours asking for the same backend then share them.
  return GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
         gst_v3d_filter_impl(self)->context.answer_query(GST_ELEMENT(self), query);
}
