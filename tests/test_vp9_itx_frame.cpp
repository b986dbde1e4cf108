// SPDX-License-Identifier: LGPL-2.1-or-later
// Frame-level VP9 inverse transforms through the C API (v3d_vp9_itxfm_add_frame) on every backend
// this machine has (scalar, simd, gpu, hybrid with fixed and adaptive splits), against the scalar
// reference applied block by block by this test (with its own clipping), on frames with guard
// borders; and the refusal of invalid block lists with the frame left untouched.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/guarded_planes.h"
#include "common/vp9_itx_blocks.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::vp9::Blocks;
using v3dtest::vp9::make_blocks;

namespace {

constexpr int kGuard = 24;  // bytes of guard around each plane (left/right and rows above/below)

// A 4:2:0 frame (planes rounded up to whole 8x8 luma blocks) inside guard borders, in plain or
// shared memory. fill() randomizes the guards too: comparisons with the expected frame cover them.
struct Frame : v3dtest::GuardedPlanes {
  int width, height;
  Frame(int w, int h, V3dContext *shared_ctx)
      : GuardedPlanes(v3dtest::Dims420(w, h, true).w, v3dtest::Dims420(w, h, true).h, kGuard, 1,
                      shared_ctx),
        width(w),
        height(h) {}
  void fill(Rng &rng) {
    for (int p = 0; p < 3; p++)
      for (size_t k = 0; k < size(p); k++) bytes(p)[k] = static_cast<uint8_t>(rng.u32());
  }
  bool same(const Frame &o) const {
    int pl, x, y;
    return same_as(o, &pl, &x, &y);
  }
  // Where the first difference from o is, for messages ("" when none).
  std::string where(const Frame &o) const {
    int pl, x, y;
    if (same_as(o, &pl, &x, &y)) return "";
    return "plane " + std::to_string(pl) + " x " + std::to_string(x) + " y " + std::to_string(y);
  }
  void api(uint8_t *const **pl, const ptrdiff_t **st) {
    *pl = data;
    *st = stride;
  }
};

// The expected result: the scalar reference per block, clipped by this test.
void apply_reference(Frame &f, const Blocks &bl) {
  for (const V3dVp9TxBlock &b : bl.blocks) {
    if (!b.eob) continue;
    const int p = b.plane;
    int n = 4 << b.tx_size;
    uint8_t tmp[32 * 32];
    uint8_t *dst = f.data[p] + b.y * f.stride[p] + b.x;
    int w = std::min(n, f.w[p] - b.x), h = std::min(n, f.h[p] - b.y);
    for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++) tmp[r * n + c] = r < h && c < w ? dst[r * f.stride[p] + c] : 0;
    v3d_vp9_itxfm_add_ref(tmp, n, &bl.coeffs[b.coeff_offset], b.tx_size, b.tx_type,
                          static_cast<int>(n * n));
    for (int r = 0; r < h; r++) memcpy(dst + r * f.stride[p], tmp + r * n, w);
  }
}

struct BackendCase {
  const char *name;
  const char *backend;
  double share;  // hybrid: fixed GPU share, < 0 adaptive
};

