// SPDX-License-Identifier: LGPL-2.1-or-later
// v3dvp9dec's start-up: the context opened on a thread of its own. See v3dvp9dec_startup.h.
#include "v3dvp9dec_startup.h"

#include <utility>

#include "gstv3delements.h"

GST_DEBUG_CATEGORY_EXTERN(gst_v3d_vp9_dec_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_dec_debug

namespace v3d {

void ContextOpener::start(const ElementContextOptions &opts) {
  cancel();
  V3dContextOptions o = {};  // copied by the library: the element's options may change later
  o.backend = gst_v3d_backend_to_string(opts.backend);
  o.cpu_threads = static_cast<int>(opts.cpu_threads);
  o.gpu_device = opts.gpu_device.empty() ? nullptr : opts.gpu_device.c_str();
  o.gpu_share = opts.gpu_share;
  V3dContextOpening *op = v3d_context_open_async(&o);
  std::lock_guard<std::mutex> lock(lock_);
  op_ = op;
  pending_ = true;
  done_ = !op;  // no thread: a failed creation
  error_ = op ? "" : "could not start the thread that opens the context";
  seconds_ = 0;
}

void ContextOpener::poll_locked() {
  if (!op_ || done_) return;
  if (v3d_context_opening_poll(op_, &ctx_, &seconds_) != 1) return;
  error_ = ctx_ ? "" : v3d_context_opening_error(op_);
  done_ = true;
}

bool ContextOpener::pending() {
  std::lock_guard<std::mutex> lock(lock_);
  return pending_;
}

bool ContextOpener::opening() {
  std::lock_guard<std::mutex> lock(lock_);
  poll_locked();
  return pending_ && !done_;
}

V3dContext *ContextOpener::take(bool *done, std::string *error, double *seconds) {
  std::lock_guard<std::mutex> lock(lock_);
  poll_locked();
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
  V3dContextOpening *op;
  {
    std::lock_guard<std::mutex> lock(lock_);
    op = std::exchange(op_, nullptr);
  }
  v3d_context_opening_free(op);  // outside the lock: waits for a device still opening
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
