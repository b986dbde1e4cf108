// SPDX-License-Identifier: LGPL-2.1-or-later
// ChromaScratch: NV12 chroma through two planes. See v3dnv12.h.
#include "v3dnv12.h"

namespace v3d {
namespace {

// Row alignment of the scratch planes: 64 bytes, the alignment of v3d_shared_alloc (v3d.h).
constexpr gsize kRowAlign = 64;

}  // namespace

bool ChromaScratch::ensure(V3dContext *ctx, int width, int height) {
  const gsize cw = static_cast<gsize>(width + 1) / 2;
  const int ch = (height + 1) / 2;
  const gsize stride = (cw + kRowAlign - 1) / kRowAlign * kRowAlign;
  const gsize need = stride * ch * 2;
  if (mem_ && need <= size_ && stride <= stride_ && ch <= rows_) return true;
  reset();
  mem_ = static_cast<guint8 *>(v3d_shared_alloc(ctx, need));
  if (!mem_) return false;
  size_ = need;
  stride_ = stride;
  rows_ = ch;
  return true;
}

void ChromaScratch::reset() {
  if (mem_) v3d_shared_free(mem_);
  mem_ = nullptr;
  size_ = stride_ = 0;
  rows_ = 0;
}

void ChromaScratch::split(const GstVideoFrame &frame, int width, int height, uint8_t *planes[3],
                          ptrdiff_t strides[3]) const {
  const int cw = (width + 1) / 2, ch = (height + 1) / 2;
  const auto *uv = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1));
  const gsize uv_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1);
  guint8 *u = mem_, *v = mem_ + stride_ * rows_;
  for (int y = 0; y < ch; y++) {
    const guint8 *src = uv + y * uv_stride;
    guint8 *du = u + y * stride_, *dv = v + y * stride_;
    for (int x = 0; x < cw; x++) {
      du[x] = src[2 * x];
      dv[x] = src[2 * x + 1];
    }
  }
  planes[1] = u;
  planes[2] = v;
  strides[1] = strides[2] = static_cast<ptrdiff_t>(stride_);
}

void ChromaScratch::merge(GstVideoFrame &frame, int width, int height) const {
  const int cw = (width + 1) / 2, ch = (height + 1) / 2;
  auto *uv = static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1));
  const gsize uv_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1);
  const guint8 *u = mem_, *v = mem_ + stride_ * rows_;
  for (int y = 0; y < ch; y++) {
    guint8 *dst = uv + y * uv_stride;
    const guint8 *su = u + y * stride_, *sv = v + y * stride_;
    for (int x = 0; x < cw; x++) {
      dst[2 * x] = su[x];
      dst[2 * x + 1] = sv[x];
    }
  }
}

}  // namespace v3d