void test_backend(const BackendCase &bc, uint64_t seed) {
  V3dContextOptions o{};
  o.backend = bc.backend;
  o.cpu_threads = v3dtest::test_threads(2);
  o.gpu_share = bc.share;
  V3dContext *ctx = v3d_context_new_with_options(&o);
  if (!ctx) {
    // CI sets V3D_REQUIRE_GPU=1: it always has lavapipe, so the GPU path must run there.
    const char *req = getenv("V3D_REQUIRE_GPU");
    check(!(req && atoi(req)), "backend %s unavailable although V3D_REQUIRE_GPU is set: %s",
          bc.name, v3d_last_error());
    printf("backend %s: unavailable here (%s)\n", bc.name, v3d_last_error());
    return;
  }
  printf("backend %s -> %s (GPU: %s)\n", bc.name, v3d_context_backend(ctx),
         v3d_context_gpu_name(ctx) ? v3d_context_gpu_name(ctx) : "none");
  const int sizes[][2] = {{352, 288}, {250, 130}, {33, 17}, {8, 8}, {1, 1}, {64, 72}, {1920, 1088}};
  int iter = 0;
  uint64_t active_blocks = 0;  // blocks with eob > 0 over all frames
  for (auto &sz : sizes) {
    for (int shared = 0; shared < 2; shared++) {
      for (int rep = 0; rep < (sz[0] > 1000 ? 1 : 3); rep++, iter++) {
        uint64_t s = seed ^ (static_cast<uint64_t>(iter) * 0x9E3779B97F4A7C15ull);
        Rng rng(s);
        Frame got(sz[0], sz[1], shared ? ctx : nullptr), want(sz[0], sz[1], nullptr);
        got.fill(rng);
        want.copy_from(got);
        Blocks bl = make_blocks(rng, sz[0], sz[1], 3, true);
        uint8_t *const *planes;
        const ptrdiff_t *strides;
        got.api(&planes, &strides);
        int rc = v3d_vp9_itxfm_add_frame(ctx, planes, strides, sz[0], sz[1], bl.blocks.data(),
                                         bl.blocks.size(), bl.coeffs.data(), bl.coeffs.size());
        check(rc == 0, "backend %s %dx%d: returned %d (%s), seed 0x%llx", bc.name, sz[0], sz[1],
              rc, v3d_last_error(), static_cast<unsigned long long>(s));
        apply_reference(want, bl);
        for (const V3dVp9TxBlock &b : bl.blocks) active_blocks += b.eob ? 1 : 0;
        check(got.same(want),
              "backend %s %dx%d %s memory, %zu blocks: differs from the reference at %s, seed "
              "0x%llx",
              bc.name, sz[0], sz[1], shared ? "shared" : "plain", bl.blocks.size(),
              got.where(want).c_str(), static_cast<unsigned long long>(s));
      }
    }
  }
  V3dStats st;
  v3d_context_get_stats(ctx, &st);
  printf("  frames %llu, blocks cpu %llu gpu %llu, copies %llu, last gpu share %.2f\n",
         static_cast<unsigned long long>(st.frames), static_cast<unsigned long long>(st.blocks_cpu),
         static_cast<unsigned long long>(st.blocks_gpu), static_cast<unsigned long long>(st.copies),
         st.gpu_share);
  // The per-family statistics agree with what was done.
  V3dKernelStats ks;
  check(v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_ITX, &ks) == 0, "kernel stats");
  check(ks.frames == static_cast<uint64_t>(iter) && ks.frames == st.frames,
        "backend %s: kernel stats count %llu frames, %d were done", bc.name,
        static_cast<unsigned long long>(ks.frames), iter);
  check(ks.units_cpu + ks.units_gpu == active_blocks && ks.units_cpu == st.blocks_cpu &&
            ks.units_gpu == st.blocks_gpu,
        "backend %s: kernel stats units cpu %llu + gpu %llu, %llu blocks with work", bc.name,
        static_cast<unsigned long long>(ks.units_cpu), static_cast<unsigned long long>(ks.units_gpu),
        static_cast<unsigned long long>(active_blocks));
  const std::string used = v3d_context_backend(ctx);
  check(used != "gpu" || ks.units_cpu == 0, "backend %s: gpu did CPU work", bc.name);
  check((used != "simd" && used != "scalar") || ks.units_gpu == 0, "backend %s: CPU backend did GPU work", bc.name);
  check(used != "hybrid" || bc.share <= 0 || bc.share >= 1 || (ks.units_cpu > 0 && ks.units_gpu > 0),
        "backend %s: fixed split used one side only", bc.name);
  check(ks.wall_seconds > 0 && ks.frame_ms_median > 0 && ks.frame_ms_p99 >= ks.frame_ms_median,
        "backend %s: frame times wall %g, median %g ms, p99 %g ms", bc.name, ks.wall_seconds,
        ks.frame_ms_median, ks.frame_ms_p99);
  check(ks.gpu_jobs_in_flight == 0 && (ks.units_gpu == 0) == (ks.gpu_jobs_in_flight_max == 0),
        "backend %s: GPU queue depth %u now, %u at most", bc.name, ks.gpu_jobs_in_flight,
        ks.gpu_jobs_in_flight_max);
  check((ks.units_cpu == 0) == (ks.cpu_units_per_second == 0) &&
            (ks.units_gpu == 0) == (ks.gpu_units_per_second == 0),
        "backend %s: throughputs %g / %g units/s", bc.name, ks.cpu_units_per_second,
        ks.gpu_units_per_second);
  printf("  kernel stats: %.0f / %.0f blocks/s (CPU / GPU), idle %.3f / %.3f s, frame median %.3f ms, "
         "p99 %.3f ms, GPU queue max %u\n", ks.cpu_units_per_second, ks.gpu_units_per_second,
         ks.cpu_idle_seconds, ks.gpu_idle_seconds, ks.frame_ms_median, ks.frame_ms_p99,
         ks.gpu_jobs_in_flight_max);
  check(v3d_context_get_kernel_stats(ctx, V3D_KERNEL_COUNT, &ks) == V3D_ERROR_INVALID_ARGUMENT &&
            v3d_context_get_kernel_stats(ctx, -1, &ks) == V3D_ERROR_INVALID_ARGUMENT &&
            v3d_context_get_kernel_stats(ctx, 0, nullptr) == V3D_ERROR_INVALID_ARGUMENT,
        "kernel stats: bad arguments accepted");
  v3d_context_free(ctx);
}

