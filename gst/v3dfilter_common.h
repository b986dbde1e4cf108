// SPDX-License-Identifier: LGPL-2.1-or-later
// Helpers of the in-place v3d filter elements (used by their base class GstV3dFilter, v3dfilter.h):
// the element's V3dContext slot with its GstContext sharing (rules in v3dcontext.h), the
// context's part of the "stats" structure, and edge extension of the 8x8-rounded plane area.
//
// Ownership and threads: an ElementContext belongs to one element; its methods are thread-safe
// (own lock, never held while calling into GStreamer or the kernel library).
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
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

// propose_allocation: offers upstream a GstV3dBufferPool of ctx (its allocator's shared memory
// saves GPU copies; with GstVideoMeta its planes are padded to whole 8x8 luma blocks), as a pool
// when upstream asked for one, and its allocator in any case. Video caps only.
void propose_v3d_pool(GstElement *element, GstQuery *query, V3dContext *ctx);

// Output buffers for frames that arrive read-only. A decoder keeps its reference frames, so most
// buffers it pushes are shared and an in-place filter may not write them. GstBaseTransform's
// default then copies the buffer into freshly allocated memory (page faults on every frame, and
// for v3d memory a new GPU allocation per frame); instead, prepare() copies the frame's planes
// into a buffer of this pool: v3d shared memory (GPU-visible), planes padded to whole 8x8 luma
// blocks, allocated once and reused.
// Ownership and threads: one per element; prepare() runs on the streaming thread, reset() from
// set_caps/stop; copies() from any thread.
class OutputPool {
 public:
  OutputPool() = default;
  OutputPool(const OutputPool &) = delete;
  OutputPool &operator=(const OutputPool &) = delete;
  ~OutputPool() { reset(); }
  // Drops the pool (new caps, stop, context change).
  void reset();
  // GstBaseTransform::prepare_output_buffer of an in-place filter: *out = in when in and all its
  // memory are writable; otherwise a pool buffer holding a copy of in's visible planes, with its
  // flags, timestamps and metas (except GstVideoMeta, which the pool buffer has of its own).
  // info: the negotiated format. ctx: the element's context (the pool's memory is its).
  // defer_pixels: the pool buffer gets in's flags, timestamps and metas but not its pixels (the
  // caller copies them itself, e.g. row by row inside a kernel; copy_pixels() otherwise).
  GstFlowReturn prepare(GstElement *element, V3dContext *ctx, const GstVideoInfo &info,
                        GstBuffer *in, GstBuffer **out, bool defer_pixels = false);
  // Copies in's visible planes into out (both per info), counted as one input copy. FALSE with
  // an element error when a frame cannot be mapped.
  bool copy_pixels(GstElement *element, const GstVideoInfo &info, GstBuffer *in, GstBuffer *out);
  // Counts a copy done elsewhere (inside a kernel), with the seconds it took if known.
  void count_copy(double seconds);
  // Frames copied by prepare() so far, and the seconds spent copying them.
  guint64 copies();
  double copy_seconds();

 private:
  bool ensure_pool(GstElement *element, V3dContext *ctx, const GstVideoInfo &info);
  std::mutex lock_;
  GstBufferPool *pool_ = nullptr;
  V3dContext *pool_ctx_ = nullptr;  // not referenced: only compared
  GstVideoInfo info_{};
  guint64 copies_ = 0;
  gint64 copy_us_ = 0;
};

// Fills each plane's area between its visible edge (w x h luma, (w+1)/2 x (h+1)/2 chroma) and
// the 8x8-rounded edge (v3d.h) by repeating the last visible column, then the last visible row.
void extend_to_8x8(uint8_t *const planes[3], const ptrdiff_t strides[3], int w, int h);

}  // namespace v3d
