// SPDX-License-Identifier: LGPL-2.1-or-later
// Whole-frame VP9 loop filter (v3d_vp9_loop_filter_frame) on every backend this machine has,
// against an independent reference written here from the rules of the VP9 loop filter (which
// edges, which width and level, per edge and per line, with its own edge filters), on random VP9
// partitions (every block size 4x4 .. 64x64, sizes not multiples of 8 or 64) with content that
// makes the filters fire. Also: the wavefront on several threads equals the sequential order; the
// order is observable (all vertical edges of the frame first gives a different frame); guard
// borders stay untouched; invalid input is refused with the frame untouched. Batches on the CPU:
// several frames' wavefronts in one loop (lpf_frames_wavefront, each frame with its own planes)
// and v3d_vp9_loop_filter_frames on SIMD contexts, each frame against the reference. The
// decoder's entry point for grids valid by construction (lpf_filter_frame_trusted) against the
// same reference on every backend, and its refusal of invalid arguments outside the grid.
//
// Linked with the library's objects (not the shared library) for the internal entry points
// (vp9/lpf_frame.h), whose symbols the library does not export.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "common/test_util.h"
#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "vp9/lpf/lpf.h"
#include "vp9/lpf/lpf_api.h"
#include "vp9/lpf/lpf_frame.h"
#include "common/vp9_lpf_grid.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::vp9::LfFrame;