// Each invalid list must be refused with its error code and leave the frame untouched.
void test_invalid(uint64_t seed) {
  V3dContext *ctx = v3d_context_new("simd", v3dtest::test_threads(2));
  check(ctx != nullptr, "simd context");
  if (!ctx) return;
  Rng rng(seed);
  const int W = 100, H = 60;
  Frame f(W, H, nullptr), orig(W, H, nullptr);
  f.fill(rng);
  orig.copy_from(f);
  std::vector<int16_t> coeffs(64 * 64, 5);
  auto block = [](int x, int y, int plane, int txs, int txt, uint32_t eob, uint32_t off) {
    V3dVp9TxBlock b{};
    b.x = static_cast<uint16_t>(x);
    b.y = static_cast<uint16_t>(y);
    b.plane = static_cast<uint8_t>(plane);
    b.tx_size = static_cast<uint8_t>(txs);
    b.tx_type = static_cast<uint8_t>(txt);
    b.eob = eob;
    b.coeff_offset = off;
    return b;
  };
  struct Case {
    const char *what;
    std::vector<V3dVp9TxBlock> blocks;
    int expect;
  };
  std::vector<Case> cases = {
      {"overlap", {block(0, 0, 0, 1, 0, 64, 0), block(4, 4, 0, 0, 0, 16, 100)}, V3D_ERROR_BLOCK_OVERLAP},
      {"overlap after clipping", {block(96, 0, 0, 2, 0, 1, 0), block(100, 8, 0, 0, 0, 1, 300)}, V3D_ERROR_BLOCK_OVERLAP},
      {"overlap off the 4-pixel grid", {block(1, 1, 0, 0, 0, 1, 0), block(4, 4, 0, 0, 0, 1, 16)}, V3D_ERROR_BLOCK_OVERLAP},
      {"x outside", {block(104, 0, 0, 0, 0, 1, 0)}, V3D_ERROR_BLOCK_OUTSIDE},
      {"y outside chroma", {block(0, 32, 1, 0, 0, 1, 0)}, V3D_ERROR_BLOCK_OUTSIDE},
      {"plane 3", {block(0, 0, 3, 0, 0, 1, 0)}, V3D_ERROR_BAD_PLANE},
      {"32x32 adst", {block(0, 0, 0, 3, 1, 1, 0)}, V3D_ERROR_BAD_TRANSFORM},
      {"8x8 wht", {block(0, 0, 0, 1, 4, 1, 0)}, V3D_ERROR_BAD_TRANSFORM},
      {"tx_size 4", {block(0, 0, 0, 4, 0, 1, 0)}, V3D_ERROR_BAD_TRANSFORM},
      {"tx_type 5", {block(0, 0, 0, 0, 5, 1, 0)}, V3D_ERROR_BAD_TRANSFORM},
      {"eob > n*n", {block(0, 0, 0, 0, 0, 17, 0)}, V3D_ERROR_BAD_EOB},
      {"coeffs past end", {block(0, 0, 0, 3, 0, 1, 64 * 64 - 1023)}, V3D_ERROR_COEFFS_OUT_OF_RANGE},
      {"huge offset", {block(0, 0, 0, 0, 0, 1, 0xFFFFFFF0u)}, V3D_ERROR_COEFFS_OUT_OF_RANGE},
  };
  uint8_t *const *planes;
  const ptrdiff_t *strides;
  f.api(&planes, &strides);
  for (auto &c : cases) {
    int rc = v3d_vp9_itxfm_add_frame(ctx, planes, strides, W, H, c.blocks.data(), c.blocks.size(),
                                     coeffs.data(), coeffs.size());
    check(rc == c.expect, "invalid case '%s': got %d (%s), want %d", c.what, rc, v3d_last_error(),
          c.expect);
    check(strlen(v3d_last_error()) > 0, "invalid case '%s': no error message", c.what);
    int rc2 = v3d_vp9_itxfm_validate(W, H, c.blocks.data(), c.blocks.size(), coeffs.size());
    check(rc2 == c.expect, "validate '%s': got %d want %d", c.what, rc2, c.expect);
    check(f.same(orig), "invalid case '%s': frame modified at %s", c.what, f.where(orig).c_str());
  }
  // Overlaps in one of the two 64-bit words of a block that crosses a word in validation's
  // bitmaps (4x4 cells: a 32x32 block at x 240 covers cells 60-67; pixels, when a block is off
  // the 4-pixel grid: a 32x32 block at x 50 covers pixels 50-81), the crossing block marked
  // first or second.
  {
    const int WW = 320, WH = 64;
    const std::vector<std::vector<V3dVp9TxBlock>> crossing = {
        {block(240, 0, 0, 3, 0, 1, 0), block(256, 8, 0, 0, 0, 1, 1024)},
        {block(256, 8, 0, 0, 0, 1, 1024), block(240, 0, 0, 3, 0, 1, 0)},
        {block(50, 0, 0, 3, 0, 1, 0), block(70, 4, 0, 0, 0, 1, 1024)},
        {block(70, 4, 0, 0, 0, 1, 1024), block(50, 0, 0, 3, 0, 1, 0)},
        {block(50, 0, 0, 3, 0, 1, 0), block(81, 31, 0, 0, 0, 1, 1024)},
        {block(244, 8, 0, 0, 0, 1, 1024), block(240, 0, 0, 3, 0, 1, 0)},  // in the first word
        {block(54, 4, 0, 0, 0, 1, 1024), block(50, 0, 0, 3, 0, 1, 0)},
    };
    std::vector<uint8_t> y(WW * WH), u(WW * WH / 4), v(WW * WH / 4);
    uint8_t *wp[3] = {y.data(), u.data(), v.data()};
    const ptrdiff_t ws[3] = {WW, WW / 2, WW / 2};
    for (size_t k = 0; k < crossing.size(); k++) {
      const auto &l = crossing[k];
      const int rc = v3d_vp9_itxfm_validate(WW, WH, l.data(), l.size(), coeffs.size());
      const int rc_ctx = v3d_vp9_itxfm_add_frame(ctx, wp, ws, WW, WH, l.data(), l.size(),
                                                 coeffs.data(), coeffs.size());
      check(rc == V3D_ERROR_BLOCK_OVERLAP && rc_ctx == V3D_ERROR_BLOCK_OVERLAP,
            "overlap in one word of a block crossing two (list %zu): got %d / %d", k, rc, rc_ctx);
    }
    // The same blocks side by side, touching but not overlapping, are accepted.
    const std::vector<V3dVp9TxBlock> beside = {block(240, 0, 0, 3, 0, 1, 0),
                                               block(272, 8, 0, 0, 0, 1, 1024),
                                               block(50, 32, 0, 3, 0, 1, 0),
                                               block(82, 36, 0, 0, 0, 1, 2048)};
    check(v3d_vp9_itxfm_validate(WW, WH, beside.data(), beside.size(), coeffs.size()) == 0,
          "blocks beside crossing blocks accepted");
  }
  V3dVp9TxBlock ok = block(0, 0, 0, 0, 0, 1, 0);
  // The same lists on GPU contexts, which prepare their share of a frame beside its validation
  // (reading the share's blocks before they are validated): the GPU alone, and hybrid with half
  // of each frame fixed to the GPU. Then a valid frame on each must still come out as on the
  // CPU (every refused call returned its job's slot).
  for (const char *backend : {"gpu", "hybrid"}) {
    V3dContext *g = v3d_context_new(backend, v3dtest::test_threads(2));
    if (!g || strcmp(v3d_context_backend(g), backend) != 0) {
      if (g) v3d_context_free(g);
      continue;
    }
    if (strcmp(backend, "hybrid") == 0) v3d_context_set_gpu_share(g, 0.5);
    for (int round = 0; round < 2; round++)
      for (auto &c : cases) {
        const int rc = v3d_vp9_itxfm_add_frame(g, planes, strides, W, H, c.blocks.data(),
                                               c.blocks.size(), coeffs.data(), coeffs.size());
        check(rc == c.expect, "%s: invalid case '%s': got %d (%s), want %d", backend, c.what, rc,
              v3d_last_error(), c.expect);
        check(f.same(orig), "%s: invalid case '%s': frame modified at %s", backend,
              c.what, f.where(orig).c_str());
      }
    const std::vector<V3dVp9TxBlock> good = {block(0, 0, 0, 1, 0, 20, 0), block(8, 0, 0, 0, 1, 9, 64),
                                            block(0, 0, 1, 0, 0, 3, 80)};
    Frame on_gpu(W, H, nullptr), on_cpu(W, H, nullptr);
    on_gpu.copy_from(orig);
    on_cpu.copy_from(orig);
    uint8_t *const *gp;
    const ptrdiff_t *gs;
    on_gpu.api(&gp, &gs);
    const int rc = v3d_vp9_itxfm_add_frame(g, gp, gs, W, H, good.data(), good.size(),
                                           coeffs.data(), coeffs.size());
    on_cpu.api(&gp, &gs);
    const int rc_cpu = v3d_vp9_itxfm_add_frame(ctx, gp, gs, W, H, good.data(), good.size(),
                                               coeffs.data(), coeffs.size());
    check(rc == 0 && rc_cpu == 0 && on_gpu.same(on_cpu),
          "%s: a valid frame after the refused ones: rc %d / %d (%s), differs at %s", backend, rc,
          rc_cpu, v3d_last_error(), on_gpu.where(on_cpu).c_str());
    v3d_context_free(g);
  }
  check(v3d_vp9_itxfm_add_frame(nullptr, planes, strides, W, H, &ok, 1, coeffs.data(), 16) ==
            V3D_ERROR_INVALID_ARGUMENT, "NULL context refused");
  check(v3d_vp9_itxfm_add_frame(ctx, nullptr, strides, W, H, &ok, 1, coeffs.data(), 16) ==
            V3D_ERROR_INVALID_ARGUMENT, "NULL planes refused");
  check(v3d_vp9_itxfm_add_frame(ctx, planes, strides, 0, H, &ok, 1, coeffs.data(), 16) ==
            V3D_ERROR_INVALID_ARGUMENT, "zero width refused");
  check(v3d_vp9_itxfm_add_frame(ctx, planes, strides, W, H, &ok, 1, nullptr, 16) ==
            V3D_ERROR_INVALID_ARGUMENT, "NULL coeffs refused");
  ptrdiff_t small[3] = {strides[0], 10, strides[2]};
  check(v3d_vp9_itxfm_add_frame(ctx, planes, small, W, H, &ok, 1, coeffs.data(), 16) ==
            V3D_ERROR_INVALID_ARGUMENT, "stride below width refused");
  check(f.same(orig), "refused calls left the frame untouched (%s)", f.where(orig).c_str());
  check(v3d_vp9_itxfm_add_frame(ctx, planes, strides, W, H, nullptr, 0, nullptr, 0) == 0,
        "empty block list accepted");
  check(v3d_context_new("warp-drive", 0) == nullptr, "unknown backend refused");
  // Long lists are validated by several threads: errors far apart in the list must still be
  // found, and the first one in list order reported.
  {
    const int BW = 1920, BH = 1088;
    std::vector<V3dVp9TxBlock> big;
    for (int y = 0; y < BH; y += 4)
      for (int x = 0; x < BW; x += 4) big.push_back(block(x, y, 0, 0, 0, 1, 0));
    std::vector<int16_t> c16(16, 1);
    check(v3d_vp9_itxfm_validate(BW, BH, big.data(), big.size(), c16.size()) == 0,
          "long valid list accepted");
    auto dup = big;
    dup.push_back(big[5]);
    V3dContext *c2 = v3d_context_new("simd", v3dtest::test_threads(2));
    std::vector<uint8_t> y(BW * BH), u(BW * BH / 4), v(BW * BH / 4);
    uint8_t *pl[3] = {y.data(), u.data(), v.data()};
    ptrdiff_t st[3] = {BW, BW / 2, BW / 2};
    int rc = v3d_vp9_itxfm_add_frame(c2, pl, st, BW, BH, dup.data(), dup.size(), c16.data(), 16);
    check(rc == V3D_ERROR_BLOCK_OVERLAP, "overlap at the end of a long list found (got %d)", rc);
    auto bad = big;
    bad[100000].eob = 17;
    bad[120000].tx_type = 9;
    rc = v3d_vp9_itxfm_add_frame(c2, pl, st, BW, BH, bad.data(), bad.size(), c16.data(), 16);
    check(rc == V3D_ERROR_BAD_EOB && strstr(v3d_last_error(), "block 100000"),
          "first error of a long list reported (got %d: %s)", rc, v3d_last_error());
    bool untouched = true;
    for (uint8_t b : y) untouched &= b == 0;
    check(untouched, "refused long lists left the frame untouched");
    v3d_context_free(c2);
  }
  // Blocks off the 4-pixel grid that touch but do not overlap are valid, and applied exactly.
  {
    Blocks bl;
    bl.coeffs.assign(32, 0);
    bl.coeffs[0] = 300;
    bl.coeffs[16] = -200;
    bl.blocks = {block(1, 3, 0, 0, 0, 1, 0), block(5, 3, 0, 0, 0, 1, 16), block(3, 7, 0, 0, 2, 1, 0)};
    Frame want(W, H, nullptr);
    want.copy_from(f);
    int rc = v3d_vp9_itxfm_add_frame(ctx, planes, strides, W, H, bl.blocks.data(), bl.blocks.size(),
                                     bl.coeffs.data(), bl.coeffs.size());
    check(rc == 0, "unaligned touching blocks accepted (%d: %s)", rc, v3d_last_error());
    apply_reference(want, bl);
    check(f.same(want), "unaligned blocks applied exactly (%s)", f.where(want).c_str());
  }
  v3d_context_free(ctx);
}

