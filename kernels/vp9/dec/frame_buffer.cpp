// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 decoder frame pool.
#include "vp9/dec/frame_buffer.h"

namespace v3d::vp9 {
namespace {

int align64(int v) { return (v + 63) & ~63; }

// Bytes a motion-compensation kernel may load past the last pixel it uses (its widest vector).
constexpr size_t kMcOverread = 64;

}  // namespace

FrameBuffer *FramePool::get(V3dContext *ctx, int w, int h) {
  const int aw = align64(w), ah = align64(h);
  const bool gpu_memory = v3d_context_shares_gpu_memory(ctx) != 0;
  FrameBuffer *spare = nullptr;
  for (size_t i = 0; i < frames_.size(); ++i) {
    FrameBuffer *f = frames_[i];
    if (f->refs.load(std::memory_order_acquire) != 1) continue;
    if (f->alloc_w == aw && f->alloc_h == ah && f->gpu_memory == gpu_memory) {
      f->ref();
      f->width = w;
      f->height = h;
      return f;
    }
    if (!spare) spare = f;
  }
  // A free frame of another size or kind of memory goes.
  if (spare) {
    for (size_t i = 0; i < frames_.size(); ++i) {
      if (frames_[i] == spare) {
        frames_.erase(frames_.begin() + static_cast<ptrdiff_t>(i));
        spare->unref();
        break;
      }
    }
  }
  auto *f = new FrameBuffer();
  const size_t y_stride = static_cast<size_t>(aw), uv_stride = static_cast<size_t>(align64(aw / 2));
  const size_t y_size = y_stride * ah, uv_size = uv_stride * (ah / 2);
  // The SIMD motion compensation loads whole vectors: at the last row of the last plane it may
  // read up to a vector past the last pixel a prediction uses (never using those bytes), so the
  // block ends with that much slack.
  f->mem_size = y_size + 2 * uv_size + kMcOverread;
  f->mem = static_cast<uint8_t *>(v3d_shared_alloc(ctx, f->mem_size));
  if (!f->mem) {
    delete f;
    return nullptr;
  }
  f->gpu_memory = gpu_memory;
  f->alloc_w = aw;
  f->alloc_h = ah;
  f->width = w;
  f->height = h;
  f->planes[0] = f->mem;
  f->planes[1] = f->mem + y_size;
  f->planes[2] = f->mem + y_size + uv_size;
  f->strides[0] = static_cast<ptrdiff_t>(y_stride);
  f->strides[1] = f->strides[2] = static_cast<ptrdiff_t>(uv_stride);
  frames_.push_back(f);  // the pool's reference
  f->ref();              // the caller's
  return f;
}

void FramePool::clear() {
  for (FrameBuffer *f : frames_) f->unref();
  frames_.clear();
}

}  // namespace v3d::vp9
