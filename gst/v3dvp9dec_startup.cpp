// SPDX-License-Identifier: LGPL-2.1-or-later
// v3dvp9dec's start-up: the context opened on a thread of its own. See v3dvp9dec_startup.h.
#include "v3dvp9dec_startup.h"

#include "gstv3delements.h"

GST_DEBUG_CATEGORY_EXTERN(gst_v3d_vp9_dec_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_dec_debug

namespace v3d {

void ContextOpener::start(const ElementContextOptions &opts) {
  cancel();
  std::lock_guard<std::mutex> lock(lock_);
  pending_ = true;
  done_ = false;
  error_.clear();
  // The thread's own copies: the element's options may change once it returns.
  const std::string backend = gst_v3d_backend_to_string(opts.backend);
  const std::string device = opts.gpu_device;
  const int threads = static_cast<int>(opts.cpu_threads);
  const double share = opts.gpu_share;
  thread_ = std::thread([this, backend, device, threads, share] {
    const gint64 t0 = g_get_monotonic_time();
    V3dContextOptions o = {};
    o.backend = backend.c_str();
    o.cpu_threads = threads;
    o.gpu_device = device.empty() ? nullptr : device.c_str();
    o.gpu_share = share;
    V3dContext *ctx = v3d_context_new_with_options(&o);
    const std::string why = ctx ? "" : v3d_last_error();  // the error is per thread
    std::lock_guard<std::mutex> l(lock_);
    ctx_ = ctx;
    error_ = why;
    seconds_ = (g_get_monotonic_time() - t0) / 1e6;
    done_ = true;
  });
}

bool ContextOpener::pending() {
  std::lock_guard<std::mutex> lock(lock_);
  return pending_;
}

bool ContextOpener::opening() {
  std::lock_guard<std::mutex> lock(lock_);
  return pending_ && !done_;
}

V3dContext *ContextOpener::take(bool *done, std::string *error, double *seconds) {
  std::lock_guard<std::mutex> lock(lock_);
  *done = pending_ && done_;
  if (!*done) return nullptr;
  pending_ = false;
  *error = error_;
  *seconds = seconds_;
  V3dContext *ctx = ctx_;
  ctx_ = nullptr;
  return ctx;
}

void ContextOpener::cancel() {
  std::thread t;
  {
    std::lock_guard<std::mutex> lock(lock_);
    t = std::move(thread_);
  }
  if (t.joinable()) t.join();  // outside the lock: the thread takes it to finish
  std::lock_guard<std::mutex> lock(lock_);
  if (ctx_) v3d_context_free(ctx_);
  ctx_ = nullptr;
  pending_ = done_ = false;
}

V3dContext *vp9dec_adopt_opened(GstElement *element, ContextOpener &opener,
                                ElementContext &context, GstV3dBackend asked,
                                V3dContext *startup) {
  bool done = false;
  std::string why;
  double seconds = 0;
  V3dContext *ctx = opener.take(&done, &why, &seconds);
  if (!done) return nullptr;
  const gchar *backend = gst_v3d_backend_to_string(asked);
  if (!ctx) {
    GST_ELEMENT_WARNING(element, RESOURCE, NOT_FOUND,
        ("Could not set up the v3d \"%s\" backend: %s; decoding stays on the CPU", backend,
         why.c_str()), (nullptr));
    return startup ? context.install(element, v3d_context_ref(startup), GST_V3D_BACKEND_CPU)
                   : nullptr;
  }
  const gchar *gpu = v3d_context_gpu_name(ctx);
  GST_INFO_OBJECT(element, "v3d context opened in the background in %.1f ms: backend %s (asked "
                  "%s), %d CPU threads, GPU %s; decoding moves to it", seconds * 1e3,
                  v3d_context_backend(ctx), backend, v3d_context_cpu_threads(ctx),
                  gpu ? gpu : "none");
  if (asked == GST_V3D_BACKEND_HYBRID && !gpu) {
    GST_ELEMENT_WARNING(element, RESOURCE, NOT_FOUND,
        ("No usable GPU for the hybrid backend: running on the CPU only (%s)",
         v3d_context_backend(ctx)), (nullptr));
  }
  return context.install(element, ctx, asked);
}

V3dContext *vp9dec_startup_context(const ElementContextOptions &opts) {
  V3dContextOptions o = {};
  o.backend = "simd";
  o.cpu_threads = static_cast<int>(opts.cpu_threads);
  o.gpu_share = -1;
  return v3d_context_new_with_options(&o);
}

}  // namespace v3d