// A frame of a v3d_vp9_itxfm_add_frames batch: frame's planes with the blocks of bl.
V3dVp9ItxFrame batch_frame(Frame &frame, const Blocks &bl) {
  uint8_t *const *planes;
  const ptrdiff_t *strides;
  frame.api(&planes, &strides);
  V3dVp9ItxFrame fr{};
  for (int p = 0; p < 3; p++) {
    fr.planes[p] = planes[p];
    fr.strides[p] = strides[p];
  }
  fr.width = frame.width;
  fr.height = frame.height;
  fr.blocks = bl.blocks.data();
  fr.n_blocks = bl.blocks.size();
  fr.coeffs = bl.coeffs.data();
  fr.n_coeffs = bl.coeffs.size();
  return fr;
}

// v3d_vp9_itxfm_add_frames: more frames than the GPU keeps in flight, each against the reference;
// one invalid frame in a batch leaves every frame untouched.
void test_batch(const char *backend, uint64_t seed) {
  V3dContext *ctx = v3d_context_new(backend, v3dtest::test_threads(2));
  if (!ctx) {
    const char *req = getenv("V3D_REQUIRE_GPU");
    check(!(req && atoi(req)), "batch: backend %s unavailable: %s", backend, v3d_last_error());
    return;
  }
  Rng rng(seed ^ 0xBA7C4);
  const int n = 20;
  std::vector<std::unique_ptr<Frame>> got, want;
  std::vector<Blocks> bl(n);
  std::vector<V3dVp9ItxFrame> frames(n);
  for (int f = 0; f < n; f++) {
    int w = rng.range(1, 200), h = rng.range(1, 120);
    got.emplace_back(new Frame(w, h, f % 2 ? ctx : nullptr));
    want.emplace_back(new Frame(w, h, nullptr));
    got[f]->fill(rng);
    want[f]->copy_from(*got[f]);
    bl[f] = make_blocks(rng, w, h, 3, true);
    frames[f] = batch_frame(*got[f], bl[f]);
  }
  // An invalid last frame: nothing may change.
  std::vector<V3dVp9TxBlock> bad = bl[n - 1].blocks;
  if (!bad.empty()) {
    bad.push_back(bad.front());  // duplicate = overlap
    V3dVp9ItxFrame save = frames[n - 1];
    frames[n - 1].blocks = bad.data();
    frames[n - 1].n_blocks = bad.size();
    int rc = v3d_vp9_itxfm_add_frames(ctx, frames.data(), n);
    check(rc == V3D_ERROR_BLOCK_OVERLAP, "batch %s: invalid frame refused (got %d: %s)", backend,
          rc, v3d_last_error());
    for (int f = 0; f < n; f++)
      check(got[f]->same(*want[f]), "batch %s: frame %d touched by a refused batch at %s",
            backend, f, got[f]->where(*want[f]).c_str());
    frames[n - 1] = save;
  }
  // Adaptive hybrid measures its ways of running a batch first (the workers alone, the GPU
  // alone, frames on both sides): four batches run each way at least once. The transforms are
  // applied once per batch, to the result of the last.
  const bool hybrid = strcmp(v3d_context_backend(ctx), "hybrid") == 0;
  const int batches = hybrid ? 4 : 1;
  for (int b = 0; b < batches; b++) {
    int rc = v3d_vp9_itxfm_add_frames(ctx, frames.data(), n);
    check(rc == 0, "batch %s: returned %d (%s)", backend, rc, v3d_last_error());
  }
  if (hybrid) {
    V3dStats st;
    v3d_context_get_stats(ctx, &st);
    check(st.blocks_cpu > 0 && st.blocks_gpu > 0, "batch hybrid: CPU %llu, GPU %llu blocks",
          static_cast<unsigned long long>(st.blocks_cpu),
          static_cast<unsigned long long>(st.blocks_gpu));
  }
  for (int f = 0; f < n; f++) {
    for (int b = 0; b < batches; b++) apply_reference(*want[f], bl[f]);
    check(got[f]->same(*want[f]), "batch %s: frame %d (%dx%d) differs at %s, seed 0x%llx",
          backend, f, got[f]->width, got[f]->height, got[f]->where(*want[f]).c_str(),
          static_cast<unsigned long long>(seed));
  }
  got.clear();
  v3d_context_free(ctx);
}


