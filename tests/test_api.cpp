// SPDX-License-Identifier: LGPL-2.1-or-later
// The public API's shape (v3d/*.h): each header compiled alone as C (api_header.c, one copy per
// header) and what it pulls in; v3d_default_settings' values; v3d_open / v3d_close with the
// defaults and with each kind of bad setting; the family-named aliases against the pinned names
// on random frames of every family; the codes each family returns for each kind of bad input;
// v3d_error_name for every code.
#include <cmath>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "common/guarded_planes.h"
#include "common/test_util.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"
#include "common/vp9_itx_blocks.h"
#include "common/vp9_lpf_grid.h"

extern "C" {
int v3d_test_header_common(void);
int v3d_test_header_cpu(void);
int v3d_test_header_context(void);
int v3d_test_header_vp9_itx(void);
int v3d_test_header_vp9_lpf(void);
int v3d_test_header_h264_deblock(void);
int v3d_test_header_vp9_decoder(void);
int v3d_test_header_v3d(void);
}

namespace {

using v3dtest::check;
using v3dtest::Rng;

// Each header's include guards seen by its C translation unit: 1 common, 2 cpu, 4 context,
// 8 vp9_itx, 16 vp9_lpf, 32 h264_deblock, 64 the umbrella, 128 vp9_decoder.
void test_headers() {
  const struct {
    const char *name;
    int (*fn)(void);
    int want;
  } hs[] = {
      {"common.h", v3d_test_header_common, 1},
      {"cpu.h", v3d_test_header_cpu, 1 | 2},
      {"context.h", v3d_test_header_context, 1 | 4},
      {"vp9_itx.h", v3d_test_header_vp9_itx, 1 | 4 | 8},
      {"vp9_lpf.h", v3d_test_header_vp9_lpf, 1 | 4 | 16},
      {"h264_deblock.h", v3d_test_header_h264_deblock, 1 | 4 | 32},
      {"vp9_decoder.h", v3d_test_header_vp9_decoder, 1 | 4 | 128},
      {"v3d.h", v3d_test_header_v3d, 255},
  };
  for (const auto &h : hs) {
    const int got = h.fn();
    check(got == h.want, "v3d/%s alone as C: headers seen 0x%x, expected 0x%x", h.name, got,
          h.want);
  }
  static_assert(std::is_same<V3dVp9LpfFrame, V3dVp9LfFrame>::value, "V3dVp9LpfFrame alias");
  static_assert(std::is_same<V3dVp9LpfInfo, V3dVp9LfInfo>::value, "V3dVp9LpfInfo alias");
  static_assert(std::is_same<V3dH264DeblockFrame, V3dH264Frame>::value, "V3dH264DeblockFrame");
}

void test_defaults() {
  V3dSettings s;
  memset(&s, 0xA5, sizeof s);  // every field must be written
  v3d_default_settings(&s);
  check(s.backend && strcmp(s.backend, "auto") == 0, "default backend '%s', expected auto",
        s.backend ? s.backend : "(null)");
  check(s.cpu_threads == 0, "default cpu_threads %d, expected 0", s.cpu_threads);
  check(s.gpu_device == nullptr, "default gpu_device not NULL");
  check(s.gpu_share == -1.0, "default gpu_share %g, expected -1", s.gpu_share);
  bool zero = true;
  for (int r : s.reserved) zero = zero && r == 0;
  check(zero, "default reserved fields not zero");
  v3d_default_settings(nullptr);  // does nothing
}

// A pointer that v3d_open must overwrite with NULL on failure.
V3dContext *poison() { return reinterpret_cast<V3dContext *>(uintptr_t{0x10}); }

void test_open_close() {
  V3dSettings s;
  v3d_default_settings(&s);
  V3dContext *ctx = poison();
  int rc = v3d_open(&ctx, &s);
  const std::string backend = ctx && rc == V3D_OK ? v3d_context_backend(ctx) : "";
  check(rc == V3D_OK && ctx && (backend == "hybrid" || backend == "simd") &&
            v3d_context_cpu_threads(ctx) >= 1,
        "v3d_open(defaults): rc %d (%s), backend '%s'", rc, v3d_last_error(), backend.c_str());
  v3d_close(&ctx);
  check(ctx == nullptr, "v3d_close left the pointer set");
  v3d_close(&ctx);  // NULL context: nothing
  v3d_close(nullptr);

  // References: open (1), ref (2), unref (1), close (0).
  s.backend = "simd";
  s.cpu_threads = 2;
  rc = v3d_open(&ctx, &s);
  if (check(rc == V3D_OK && ctx, "v3d_open(simd, 2 threads): rc %d (%s)", rc, v3d_last_error())) {
    check(v3d_context_cpu_threads(ctx) == 2 && strcmp(v3d_context_backend(ctx), "simd") == 0,
          "simd with 2 threads opened as %s with %d", v3d_context_backend(ctx),
          v3d_context_cpu_threads(ctx));
    check(v3d_context_ref(ctx) == ctx, "v3d_context_ref did not return its argument");
    v3d_context_unref(ctx);
    check(v3d_context_cpu_threads(ctx) == 2, "context gone after dropping one of two references");
    v3d_close(&ctx);
  }

  struct Bad {
    const char *what;
    void (*set)(V3dSettings *);
    int want;
  };
  const Bad bad[] = {
      {"unknown backend", [](V3dSettings *b) { b->backend = "warp"; }, V3D_ERROR_INVALID_SETTINGS},
      {"cpu_threads -1", [](V3dSettings *b) { b->cpu_threads = -1; }, V3D_ERROR_INVALID_SETTINGS},
      {"cpu_threads 1025", [](V3dSettings *b) { b->cpu_threads = 1025; },
       V3D_ERROR_INVALID_SETTINGS},
      {"gpu_share 1.5", [](V3dSettings *b) { b->gpu_share = 1.5; }, V3D_ERROR_INVALID_SETTINGS},
      {"gpu_share NaN", [](V3dSettings *b) { b->gpu_share = std::nan(""); },
       V3D_ERROR_INVALID_SETTINGS},
      {"reserved set", [](V3dSettings *b) { b->reserved[7] = 1; }, V3D_ERROR_INVALID_SETTINGS},
      {"gpu on a missing device",
       [](V3dSettings *b) {
         b->backend = "gpu";
         b->gpu_device = "no such device 7f3e";
       },
       V3D_ERROR_UNAVAILABLE},
  };
  for (const Bad &b : bad) {
    v3d_default_settings(&s);
    s.backend = "simd";
    b.set(&s);
    ctx = poison();
    rc = v3d_open(&ctx, &s);
    check(rc == b.want && ctx == nullptr && *v3d_last_error(),
          "v3d_open(%s): rc %d (%s), expected %d (%s); context %p, message '%s'", b.what, rc,
          v3d_error_name(rc), b.want, v3d_error_name(b.want), static_cast<void *>(ctx),
          v3d_last_error());
    if (rc == V3D_OK) v3d_close(&ctx);
  }
  v3d_default_settings(&s);
  ctx = poison();
  check(v3d_open(nullptr, &s) == V3D_ERROR_INVALID_ARGUMENT, "v3d_open(NULL, s) accepted");
  check(v3d_open(&ctx, nullptr) == V3D_ERROR_INVALID_ARGUMENT && ctx == nullptr,
        "v3d_open(&ctx, NULL) accepted or left ctx set");

  // Accepted edges of the ranges: a fixed share 0 and 1, a negative share (measured), "cpu"
  // and upper case names, as v3d_context_new takes them.
  const double shares[] = {0.0, 1.0, -7.0};
  for (double sh : shares) {
    v3d_default_settings(&s);
    s.backend = "SIMD";
    s.cpu_threads = 1;
    s.gpu_share = sh;
    rc = v3d_open(&ctx, &s);
    check(rc == V3D_OK, "v3d_open(SIMD, gpu_share %g) refused: %s", sh, v3d_last_error());
    v3d_close(&ctx);
  }
  s.backend = "cpu";
  rc = v3d_open(&ctx, &s);
  check(rc == V3D_OK, "v3d_open(cpu) refused: %s", v3d_last_error());
  v3d_close(&ctx);
  // The older constructor is unchanged.
  check(v3d_context_new("warp", 0) == nullptr, "v3d_context_new accepted an unknown backend");
}

// A 4:2:0 frame rounded up to whole 8x8 luma blocks in guarded buffers, random content.
v3dtest::GuardedPlanes itx_planes(Rng &rng, int width, int height) {
  const int w8 = (width + 7) & ~7, h8 = (height + 7) & ~7;
  const int ws[3] = {w8, w8 / 2, w8 / 2}, hs[3] = {h8, h8 / 2, h8 / 2};
  v3dtest::GuardedPlanes f(ws, hs, 16, 8);
  for (int p = 0; p < 3; p++)
    for (int y = 0; y < f.h[p]; y++)
      for (int x = 0; x < f.w[p]; x++) f.data[p][y * f.stride[p] + x] = rng.u32() & 0xFF;
  return f;
}

bool same(const v3dtest::GuardedPlanes &a, const v3dtest::GuardedPlanes &b, const char *what,
          uint64_t seed) {
  int p = 0, x = 0, y = 0;
  return check(a.same_as(b, &p, &x, &y), "%s: differs at plane %d (%d, %d), seed 0x%llx", what,
               p, x, y, static_cast<unsigned long long>(seed));
}

void test_itx_aliases(V3dContext *ctx, uint64_t seed) {
  Rng rng(seed);
  const int w = 72 + 8 * rng.range(0, 4), h = 40 + 8 * rng.range(0, 4);
  v3dtest::vp9::Blocks b = v3dtest::vp9::make_blocks(rng, w, h, 3, false);
  const v3dtest::GuardedPlanes orig = itx_planes(rng, w, h);
  v3dtest::GuardedPlanes pinned(orig), alias(orig);
  int rc1 = v3d_vp9_itxfm_add_frame(ctx, pinned.data, pinned.stride, w, h, b.blocks.data(),
                                    b.blocks.size(), b.coeffs.data(), b.coeffs.size());
  int rc2 = v3d_vp9_itx_frame(ctx, alias.data, alias.stride, w, h, b.blocks.data(),
                              b.blocks.size(), b.coeffs.data(), b.coeffs.size());
  int p, x, y;
  check(rc1 == V3D_OK && rc2 == V3D_OK && !pinned.same_as(orig, &p, &x, &y),
        "itx frame %dx%d: rc %d / %d (%s), or nothing changed, seed 0x%llx", w, h, rc1, rc2,
        v3d_last_error(), static_cast<unsigned long long>(seed));
  same(pinned, alias, "v3d_vp9_itx_frame vs v3d_vp9_itxfm_add_frame", seed);

  // Batches of two frames.
  v3dtest::GuardedPlanes p2(orig), a2(orig), p3(orig), a3(orig);
  V3dVp9ItxFrame fp[2] = {{}, {}}, fa[2] = {{}, {}};
  v3dtest::GuardedPlanes *bufs[4] = {&p2, &p3, &a2, &a3};
  V3dVp9ItxFrame *fr[4] = {&fp[0], &fp[1], &fa[0], &fa[1]};
  for (int i = 0; i < 4; i++) {
    for (int q = 0; q < 3; q++) {
      fr[i]->planes[q] = bufs[i]->data[q];
      fr[i]->strides[q] = bufs[i]->stride[q];
    }
    fr[i]->width = w;
    fr[i]->height = h;
    fr[i]->blocks = b.blocks.data();
    fr[i]->n_blocks = b.blocks.size();
    fr[i]->coeffs = b.coeffs.data();
    fr[i]->n_coeffs = b.coeffs.size();
  }
  rc1 = v3d_vp9_itxfm_add_frames(ctx, fp, 2);
  rc2 = v3d_vp9_itx_frames(ctx, fa, 2);
  check(rc1 == V3D_OK && rc2 == V3D_OK, "itx batch: rc %d / %d (%s)", rc1, rc2, v3d_last_error());
  same(p2, pinned, "v3d_vp9_itxfm_add_frames vs one frame", seed);
  same(a2, p2, "v3d_vp9_itx_frames vs v3d_vp9_itxfm_add_frames (frame 0)", seed);
  same(a3, p3, "v3d_vp9_itx_frames vs v3d_vp9_itxfm_add_frames (frame 1)", seed);

  // Validation under both names, valid and not.
  rc1 = v3d_vp9_itxfm_validate(w, h, b.blocks.data(), b.blocks.size(), b.coeffs.size());
  rc2 = v3d_vp9_itx_validate(w, h, b.blocks.data(), b.blocks.size(), b.coeffs.size());
  check(rc1 == V3D_OK && rc2 == V3D_OK, "itx validate: %d / %d (%s)", rc1, rc2, v3d_last_error());
  std::vector<V3dVp9TxBlock> broken = b.blocks;
  broken[broken.size() / 2].eob = 5000;
  rc1 = v3d_vp9_itxfm_validate(w, h, broken.data(), broken.size(), b.coeffs.size());
  rc2 = v3d_vp9_itx_validate(w, h, broken.data(), broken.size(), b.coeffs.size());
  check(rc1 == V3D_ERROR_BAD_EOB && rc2 == rc1, "itx validate of eob 5000: %d / %d", rc1, rc2);
}

// Copies the contents of an LfFrame (its data pointers point into its own buffers).
void copy_lf(v3dtest::vp9::LfFrame *to, const v3dtest::vp9::LfFrame &from) {
  to->copy_from(from);
}

bool same_lf(const v3dtest::vp9::LfFrame &a, const v3dtest::vp9::LfFrame &b, const char *what,
             uint64_t seed) {
  int p = 0, x = 0, y = 0;
  return check(a.same_as(b, &p, &x, &y), "%s: differs at plane %d (%d, %d), seed 0x%llx", what,
               p, x, y, static_cast<unsigned long long>(seed));
}

void test_lpf_aliases(V3dContext *ctx, uint64_t seed) {
  using v3dtest::vp9::LfFrame;
  Rng rng(seed);
  const int w = rng.range(64, 160), h = rng.range(40, 120);
  v3dtest::vp9::LfCase c = v3dtest::vp9::make_lf_case(rng, w, h);
  LfFrame orig(w, h), pinned(w, h), alias(w, h);
  orig.fill_smooth(rng);
  copy_lf(&pinned, orig);
  copy_lf(&alias, orig);
  int rc1 = v3d_vp9_loop_filter_frame(ctx, pinned.data, pinned.stride, w, h, c.grid.data(),
                                      c.grid_stride, c.sharpness);
  int rc2 = v3d_vp9_lpf_frame(ctx, alias.data, alias.stride, w, h, c.grid.data(), c.grid_stride,
                              c.sharpness);
  int p, x, y;
  check(rc1 == V3D_OK && rc2 == V3D_OK && !pinned.same_as(orig, &p, &x, &y),
        "lpf frame %dx%d: rc %d / %d (%s), or nothing changed, seed 0x%llx", w, h, rc1, rc2,
        v3d_last_error(), static_cast<unsigned long long>(seed));
  same_lf(pinned, alias, "v3d_vp9_lpf_frame vs v3d_vp9_loop_filter_frame", seed);

  // Copy and filter, from orig into destinations holding other content.
  LfFrame pf(w, h), af(w, h);
  pf.fill_smooth(rng);
  copy_lf(&af, pf);
  rc1 = v3d_vp9_loop_filter_frame_from(ctx, orig.data, orig.stride, pf.data, pf.stride, w, h,
                                       c.grid.data(), c.grid_stride, c.sharpness);
  rc2 = v3d_vp9_lpf_frame_from(ctx, orig.data, orig.stride, af.data, af.stride, w, h,
                               c.grid.data(), c.grid_stride, c.sharpness);
  check(rc1 == V3D_OK && rc2 == V3D_OK, "lpf from: rc %d / %d (%s)", rc1, rc2, v3d_last_error());
  same_lf(pf, af, "v3d_vp9_lpf_frame_from vs v3d_vp9_loop_filter_frame_from", seed);
  same_lf(pf, pinned, "v3d_vp9_loop_filter_frame_from vs copy and filter", seed);

  // Batches of two frames, through both struct names.
  LfFrame pb0(w, h), pb1(w, h), ab0(w, h), ab1(w, h);
  LfFrame *bufs[4] = {&pb0, &pb1, &ab0, &ab1};
  V3dVp9LfFrame fp[2] = {{}, {}};
  V3dVp9LpfFrame fa[2] = {{}, {}};
  V3dVp9LfFrame *fr[4] = {&fp[0], &fp[1], &fa[0], &fa[1]};
  for (int i = 0; i < 4; i++) {
    copy_lf(bufs[i], orig);
    for (int q = 0; q < 3; q++) {
      fr[i]->planes[q] = bufs[i]->data[q];
      fr[i]->strides[q] = bufs[i]->stride[q];
    }
    fr[i]->width = w;
    fr[i]->height = h;
    fr[i]->grid = c.grid.data();
    fr[i]->grid_stride = c.grid_stride;
    fr[i]->sharpness = c.sharpness;
  }
  rc1 = v3d_vp9_loop_filter_frames(ctx, fp, 2);
  rc2 = v3d_vp9_lpf_frames(ctx, fa, 2);
  check(rc1 == V3D_OK && rc2 == V3D_OK, "lpf batch: rc %d / %d (%s)", rc1, rc2, v3d_last_error());
  same_lf(pb0, pinned, "v3d_vp9_loop_filter_frames vs one frame", seed);
  same_lf(ab0, pb0, "v3d_vp9_lpf_frames vs v3d_vp9_loop_filter_frames (frame 0)", seed);
  same_lf(ab1, pb1, "v3d_vp9_lpf_frames vs v3d_vp9_loop_filter_frames (frame 1)", seed);
}

void test_h264_aliases(V3dContext *ctx, uint64_t seed) {
  using v3dtest::h264::Picture;
  Rng rng(seed);
  const int w = rng.range(33, 120), h = rng.range(17, 90);
  v3dtest::h264::Grid g = v3dtest::h264::make_grid(rng, w, h, v3dtest::h264::GridParams{});
  Picture orig(w, h);
  orig.fill(rng);
  Picture single(orig), b0(orig), b1(orig);
  int rc1 = v3d_h264_deblock_frame(ctx, single.data, single.stride, w, h, g.mbs.data(),
                                   g.mb_stride, g.slices.data(),
                                   static_cast<int>(g.slices.size()));
  V3dH264DeblockFrame f[2] = {{}, {}};
  Picture *bufs[2] = {&b0, &b1};
  for (int i = 0; i < 2; i++) {
    for (int q = 0; q < 3; q++) {
      f[i].planes[q] = bufs[i]->data[q];
      f[i].strides[q] = bufs[i]->stride[q];
    }
    f[i].width = w;
    f[i].height = h;
    f[i].mbs = g.mbs.data();
    f[i].mb_stride = g.mb_stride;
    f[i].slices = g.slices.data();
    f[i].n_slices = static_cast<int>(g.slices.size());
  }
  int rc2 = v3d_h264_deblock_frames(ctx, f, 2);
  check(rc1 == V3D_OK && rc2 == V3D_OK, "h264 %dx%d: rc %d / %d (%s), seed 0x%llx", w, h, rc1,
        rc2, v3d_last_error(), static_cast<unsigned long long>(seed));
  same(b0, single, "v3d_h264_deblock_frames (V3dH264DeblockFrame) vs one picture (frame 0)", seed);
  same(b1, single, "v3d_h264_deblock_frames (V3dH264DeblockFrame) vs one picture (frame 1)", seed);
}

// The codes each family returns for each kind of bad input, with the frame untouched.
void test_family_codes(V3dContext *ctx, uint64_t seed) {
  Rng rng(seed);
  {
    using v3dtest::vp9::LfFrame;
    const int w = 64, h = 48, cols = 8;
    LfFrame orig(w, h), f(w, h);
    orig.fill_smooth(rng);
    struct Case {
      const char *what;
      int row, col;
      V3dVp9LfInfo e;
      int sharpness, want;
    };
    const Case cases[] = {
        {"filter_level 64", 1, 2, {64, 3, 0, 0}, 0, V3D_ERROR_INVALID_DATA},
        {"block_size 13", 2, 3, {10, 13, 0, 0}, 0, V3D_ERROR_INVALID_DATA},
        {"16x16 entry in an 8x8 partition", 0, 1, {10, 6, 0, 0}, 0, V3D_ERROR_BAD_PARTITION},
        {"tx 16x16 in an 8x8 block", 3, 3, {10, 3, 2, 0}, 0, V3D_ERROR_BAD_TRANSFORM},
        {"sharpness 8", 0, 0, {10, 3, 0, 0}, 8, V3D_ERROR_INVALID_ARGUMENT},
        {"valid", 0, 0, {10, 3, 1, 1}, 7, V3D_OK},
    };
    for (const Case &c : cases) {
      std::vector<V3dVp9LfInfo> grid(static_cast<size_t>(cols) * (h / 8), V3dVp9LfInfo{10, 3, 0, 0});
      grid[c.row * cols + c.col] = c.e;
      copy_lf(&f, orig);
      const int rc = v3d_vp9_lpf_frame(ctx, f.data, f.stride, w, h, grid.data(), cols,
                                       c.sharpness);
      int p, x, y;
      check(rc == c.want && (rc == V3D_OK || (f.same_as(orig, &p, &x, &y) && *v3d_last_error())),
            "lpf %s: rc %d (%s), expected %d (%s); message '%s'", c.what, rc, v3d_error_name(rc),
            c.want, v3d_error_name(c.want), v3d_last_error());
    }
  }
  {
    using v3dtest::h264::Picture;
    const int w = 48, h = 32;
    Picture orig(w, h);
    orig.fill(rng);
    struct Case {
      const char *what;
      void (*spoil)(v3dtest::h264::Grid *);
      int want;
    };
    const Case cases[] = {
        {"qp 52", [](v3dtest::h264::Grid *g) { g->at(1, 1).qp = 52; }, V3D_ERROR_INVALID_DATA},
        {"bS 5", [](v3dtest::h264::Grid *g) { g->at(0, 2).bs[1][2][3] = 5; },
         V3D_ERROR_INVALID_DATA},
        {"slice 1 of 1", [](v3dtest::h264::Grid *g) { g->at(1, 0).slice = 1; },
         V3D_ERROR_INVALID_DATA},
        {"idc 3", [](v3dtest::h264::Grid *g) { g->slices[0].disable_deblocking_filter_idc = 3; },
         V3D_ERROR_INVALID_DATA},
        {"odd filter offset", [](v3dtest::h264::Grid *g) { g->slices[0].filter_offset_a = 3; },
         V3D_ERROR_INVALID_DATA},
        {"chroma offset 13", [](v3dtest::h264::Grid *g) { g->slices[0].chroma_qp_index_offset = 13; },
         V3D_ERROR_INVALID_DATA},
        {"mb_stride 2", [](v3dtest::h264::Grid *g) { g->mb_stride = 2; },
         V3D_ERROR_INVALID_ARGUMENT},
        {"valid", [](v3dtest::h264::Grid *) {}, V3D_OK},
    };
    for (const Case &c : cases) {
      v3dtest::h264::Grid g = v3dtest::h264::make_uniform_grid(w, h, 30, 0, 0, 0, false, 2, false);
      c.spoil(&g);
      Picture f(orig);
      const int rc = v3d_h264_deblock_frame(ctx, f.data, f.stride, w, h, g.mbs.data(),
                                            g.mb_stride, g.slices.data(),
                                            static_cast<int>(g.slices.size()));
      int p, x, y;
      check(rc == c.want && (rc == V3D_OK || (f.same_as(orig, &p, &x, &y) && *v3d_last_error())),
            "h264 %s: rc %d (%s), expected %d (%s); message '%s'", c.what, rc, v3d_error_name(rc),
            c.want, v3d_error_name(c.want), v3d_last_error());
    }
  }
  V3dKernelStats ks;
  check(v3d_context_get_kernel_stats(ctx, V3D_KERNEL_COUNT, &ks) == V3D_ERROR_INVALID_ARGUMENT,
        "kernel stats of an unknown family accepted");
  check(v3d_cpu_force_target("NO-SUCH-TARGET") == V3D_ERROR_UNAVAILABLE,
        "v3d_cpu_force_target of an unknown target accepted");
}

void test_error_names() {
  const int codes[] = {V3D_OK,
                       V3D_ERROR_INVALID_ARGUMENT,
                       V3D_ERROR_BAD_PLANE,
                       V3D_ERROR_BLOCK_OUTSIDE,
                       V3D_ERROR_BLOCK_OVERLAP,
                       V3D_ERROR_BAD_TRANSFORM,
                       V3D_ERROR_BAD_EOB,
                       V3D_ERROR_COEFFS_OUT_OF_RANGE,
                       V3D_ERROR_NO_MEMORY,
                       V3D_ERROR_GPU,
                       V3D_ERROR_UNAVAILABLE,
                       V3D_ERROR_INVALID_DATA,
                       V3D_ERROR_BAD_PARTITION,
                       V3D_ERROR_INVALID_SETTINGS,
                       V3D_ERROR_UNSUPPORTED,
                       V3D_ERROR_AGAIN};
  const int n = static_cast<int>(sizeof codes / sizeof codes[0]);
  // The codes are 0, -1, ..., -(n-1): none skipped, none repeated.
  for (int i = 0; i < n; i++) check(codes[i] == -i, "code %d at position %d", codes[i], i);
  const std::string unknown = v3d_error_name(-n);
  check(unknown == v3d_error_name(1) && !unknown.empty(), "names of non-codes differ");
  std::set<std::string> names;
  for (int c : codes) {
    const char *name = v3d_error_name(c);
    check(name && *name && unknown != name, "code %d has no name of its own ('%s')", c,
          name ? name : "(null)");
    if (name) names.insert(name);
  }
  check(static_cast<int>(names.size()) == n, "%d codes share names (%zu distinct)", n,
        names.size());
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  test_headers();
  test_defaults();
  test_error_names();
  test_open_close();
  V3dSettings s;
  v3d_default_settings(&s);
  s.backend = "simd";
  s.cpu_threads = v3dtest::test_threads();
  V3dContext *ctx = nullptr;
  if (!check(v3d_open(&ctx, &s) == V3D_OK, "v3d_open(simd): %s", v3d_last_error()))
    return v3dtest::finish();
  for (int i = 0; i < v3dtest::scaled(4); i++) {
    const uint64_t si = seed ^ (0x9E3779B97F4A7C15ull * static_cast<uint64_t>(i + 1));
    test_itx_aliases(ctx, si);
    test_lpf_aliases(ctx, si);
    test_h264_aliases(ctx, si);
  }
  test_family_codes(ctx, seed);
  v3d_close(&ctx);
  return v3dtest::finish();
}