namespace {

// ---- Independent reference -------------------------------------------------------------------

// One line across an edge: x[0..15] = p7..p0, q0..q7. width 4, 8 or 16 (VP9 specification's
// filter mask, flat, flat2, narrow filter and 7-/15-tap smoothing).
void ref_line(int x[16], int width, int E, int I, int H) {
  auto d = [&](int a, int b) { return std::abs(x[a] - x[b]); };
  if (d(4, 5) > I || d(5, 6) > I || d(6, 7) > I || d(9, 8) > I || d(10, 9) > I || d(11, 10) > I ||
      d(7, 8) * 2 + d(6, 9) / 2 > E)
    return;
  bool flat = width >= 8;
  for (int i = 4; i < 7 && flat; i++) flat = d(i, 7) <= 1 && d(15 - i, 8) <= 1;
  bool flat2 = width == 16 && flat;
  for (int i = 0; i < 4 && flat2; i++) flat2 = d(i, 7) <= 1 && d(15 - i, 8) <= 1;
  if (flat) {
    const int k = flat2 ? 7 : 3, lo = flat2 ? 0 : 4, hi = flat2 ? 15 : 11, sh = flat2 ? 4 : 3;
    int out[16];
    for (int i = lo + 1; i < hi; i++) {
      int s = x[i];
      for (int t = i - k; t <= i + k; t++) s += x[std::clamp(t, lo, hi)];
      out[i] = (s + (1 << (sh - 1))) >> sh;
    }
    for (int i = lo + 1; i < hi; i++) x[i] = out[i];
    return;
  }
  auto c8 = [](int v) { return std::clamp(v, -128, 127); };
  const bool hev = d(6, 7) > H || d(9, 8) > H;
  const int p1 = x[6] - 128, p0 = x[7] - 128, q0 = x[8] - 128, q1 = x[9] - 128;
  const int f = c8((hev ? c8(p1 - q1) : 0) + 3 * (q0 - p0));
  const int f1 = c8(f + 4) >> 3, f2 = c8(f + 3) >> 3;
  x[8] = c8(q0 - f1) + 128;
  x[7] = c8(p0 + f2) + 128;
  if (!hev) {
    const int a = (f1 + 1) >> 1;
    x[9] = c8(q1 - a) + 128;
    x[6] = c8(p1 + a) + 128;
  }
}

struct RefPlane {
  uint8_t *d;
  ptrdiff_t s;
  int w, h;
};

// Filters the edge of `lines` lines at (x, y) (dir 0: vertical edge, lines go down).
void ref_edge(const RefPlane &p, int dir, int x, int y, int lines, int width, int level,
              int sharpness) {
  int I = level >> ((sharpness > 0) + (sharpness > 4));
  if (sharpness > 0) I = std::min(I, 9 - sharpness);
  I = std::max(I, 1);
  const int E = 2 * (level + 2) + I, H = level >> 4;
  for (int l = 0; l < lines; l++) {
    const int lx = dir ? x + l : x, ly = dir ? y : y + l;
    if (lx >= p.w || ly >= p.h) break;  // lines past the plane (half-size chroma) are not ours
    uint8_t *q0 = p.d + ly * p.s + lx;
    const ptrdiff_t step = dir ? p.s : 1;
    const int reach = width == 16 ? 8 : 4;  // pixels read on each side
    int v[16] = {0};
    for (int o = -reach; o < reach; o++) v[8 + o] = q0[o * step];
    ref_line(v, width, E, I, H);
    for (int o = -reach; o < reach; o++) q0[o * step] = static_cast<uint8_t>(v[8 + o]);
  }
}

const int kW8[13] = {1, 1, 1, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8};
const int kH8[13] = {1, 1, 1, 1, 2, 1, 2, 4, 2, 4, 8, 4, 8};
const int kMinLog2[13] = {2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6};  // log2 of the smaller side

// The edge on the left (dir 0) or top (dir 1) of cell (r, c) of a plane (cells of 8x8 pixels of
// that plane; chroma cell (r, c) lies over luma 8x8 (2r, 2c)), and its internal 4x4 edge:
// filter width (0 = none) and level. The rules: the block right of / below an edge decides it;
// level 0 filters nothing; nothing at the picture's left/top; a block's own edges always, its
// transform edges unless skip_inter; width 16 for 16x16/32x32 transforms, 8 for 8x8 and for 4x4
// transforms on a 32-pixel boundary of the plane, else 4; internal 4x4 edges in 4x4-transform
// blocks unless skip_inter. Chroma uses the block over its top-left luma 8x8, with the chroma
// transform size; a half-size last chroma row/column gets no 16-wide edge (8 instead) and no
// internal edge in a half-width last column or across a half-height last row.
struct EdgeInfo {
  int width, level, int_width;
};
EdgeInfo edge_info(const std::vector<V3dVp9LfInfo> &g, int gs, int mi_rows, int mi_cols, int pl,
                   int dir, int r, int c) {
  EdgeInfo e{0, 0, 0};
  const int mr = pl ? 2 * r : r, mc = pl ? 2 * c : c;
  const V3dVp9LfInfo &b = g[mr * gs + mc];
  e.level = b.filter_level;
  if (!e.level) return e;
  const int bs = b.block_size;
  int tx = b.tx_size;
  int pos = dir ? r : c;  // cell index across the edge
  int origin = dir ? mr & ~(kH8[bs] - 1) : mc & ~(kW8[bs] - 1);
  if (pl) {
    tx = std::min(tx, std::max(0, kMinLog2[bs] - 3));
    origin >>= 1;
  }
  const bool block_edge = pos == origin;
  const int tx_cells = tx >= 2 ? 1 << (tx - 1) : 1;
  const bool tx_edge = pos % tx_cells == 0;
  if (pos > 0 && (block_edge || (tx_edge && !b.skip_inter))) {
    e.width = tx >= 2 ? 16 : tx == 1 || pos % 4 == 0 ? 8 : 4;
    const bool half =
        pl && (dir ? mi_rows : mi_cols) % 2 && pos == ((dir ? mi_rows : mi_cols) - 1) / 2;
    if (half && e.width == 16) e.width = 8;
  }
  if (tx == 0 && !b.skip_inter) e.int_width = 4;
  // Chroma internal edges: none in a half-width last column (neither direction: libvpx drops
  // them from its one internal-edge mask), none across a half-height last row (the vertical
  // internal edges of that row are filtered, on its 4 lines).
  if (pl && mi_cols % 2 && c == (mi_cols - 1) / 2) e.int_width = 0;
  if (pl && dir && mi_rows % 2 && r == (mi_rows - 1) / 2) e.int_width = 0;
  return e;
}

void ref_filter_frame(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                      const std::vector<V3dVp9LfInfo> &g, int gs, int sharpness) {
  const int mi_rows = (height + 7) / 8, mi_cols = (width + 7) / 8;
  for (int sr = 0; sr < (mi_rows + 7) / 8; sr++)
    for (int sc = 0; sc < (mi_cols + 7) / 8; sc++)
      for (int pl = 0; pl < 3; pl++) {
        const int n = pl ? 4 : 8;
        const RefPlane p{planes[pl], strides[pl], pl ? mi_cols * 4 : mi_cols * 8,
                         pl ? mi_rows * 4 : mi_rows * 8};
        const int rows = pl ? (mi_rows + 1) / 2 : mi_rows, cols = pl ? (mi_cols + 1) / 2 : mi_cols;
        for (int dir = 0; dir < 2; dir++)
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
              const int r = sr * n + i, c = sc * n + j;
              if (r >= rows || c >= cols) continue;
              const EdgeInfo e = edge_info(g, gs, mi_rows, mi_cols, pl, dir, r, c);
              if (e.width) ref_edge(p, dir, 8 * c, 8 * r, 8, e.width, e.level, sharpness);
              if (e.int_width)
                ref_edge(p, dir, 8 * c + (dir ? 0 : 4), 8 * r + (dir ? 4 : 0), 8, 4, e.level,
                         sharpness);
            }
      }
}

