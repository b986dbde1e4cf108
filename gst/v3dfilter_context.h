// SPDX-License-Identifier: LGPL-2.1-or-later
// The V3dContext of a v3d filter element (GstV3dFilter, v3dfilter.h) and its GstContext sharing
// (rules in <gst/v3d/v3dcontext.h>, helpers of libgstv3d-1.0), and the context's part of the
// "stats" structure.
//
// Ownership and threads: an ElementContext belongs to one element; its methods are thread-safe
// (own lock, never held while calling into GStreamer or the kernel library).
#pragma once

#include <gst/gst.h>
#include <v3d/v3d.h>

#include <mutex>
#include <string>

#include "gstv3delements.h"

namespace v3d {

// What a context this element creates is made with (its properties).
struct ElementContextOptions {
  GstV3dBackend backend = GST_V3D_BACKEND_AUTO;
  guint cpu_threads = 0;
  std::string gpu_device;  // empty = default
  gdouble gpu_share = -1.0;
};

class ElementContext {
 public:
  ElementContext() = default;
  ElementContext(const ElementContext &) = delete;
  ElementContext &operator=(const ElementContext &) = delete;
  ~ElementContext() { drop(); }

  // A new reference to the context, or NULL.
  V3dContext *ref();
  // GstElement::set_context: adopts a "v3d.context" made for a backend compatible with `wanted`
  // while none is held.
  void offer(GstElement *element, GstContext *context, GstV3dBackend wanted);
  // NULL->READY: peers, then bins/application, else creates one (and posts it unless the
  // pipeline shares an incompatible one). FALSE with an element error when creation fails.
  bool ensure(GstElement *element, const ElementContextOptions &opts);
  // The first half of ensure(): TRUE when a context is held or was found at peers or in the
  // bins/application.
  bool find_shared(GstElement *element);
  // The second half, for a context created elsewhere (ctx: the caller's reference, taken): holds
  // it unless one was adopted meanwhile, and posts it as ensure() does, labelled with the backend
  // asked for (for auto, what ctx resolved to). Returns a new reference to the context held.
  V3dContext *install(GstElement *element, V3dContext *ctx, GstV3dBackend asked);
  // READY->NULL (and destruction): releases the context.
  void drop();
  // Answers a CONTEXT query with the held context. TRUE if answered.
  bool answer_query(GstElement *element, GstQuery *query);

 private:
  std::mutex lock_;
  V3dContext *ctx_ = nullptr;
  std::string backend_;  // label for sharing: what was asked for, or what "auto" resolved to
};

// Adds the context's fields (backend, gpu-device, cpu-threads, context-frames, blocks-cpu,
// blocks-gpu, cpu-time, gpu-time, gpu-share, copies, gpu-submissions, shared-memory) to s; ctx
// may be NULL.
void add_context_stats(GstStructure *s, V3dContext *ctx);

}  // namespace v3d
