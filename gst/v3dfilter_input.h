// SPDX-License-Identifier: LGPL-2.1-or-later
// Input frames of a v3d filter element (GstV3dFilter, v3dfilter.h): the pool offered upstream,
// and the copies of frames that arrive read-only.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <mutex>

namespace v3d {

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
// Ownership and threads: one per element; prepare(), take_source() and drop_pending() run on the
// streaming thread, reset() at PAUSED->READY; copies() and copy_seconds() from any thread.
class InputCopies {
 public:
  InputCopies() = default;
  InputCopies(const InputCopies &) = delete;
  InputCopies &operator=(const InputCopies &) = delete;
  ~InputCopies() { reset(); }
  // Drops the pool and any pending source (new caps, stop, context change).
  void reset();
  // GstBaseTransform::prepare_output_buffer of an in-place filter: *out = in when in and all its
  // memory are writable; otherwise a pool buffer holding a copy of in's visible planes, with its
  // flags, timestamps and metas (except GstVideoMeta, which the pool buffer has of its own).
  // info: the negotiated format. ctx: the element's context (the pool's memory is its).
  // defer_pixels: the pool buffer gets in's flags, timestamps and metas but not its pixels (the
  // caller copies them itself, e.g. row by row inside a kernel; copy_pixels() otherwise).
  GstFlowReturn prepare(GstElement *element, V3dContext *ctx, const GstVideoInfo &info,
                        GstBuffer *in, GstBuffer **out, bool defer_pixels = false);
  // Copies in's visible planes into out (both per info; the caller counts the copy). FALSE with
  // an element error when a frame cannot be mapped.
  bool copy_pixels(GstElement *element, const GstVideoInfo &info, GstBuffer *in, GstBuffer *out);
  // Counts a copy done elsewhere (inside a kernel), with the seconds it took if known.
  void count_copy(double seconds);
  // A deferred copy: after prepare() with defer_pixels gave out != in, the read-only source
  // whose pixels out lacks (a new reference; transfer full), once, for that out only; NULL
  // otherwise. drop_pending() forgets it.
  GstBuffer *take_source(GstBuffer *out);
  void drop_pending();
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
  GstBuffer *pending_dst_ = nullptr;  // streaming thread only
  GstBuffer *pending_src_ = nullptr;
  gint64 copy_us_ = 0;
};

}  // namespace v3d
