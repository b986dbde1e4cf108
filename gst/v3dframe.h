// SPDX-License-Identifier: LGPL-2.1-or-later
// How v3dvp9idct hands an I420 GstVideoFrame to v3d_vp9_itxfm_add_frame: the library processes
// the planes rounded up to whole 8x8 luma blocks (v3d.h), so a frame goes directly only when its
// planes have that room inside the buffer without overlapping each other; otherwise through a
// padded copy in the context's shared memory, made here.
//
// Ownership and threads: an ItxFrameLayout belongs to one element and is used by its streaming
// thread only (set up at caps time, used per buffer, released at stop). Not thread-safe.
#pragma once

#include <gst/video/video.h>
#include <v3d/v3d.h>

namespace v3d {

class ItxFrameLayout {
 public:
  ItxFrameLayout() = default;
  ItxFrameLayout(const ItxFrameLayout &) = delete;
  ItxFrameLayout &operator=(const ItxFrameLayout &) = delete;
  ~ItxFrameLayout() { reset(); }

  // Caps time: the processed plane sizes for info, and the padded copy (v3d_shared_alloc of
  // ctx). Returns false (and stays unconfigured) when the copy can't be allocated.
  bool configure(const GstVideoInfo &info, V3dContext *ctx);
  // Frees the padded copy; unconfigured afterwards.
  void reset();
  bool configured() const { return scratch_ != nullptr; }
  const GstVideoInfo &info() const { return info_; }
  int width() const { return GST_VIDEO_INFO_WIDTH(&info_); }
  int height() const { return GST_VIDEO_INFO_HEIGHT(&info_); }

  // True if buf's planes (its GstVideoMeta's layout, else the caps' default one) each hold the
  // processed area inside one memory block of buf without overlapping another plane's.
  bool has_room(GstBuffer *buf) const;

  // Planes and strides to pass to the library for a mapped frame: the frame's own when direct,
  // else the padded copy, filled with the frame's visible pixels (the rest of the processed
  // area is don't-care: its results are discarded).
  void planes_for(const GstVideoFrame &frame, bool direct, uint8_t *planes[3],
                  ptrdiff_t strides[3]);
  // After a successful call on the padded copy: its visible pixels back into the frame.
  void copy_back(GstVideoFrame &frame) const;

 private:
  GstVideoInfo info_{};
  int pw_[3] = {0, 0, 0};  // processed plane sizes: 8x8-rounded luma, half of it for chroma
  int ph_[3] = {0, 0, 0};
  guint8 *scratch_ = nullptr;  // padded copy (v3d_shared_alloc: no GPU copy either)
  ptrdiff_t scratch_stride_[3] = {0, 0, 0};
  gsize scratch_offset_[3] = {0, 0, 0};
};

// True if buf's planes (its GstVideoMeta's layout, else info's default one) each hold rows[p]
// rows of row_bytes[p] bytes inside one memory block of buf, without overlapping another plane's.
// Arrays of GST_VIDEO_INFO_N_PLANES(info) entries.
bool planes_have_room(GstBuffer *buf, const GstVideoInfo &info, const int row_bytes[],
                      const int rows[]);

// Fills each plane's area between its visible edge (w x h luma, (w+1)/2 x (h+1)/2 chroma) and
// the 8x8-rounded edge (v3d.h) by repeating the last visible column, then the last visible row.
void extend_to_8x8(uint8_t *const planes[3], const ptrdiff_t strides[3], int w, int h);

// Adds the visible pixels of a mapped frame (rows left to right, planes in order, no padding) to
// sum. Planar and semi-planar formats (I420, NV12).
void checksum_visible(GChecksum *sum, const GstVideoFrame &frame);

}  // namespace v3d
