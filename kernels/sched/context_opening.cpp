// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_context_open_async: a context created on a thread of its own (v3d/context.h). The thread
// only calls v3d_context_new_with_options; the handle owns copies of the options' strings, the
// result and the error message (v3d_last_error is per thread, so it is copied on the thread).
#include <chrono>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include "v3d/context.h"
#include "v3d/v3d.h"

struct V3dContextOpening {
  std::string backend, gpu_device;
  V3dContextOptions options{};
  std::thread thread;
  std::mutex lock;
  bool done = false;   // the thread has finished
  bool taken = false;  // poll handed the result out
  V3dContext *ctx = nullptr;
  std::string error;
  double seconds = 0;
};

namespace {

void open_on_thread(V3dContextOpening *op) {
  const auto t0 = std::chrono::steady_clock::now();
  V3dContext *ctx = v3d_context_new_with_options(&op->options);
  const std::string why = ctx ? "" : v3d_last_error();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
  std::lock_guard<std::mutex> l(op->lock);
  op->ctx = ctx;
  op->error = why;
  op->seconds = took.count();
  op->done = true;
}

}  // namespace

extern "C" {

V3dContextOpening *v3d_context_open_async(const V3dContextOptions *options) {
  auto *op = new (std::nothrow) V3dContextOpening;
  if (!op) return nullptr;
  op->options.gpu_share = -1;
  if (options) {
    op->options = *options;
    if (options->backend) op->backend = options->backend;
    if (options->gpu_device) op->gpu_device = options->gpu_device;
  }
  op->options.backend = options && options->backend ? op->backend.c_str() : nullptr;
  op->options.gpu_device = options && options->gpu_device ? op->gpu_device.c_str() : nullptr;
  try {
    op->thread = std::thread(open_on_thread, op);
  } catch (...) {
    delete op;
    return nullptr;
  }
  return op;
}

int v3d_context_opening_poll(V3dContextOpening *op, V3dContext **ctx, double *seconds) {
  if (!op) return -1;
  std::lock_guard<std::mutex> l(op->lock);
  if (op->taken) return -1;
  if (!op->done) return 0;
  op->taken = true;
  if (seconds) *seconds = op->seconds;
  if (ctx) {
    *ctx = op->ctx;
    op->ctx = nullptr;
  }
  return 1;
}

const char *v3d_context_opening_error(const V3dContextOpening *op) {
  if (!op) return "";
  auto *o = const_cast<V3dContextOpening *>(op);
  std::lock_guard<std::mutex> l(o->lock);
  return o->done ? o->error.c_str() : "";
}

void v3d_context_opening_free(V3dContextOpening *op) {
  if (!op) return;
  if (op->thread.joinable()) op->thread.join();
  if (op->ctx) v3d_context_free(op->ctx);
  delete op;
}

}  // extern "C"
