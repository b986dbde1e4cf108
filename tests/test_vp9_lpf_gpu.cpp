// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 frame loop filter on the GPU and hybrid backends (v3d_vp9_loop_filter_frame, _frames)
// against the scalar sequential process (scalar backend; test_vp9_lpf_frame checks that one
// against an independent reference), byte for byte, guard borders included, on random VP9
// partitions (tests/common/vp9_lpf_grid: every block size, levels 0..63, skip flags, sharpness 0..7,
// sizes not multiples of 8 or 64), with frames in plain memory (staged copies), in one shared
// allocation per plane and in one shared allocation for all three planes; hybrid with every
// plane split and adaptive; batches of frames of different sizes (more than 16 frames, more
// shared allocations than the shader's windows); an invalid frame in a batch leaves every frame
// untouched; the statistics say the GPU ran. Vulkan validation messages fail the test.
// Exit 77 (skip) only when no Vulkan device exists; V3D_REQUIRE_GPU=1 makes that a failure.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "common/vp9_lpf_grid.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::vp9::LfFrame;

namespace {

std::atomic<int> g_validation{0};

std::atomic<int> g_cpu_fallbacks{0};

void log_func(int level, const char *msg, void *) {
  if (strstr(msg, "Vulkan validation:")) g_validation++;
  if (strstr(msg, "run on the CPU") || strstr(msg, "runs on the CPU")) g_cpu_fallbacks++;
  if (level <= 1) printf("log %d: %s\n", level, msg);
}

enum Mem { kPlain = 0, kSharedPerPlane = 1, kSharedOne = 2 };
const char *kMemName[] = {"plain", "shared per plane", "shared one allocation"};

// One test frame: content and grid, its planes (with guard borders) in plain or shared memory.
struct TFrame {
  int width, height, grid_stride, sharpness;
  std::vector<V3dVp9LfInfo> grid;
  LfFrame img;  // the plain layout; also where shared planes are copied back to compare
  Mem mem;
  V3dContext *ctx;
  uint8_t *shared[3] = {nullptr, nullptr, nullptr};
  uint8_t *data[3];

