// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_context_open_async (v3d/context.h): a context created on a thread of its own is handed out
// once by poll, with the backend and threads asked for; the options' strings are the handle's
// own copies; a failed creation is reported by poll and v3d_context_opening_error; freeing a
// handle whose result was not taken releases the context; NULL arguments are refused.
#include <chrono>
#include <cstring>
#include <thread>

#include "common/test_util.h"
#include "v3d/v3d.h"

using v3dtest::check;

namespace {

// Polls op until the creation is done (at most about a minute); returns poll's last answer.
int wait_done(V3dContextOpening *op, V3dContext **ctx, double *seconds) {
  int r = 0;
  for (int i = 0; i < 6000 && (r = v3d_context_opening_poll(op, ctx, seconds)) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return r;
}

void opens_simd() {
  char backend[8];
  std::strcpy(backend, "simd");
  V3dContextOptions o = {};
  o.backend = backend;
  o.cpu_threads = 2;
  o.gpu_share = -1;
  V3dContextOpening *op = v3d_context_open_async(&o);
  std::strcpy(backend, "bogus");  // the handle must have copied the string
  check(op != nullptr, "open_async(simd) returned NULL");
  if (!op) return;
  V3dContext *ctx = nullptr;
  double seconds = -1;
  check(wait_done(op, &ctx, &seconds) == 1, "poll never reported the simd context done");
  check(ctx != nullptr, "simd context not created: %s", v3d_context_opening_error(op));
  check(seconds >= 0, "seconds %f", seconds);
  check(std::strcmp(v3d_context_opening_error(op), "") == 0, "error after success: %s",
        v3d_context_opening_error(op));
  if (ctx) {
    check(std::strcmp(v3d_context_backend(ctx), "simd") == 0, "backend %s",
          v3d_context_backend(ctx));
    check(v3d_context_cpu_threads(ctx) == 2, "threads %d", v3d_context_cpu_threads(ctx));
  }
  V3dContext *again = reinterpret_cast<V3dContext *>(&o);
  check(v3d_context_opening_poll(op, &again, nullptr) == -1, "second poll did not return -1");
  check(again == reinterpret_cast<V3dContext *>(&o), "second poll wrote *ctx");
  v3d_context_opening_free(op);
  v3d_context_free(ctx);  // the caller's reference outlives the handle
}

void reports_failure() {
  V3dContextOptions o = {};
  o.backend = "no-such-backend";
  o.gpu_share = -1;
  V3dContextOpening *op = v3d_context_open_async(&o);
  check(op != nullptr, "open_async(bad backend) returned NULL");
  if (!op) return;
  V3dContext *ctx = reinterpret_cast<V3dContext *>(&o);
  check(wait_done(op, &ctx, nullptr) == 1, "poll never reported the failed creation done");
  check(ctx == nullptr, "a context for an unknown backend");
  check(std::strstr(v3d_context_opening_error(op), "no-such-backend") != nullptr,
        "error does not name the backend: '%s'", v3d_context_opening_error(op));
  v3d_context_opening_free(op);
}

void free_without_taking() {
  // Defaults (NULL options) and a handle freed at once, perhaps while still opening: free waits
  // for the thread and drops the context (ASan's leak check sees a reference left).
  v3d_context_opening_free(v3d_context_open_async(nullptr));
  V3dContextOptions o = {};
  o.backend = "scalar";
  o.gpu_share = -1;
  V3dContextOpening *op = v3d_context_open_async(&o);
  check(wait_done(op, nullptr, nullptr) == 1, "poll with ctx NULL never reported done");
  v3d_context_opening_free(op);  // the context poll did not hand out
}

void refuses_null() {
  V3dContext *ctx = nullptr;
  check(v3d_context_opening_poll(nullptr, &ctx, nullptr) == -1, "poll(NULL) did not return -1");
  check(std::strcmp(v3d_context_opening_error(nullptr), "") == 0, "error(NULL) not empty");
  v3d_context_opening_free(nullptr);
}

}  // namespace

int main() {
  opens_simd();
  reports_failure();
  free_without_taking();
  refuses_null();
  return v3dtest::finish();
}