// ---- Tests ------------------------------------------------------------------------------------

const int kSizes[][2] = {{250, 130}, {352, 288}, {8, 8},   {72, 40}, {1, 1},     {33, 17},
                         {64, 72},   {136, 200}, {200, 8}, {8, 200}, {456, 264}, {1920, 1088}};

struct Case {
  int width, height, grid_stride, sharpness;
  std::vector<V3dVp9LfInfo> grid;
  LfFrame frame;
  Case(Rng &rng, int w, int h) : width(w), height(h), frame(w, h) {
    v3dtest::vp9::LfCase c = v3dtest::vp9::make_lf_case(rng, w, h);
    grid_stride = c.grid_stride;
    sharpness = c.sharpness;
    grid = std::move(c.grid);
    frame.fill_smooth(rng);
  }
};

LfFrame copy_of(const LfFrame &f, int w, int h) {
  LfFrame c(w, h);
  for (int p = 0; p < 3; p++) c.copy_plane_from(f, p);
  return c;
}

void check_same(const LfFrame &got, const LfFrame &want, const char *what, uint64_t seed,
                const Case &cs) {
  int p = 0, x = 0, y = 0;
  const bool same = got.same_as(want, &p, &x, &y);
  check(same, "%s: %dx%d sharpness %d seed 0x%llx: first difference plane %d x %d y %d", what,
        cs.width, cs.height, cs.sharpness, static_cast<unsigned long long>(seed), p, x, y);
  check(got.guards_intact(), "%s: %dx%d seed 0x%llx: guard border written", what, cs.width,
        cs.height, static_cast<unsigned long long>(seed));
}

