// SPDX-License-Identifier: LGPL-2.1-or-later
// Minimal test support shared by the kernel tests (no GStreamer, no gtest: the same tests build
// for aarch64 and run under qemu). Every failure prints what failed and the seed that reproduces
// it; main() ends with "N passed, N failed" and exits non-zero on any failure.
#pragma once

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/rng.h"
#include "v3d/v3d.h"

namespace v3dtest {

struct Counter {
  int passed = 0;
  int failed = 0;
};

inline Counter &counter() {
  static Counter c;
  return c;
}

// Seed for a test run: V3D_TEST_SEED if set, else a fixed default (so CI is reproducible), and
// printed either way.
inline uint64_t base_seed() {
  static uint64_t seed = [] {
    const char *e = getenv("V3D_TEST_SEED");
    uint64_t s = e ? strtoull(e, nullptr, 0) : 0x5EED2026ull;
    printf("seed 0x%" PRIx64 " (set V3D_TEST_SEED to change)\n", s);
    return s;
  }();
  return seed;
}

// An iteration count scaled by V3D_TEST_ITERS (a positive factor, default 1), at least 1.
inline int scaled(int base) {
  static const double factor = [] {
    const char *e = getenv("V3D_TEST_ITERS");
    const double v = e ? strtod(e, nullptr) : 1.0;
    return v > 0 ? v : 1.0;
  }();
  const int n = static_cast<int>(base * factor);
  return n > 1 ? n : 1;
}

// CPU worker threads for the contexts under test: V3D_TEST_THREADS when positive, else
// `fallback` (the aarch64 run under qemu sets 1: threads there hang at creation).
inline int test_threads(int fallback = 3) {
  const char *e = getenv("V3D_TEST_THREADS");
  return e && atoi(e) > 0 ? atoi(e) : fallback;
}

// Records one check. Prints a message for failures (first 20 in full, then counted only).
inline bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
inline bool check(bool ok, const char *fmt, ...) {
  Counter &c = counter();
  if (ok) {
    c.passed++;
    return true;
  }
  c.failed++;
  if (c.failed <= 20) {
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
  }
  return false;
}

// Runs case_ok(target, it) for it = 0 .. count - 1 on every SIMD target this CPU has, forced in
// turn (one that cannot be forced is skipped: the target test reports it). A target stops at its
// first failing case, which case_ok reports, and counts one passed check where none failed. The
// automatic target choice is in force again afterwards.
template <class CaseOk>
void each_target_cases(int count, const CaseOk &case_ok) {
  const char *names[32];
  const int all = v3d_cpu_targets(names, 32), nt = all < 32 ? all : 32;
  for (int t = 0; t < nt; t++) {
    if (v3d_cpu_force_target(names[t]) != 0) continue;
    int it = 0;
    while (it < count && case_ok(names[t], it)) it++;
    if (it == count) counter().passed++;
  }
  v3d_cpu_force_target(nullptr);
}

// Prints the closing line and returns the exit code for main().
inline int finish() {
  Counter &c = counter();
  printf("%d passed, %d failed\n", c.passed, c.failed);
  return c.failed ? 1 : 0;
}

// For tests of the GPU backends: true when a "gpu" context opens (the library keeps that Gpu open
// for the process, so the test's own contexts reuse it). Without one: with V3D_REQUIRE_GPU=1 a
// failed check and false (the caller returns finish()), else "SKIP" and exit 77.
inline bool gpu_or_skip() {
  V3dContext *probe = v3d_context_new("gpu", 1);
  if (probe) {
    v3d_context_free(probe);
    return true;
  }
  const char *req = getenv("V3D_REQUIRE_GPU");
  if (req && atoi(req)) {
    check(false, "no Vulkan device although V3D_REQUIRE_GPU is set: %s", v3d_last_error());
    return false;
  }
  printf("SKIP: no Vulkan device (%s)\n", v3d_last_error());
  exit(77);
}

}  // namespace v3dtest
