// SPDX-License-Identifier: LGPL-2.1-or-later
// NV12 frames for library functions that take three planes (Y, Cb, Cr): the interleaved chroma
// plane is split into two scratch planes before the call and merged back after it.
//
// Ownership and threads: a ChromaScratch belongs to one element and is used by its streaming
// thread only (grown at caps time or per buffer, freed at stop). Not thread-safe.
#pragma once

#include <gst/video/video.h>
#include <v3d/v3d.h>

namespace v3d {

class ChromaScratch {
 public:
  ChromaScratch() = default;
  ChromaScratch(const ChromaScratch &) = delete;
  ChromaScratch &operator=(const ChromaScratch &) = delete;
  ~ChromaScratch() { reset(); }

  // Room for the chroma planes of a width x height (luma) picture: (width+1)/2 x (height+1)/2
  // each, in ctx's shared memory (no GPU copy). Keeps what it has when that is large enough.
  // Returns false when the allocation fails.
  bool ensure(V3dContext *ctx, int width, int height);
  void reset();

  // Splits the UV plane (plane 1) of a mapped NV12 frame, (width+1)/2 x (height+1)/2 samples,
  // into the scratch planes, and sets planes[1..2] and strides[1..2] to them. The frame's plane
  // must hold that area (the caps size, or a checked larger coded size).
  void split(const GstVideoFrame &frame, int width, int height, uint8_t *planes[3],
             ptrdiff_t strides[3]) const;
  // After a successful call: the scratch planes back into the frame's UV plane.
  void merge(GstVideoFrame &frame, int width, int height) const;

 private:
  guint8 *mem_ = nullptr;  // Cb plane, then Cr plane (v3d_shared_alloc)
  gsize size_ = 0;
  gsize stride_ = 0;
  int rows_ = 0;
};

}  // namespace v3d
