// SPDX-License-Identifier: LGPL-2.1-or-later
// ItxFrameLayout: direct or padded hand-over of a frame to the library. See v3dframe.h.
#include "v3dframe.h"

#include <cstring>

namespace v3d {
namespace {

void copy_plane(guint8 *dst, gsize dst_stride, const guint8 *src, gsize src_stride, gsize width,
                int height) {
  for (int y = 0; y < height; y++) memcpy(dst + y * dst_stride, src + y * src_stride, width);
}

// Row alignment of the padded copy: 64 bytes, the alignment of v3d_shared_alloc (v3d.h).
constexpr gsize kScratchRowAlign = 64;

}  // namespace

bool ItxFrameLayout::configure(const GstVideoInfo &info, V3dContext *ctx) {
  reset();
  info_ = info;
  const int w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
  // v3d.h, v3d_vp9_itxfm_add_frame: luma 8*ceil(w/8) x 8*ceil(h/8), each chroma plane half that.
  pw_[0] = (w + 7) / 8 * 8;
  ph_[0] = (h + 7) / 8 * 8;
  pw_[1] = pw_[2] = pw_[0] / 2;
  ph_[1] = ph_[2] = ph_[0] / 2;
  gsize total = 0;
  for (int p = 0; p < 3; p++) {
    scratch_stride_[p] = (pw_[p] + kScratchRowAlign - 1) / kScratchRowAlign * kScratchRowAlign;
    scratch_offset_[p] = total;
    total += static_cast<gsize>(scratch_stride_[p]) * ph_[p];
  }
  scratch_ = static_cast<guint8 *>(v3d_shared_alloc(ctx, total));
  if (!scratch_) return false;
  memset(scratch_, 0, total);
  return true;
}

void ItxFrameLayout::reset() {
  if (scratch_) v3d_shared_free(scratch_);
  scratch_ = nullptr;
}

bool ItxFrameLayout::has_room(GstBuffer *buf) const { return planes_have_room(buf, info_, pw_, ph_); }

bool planes_have_room(GstBuffer *buf, const GstVideoInfo &info, const int row_bytes[],
                      const int rows[]) {
  const int n = static_cast<int>(GST_VIDEO_INFO_N_PLANES(&info));
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  if (GstVideoMeta *vmeta = gst_buffer_get_video_meta(buf)) {
    if (static_cast<int>(vmeta->n_planes) != n) return false;
    for (int p = 0; p < n; p++) offset[p] = vmeta->offset[p], stride[p] = vmeta->stride[p];
  } else {
    for (int p = 0; p < n; p++)
      offset[p] = GST_VIDEO_INFO_PLANE_OFFSET(&info, p),
      stride[p] = GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
  }
  gsize start[GST_VIDEO_MAX_PLANES], end[GST_VIDEO_MAX_PLANES];
  for (int p = 0; p < n; p++) {
    if (stride[p] < row_bytes[p] || rows[p] < 1) return false;
    start[p] = offset[p];
    end[p] = offset[p] + static_cast<gsize>(stride[p]) * (rows[p] - 1) + row_bytes[p];
    guint idx = 0, len = 0;
    gsize skip = 0;
    if (end[p] > gst_buffer_get_size(buf) ||
        !gst_buffer_find_memory(buf, start[p], end[p] - start[p], &idx, &len, &skip) || len != 1)
      return false;
  }
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (start[a] < end[b] && start[b] < end[a]) return false;
  return true;
}

void ItxFrameLayout::planes_for(const GstVideoFrame &frame, bool direct, uint8_t *planes[3],
                                ptrdiff_t strides[3]) {
  for (int p = 0; p < 3; p++) {
    auto *data = static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
    if (direct) {
      planes[p] = data;
      strides[p] = stride;
      continue;
    }
    planes[p] = scratch_ + scratch_offset_[p];
    strides[p] = scratch_stride_[p];
    copy_plane(planes[p], strides[p], data, stride, GST_VIDEO_FRAME_COMP_WIDTH(&frame, p),
               GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p));
  }
}

void ItxFrameLayout::copy_back(GstVideoFrame &frame) const {
  for (int p = 0; p < 3; p++)
    copy_plane(static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)),
               GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p), scratch_ + scratch_offset_[p],
               scratch_stride_[p], GST_VIDEO_FRAME_COMP_WIDTH(&frame, p),
               GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p));
}

void checksum_visible(GChecksum *sum, const GstVideoFrame &frame) {
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); p++) {
    // The plane's first component gives its rows and width; interleaved planes (NV12's UV)
    // hold pixel-stride bytes per pixel.
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(frame.info.finfo, p, comp);
    const gsize row = static_cast<gsize>(GST_VIDEO_FRAME_COMP_WIDTH(&frame, comp[0])) *
                      GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, comp[0]);
    const auto *data = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, comp[0]); y++)
      g_checksum_update(
          sum, data + static_cast<gsize>(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p), row);
  }
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


}  // namespace v3d
