// SPDX-License-Identifier: LGPL-2.1-or-later
// Whole-picture H.264 deblocking on the GPU and hybrid backends (v3d_h264_deblock_frame, _from)
// against the scalar sequential process (scalar backend; test_h264_deblock_frame checks that one
// against an independent reference of clause 8.7), byte for byte, guard borders included, on
// random pictures (tests/common/h264_deblock_picture: QP 0..51, bS 0..4 incl. 4 on macroblock edges,
// slices with idc 0/1/2, offsets, transform_8x8, sizes 1x1 .. 1920x1088, multiples of 16 or not);
// hybrid with chroma or luma on the GPU (fixed shares), adaptive hybrid and auto (the split
// controller tries every way before it settles); the statistics say the GPU ran. The
// GPU's wavefront order is observable: with V3D_TEST_H264_GPU_ORDER=wrong (steps t = c + r, the
// bottom row first) pictures come out different. Failures (V3D_TEST_H264_GPU_FAIL=submit/wait):
// one warning, the picture still exact. Two contexts deblocking at once: the one GPU slot busy
// for one of them is no failure (no warning), every picture exact. Vulkan validation messages
// fail the test.
// Exit 77 (skip) only when no Vulkan device exists; V3D_REQUIRE_GPU=1 makes that a failure.
#include <atomic>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::h264::Grid;
using v3dtest::h264::GridParams;
using v3dtest::h264::Picture;