void test_frames(uint64_t seed0) {
  const char *backends[] = {"scalar", "simd", "gpu", "hybrid"};
  V3dContext *ctx[4];
  for (int b = 0; b < 4; b++) {
    ctx[b] = v3d_context_new(backends[b], b == 0 ? 1 : v3dtest::test_threads());
    if (!ctx[b]) printf("backend %s unavailable here: %s\n", backends[b], v3d_last_error());
  }
  V3dContext *simd1 = v3d_context_new("simd", 1);
  const int threads = v3dtest::test_threads();
  std::unique_ptr<v3d::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<v3d::ThreadPool>(4);
  v3d::vp9::LpfDsp ref_dsp;
  v3d::vp9::lpf_dsp_init_ref(&ref_dsp);
  long changed = 0, total = 0, order_checked = 0;
  int iter = 0;
  for (auto &sz : kSizes) {
    for (int rep = 0; rep < (sz[0] > 1000 ? 1 : 4); rep++, iter++) {
      const uint64_t seed = seed0 ^ (static_cast<uint64_t>(iter + 1) * 0x9E3779B97F4A7C15ull);
      Rng rng(seed);
      Case cs(rng, sz[0], sz[1]);
      cs.sharpness = iter % 8;  // every sharpness on several sizes
      const int W = cs.width, H = cs.height;
      LfFrame want = copy_of(cs.frame, W, H);
      ref_filter_frame(want.data, want.stride, W, H, cs.grid, cs.grid_stride, cs.sharpness);
      for (int p = 0; p < 3; p++)
        for (size_t i = 0; i < want.size(p); i++) {
          total++;
          changed += want.bytes(p)[i] != cs.frame.bytes(p)[i];
        }
      for (int b = 0; b < 5; b++) {
        V3dContext *c = b < 4 ? ctx[b] : simd1;
        if (!c) continue;
        LfFrame got = copy_of(cs.frame, W, H);
        int rc = v3d_vp9_loop_filter_frame(c, got.data, got.stride, W, H, cs.grid.data(),
                                           cs.grid_stride, cs.sharpness);
        const char *name = b < 4 ? backends[b] : "simd (1 thread)";
        if (!check(rc == 0, "%s: %dx%d seed 0x%llx: returned %d (%s)", name, W, H,
                   static_cast<unsigned long long>(seed), rc, v3d_last_error()))
          continue;
        check_same(got, want, name, seed, cs);
        LfFrame trusted = copy_of(cs.frame, W, H);
        rc = v3d::vp9::lpf_filter_frame_trusted(c, trusted.data, trusted.stride, W, H,
                                                cs.grid.data(), cs.grid_stride, cs.sharpness);
        if (check(rc == 0, "%s trusted: %dx%d seed 0x%llx: returned %d (%s)", name, W, H,
                  static_cast<unsigned long long>(seed), rc, v3d_last_error()))
          check_same(trusted, want, name, seed, cs);
      }
      v3d::vp9::LpfFrame f;
      // The wavefront on 4 threads with the scalar kernels: same as the sequential order.
      if (pool) {
        LfFrame got = copy_of(cs.frame, W, H);
        v3d::vp9::lpf_frame_setup(got.data, got.stride, W, H, cs.grid.data(), cs.grid_stride,
                                  cs.sharpness, &f);
        v3d::vp9::lpf_frame_wavefront(f, ref_dsp, *pool);
        check_same(got, want, "wavefront (4 threads, scalar kernels)", seed, cs);
      }
      // The order is observable: all vertical edges of the frame first is not VP9. (With one
      // superblock row or column the two orders coincide or nearly: checked on 2x2 and more.)
      if (W > 64 && H > 64) {
        LfFrame other = copy_of(cs.frame, W, H);
        v3d::vp9::lpf_frame_setup(other.data, other.stride, W, H, cs.grid.data(), cs.grid_stride,
                                  cs.sharpness, &f);
        v3d::vp9::lpf_frame_sequential(f, ref_dsp, v3d::vp9::LpfOrder::kFrameVerticalFirst);
        int p, x, y;
        check(!other.same_as(want, &p, &x, &y),
              "order: %dx%d seed 0x%llx: all-vertical-first gave the same frame (the test "
              "could not catch a wrong order)",
              W, H, static_cast<unsigned long long>(seed));
        order_checked++;
      }
    }
  }
  printf("frames: %d, pixels changed by the filter: %.1f%%, order checks: %ld\n", iter,
         100.0 * changed / total, order_checked);
  check(changed * 10 > total, "the filter changed only %ld of %ld pixels", changed, total);
  for (auto *c : ctx) v3d_context_free(c);
  v3d_context_free(simd1);
}