  TFrame(Rng &rng, int w, int h, Mem m, V3dContext *alloc)
      : width(w), height(h), img(w, h), mem(m), ctx(alloc) {
    v3dtest::vp9::LfCase c = v3dtest::vp9::make_lf_case(rng, w, h);
    grid_stride = c.grid_stride;
    sharpness = c.sharpness;
    grid = std::move(c.grid);
    img.fill_smooth(rng);
    size_t off[3], total = 0;
    for (int p = 0; p < 3; p++) {
      off[p] = total;
      total += (img.size(p) + 63) & ~size_t{63};
    }
    for (int p = 0; p < 3; p++) {
      const size_t pos = img.data[p] - img.bytes(p);
      if (m == kPlain) {
        data[p] = img.data[p];
        continue;
      }
      if (m == kSharedPerPlane) {
        shared[p] = static_cast<uint8_t *>(v3d_shared_alloc(ctx, img.size(p)));
        data[p] = shared[p] + pos;
      } else {
        if (!p) shared[0] = static_cast<uint8_t *>(v3d_shared_alloc(ctx, total));
        data[p] = shared[0] + off[p] + pos;
      }
      memcpy(data[p] - pos, img.bytes(p), img.size(p));
    }
  }
  ~TFrame() {
    for (uint8_t *s : shared)
      if (s) v3d_shared_free(s);
  }
  TFrame(const TFrame &) = delete;
  // The planes' bytes (guards included) back into img.
  void sync() {
    if (mem == kPlain) return;
    for (int p = 0; p < 3; p++) {
      const size_t pos = img.data[p] - img.bytes(p);
      memcpy(img.bytes(p), data[p] - pos, img.size(p));
    }
  }
  V3dVp9LfFrame api() const {
    V3dVp9LfFrame f{};
    for (int p = 0; p < 3; p++) {
      f.planes[p] = data[p];
      f.strides[p] = img.stride[p];
    }
    f.width = width;
    f.height = height;
    f.grid = grid.data();
    f.grid_stride = grid_stride;
    f.sharpness = sharpness;
    return f;
  }
};

// The scalar sequential result of t's current content.
LfFrame reference(V3dContext *scalar, TFrame &t) {
  t.sync();
  LfFrame want(t.width, t.height);
  for (int p = 0; p < 3; p++) want.copy_plane_from(t.img, p);
  int rc = v3d_vp9_loop_filter_frame(scalar, want.data, want.stride, t.width, t.height,
                                     t.grid.data(), t.grid_stride, t.sharpness);
  check(rc == 0, "scalar reference failed: %s", v3d_last_error());
  return want;
}

void compare(TFrame &t, const LfFrame &want, const std::string &what, uint64_t seed) {
  t.sync();
  int p = 0, x = 0, y = 0;
  const bool same = t.img.same_as(want, &p, &x, &y);  // before p, x, y are read
  check(same,
        "%s: %dx%d sharpness %d, %s, seed 0x%llx: first difference plane %d x %d y %d",
        what.c_str(), t.width, t.height, t.sharpness, kMemName[t.mem],
        static_cast<unsigned long long>(seed), p, x, y);
  check(t.img.guards_intact(), "%s: %dx%d %s seed 0x%llx: guard border written", what.c_str(),
        t.width, t.height, kMemName[t.mem], static_cast<unsigned long long>(seed));
}

struct BackendCase {
  const char *name, *backend;
  double share;  // hybrid: fixed GPU share (< 0 adaptive)
};

V3dContext *open_ctx(const BackendCase &bc) {
  V3dContextOptions o{};
  o.backend = bc.backend;
  o.cpu_threads = v3dtest::test_threads();
  o.gpu_share = bc.share;
  V3dContext *ctx = v3d_context_new_with_options(&o);
  check(ctx != nullptr, "backend %s unavailable although a Vulkan device exists: %s", bc.name,
        v3d_last_error());
  return ctx;
}

const int kSizes[][2] = {{250, 130}, {352, 288}, {1, 1},    {8, 8},     {72, 40},    {33, 17},
                         {64, 72},   {136, 200}, {200, 8},  {8, 200},   {456, 264},  {1920, 1088}};

// Single frames on one backend: every size, each in one of the three memory kinds.
void test_frames(const BackendCase &bc, V3dContext *scalar, uint64_t seed0) {
  V3dContext *ctx = open_ctx(bc);
  if (!ctx) return;
  V3dStats before;
  v3d_context_get_stats(ctx, &before);
  int iter = 0, copies_expected = 0;
  for (auto &sz : kSizes) {
    const int reps = sz[0] > 1000 ? 1 : 3;
    for (int rep = 0; rep < reps; rep++, iter++) {
      const uint64_t seed = seed0 ^ (static_cast<uint64_t>(iter + 1) * 0x9E3779B97F4A7C15ull);
      Rng rng(seed);
      const Mem mem = static_cast<Mem>(sz[0] > 1000 ? kSharedOne : iter % 3);
      TFrame t(rng, sz[0], sz[1], mem, ctx);
      t.sharpness = iter % 8;
      if (mem == kPlain) copies_expected++;
      const LfFrame want = reference(scalar, t);
      int rc = v3d_vp9_loop_filter_frame(ctx, t.data, t.img.stride, t.width, t.height,
                                         t.grid.data(), t.grid_stride, t.sharpness);
      if (!check(rc == 0, "%s: %dx%d returned %d (%s)", bc.name, t.width, t.height, rc,
                 v3d_last_error()))
        continue;
      compare(t, want, bc.name, seed);
    }
  }
  V3dStats after;
  v3d_context_get_stats(ctx, &after);
  const uint64_t gpu_blocks = after.blocks_gpu - before.blocks_gpu;
  printf("%s: %d frames, GPU share of blocks %.2f, %llu submissions, %llu copies\n", bc.name, iter,
         static_cast<double>(gpu_blocks) /
             std::max<uint64_t>(1, gpu_blocks + after.blocks_cpu - before.blocks_cpu),
         static_cast<unsigned long long>(after.gpu_submissions - before.gpu_submissions),
         static_cast<unsigned long long>(after.copies - before.copies));
  if (bc.share != 0) {  // the GPU must have run (not a silent CPU fallback)
    check(gpu_blocks > 0 && after.gpu_submissions > before.gpu_submissions,
          "%s: the GPU filtered nothing", bc.name);
  }
  if (strcmp(bc.backend, "gpu") == 0)
    check(after.copies - before.copies >= static_cast<uint64_t>(copies_expected),
          "%s: %llu plane copies for %d frames in plain memory", bc.name,
          static_cast<unsigned long long>(after.copies - before.copies), copies_expected);
  v3d_context_free(ctx);
}

// Batches: frames of different sizes and memory kinds in one call.
void test_batches(const BackendCase &bc, V3dContext *scalar, uint64_t seed0) {
  V3dContext *ctx = open_ctx(bc);
  if (!ctx) return;
  struct Batch {
    int n;
    Mem mem;  // kPlain .. kSharedOne, or 3 = mixed
  } batches[] = {{5, static_cast<Mem>(3)}, {3, kSharedPerPlane}, {19, static_cast<Mem>(3)},
                 {8, kSharedPerPlane}, {1, kSharedOne}};
  int b_i = 0;
  for (const Batch &b : batches) {
    const uint64_t seed = seed0 ^ (0xBA7C4ull * static_cast<uint64_t>(++b_i));
    Rng rng(seed);
    std::vector<std::unique_ptr<TFrame>> frames;
    std::vector<LfFrame> want;
    std::vector<V3dVp9LfFrame> api;
    for (int i = 0; i < b.n; i++) {
      const auto &sz = kSizes[rng.range(0, 10)];  // not the 1080p one
      const Mem mem = b.mem == 3 ? static_cast<Mem>(i % 3) : b.mem;
      frames.push_back(std::make_unique<TFrame>(rng, sz[0], sz[1], mem, ctx));
      want.push_back(reference(scalar, *frames.back()));
      api.push_back(frames.back()->api());
    }
    int rc = v3d_vp9_loop_filter_frames(ctx, api.data(), api.size());
    if (!check(rc == 0, "%s: batch of %d returned %d (%s)", bc.name, b.n, rc, v3d_last_error()))
      continue;
    for (int i = 0; i < b.n; i++)
      compare(*frames[i], want[i], std::string(bc.name) + " batch frame " + std::to_string(i), seed);
  }
  check(v3d_vp9_loop_filter_frames(ctx, nullptr, 0) == 0, "empty batch refused");
  v3d_context_free(ctx);
}

// An invalid frame anywhere in a batch: refused, its index named, no frame touched.
void test_invalid_batch(const BackendCase &bc, uint64_t seed) {
  V3dContext *ctx = open_ctx(bc);
  if (!ctx) return;
  Rng rng(seed);
  for (int bad = 0; bad < 4; bad++) {
    std::vector<std::unique_ptr<TFrame>> frames;
    std::vector<V3dVp9LfFrame> api;
    std::vector<std::vector<uint8_t>> before[4];
    for (int i = 0; i < 4; i++) {
      frames.push_back(std::make_unique<TFrame>(rng, 72 + 8 * i, 40, static_cast<Mem>(i % 3), ctx));
      frames.back()->sync();
      for (int p = 0; p < 3; p++) before[i].push_back(frames.back()->img.plane_bytes(p));
      api.push_back(frames.back()->api());
    }
    std::vector<V3dVp9LfInfo> broken = frames[bad]->grid;
    if (bad == 0) api[0].sharpness = 9;
    if (bad == 1) broken[0].filter_level = 64;
    if (bad == 2) api[2].planes[1] = nullptr;
    if (bad == 3) broken[1].block_size = 13;
    if (bad == 1 || bad == 3) api[bad].grid = broken.data();
    const int rc = v3d_vp9_loop_filter_frames(ctx, api.data(), api.size());
    const std::string msg = v3d_last_error();
    check(rc < 0, "%s: invalid frame %d in a batch accepted", bc.name, bad);
    check(msg.find("frame " + std::to_string(bad)) != std::string::npos,
          "%s: message '%s' does not name frame %d", bc.name, msg.c_str(), bad);
    for (int i = 0; i < 4; i++) {
      frames[i]->sync();
      bool same = true;
      for (int p = 0; p < 3; p++) same = same && frames[i]->img.plane_bytes(p) == before[i][p];
      check(same, "%s: invalid frame %d in a batch: frame %d modified", bc.name, bad, i);
    }
  }
  v3d_context_free(ctx);
}

// GPU failures (the library's test hook V3D_TEST_LPF_GPU_FAIL): a failed submission runs the
// frame on the CPU with a warning; a job failing after the GPU ran leaves staged frames to the
// CPU (same result) and reports V3D_ERROR_GPU for frames it wrote in place.
void test_failures(V3dContext *scalar, uint64_t seed) {
  V3dContext *gpu = open_ctx({"gpu", "gpu", -1});
  V3dContext *hyb = open_ctx({"hybrid", "hybrid", 0.3});
  if (!gpu || !hyb) return;
  Rng rng(seed);
  for (const char *mode : {"submit", "wait"}) {
    setenv("V3D_TEST_LPF_GPU_FAIL", mode, 1);
    for (int m = 0; m < 3; m++)
      for (V3dContext *ctx : {gpu, hyb}) {
        TFrame t(rng, 136, 72, static_cast<Mem>(m), ctx);
        const LfFrame want = reference(scalar, t);
        const int before = g_cpu_fallbacks.load();
        const int rc = v3d_vp9_loop_filter_frame(ctx, t.data, t.img.stride, t.width, t.height,
                                                 t.grid.data(), t.grid_stride, t.sharpness);
        const std::string what = std::string("failure '") + mode + "', " +
                                 v3d_context_backend(ctx);
        if (strcmp(mode, "wait") == 0 && m != kPlain) {
          check(rc == V3D_ERROR_GPU, "%s, %s: returned %d, not V3D_ERROR_GPU", what.c_str(),
                kMemName[m], rc);
          continue;
        }
        check(rc == 0, "%s, %s: returned %d (%s)", what.c_str(), kMemName[m], rc,
              v3d_last_error());
        check(g_cpu_fallbacks.load() > before, "%s, %s: no warning", what.c_str(), kMemName[m]);
        compare(t, want, what, seed);
      }
  }
  unsetenv("V3D_TEST_LPF_GPU_FAIL");
  v3d_context_free(gpu);
  v3d_context_free(hyb);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  setenv("V3D_VULKAN_VALIDATION", "1", 0);  // used when the layers are installed
  v3d_set_log_func(log_func, nullptr);
  if (!v3dtest::gpu_or_skip()) return v3dtest::finish();
  V3dContext *scalar = v3d_context_new("scalar", 1);
  const BackendCase cases[] = {{"gpu", "gpu", -1},
                               {"hybrid chroma on GPU", "hybrid", 0.3},
                               {"hybrid luma on GPU", "hybrid", 0.6},
                               {"hybrid all on GPU", "hybrid", 1.0},
                               {"hybrid adaptive", "hybrid", -1}};
  for (const BackendCase &bc : cases) test_frames(bc, scalar, seed);
  test_batches(cases[0], scalar, seed ^ 0xB1);
  test_batches({"hybrid batch", "hybrid", 0.5}, scalar, seed ^ 0xB2);  // luma of the meeting frame
  test_batches({"hybrid batch, chroma shared", "hybrid", 0.25}, scalar, seed ^ 0xB4);
  test_batches(cases[4], scalar, seed ^ 0xB3);
  test_invalid_batch(cases[0], seed ^ 0xC1);
  test_invalid_batch(cases[4], seed ^ 0xC2);
  test_failures(scalar, seed ^ 0xD1);
  check(g_validation.load() == 0, "%d Vulkan validation messages", g_validation.load());
  v3d_context_free(scalar);
  return v3dtest::finish();
}