// The frame where a hybrid batch's sides meet is shared: the GPU takes the tail of its blocks with
// work, the CPU the rest. V3D_TEST_ITX_BATCH_RATES fixes the rates the batch is divided by, so
// that the meeting point falls inside a frame on any machine; every frame must equal the
// reference (a block done by both sides, or by neither, would not), and the batch's debug line
// must count every block with work once.
struct BatchLog {
  std::vector<std::string> lines;
  std::mutex mutex;
};
void batch_log(int level, const char *message, void *user) {
  auto *log = static_cast<BatchLog *>(user);
  if (level <= 1) fprintf(stderr, "library %s: %s\n", level ? "warning" : "error", message);
  if (strncmp(message, "itx batch:", 10) != 0) return;
  std::lock_guard<std::mutex> lock(log->mutex);
  log->lines.push_back(message);
}

void test_batch_meet(uint64_t seed) {
  V3dContext *ctx = v3d_context_new("hybrid", v3dtest::test_threads(2));
  if (!ctx || strcmp(v3d_context_backend(ctx), "hybrid") != 0) {
    const char *req = getenv("V3D_REQUIRE_GPU");
    check(!(req && atoi(req)), "batch meet: no hybrid context: %s", v3d_last_error());
    if (ctx) v3d_context_free(ctx);
    return;
  }
  BatchLog log;
  v3d_set_log_func(batch_log, &log);
  // CPU:GPU rates in blocks per second: equal, either side four or twenty times the other.
  const char *rates[] = {"1000:1000", "4000:1000", "1000:4000", "20000:1000", "3000:2000"};
  // At least two rounds (10 batches) whatever V3D_TEST_ITERS says: the check at the end is about
  // most batches, and with one round (ThreadSanitizer's runs, V3D_TEST_ITERS=0.25) a single batch
  // whose sides met between frames by chance failed it.
  const int rounds = std::max(2, v3dtest::scaled(2));
  int shared = 0, both = 0, batches = 0;
  for (int round = 0; round < rounds; round++)
    for (const char *r : rates) {
      const uint64_t case_seed = seed ^ (0x3EE7ull * (round * 16 + batches + 1));
      Rng rng(case_seed);
      const int n = rng.range(2, 7);
      std::vector<std::unique_ptr<Frame>> got, want;
      std::vector<Blocks> bl(n);
      std::vector<V3dVp9ItxFrame> frames(n);
      size_t active = 0;
      for (int f = 0; f < n; f++) {
        const int w = rng.range(480, 800), h = rng.range(270, 450);
        got.emplace_back(new Frame(w, h, f % 2 ? ctx : nullptr));
        want.emplace_back(new Frame(w, h, nullptr));
        got[f]->fill(rng);
        want[f]->copy_from(*got[f]);
        bl[f] = make_blocks(rng, w, h, 1 + f % 3, true);
        // Now and then a frame with no block, or none with work: the sides skip it (always in the
        // first batch: its last frame, the GPU's first, empty; its first, the CPU's, no work).
        const int kind = rng.range(0, 11);
        const bool first = round == 0 && batches == 0;
        if (kind == 0 || (first && f == n - 1)) bl[f].blocks.clear();
        if (kind == 1 || (first && f == 0))
          for (auto &b : bl[f].blocks) b.eob = 0;
        for (const auto &b : bl[f].blocks) active += b.eob != 0;
        frames[f] = batch_frame(*got[f], bl[f]);
      }
      setenv("V3D_TEST_ITX_BATCH_RATES", r, 1);
      {
        std::lock_guard<std::mutex> lock(log.mutex);
        log.lines.clear();
      }
      const int rc = v3d_vp9_itxfm_add_frames(ctx, frames.data(), n);
      unsetenv("V3D_TEST_ITX_BATCH_RATES");
      batches++;
      check(rc == 0, "batch meet (rates %s, seed 0x%llx): returned %d (%s)", r,
            static_cast<unsigned long long>(case_seed), rc, v3d_last_error());
      for (int f = 0; f < n; f++) {
        apply_reference(*want[f], bl[f]);
        check(got[f]->same(*want[f]),
              "batch meet (rates %s, %d frames, seed 0x%llx): frame %d (%dx%d) differs at %s", r,
              n, static_cast<unsigned long long>(case_seed), f, got[f]->width, got[f]->height,
              got[f]->where(*want[f]).c_str());
      }
      std::string line;
      {
        std::lock_guard<std::mutex> lock(log.mutex);
        if (log.lines.size() == 1) line = log.lines[0];
      }
      unsigned long long cpu = 0, gpu = 0;
      const char *c = strstr(line.c_str(), "CPU "), *g = strstr(line.c_str(), "GPU ");
      const bool parsed = c && g && sscanf(c, "CPU %llu", &cpu) == 1 && sscanf(g, "GPU %llu", &gpu) == 1;
      check(parsed && cpu + gpu == active,
            "batch meet (rates %s, seed 0x%llx): CPU %llu + GPU %llu blocks of %zu (log: %s)", r,
            static_cast<unsigned long long>(case_seed), cpu, gpu, active, line.c_str());
      both += cpu > 0 && gpu > 0;
      shared += strstr(line.c_str(), "shared frame ") != nullptr;
    }
  v3d_set_log_func(nullptr, nullptr);
  // The GPU's parts are whole chunks of the list (512 blocks): a share below one gives it nothing,
  // and the sides meet between frames by chance only; most batches use both sides and share the
  // frame where they meet.
  printf("batch meet: both %d shared %d of %d\n", both, shared, batches);
  check(both * 4 >= batches * 3 && shared * 2 >= batches,
        "batch meet: %d of %d batches used both sides, %d shared the meeting frame", both,
        batches, shared);
  v3d_context_free(ctx);
}