// Several frames at once on the CPU. lpf_frames_wavefront on a 4-thread pool with the scalar
// kernels: random batches of 1-7 frames of random sizes, each frame with random planes to filter
// (the others must stay as they were); and v3d_vp9_loop_filter_frames on SIMD contexts of 2, 3
// and test_threads() threads. Every frame against the independent reference.
void test_cpu_batches(uint64_t seed0) {
  v3d::vp9::LpfDsp ref_dsp;
  v3d::vp9::lpf_dsp_init_ref(&ref_dsp);
  v3d::ThreadPool pool(4);
  const int thread_counts[] = {2, 3, v3dtest::test_threads()};
  V3dContext *simd[3];
  for (int i = 0; i < 3; i++) simd[i] = v3d_context_new("simd", thread_counts[i]);
  int n_frames = 0, n_batches = 0;
  for (int b = 0; b < 24; b++, n_batches++) {
    const uint64_t seed = seed0 ^ (static_cast<uint64_t>(b + 1) * 0xD1B54A32D192ED03ull);
    Rng rng(seed);
    const int n = rng.range(1, 7);
    std::vector<std::unique_ptr<Case>> cases;
    std::vector<LfFrame> want, got;
    std::vector<int> masks;
    for (int i = 0; i < n; i++) {
      const auto &sz = kSizes[rng.range(0, 10)];  // not the 1080p one
      cases.push_back(std::make_unique<Case>(rng, sz[0], sz[1]));
      const Case &cs = *cases.back();
      LfFrame w = copy_of(cs.frame, cs.width, cs.height);
      ref_filter_frame(w.data, w.stride, cs.width, cs.height, cs.grid, cs.grid_stride,
                       cs.sharpness);
      want.push_back(std::move(w));
      got.push_back(copy_of(cs.frame, cs.width, cs.height));
      masks.push_back(rng.range(1, 7));
    }
    n_frames += n;
    // The internal loop, planes masked.
    std::vector<v3d::vp9::LpfFrame> lf(n);
    std::vector<const v3d::vp9::LpfFrame *> list;
    for (int i = 0; i < n; i++) {
      const Case &cs = *cases[i];
      v3d::vp9::lpf_frame_setup(got[i].data, got[i].stride, cs.width, cs.height, cs.grid.data(),
                                cs.grid_stride, cs.sharpness, &lf[i]);
      lf[i].plane_mask = masks[i];
      list.push_back(&lf[i]);
    }
    v3d::vp9::lpf_frames_wavefront(list, ref_dsp, pool);
    for (int i = 0; i < n; i++) {
      LfFrame expect = copy_of(cases[i]->frame, cases[i]->width, cases[i]->height);
      for (int p = 0; p < 3; p++)
        if (masks[i] & (1 << p)) expect.copy_plane_from(want[i], p);
      check_same(got[i], expect, "batch wavefront (4 threads, scalar kernels, planes masked)",
                 seed, *cases[i]);
    }
    // The API on SIMD contexts.
    for (int t = 0; t < 3; t++) {
      if (!simd[t]) continue;
      std::vector<LfFrame> g;
      std::vector<V3dVp9LfFrame> api(n);
      for (int i = 0; i < n; i++) g.push_back(copy_of(cases[i]->frame, cases[i]->width, cases[i]->height));
      for (int i = 0; i < n; i++) {
        const Case &cs = *cases[i];
        for (int p = 0; p < 3; p++) {
          api[i].planes[p] = g[i].data[p];
          api[i].strides[p] = g[i].stride[p];
        }
        api[i].width = cs.width;
        api[i].height = cs.height;
        api[i].grid = cs.grid.data();
        api[i].grid_stride = cs.grid_stride;
        api[i].sharpness = cs.sharpness;
      }
      const int rc = v3d_vp9_loop_filter_frames(simd[t], api.data(), api.size());
      if (!check(rc == 0, "simd batch of %d (%d threads) seed 0x%llx: returned %d (%s)", n,
                 thread_counts[t], static_cast<unsigned long long>(seed), rc, v3d_last_error()))
        continue;
      char what[64];
      snprintf(what, sizeof what, "simd batch (%d threads)", thread_counts[t]);
      for (int i = 0; i < n; i++) check_same(g[i], want[i], what, seed, *cases[i]);
    }
  }
  printf("CPU batches: %d batches, %d frames\n", n_batches, n_frames);
  for (auto *c : simd) v3d_context_free(c);
}

