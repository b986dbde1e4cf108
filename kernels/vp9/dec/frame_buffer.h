// SPDX-License-Identifier: LGPL-2.1-or-later
// Reference-counted decoded frames of the VP9 decoder: one v3d_shared_alloc() block per frame
// (planes padded to whole 64x64 superblocks), shared by reference slots, the output queue and
// the application's pictures. ref()/unref() are thread-safe; the rest belongs to the decoder's
// thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "v3d/v3d.h"

namespace v3d::vp9 {

struct FrameBuffer {
  std::atomic<int> refs{1};
  uint8_t *mem = nullptr;  // v3d_shared_alloc block
  size_t mem_size = 0;
  uint8_t *planes[3] = {};
  ptrdiff_t strides[3] = {};
  int width = 0, height = 0;     // frame size
  int alloc_w = 0, alloc_h = 0;  // luma allocation (multiples of 64)
  int render_width = 0, render_height = 0;
  int color_space = 0, color_range = 0;
  // What the context asked of v3d_shared_alloc for mem (v3d_context_shares_gpu_memory): its GPU's
  // memory, or plain memory (mem may be plain memory all the same, where the GPU had none left).
  bool gpu_memory = false;

  void ref() { refs.fetch_add(1, std::memory_order_relaxed); }
  // Frees the frame when the last reference goes.
  void unref() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      v3d_shared_free(mem);
      delete this;
    }
  }
};

// Frames the decoder may reuse: each pooled frame holds one reference for the pool, so a frame
// whose count is 1 is free for the next decoded frame.
class FramePool {
 public:
  ~FramePool() { clear(); }
  // A frame of at least w x h (reused when one of the same allocation and of the kind of memory
  // ctx hands out now is free: a decoder moved to another context replaces its frames as they
  // come free), with one reference for the caller. nullptr when memory runs out.
  FrameBuffer *get(V3dContext *ctx, int w, int h);
  void clear();

 private:
  std::vector<FrameBuffer *> frames_;
};

}  // namespace v3d::vp9
