// SPDX-License-Identifier: LGPL-2.1-or-later
// v3dvp9dec's start-up (gstv3dvp9dec.cpp): a context of backend auto or hybrid opens its Vulkan
// device when it is created (0.2 s on a desktop GPU, over a second on lavapipe), which would
// hold up the first frame. ContextOpener creates that context on a thread of its own instead
// (v3d_context_open_async, the mechanism v3d-vp9dec uses too), while the decoder starts on a CPU
// context; the element moves the decoder to the opened context (v3d_vp9_decoder_set_context)
// before the first packet after it is ready.
//
// Ownership and threads: one opener per element; its methods are thread-safe. The opening
// thread is the kernel library's and never calls GStreamer.
#pragma once

#include <gst/gst.h>
#include <v3d/v3d.h>

#include <mutex>
#include <string>

#include "v3dfilter_context.h"

namespace v3d {

class ContextOpener {
 public:
  ContextOpener() = default;
  ContextOpener(const ContextOpener &) = delete;
  ContextOpener &operator=(const ContextOpener &) = delete;
  ~ContextOpener() { cancel(); }

  // Starts creating a context with opts (v3d_context_new_with_options) on a new thread. Any
  // earlier opening is cancelled first.
  void start(const ElementContextOptions &opts);
  // TRUE from start() until take() returned the result.
  bool pending();
  // TRUE from start() until the thread is done.
  bool opening();
  // Never blocks. Before the thread is done: nullptr, *done FALSE. After: *done TRUE and the
  // context (the caller's reference), or nullptr with *error saying why the creation failed;
  // later calls give nullptr, *done FALSE. *seconds: how long the creation took.
  V3dContext *take(bool *done, std::string *error, double *seconds);
  // Waits for the thread and releases a context not taken.
  void cancel();

 private:
  // Collects the library's result once it is ready. Called with lock_ held.
  void poll_locked();

  std::mutex lock_;
  V3dContextOpening *op_ = nullptr;
  bool pending_ = false;  // started, result not taken
  bool done_ = false;     // the creation has finished (its result is in ctx_ / error_)
  V3dContext *ctx_ = nullptr;
  std::string error_;
  double seconds_ = 0;
};

// When opener is done: holds its context in `context` (posting it for the pipeline, as
// ElementContext::ensure does; asked: the backend property) and returns a reference to the
// context the element now holds, to move the decoder to; logs how long the open took. When the
// creation failed: an element warning, and `startup` (the CPU context the decoder runs on) is
// held instead. nullptr while still opening. Streaming thread.
V3dContext *vp9dec_adopt_opened(GstElement *element, ContextOpener &opener,
                                ElementContext &context, GstV3dBackend asked,
                                V3dContext *startup);

// The CPU context the decoder starts on while the opener works: backend "simd" with the
// element's cpu-threads. nullptr (v3d_last_error()) on failure.
V3dContext *vp9dec_startup_context(const ElementContextOptions &opts);

}  // namespace v3d