// Validation spread over threads (grids of 16384 entries or more are checked on the pool) names
// the error that checking the frames one after another finds first. Random batches of 1-5 frames
// (up to 1920x1088), each frame spoiled with probability 1/2 in one to three places (grid entries
// at random rows, a NULL plane, a short stride, a bad sharpness, a short grid stride), through a
// 4-thread context: against calls of v3d_vp9_loop_filter_frame frame by frame on a 1-thread
// context (which checks on its calling thread alone). The same code and message (prefixed with
// the frame), and no frame modified; single frames likewise on both contexts.
void test_parallel_validation(uint64_t seed0) {
  V3dContext *one = v3d_context_new("simd", 1), *four = v3d_context_new("simd", 4);
  const int sizes[][2] = {{1920, 1088}, {1280, 720}, {1024, 576}, {352, 288}, {250, 130}};
  int refused = 0, accepted = 0;
  for (int it = 0; it < 40; it++) {
    const uint64_t seed = seed0 ^ (static_cast<uint64_t>(it + 1) * 0x94D049BB133111EBull);
    Rng rng(seed);
    const int n = rng.range(1, 5);
    std::vector<std::unique_ptr<Case>> cases;
    std::vector<V3dVp9LfFrame> api(n);
    // Per frame: spoiled by an entry that is always invalid (filter_level, block_size, tx_size),
    // and by a check done before the entries (sharpness, grid stride).
    std::vector<char> bad_entry(n, 0), bad_header(n, 0);
    for (int i = 0; i < n; i++) {
      const auto &sz = sizes[rng.range(0, 4)];
      cases.push_back(std::make_unique<Case>(rng, sz[0], sz[1]));
      Case &cs = *cases.back();
      V3dVp9LfFrame &f = api[i];
      for (int p = 0; p < 3; p++) {
        f.planes[p] = cs.frame.data[p];
        f.strides[p] = cs.frame.stride[p];
      }
      f.width = cs.width;
      f.height = cs.height;
      f.grid = cs.grid.data();
      f.grid_stride = cs.grid_stride;
      f.sharpness = cs.sharpness;
      if (rng.range(0, 1)) continue;
      const int rows = (cs.height + 7) / 8, cols = (cs.width + 7) / 8;
      for (int k = rng.range(1, 3); k > 0; k--) {
        V3dVp9LfInfo &e = cs.grid[static_cast<size_t>(rng.range(0, rows - 1)) * cs.grid_stride +
                                  rng.range(0, cols - 1)];
        switch (rng.range(0, 8)) {
          case 0: e.filter_level = 64 + rng.range(0, 100); bad_entry[i] = 1; break;
          case 1: e.block_size = 13; bad_entry[i] = 1; break;
          case 2:  // a 32x32 transform in a block smaller than 32x32
            e.tx_size = 3;
            e.block_size = static_cast<uint8_t>(rng.range(0, 8));
            bad_entry[i] = 1;
            break;
          case 3: e.block_size = static_cast<uint8_t>((e.block_size + 1) % 13); break;  // partition
          case 4: f.planes[rng.range(0, 2)] = nullptr; break;
          case 5: f.strides[1] = 8; break;
          case 6: f.sharpness = 8; bad_header[i] = 1; break;
          case 7: f.grid_stride = cols - 1; bad_header[i] = 1; break;
          default: e.filter_level = 0; break;  // still valid
        }
      }
    }
    std::vector<std::vector<uint8_t>> before;
    for (auto &c : cases)
      for (int p = 0; p < 3; p++) before.push_back(c->frame.plane_bytes(p));
    // Expected: the first frame the 1-thread context refuses alone.
    int want_rc = 0;
    std::string want_msg;
    for (int i = 0; i < n && !want_rc; i++) {
      const V3dVp9LfFrame &f = api[i];
      // Checked without filtering: a valid frame is filtered by this call, so its copy is used.
      LfFrame scratch = copy_of(cases[i]->frame, cases[i]->width, cases[i]->height);
      uint8_t *pl[3];
      for (int p = 0; p < 3; p++) pl[p] = f.planes[p] ? scratch.data[p] : nullptr;
      const int rc = v3d_vp9_loop_filter_frame(one, pl, f.strides, f.width, f.height, f.grid,
                                               f.grid_stride, f.sharpness);
      if (rc) {
        want_rc = rc;
        want_msg = "frame " + std::to_string(i) + ": " + v3d_last_error();
        // Independent of the library's order: a frame with a bad entry and no bad header is
        // refused for a grid entry (before its planes and strides are looked at).
        check(!bad_entry[i] || bad_header[i] || want_msg.find("grid entry") != std::string::npos,
              "seed 0x%llx frame %d: a bad grid entry, but refused with '%s'",
              static_cast<unsigned long long>(seed), i, want_msg.c_str());
      }
      // The single frame on the 4-thread context: the same answer.
      LfFrame scratch4 = copy_of(cases[i]->frame, cases[i]->width, cases[i]->height);
      for (int p = 0; p < 3; p++) pl[p] = f.planes[p] ? scratch4.data[p] : nullptr;
      const int rc4 = v3d_vp9_loop_filter_frame(four, pl, f.strides, f.width, f.height, f.grid,
                                                f.grid_stride, f.sharpness);
      const std::string msg4 = rc4 ? v3d_last_error() : "";
      check(rc4 == rc && (!rc || want_msg == "frame " + std::to_string(i) + ": " + msg4),
            "seed 0x%llx frame %d alone: 4 threads %d '%s', 1 thread %d '%s'",
            static_cast<unsigned long long>(seed), i, rc4, msg4.c_str(), rc, want_msg.c_str());
    }
    const int rc = v3d_vp9_loop_filter_frames(four, api.data(), api.size());
    const std::string msg = rc ? v3d_last_error() : "";
    if (want_rc) {
      refused++;
      check(rc == want_rc && msg == want_msg, "seed 0x%llx: batch of %d on 4 threads: %d '%s', "
            "frame by frame on 1 thread: %d '%s'", static_cast<unsigned long long>(seed), n, rc,
            msg.c_str(), want_rc, want_msg.c_str());
      size_t k = 0;
      bool same = true;
      for (auto &c : cases)
        for (int p = 0; p < 3; p++) same = same && c->frame.plane_bytes(p) == before[k++];
      check(same, "seed 0x%llx: a refused batch modified a frame", static_cast<unsigned long long>(seed));
    } else {
      accepted++;
      check(rc == 0, "seed 0x%llx: valid batch of %d refused: %s",
            static_cast<unsigned long long>(seed), n, msg.c_str());
    }
  }
  printf("parallel validation: %d batches refused, %d accepted\n", refused, accepted);
  check(refused >= 10 && accepted >= 3, "too few refused (%d) or accepted (%d) batches to test",
        refused, accepted);
  v3d_context_free(one);
  v3d_context_free(four);
}