// A batch's validation (all frames' blocks checked together in shared loops of the workers)
// against each frame's alone (v3d_vp9_itxfm_validate, one thread): random batches of random
// frames, some spoiled in one of several ways (an overlap, anywhere in the list, on or off the
// 4-pixel grid; a block outside its plane; a bad eob or transform; coefficients past the end;
// a NULL plane); the batch must fail exactly when a frame does, with the first such frame's code
// and message ("frame K: " and the single frame's message), and leave every frame untouched.
void test_batch_validation(uint64_t seed) {
  V3dContext *ctx = v3d_context_new("simd", v3dtest::test_threads(4));
  if (!check(ctx != nullptr, "batch validation: simd context")) return;
  const int rounds = v3dtest::scaled(40);
  int failed_batches = 0;
  for (int round = 0; round < rounds; round++) {
    const uint64_t case_seed = seed ^ (0xBA7C5EEDull + 7919u * round);
    Rng rng(case_seed);
    const int n = rng.range(1, 12);
    std::vector<std::unique_ptr<Frame>> got, orig;
    std::vector<Blocks> bl(n);
    std::vector<V3dVp9ItxFrame> frames(n);
    for (int f = 0; f < n; f++) {
      const int w = rng.range(1, 700), h = rng.range(1, 400);
      got.emplace_back(new Frame(w, h, nullptr));
      orig.emplace_back(new Frame(w, h, nullptr));
      got[f]->fill(rng);
      orig[f]->copy_from(*got[f]);
      bl[f] = make_blocks(rng, w, h, 3, true);
      std::vector<V3dVp9TxBlock> &b = bl[f].blocks;
      if (!b.empty() && rng.range(0, 3) == 0) {  // spoil this frame
        V3dVp9TxBlock &v = b[rng.u32() % b.size()];
        switch (rng.range(0, 6)) {
          case 0: b.push_back(b[rng.u32() % b.size()]); break;  // a duplicate: overlap
          case 1: {  // a block shifted off the grid onto its neighbour's pixels
            V3dVp9TxBlock o = b[rng.u32() % b.size()];
            o.x = static_cast<uint16_t>(o.x + 1);
            b.insert(b.begin() + rng.u32() % (b.size() + 1), o);
            break;
          }
          case 2: v.x = static_cast<uint16_t>(got[f]->w[v.plane] + rng.range(0, 40)); break;
          case 3: v.eob = (16u << (2 * v.tx_size)) + 1; break;
          case 4: v.tx_type = 5; break;
          case 5: v.coeff_offset = static_cast<uint32_t>(bl[f].coeffs.size()); break;
          default: v.plane = 3; break;
        }
      }
      frames[f] = batch_frame(*got[f], bl[f]);
    }
    const bool null_plane = rng.range(0, 9) == 0;
    const int null_at = rng.range(0, n - 1);
    if (null_plane) frames[null_at].planes[1] = nullptr;
    // The reference: each frame on its own, in order (its blocks, then its plane pointers).
    int want_rc = V3D_OK, want_frame = -1;
    std::string want_msg;
    for (int f = 0; f < n && want_rc == V3D_OK; f++) {
      want_frame = f;
      want_rc = v3d_vp9_itxfm_validate(frames[f].width, frames[f].height, frames[f].blocks,
                                       frames[f].n_blocks, frames[f].n_coeffs);
      want_msg = v3d_last_error();
      if (!want_rc && null_plane && f == null_at) {
        want_rc = V3D_ERROR_INVALID_ARGUMENT;
        want_msg = "plane 1 is NULL";
      }
    }
    const int rc = v3d_vp9_itxfm_add_frames(ctx, frames.data(), n);
    const std::string msg = v3d_last_error();
    failed_batches += rc != V3D_OK;
    const std::string prefix = "frame " + std::to_string(want_frame) + ": ";
    bool same = rc == want_rc && (!rc || msg == prefix + want_msg);
    if (rc == V3D_ERROR_BLOCK_OVERLAP && want_rc == rc && !same) {
      // Which of two overlapping blocks is named depends on how the list was cut into tasks:
      // the two named must share a pixel (rectangles of the same plane intersect).
      unsigned long i = 0;
      long j = -1;
      const Blocks &b = bl[want_frame];
      if (msg.rfind(prefix, 0) == 0 &&
          sscanf(msg.c_str() + prefix.size(), "block %lu (plane %*u, x %*u, y %*u, %*dx%*d) overlaps block %ld", &i, &j) == 2 &&
          i < b.blocks.size() && j >= 0 && static_cast<size_t>(j) < b.blocks.size() && i != static_cast<size_t>(j)) {
        const V3dVp9TxBlock &p = b.blocks[i], &q = b.blocks[j];
        const int np = 4 << p.tx_size, nq = 4 << q.tx_size;
        same = p.plane == q.plane && p.x < q.x + nq && q.x < p.x + np && p.y < q.y + nq &&
               q.y < p.y + np;
      }
    }
    check(same, "batch validation (seed 0x%llx, %d frames): got %d '%s', want %d '%s%s'",
          static_cast<unsigned long long>(case_seed), n, rc, msg.c_str(), want_rc,
          prefix.c_str(), want_msg.c_str());
    if (rc != V3D_OK)
      for (int f = 0; f < n; f++) {
        check(got[f]->same(*orig[f]),
              "batch validation (seed 0x%llx): refused batch touched frame %d at %s",
              static_cast<unsigned long long>(case_seed), f, got[f]->where(*orig[f]).c_str());
      }
  }
  check(failed_batches > 0 && failed_batches < rounds,
        "batch validation: %d of %d batches refused (both kinds needed)", failed_batches, rounds);
  v3d_context_free(ctx);
}
}  // namespace

// test_vp9_itx_frame_overlap.cpp: validation of long lists on several threads.
void test_overlap_threads(uint64_t seed);

int main() {
  uint64_t seed = v3dtest::base_seed();
  const BackendCase cases[] = {
      {"scalar", "scalar", -1}, {"simd", "simd", -1},         {"gpu", "gpu", -1},
      {"hybrid-30", "hybrid", 0.3}, {"hybrid-70", "hybrid", 0.7}, {"hybrid-adaptive", "hybrid", -1},
      {"auto", "auto", -1},
  };
  for (const auto &c : cases) test_backend(c, seed);
  test_invalid(seed);
  test_overlap_threads(seed);
  test_batch("simd", seed);
  test_batch("gpu", seed);
  test_batch("hybrid", seed);
  test_batch_meet(seed);
  test_batch_validation(seed);
  return v3dtest::finish();
}