namespace {

std::atomic<int> g_validation{0}, g_warnings{0}, g_busy{0};

void log_func(int level, const char *msg, void *) {
  if (strstr(msg, "Vulkan validation:")) g_validation++;
  if (strstr(msg, "job is in flight")) g_busy++;  // logged at debug level
  if (level <= 1) {
    g_warnings++;
    printf("log %d: %s\n", level, msg);
  }
}

const int kSizes[][2] = {{1, 1}, {16, 16}, {17, 33}, {48, 33}, {176, 144}, {250, 130},
                         {20, 100}, {1920, 1088}};

struct Case {
  Picture src;
  Grid g;
  int w, h;
  uint64_t seed;
};

Case make_case(uint64_t seed, int w, int h, int rep) {
  Rng rng(seed);
  GridParams gp;
  gp.per_mb_slices = rep % 3 == 2;
  gp.intra_pct = rng.range(0, 60);
  gp.inter_pct = rng.range(0, 100 - gp.intra_pct);
  Grid g = v3dtest::h264::make_grid(rng, w, h, gp);
  Picture src(w, h, rng.range(0, 9));
  src.fill(rng);
  return Case{src, g, w, h, seed};
}

int deblock(V3dContext *ctx, Picture &p, const Case &c, const Picture *from = nullptr) {
  if (from)
    return v3d_h264_deblock_frame_from(ctx, from->data, from->stride, p.data, p.stride, c.w, c.h,
                                       c.g.mbs.data(), c.g.mb_stride, c.g.slices.data(),
                                       static_cast<int>(c.g.slices.size()));
  return v3d_h264_deblock_frame(ctx, p.data, p.stride, c.w, c.h, c.g.mbs.data(), c.g.mb_stride,
                                c.g.slices.data(), static_cast<int>(c.g.slices.size()));
}

// got equal to want, guards intact; returns whether it is.
bool same(const Picture &got, const Picture &want, const char *what, const Case &c) {
  int p = 0, x = 0, y = 0;
  const bool ok = check(got.same_as(want, &p, &x, &y),
                        "%s: %dx%d seed 0x%llx: first difference plane %d x %d y %d", what, c.w,
                        c.h, static_cast<unsigned long long>(c.seed), p, x, y);
  check(got.guards_intact(), "%s: %dx%d seed 0x%llx: guard border written", what, c.w, c.h,
        static_cast<unsigned long long>(c.seed));
  return ok;
}

Picture reference(V3dContext *scalar, const Case &c) {
  Picture want(c.src);
  check(deblock(scalar, want, c) == 0, "scalar: %s", v3d_last_error());
  return want;
}

// Every size, a few random pictures each, on one backend; the GPU must have done some blocks.
void test_backend(const char *name, const char *backend, double share, V3dContext *scalar,
                  uint64_t seed0) {
  V3dContext *ctx = v3d_context_new(backend, v3dtest::test_threads());
  if (!check(ctx != nullptr, "%s: no context: %s", name, v3d_last_error())) return;
  if (share >= 0) v3d_context_set_gpu_share(ctx, share);
  V3dStats before, after;
  v3d_context_get_stats(ctx, &before);
  int iter = 0;
  for (auto &sz : kSizes) {
    const int reps = sz[0] * sz[1] > 100000 ? 1 : v3dtest::scaled(3);
    for (int rep = 0; rep < reps; rep++, iter++) {
      const Case c = make_case(seed0 ^ (static_cast<uint64_t>(iter + 1) * 0x9E3779B97F4A7C15ull),
                               sz[0], sz[1], rep);
      const Picture want = reference(scalar, c);
      Picture got(c.src);
      if (check(deblock(ctx, got, c) == 0, "%s: %s", name, v3d_last_error()))
        same(got, want, name, c);
      // Copy and deblock: the destination starts as garbage.
      Picture dst(c.src);
      Rng junk(c.seed ^ 0x77);
      dst.fill(junk);
      std::string what = std::string(name) + " (from)";
      if (check(deblock(ctx, dst, c, &c.src) == 0, "%s: %s", what.c_str(), v3d_last_error()))
        same(dst, want, what.c_str(), c);
    }
  }
  v3d_context_get_stats(ctx, &after);
  // auto takes no CPU-type device (lavapipe) unless one is named: without another it runs on
  // the CPU alone.
  if (strcmp(backend, "auto") == 0 && !v3d_context_gpu_name(ctx))
    check(after.blocks_gpu == before.blocks_gpu, "%s: GPU work without a GPU", name);
  else
    check(after.blocks_gpu > before.blocks_gpu, "%s: the GPU did nothing", name);
  printf("%s: %llu macroblock units on the GPU, %llu on the CPU\n", name,
         static_cast<unsigned long long>(after.blocks_gpu - before.blocks_gpu),
         static_cast<unsigned long long>(after.blocks_cpu - before.blocks_cpu));
  v3d_context_free(ctx);
}

// The order is observable: the wrong step order gives different pictures (must be able to fail).
void test_wrong_order(V3dContext *scalar, uint64_t seed0) {
  setenv("V3D_TEST_H264_GPU_ORDER", "wrong", 1);
  V3dContext *ctx = v3d_context_new("gpu", 1);
  int differ = 0, n = 0;
  for (int i = 0; i < 6 && ctx; i++, n++) {
    const Case c = make_case(seed0 + i, 176, 144, 0);
    const Picture want = reference(scalar, c);
    Picture got(c.src);
    check(deblock(ctx, got, c) == 0, "wrong order: %s", v3d_last_error());
    int p, x, y;
    differ += !got.same_as(want, &p, &x, &y);
  }
  unsetenv("V3D_TEST_H264_GPU_ORDER");
  printf("wrong GPU wavefront order (t = c + r): %d of %d pictures differ\n", differ, n);
  check(differ > 0, "the wrong GPU step order gave the right pictures: the test cannot fail");
  v3d_context_free(ctx);
}

// A failed submission or job: one warning (per context), the picture still exact, in place and
// copied from a source.
void test_failures(V3dContext *scalar, uint64_t seed0) {
  for (const char *mode : {"submit", "wait"}) {
    setenv("V3D_TEST_H264_GPU_FAIL", mode, 1);
    for (const char *backend : {"gpu", "hybrid"}) {
      V3dContext *ctx = v3d_context_new(backend, v3dtest::test_threads());
      const int warned = g_warnings.load();
      for (int i = 0; i < 3 && ctx; i++) {
        const Case c = make_case(seed0 + i, 250, 130, i);
        const Picture want = reference(scalar, c);
        Picture got(c.src);
        std::string what = std::string(backend) + ", failure at " + mode;
        if (check(deblock(ctx, got, c) == 0, "%s: %s", what.c_str(), v3d_last_error()))
          same(got, want, what.c_str(), c);
        // Copy and deblock: the GPU's planes went from the source into its staging buffer only,
        // so the CPU's redo must copy them itself (the destination starts as garbage).
        Picture dst(c.src);
        Rng junk(c.seed ^ 0x99);
        dst.fill(junk);
        what += " (from)";
        if (check(deblock(ctx, dst, c, &c.src) == 0, "%s: %s", what.c_str(), v3d_last_error()))
          same(dst, want, what.c_str(), c);
      }
      check(g_warnings.load() - warned == 1, "%s, failure at %s: %d warnings, want 1", backend,
            mode, g_warnings.load() - warned);
      v3d_context_free(ctx);
    }
  }
  unsetenv("V3D_TEST_H264_GPU_FAIL");
}

// Two contexts sharing the process's GPU deblock at once: the GPU's one deblocking slot is
// taken by one of them at a time, the other runs that picture on the CPU — every picture exact
// and no warning (a busy slot is not a GPU failure).
void test_concurrent(V3dContext *scalar, uint64_t seed0) {
  constexpr int kThreads = 2, kPictures = 8;
  std::vector<Case> cases;
  std::vector<Picture> want;
  for (int i = 0; i < kThreads * kPictures; i++) {
    cases.push_back(make_case(seed0 + i, 352, 288, i));
    want.push_back(reference(scalar, cases.back()));
  }
  std::vector<Picture> got;
  for (const Case &c : cases) got.emplace_back(c.src);
  std::vector<int> rc(cases.size(), -1);
  const int warned = g_warnings.load();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++)
    threads.emplace_back([&, t] {
      V3dContext *ctx = v3d_context_new("gpu", 1);
      if (!ctx) return;
      for (int i = t * kPictures; i < (t + 1) * kPictures; i++) rc[i] = deblock(ctx, got[i], cases[i]);
      v3d_context_free(ctx);
    });
  for (auto &th : threads) th.join();
  for (size_t i = 0; i < cases.size(); i++)
    if (check(rc[i] == 0, "concurrent contexts, picture %zu: returned %d", i, rc[i]))
      same(got[i], want[i], "concurrent contexts", cases[i]);
  check(g_warnings.load() == warned, "concurrent contexts: %d warnings, want 0",
        g_warnings.load() - warned);
  printf("concurrent contexts: %d pictures, %d found the GPU busy\n",
         kThreads * kPictures, g_busy.load());
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  setenv("V3D_VULKAN_VALIDATION", "1", 0);  // used when the layers are installed
  v3d_set_log_func(log_func, nullptr);
  if (!v3dtest::gpu_or_skip()) return v3dtest::finish();
  V3dContext *scalar = v3d_context_new("scalar", 1);
  test_backend("gpu", "gpu", -1, scalar, seed);
  test_backend("hybrid chroma on GPU", "hybrid", 0.3, scalar, seed ^ 0xA1);
  test_backend("hybrid luma on GPU", "hybrid", 0.6, scalar, seed ^ 0xA3);
  test_backend("hybrid adaptive", "hybrid", -1, scalar, seed ^ 0xA2);
  // auto measures CPU alone, GPU alone and the split before it settles: the GPU runs (when the
  // device is not CPU-type; test_auto_device checks that choice).
  test_backend("auto", "auto", -1, scalar, seed ^ 0xA4);
  test_wrong_order(scalar, seed ^ 0xB1);
  test_failures(scalar, seed ^ 0xC1);
  test_concurrent(scalar, seed ^ 0xD1);
  check(g_validation.load() == 0, "%d Vulkan validation messages", g_validation.load());
  v3d_context_free(scalar);
  return v3dtest::finish();
}