// Each invalid input is refused with a negative code and a message, and the frame is untouched.
void test_invalid(uint64_t seed) {
  V3dContext *ctx = v3d_context_new("scalar", 1);
  Rng rng(seed);
  Case cs(rng, 136, 72);
  const int W = cs.width, H = cs.height, gs = cs.grid_stride;
  struct Bad {
    const char *what;
    std::function<int(LfFrame &, std::vector<V3dVp9LfInfo> &)> call;
  };
  auto run = [&](LfFrame &f, std::vector<V3dVp9LfInfo> &g, int w, int h, int stride, int sharp) {
    return v3d_vp9_loop_filter_frame(ctx, f.data, f.stride, w, h, g.data(), stride, sharp);
  };
  // Finds the top-left entry of a block of the given size class (w8 x h8 in 8x8 units).
  auto find_block = [&](std::vector<V3dVp9LfInfo> &g, int min_w8, int min_h8) -> int {
    for (int r = 0; r < (H + 7) / 8; r++)
      for (int c = 0; c < (W + 7) / 8; c++) {
        const V3dVp9LfInfo &b = g[r * gs + c];
        if (kW8[b.block_size] >= min_w8 && kH8[b.block_size] >= min_h8 &&
            !(r % kH8[b.block_size]) && !(c % kW8[b.block_size]) &&
            r + kH8[b.block_size] <= (H + 7) / 8 && c + kW8[b.block_size] <= (W + 7) / 8)
          return r * gs + c;
      }
    return -1;
  };
  std::vector<Bad> bad = {
      {"sharpness -1", [&](LfFrame &f, auto &g) { return run(f, g, W, H, gs, -1); }},
      {"sharpness 8", [&](LfFrame &f, auto &g) { return run(f, g, W, H, gs, 8); }},
      {"width 0", [&](LfFrame &f, auto &g) { return run(f, g, 0, H, gs, 0); }},
      {"height 0", [&](LfFrame &f, auto &g) { return run(f, g, W, 0, gs, 0); }},
      {"grid_stride too small",
       [&](LfFrame &f, auto &g) { return run(f, g, W, H, (W + 7) / 8 - 1, 0); }},
      {"NULL grid",
       [&](LfFrame &f, auto &) {
         return v3d_vp9_loop_filter_frame(ctx, f.data, f.stride, W, H, nullptr, gs, 0);
       }},
      {"NULL context",
       [&](LfFrame &f, auto &g) {
         return v3d_vp9_loop_filter_frame(nullptr, f.data, f.stride, W, H, g.data(), gs, 0);
       }},
      {"NULL planes",
       [&](LfFrame &f, auto &g) {
         return v3d_vp9_loop_filter_frame(ctx, nullptr, f.stride, W, H, g.data(), gs, 0);
       }},
      {"NULL strides",
       [&](LfFrame &f, auto &g) {
         return v3d_vp9_loop_filter_frame(ctx, f.data, nullptr, W, H, g.data(), gs, 0);
       }},
      {"NULL plane 2",
       [&](LfFrame &f, auto &g) {
         uint8_t *pl[3] = {f.data[0], f.data[1], nullptr};
         return v3d_vp9_loop_filter_frame(ctx, pl, f.stride, W, H, g.data(), gs, 0);
       }},
      {"stride below width",
       [&](LfFrame &f, auto &g) {
         ptrdiff_t st[3] = {f.stride[0], 10, f.stride[2]};
         return v3d_vp9_loop_filter_frame(ctx, f.data, st, W, H, g.data(), gs, 0);
       }},
      {"filter_level 64",
       [&](LfFrame &f, auto &g) {
         int k = find_block(g, 1, 1);
         g[k].filter_level = 64;
         return run(f, g, W, H, gs, 0);
       }},
      {"block_size 13",
       [&](LfFrame &f, auto &g) {
         int k = find_block(g, 1, 1);
         g[k].block_size = 13;
         return run(f, g, W, H, gs, 0);
       }},
      {"transform larger than block",
       [&](LfFrame &f, auto &g) {
         // The picture's last entry becomes an 8X4 block (one entry) with an 8x8 transform.
         const int k = ((H + 7) / 8 - 1) * gs + (W + 7) / 8 - 1;
         g[k].block_size = 2;
         g[k].tx_size = 1;
         return run(f, g, W, H, gs, 0);
       }},
      {"entry differs from its block",
       [&](LfFrame &f, auto &g) {
         int k = find_block(g, 2, 2);
         if (k < 0) return -100;
         g[k + 1].filter_level = static_cast<uint8_t>((g[k].filter_level + 1) & 63);
         return run(f, g, W, H, gs, 0);
       }},
      {"rectangular block without its other half",
       [&](LfFrame &f, auto &g) {
         // Replace the first 16x16 area with an 16X8 block (top) and two 8x8 blocks (bottom).
         int k = find_block(g, 2, 2);
         if (k < 0) return -100;
         V3dVp9LfInfo top{20, 5, 0, 0}, bottom{20, 3, 0, 0};
         g[k] = g[k + 1] = top;
         g[k + gs] = g[k + gs + 1] = bottom;
         return run(f, g, W, H, gs, 0);
       }},
  };
  for (auto &b : bad) {
    LfFrame f = copy_of(cs.frame, W, H);
    std::vector<V3dVp9LfInfo> g = cs.grid;
    const int rc = b.call(f, g);
    if (rc == -100) continue;  // no block to alter in this grid
    int p, x, y;
    check(rc < 0, "invalid input '%s' accepted (returned %d), seed 0x%llx", b.what, rc,
          static_cast<unsigned long long>(seed));
    check(f.same_as(cs.frame, &p, &x, &y), "invalid input '%s': frame modified", b.what);
    check(rc >= 0 || v3d_last_error()[0], "invalid input '%s': no error message", b.what);
    if (rc < 0) printf("refused '%s': %s\n", b.what, v3d_last_error());
  }
  // The unchanged grid is accepted (so the refusals above are the alterations' doing).
  LfFrame f = copy_of(cs.frame, W, H);
  std::vector<V3dVp9LfInfo> g = cs.grid;
  check(run(f, g, W, H, gs, cs.sharpness) == 0, "valid grid refused: %s", v3d_last_error());
  // The trusted entry skips only the grid entries' checks.
  uint8_t *const no_plane[3] = {f.data[0], nullptr, f.data[2]};
  check(v3d::vp9::lpf_filter_frame_trusted(ctx, no_plane, f.stride, W, H, g.data(), gs,
                                           cs.sharpness) == V3D_ERROR_INVALID_ARGUMENT &&
            v3d::vp9::lpf_filter_frame_trusted(ctx, f.data, f.stride, W, H, g.data(), gs, 8) ==
                V3D_ERROR_INVALID_ARGUMENT &&
            v3d::vp9::lpf_filter_frame_trusted(nullptr, f.data, f.stride, W, H, g.data(), gs,
                                               cs.sharpness) == V3D_ERROR_INVALID_ARGUMENT,
        "trusted entry accepted a NULL plane, sharpness 8 or a NULL context");
  v3d_context_free(ctx);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  test_frames(seed);
  test_cpu_batches(seed ^ 0xBA7C);
  test_parallel_validation(seed ^ 0x7A11);
  test_invalid(seed ^ 0x1234);
  return v3dtest::finish();
}
