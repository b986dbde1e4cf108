// SPDX-License-Identifier: LGPL-2.1-or-later
// Whole-picture H.264 deblocking (v3d_h264_deblock_frame) on every backend this machine has,
// against an independent reference written here from clause 8.7 of ITU-T H.264 (per sample line:
// which edges, qPav, indexA/indexB, alpha, beta, tC0, the bS < 4 and bS 4 filters, with its own
// copies of Tables 8-15 to 8-17), on random pictures whose content makes the filters fire and
// random macroblock grids (QP, bS per segment, transform_8x8, slices with idc 0/1/2, offsets),
// sizes multiple of 16 or not. Also: the wavefront on 1..N threads equals the sequential order;
// the order is observable (all vertical edges of the picture first gives a different picture);
// guard borders stay untouched; invalid input is refused with the picture untouched. Batches
// (v3d_h264_deblock_frames) on every backend, hybrid with shares that give the GPU none, some or
// all pictures, and the pictures' wavefronts in one loop (deblock_wavefronts) on 1..4 threads;
// an invalid picture in a batch is named and no picture is touched.
//
// Linked with the library's objects (not the shared library) for the internal entry points
// (h264/deblock_frame.h), whose symbols the library does not export.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "common/test_util.h"
#include "threads/thread_pool.h"
#include "h264/deblock/deblock.h"
#include "h264/deblock/deblock_frame.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::h264::Grid;
using v3dtest::h264::GridParams;
using v3dtest::h264::Picture;

namespace {

// ---- Independent reference (clause 8.7) --------------------------------------------------------

// Table 8-15 (QPc from qPI for qPI >= 30; below, QPc = qPI).
const int kRefQpc30[22] = {29, 30, 31, 32, 32, 33, 34, 34, 35, 35, 36,
                           36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 39};
int ref_qpc(int qpi) { return qpi < 30 ? qpi : kRefQpc30[qpi - 30]; }

// Table 8-16, alpha' and beta' for indexA/indexB 16..51 (0 below 16).
const int kRefAlpha[36] = {4,  4,  5,  6,  7,  8,  9,  10, 12,  13,  15,  17,  20,  22,  25,  28,  32,  36,
                           40, 45, 50, 56, 63, 71, 80, 90, 101, 113, 127, 144, 162, 182, 203, 226, 255, 255};
const int kRefBeta[36] = {2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 6, 6, 7, 7, 8, 8, 9, 9,
                          10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18};
// Table 8-17, tC0' for indexA 17..51, bS 1, 2, 3 (0 below 17).
const int kRefTc0[35][3] = {{0, 0, 1},  {0, 0, 1},   {0, 0, 1},   {0, 0, 1},   {0, 1, 1},
                            {0, 1, 1},  {1, 1, 1},   {1, 1, 1},   {1, 1, 1},   {1, 1, 1},
                            {1, 1, 2},  {1, 1, 2},   {1, 1, 2},   {1, 1, 2},   {1, 2, 3},
                            {1, 2, 3},  {2, 2, 3},   {2, 2, 4},   {2, 3, 4},   {2, 3, 4},
                            {3, 3, 5},  {3, 4, 6},   {3, 4, 6},   {4, 5, 7},   {4, 5, 8},
                            {4, 6, 9},  {5, 7, 10},  {6, 8, 11},  {6, 8, 13},  {7, 10, 14},
                            {8, 11, 16}, {9, 12, 18}, {10, 13, 20}, {11, 15, 23}, {13, 17, 25}};

int clip3(int lo, int hi, int v) { return v < lo ? lo : v > hi ? hi : v; }

struct RefPlane {
  uint8_t *d;
  ptrdiff_t s;
  int w, h;
};

// Filters one line of samples across an edge (8.7.2.3 / 8.7.2.4). (x, y): q0; dir 0: the edge is
// vertical (p samples to the left). qpp, qpq: QP (luma) or QPc (chroma) of the two macroblocks.
// The public contract for partial pictures: nothing when the line or any sample read across the
// edge (4 a side for luma, 2 for chroma) lies outside the plane.
void ref_line(const RefPlane &pl, bool chroma, int dir, int x, int y, int bs, int qpp, int qpq,
              const V3dH264SliceInfo &sl) {
  if (bs == 0) return;
  const int reach = chroma ? 2 : 4;
  if (x >= pl.w || y >= pl.h) return;
  if (dir == 0 ? (x - reach < 0 || x + reach > pl.w) : (y - reach < 0 || y + reach > pl.h)) return;
  auto at = [&](int i) -> uint8_t & {  // i < 0: p(-1 - i), i >= 0: q(i)
    return dir == 0 ? pl.d[y * pl.s + x + i] : pl.d[(y + i) * pl.s + x];
  };
  const int p0 = at(-1), p1 = at(-2), q0 = at(0), q1 = at(1);
  const int p2 = chroma ? 0 : at(-3), q2 = chroma ? 0 : at(2);
  const int p3 = chroma ? 0 : at(-4), q3 = chroma ? 0 : at(3);
  const int qpav = (qpp + qpq + 1) >> 1;                              // 8-461
  const int index_a = clip3(0, 51, qpav + sl.filter_offset_a);        // 8-462
  const int index_b = clip3(0, 51, qpav + sl.filter_offset_b);        // 8-463
  const int alpha = index_a < 16 ? 0 : kRefAlpha[index_a - 16];
  const int beta = index_b < 16 ? 0 : kRefBeta[index_b - 16];
  // filterSamplesFlag (8-460)
  if (!(std::abs(p0 - q0) < alpha && std::abs(p1 - p0) < beta && std::abs(q1 - q0) < beta)) return;
  const int ap = std::abs(p2 - p0), aq = std::abs(q2 - q0);
  if (bs < 4) {
    const int tc0 = index_a < 17 ? 0 : kRefTc0[index_a - 17][bs - 1];
    const int tc = chroma ? tc0 + 1 : tc0 + (ap < beta ? 1 : 0) + (aq < beta ? 1 : 0);
    const int delta = clip3(-tc, tc, ((q0 - p0) * 4 + (p1 - q1) + 4) >> 3);
    at(-1) = static_cast<uint8_t>(clip3(0, 255, p0 + delta));
    at(0) = static_cast<uint8_t>(clip3(0, 255, q0 - delta));
    if (!chroma && ap < beta) at(-2) = static_cast<uint8_t>(p1 + clip3(-tc0, tc0, (p2 + ((p0 + q0 + 1) >> 1) - (p1 << 1)) >> 1));
    if (!chroma && aq < beta) at(1) = static_cast<uint8_t>(q1 + clip3(-tc0, tc0, (q2 + ((p0 + q0 + 1) >> 1) - (q1 << 1)) >> 1));
    return;
  }
  const bool small_gap = std::abs(p0 - q0) < ((alpha >> 2) + 2);
  if (!chroma && ap < beta && small_gap) {
    at(-1) = static_cast<uint8_t>((p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + 4) >> 3);
    at(-2) = static_cast<uint8_t>((p2 + p1 + p0 + q0 + 2) >> 2);
    at(-3) = static_cast<uint8_t>((2 * p3 + 3 * p2 + p1 + p0 + q0 + 4) >> 3);
  } else {
    at(-1) = static_cast<uint8_t>((2 * p1 + p0 + q1 + 2) >> 2);
  }
  if (!chroma && aq < beta && small_gap) {
    at(0) = static_cast<uint8_t>((p1 + 2 * p0 + 2 * q0 + 2 * q1 + q2 + 4) >> 3);
    at(1) = static_cast<uint8_t>((p0 + q0 + q1 + q2 + 2) >> 2);
    at(2) = static_cast<uint8_t>((2 * q3 + 3 * q2 + q1 + q0 + p0 + 4) >> 3);
  } else {
    at(0) = static_cast<uint8_t>((2 * q1 + q0 + p1 + 2) >> 2);
  }
}

// The picture in the standard's order: macroblocks in raster order; in each, luma vertical edges
// left to right, horizontal edges top to bottom, then Cb, then Cr likewise. Chroma (4:2:0) edge k
// (k = 0, 1, at 4k samples) takes the bS of luma edge 2k; chroma sample i along it that of luma
// sample 2i. The left / top macroblock edge is not filtered on the picture's border, nor across
// slices when the current slice has idc 2; a slice with idc 1 is not filtered at all.
void ref_deblock(Picture &pic, int width, int height, Grid &g) {
  for (int r = 0; r < g.mb_rows; r++)
    for (int c = 0; c < g.mb_cols; c++) {
      const V3dH264MbInfo &m = g.at(r, c);
      const V3dH264SliceInfo &sl = g.slices[m.slice];
      if (sl.disable_deblocking_filter_idc == 1) continue;
      const bool left = c > 0 && !(sl.disable_deblocking_filter_idc == 2 && g.at(r, c - 1).slice != m.slice);
      const bool top = r > 0 && !(sl.disable_deblocking_filter_idc == 2 && g.at(r - 1, c).slice != m.slice);
      for (int pl = 0; pl < 3; pl++) {
        const RefPlane p{pic.data[pl], pic.stride[pl], pic.w[pl], pic.h[pl]};
        const bool chroma = pl > 0;
        const int n = chroma ? 8 : 16;
        const int off = pl == 1 ? sl.chroma_qp_index_offset : sl.second_chroma_qp_index_offset;
        auto qp_of = [&](const V3dH264MbInfo &mb) {
          return chroma ? ref_qpc(clip3(0, 51, mb.qp + off)) : mb.qp;
        };
        for (int dir = 0; dir < 2; dir++)
          for (int k = 0; k < (chroma ? 2 : 4); k++) {
            const int e = chroma ? 2 * k : k;  // luma edge whose bS applies
            if (e == 0 && !(dir == 0 ? left : top)) continue;
            if (!chroma && (e & 1) && m.transform_8x8) continue;
            const V3dH264MbInfo &nb = e ? m : dir == 0 ? g.at(r, c - 1) : g.at(r - 1, c);
            for (int i = 0; i < n; i++) {
              const int luma_i = chroma ? 2 * i : i;
              const int bs = m.bs[dir][e][luma_i / 4];
              const int x = n * c + (dir == 0 ? 4 * k : i), y = n * r + (dir == 0 ? i : 4 * k);
              ref_line(p, chroma, dir, x, y, bs, qp_of(nb), qp_of(m), sl);
            }
          }
      }
    }
  (void)width;
  (void)height;
}

// ---- Tests ------------------------------------------------------------------------------------

const int kSizes[][2] = {{16, 16}, {32, 48}, {176, 144}, {250, 130}, {1, 1}, {17, 17},
                         {48, 33}, {20, 100}, {1920, 1088}};

int deblock(V3dContext *ctx, Picture &p, int w, int h, Grid &g) {
  return v3d_h264_deblock_frame(ctx, p.data, p.stride, w, h, g.mbs.data(), g.mb_stride,
                                g.slices.data(), static_cast<int>(g.slices.size()));
}

void check_same(const Picture &got, const Picture &want, const char *what, int w, int h,
                uint64_t seed) {
  int p = 0, x = 0, y = 0;
  check(got.same_as(want, &p, &x, &y), "%s: %dx%d seed 0x%llx: first difference plane %d x %d y %d",
        what, w, h, static_cast<unsigned long long>(seed), p, x, y);
  check(got.guards_intact(), "%s: %dx%d seed 0x%llx: guard border written", what, w, h,
        static_cast<unsigned long long>(seed));
}

void test_pictures(uint64_t seed0) {
  const char *backends[] = {"scalar", "simd", "gpu", "hybrid", "auto"};
  const int nb = 5;
  const int threads = v3dtest::test_threads();
  V3dContext *ctx[nb];
  for (int b = 0; b < nb; b++) {
    ctx[b] = v3d_context_new(backends[b], b == 0 ? 1 : threads);
    if (!ctx[b]) printf("backend %s unavailable here: %s\n", backends[b], v3d_last_error());
  }
  const bool require_gpu = getenv("V3D_REQUIRE_GPU") && atoi(getenv("V3D_REQUIRE_GPU"));
  check(!require_gpu || ctx[2], "V3D_REQUIRE_GPU set but no gpu backend");
  V3dContext *simd1 = v3d_context_new("simd", 1);
  // Wavefront pools of 1..max(4, V3D_TEST_THREADS) threads (one only where threads may not be
  // created: V3D_TEST_THREADS=1 under qemu).
  std::vector<std::unique_ptr<v3d::ThreadPool>> pools;
  for (int n = 1; n <= (threads > 1 ? std::max(4, threads) : 1); n++)
    pools.push_back(std::make_unique<v3d::ThreadPool>(n));
  v3d::h264::DeblockDsp ref_dsp;
  v3d::h264::deblock_dsp_init_ref(&ref_dsp);
  long changed = 0, total = 0, order_checked = 0, order_differs = 0;
  int iter = 0;
  for (auto &sz : kSizes) {
    const int reps = sz[0] * sz[1] > 100000 ? 2 : v3dtest::scaled(6);
    for (int rep = 0; rep < reps; rep++, iter++) {
      const uint64_t seed = seed0 ^ (static_cast<uint64_t>(iter + 1) * 0x9E3779B97F4A7C15ull);
      Rng rng(seed);
      const int W = sz[0], H = sz[1];
      GridParams gp;
      gp.per_mb_slices = rep % 3 == 2;
      gp.intra_pct = rng.range(0, 60);
      gp.inter_pct = rng.range(0, 100 - gp.intra_pct);
      Grid g = v3dtest::h264::make_grid(rng, W, H, gp);
      Picture src(W, H, rng.range(0, 9));
      src.fill(rng);
      Picture want(src);
      ref_deblock(want, W, H, g);
      for (int p = 0; p < 3; p++)
        for (size_t i = 0; i < want.size(p); i++) {
          total++;
          changed += want.bytes(p)[i] != src.bytes(p)[i];
        }
      for (int b = 0; b <= nb; b++) {
        V3dContext *c = b < nb ? ctx[b] : simd1;
        if (!c) continue;
        Picture got(src);
        const int rc = deblock(c, got, W, H, g);
        const char *name = b < nb ? backends[b] : "simd (1 thread)";
        if (!check(rc == 0, "%s: %dx%d seed 0x%llx: returned %d (%s)", name, W, H,
                   static_cast<unsigned long long>(seed), rc, v3d_last_error()))
          continue;
        check_same(got, want, name, W, H, seed);
      }
      v3d::h264::DeblockPicture dp;
      // The wavefront with the scalar and the SIMD kernels on every pool, in strips of every
      // height (0: the height the library picks): the sequential order.
      for (auto &pool : pools)
        for (int k = 0; k < 2; k++)
          for (int h = 0; h <= v3d::h264::kMaxStripRows; h++) {
            if (k == 0 && h > 0 && h != 1 + iter % v3d::h264::kMaxStripRows) continue;
            Picture got(src);
            v3d::h264::deblock_picture_setup(got.data, got.stride, W, H, g.mbs.data(),
                                             g.mb_stride, g.slices.data(), &dp);
            v3d::h264::deblock_wavefront(dp, k ? v3d::h264::deblock_dsp() : ref_dsp, *pool,
                                         v3d::h264::kPlanesAll, h);
            char what[80];
            snprintf(what, sizeof what, "wavefront (%d threads, strips of %d rows, %s kernels)",
                     pool->size(), h ? h : v3d::h264::deblock_strip_rows(dp.mb_rows, pool->size()),
                     k ? "simd" : "scalar");
            check_same(got, want, what, W, H, seed);
          }
      // The order is observable: all vertical edges of the picture first is not H.264. Some
      // random grids filter too little for it to show (slices with idc 1, low QP; 16..22 of 26
      // differ over seeds 1..12): at least half must.
      if (W >= 32 && H >= 32) {
        Picture other(src);
        v3d::h264::deblock_picture_setup(other.data, other.stride, W, H, g.mbs.data(),
                                         g.mb_stride, g.slices.data(), &dp);
        v3d::h264::deblock_sequential(dp, ref_dsp, v3d::h264::kPlanesAll,
                                      v3d::h264::DeblockOrder::kPictureVerticalFirst);
        int p, x, y;
        order_differs += !other.same_as(want, &p, &x, &y);
        order_checked++;
      }
    }
  }
  // An adversarial case for the order: one slice, idc 0, intra pattern at QP 36 on smooth
  // content: the vertical-first order must differ from the standard's, and the wavefront not.
  {
    Rng rng(seed0 ^ 0x0D0E);
    const int W = 176, H = 144;
    Grid g = v3dtest::h264::make_uniform_grid(W, H, 36, 2, 0, 0, true, 0, false);
    Picture src(W, H, 3);
    src.fill(rng);
    Picture want(src);
    ref_deblock(want, W, H, g);
    v3d::h264::DeblockPicture dp;
    Picture other(src);
    v3d::h264::deblock_picture_setup(other.data, other.stride, W, H, g.mbs.data(), g.mb_stride,
                                     g.slices.data(), &dp);
    v3d::h264::deblock_sequential(dp, ref_dsp, v3d::h264::kPlanesAll,
                                  v3d::h264::DeblockOrder::kPictureVerticalFirst);
    int p, x, y;
    check(!other.same_as(want, &p, &x, &y),
          "order: intra QP 36 176x144: all-vertical-first gave the same picture (the test could "
          "not catch a wrong order)");
    for (auto &pool : pools) {
      Picture got(src);
      v3d::h264::deblock_picture_setup(got.data, got.stride, W, H, g.mbs.data(), g.mb_stride,
                                       g.slices.data(), &dp);
      v3d::h264::deblock_wavefront(dp, v3d::h264::deblock_dsp(), *pool);
      check_same(got, want, "wavefront, intra QP 36", W, H, seed0);
    }
  }
  printf("order: all-vertical-first differs from the standard's order on %ld of %ld pictures\n",
         order_differs, order_checked);
  check(order_differs * 2 >= order_checked,
        "order: all-vertical-first differs on only %ld of %ld pictures", order_differs,
        order_checked);
  printf("pictures: %d, samples changed by the filter: %.1f%%\n", iter, 100.0 * changed / total);
  check(changed * 50 > total, "the filter changed only %ld of %ld samples", changed, total);
  for (auto *c : ctx) v3d_context_free(c);
  v3d_context_free(simd1);
}

// Batches of 1-6 pictures of random sizes (not the 1080p one), each against the reference.
void test_batches(uint64_t seed0) {
  struct Cfg {
    const char *name, *backend;
    int threads;
    double share;  // v3d_context_set_gpu_share, < 0: adaptive
  } cfgs[] = {{"scalar", "scalar", 1, -1},         {"simd 2 threads", "simd", 2, -1},
              {"simd 3 threads", "simd", 3, -1},   {"simd N threads", "simd", 0, -1},
              {"gpu", "gpu", 0, -1},               {"hybrid adaptive", "hybrid", 0, -1},
              {"hybrid share 0.5", "hybrid", 0, 0.5}, {"hybrid share 1", "hybrid", 0, 1.0},
              {"auto", "auto", 0, -1}};
  const int threads = v3dtest::test_threads();
  std::vector<V3dContext *> ctx;
  for (const Cfg &c : cfgs) {
    V3dContext *x = v3d_context_new(c.backend, c.threads ? c.threads : threads);
    if (x && c.share >= 0) v3d_context_set_gpu_share(x, c.share);
    ctx.push_back(x);
  }
  v3d::h264::DeblockDsp ref_dsp;
  v3d::h264::deblock_dsp_init_ref(&ref_dsp);
  int batches = 0, pictures = 0;
  for (int b = 0; b < v3dtest::scaled(12); b++, batches++) {
    const uint64_t seed = seed0 ^ (static_cast<uint64_t>(b + 1) * 0xD6E8FEB86659FD93ull);
    Rng rng(seed);
    const int n = rng.range(1, 6);
    std::vector<Grid> grids;
    std::vector<Picture> src, want;
    std::vector<std::pair<int, int>> dims;
    for (int i = 0; i < n; i++) {
      const auto &sz = kSizes[rng.range(0, 7)];
      GridParams gp;
      gp.per_mb_slices = rng.range(0, 2) == 2;
      grids.push_back(v3dtest::h264::make_grid(rng, sz[0], sz[1], gp));
      src.emplace_back(sz[0], sz[1], rng.range(0, 9));
      src.back().fill(rng);
      want.push_back(src.back());
      ref_deblock(want.back(), sz[0], sz[1], grids.back());
      dims.push_back({sz[0], sz[1]});
    }
    pictures += n;
    for (size_t c = 0; c < ctx.size(); c++) {
      if (!ctx[c]) continue;
      std::vector<Picture> got(src);
      std::vector<V3dH264Frame> f(n);
      for (int i = 0; i < n; i++) {
        for (int p = 0; p < 3; p++) {
          f[i].planes[p] = got[i].data[p];
          f[i].strides[p] = got[i].stride[p];
        }
        f[i].width = dims[i].first;
        f[i].height = dims[i].second;
        f[i].mbs = grids[i].mbs.data();
        f[i].mb_stride = grids[i].mb_stride;
        f[i].slices = grids[i].slices.data();
        f[i].n_slices = static_cast<int>(grids[i].slices.size());
      }
      const int rc = v3d_h264_deblock_frames(ctx[c], f.data(), f.size());
      if (!check(rc == 0, "%s: batch of %d seed 0x%llx: returned %d (%s)", cfgs[c].name, n,
                 static_cast<unsigned long long>(seed), rc, v3d_last_error()))
        continue;
      for (int i = 0; i < n; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s, picture %d of a batch of %d", cfgs[c].name, i, n);
        check_same(got[i], want[i], what, dims[i].first, dims[i].second, seed);
      }
    }
    // The internal loop with the scalar kernels on 1..4 threads.
    for (int t = 1; t <= 4; t++) {
      v3d::ThreadPool pool(t);
      std::vector<Picture> got(src);
      std::vector<v3d::h264::DeblockPicture> dp(n);
      std::vector<const v3d::h264::DeblockPicture *> list;
      for (int i = 0; i < n; i++) {
        v3d::h264::deblock_picture_setup(got[i].data, got[i].stride, dims[i].first,
                                         dims[i].second, grids[i].mbs.data(), grids[i].mb_stride,
                                         grids[i].slices.data(), &dp[i]);
        list.push_back(&dp[i]);
      }
      v3d::h264::deblock_wavefronts(list, ref_dsp, pool);
      for (int i = 0; i < n; i++) {
        char what[96];
        snprintf(what, sizeof what, "deblock_wavefronts (%d threads), picture %d of %d", t, i, n);
        check_same(got[i], want[i], what, dims[i].first, dims[i].second, seed);
      }
    }
  }
  // An invalid picture anywhere in a batch: refused, named, nothing touched.
  for (int bad = 0; bad < 3; bad++) {
    Rng rng(seed0 ^ (0xBAD0ull + bad));
    std::vector<Grid> grids;
    std::vector<Picture> pics;
    for (int i = 0; i < 3; i++) {
      grids.push_back(v3dtest::h264::make_grid(rng, 48, 32, GridParams{}));
      pics.emplace_back(48, 32, 0);
      pics.back().fill(rng);
    }
    const std::vector<Picture> before(pics);
    std::vector<V3dH264Frame> f(3);
    for (int i = 0; i < 3; i++) {
      for (int p = 0; p < 3; p++) {
        f[i].planes[p] = pics[i].data[p];
        f[i].strides[p] = pics[i].stride[p];
      }
      f[i].width = 48;
      f[i].height = 32;
      f[i].mbs = grids[i].mbs.data();
      f[i].mb_stride = grids[i].mb_stride;
      f[i].slices = grids[i].slices.data();
      f[i].n_slices = static_cast<int>(grids[i].slices.size());
    }
    if (bad == 0) grids[0].at(1, 2).qp = 52;
    if (bad == 1) f[1].planes[2] = nullptr;
    if (bad == 2) f[2].n_slices = 0;
    for (size_t c = 0; c < ctx.size(); c++) {
      if (!ctx[c]) continue;
      const int rc = v3d_h264_deblock_frames(ctx[c], f.data(), f.size());
      const std::string msg = rc ? v3d_last_error() : "";
      check(rc < 0 && msg.find("frame " + std::to_string(bad) + ":") == 0,
            "%s: invalid picture %d in a batch: returned %d, '%s'", cfgs[c].name, bad, rc,
            msg.c_str());
      for (int i = 0; i < 3; i++) {
        int p, x, y;
        check(pics[i].same_as(before[i], &p, &x, &y),
              "%s: invalid picture %d in a batch: picture %d modified", cfgs[c].name, bad, i);
      }
    }
  }
  check(v3d_h264_deblock_frames(ctx[1], nullptr, 0) == 0, "an empty batch refused");
  check(v3d_h264_deblock_frames(nullptr, nullptr, 0) < 0, "a NULL context accepted");
  printf("batches: %d, %d pictures\n", batches, pictures);
  for (V3dContext *c : ctx) v3d_context_free(c);
}

// Each invalid input is refused with a negative code and a message, and the picture untouched.
void test_invalid(uint64_t seed) {
  V3dContext *ctx = v3d_context_new("scalar", 1);
  Rng rng(seed);
  const int W = 72, H = 40;
  GridParams gp;
  Grid g0 = v3dtest::h264::make_grid(rng, W, H, gp);
  g0.slices.resize(2, g0.slices[0]);
  for (auto &m : g0.mbs) m.slice &= 1;
  Picture src(W, H, 4);
  src.fill(rng);
  using Call = std::function<int(Picture &, Grid &)>;
  auto run = [&](Picture &p, Grid &g, int w, int h, int mb_stride, int n_slices) {
    return v3d_h264_deblock_frame(ctx, p.data, p.stride, w, h, g.mbs.data(), mb_stride,
                                  g.slices.data(), n_slices);
  };
  auto std_run = [&](Picture &p, Grid &g) { return run(p, g, W, H, g.mb_stride, 2); };
  struct Bad {
    const char *what;
    Call call;
  };
  const int last_r = g0.mb_rows - 1, last_c = g0.mb_cols - 1;
  std::vector<Bad> bad = {
      {"qp 52", [&](Picture &p, Grid &g) { g.at(1, 2).qp = 52; return std_run(p, g); }},
      {"qp 255 in the last macroblock",
       [&](Picture &p, Grid &g) { g.at(last_r, last_c).qp = 255; return std_run(p, g); }},
      {"bS 5 (left edge)", [&](Picture &p, Grid &g) { g.at(0, 0).bs[0][0][1] = 5; return std_run(p, g); }},
      {"bS 200 (horizontal internal)",
       [&](Picture &p, Grid &g) { g.at(last_r, 1).bs[1][3][3] = 200; return std_run(p, g); }},
      {"slice index = n_slices", [&](Picture &p, Grid &g) { g.at(1, 1).slice = 2; return std_run(p, g); }},
      {"n_slices 0", [&](Picture &p, Grid &g) { return run(p, g, W, H, g.mb_stride, 0); }},
      {"idc 3", [&](Picture &p, Grid &g) { g.slices[1].disable_deblocking_filter_idc = 3; return std_run(p, g); }},
      {"idc -1", [&](Picture &p, Grid &g) { g.slices[0].disable_deblocking_filter_idc = -1; return std_run(p, g); }},
      {"FilterOffsetA 14", [&](Picture &p, Grid &g) { g.slices[0].filter_offset_a = 14; return std_run(p, g); }},
      {"FilterOffsetB -14", [&](Picture &p, Grid &g) { g.slices[1].filter_offset_b = -14; return std_run(p, g); }},
      {"FilterOffsetA odd", [&](Picture &p, Grid &g) { g.slices[0].filter_offset_a = 3; return std_run(p, g); }},
      {"FilterOffsetB odd", [&](Picture &p, Grid &g) { g.slices[1].filter_offset_b = -1; return std_run(p, g); }},
      {"chroma_qp_index_offset 13", [&](Picture &p, Grid &g) { g.slices[0].chroma_qp_index_offset = 13; return std_run(p, g); }},
      {"second_chroma_qp_index_offset -13",
       [&](Picture &p, Grid &g) { g.slices[1].second_chroma_qp_index_offset = -13; return std_run(p, g); }},
      {"mb_stride too small", [&](Picture &p, Grid &g) { return run(p, g, W, H, g0.mb_cols - 1, 2); }},
      {"width 0", [&](Picture &p, Grid &g) { return run(p, g, 0, H, g.mb_stride, 2); }},
      {"height -16", [&](Picture &p, Grid &g) { return run(p, g, W, -16, g.mb_stride, 2); }},
      {"NULL mbs",
       [&](Picture &p, Grid &g) {
         return v3d_h264_deblock_frame(ctx, p.data, p.stride, W, H, nullptr, g.mb_stride, g.slices.data(), 2);
       }},
      {"NULL slices",
       [&](Picture &p, Grid &g) {
         return v3d_h264_deblock_frame(ctx, p.data, p.stride, W, H, g.mbs.data(), g.mb_stride, nullptr, 2);
       }},
      {"NULL context",
       [&](Picture &p, Grid &g) {
         return v3d_h264_deblock_frame(nullptr, p.data, p.stride, W, H, g.mbs.data(), g.mb_stride, g.slices.data(), 2);
       }},
      {"NULL planes",
       [&](Picture &p, Grid &g) {
         return v3d_h264_deblock_frame(ctx, nullptr, p.stride, W, H, g.mbs.data(), g.mb_stride, g.slices.data(), 2);
       }},
      {"NULL strides",
       [&](Picture &p, Grid &g) {
         return v3d_h264_deblock_frame(ctx, p.data, nullptr, W, H, g.mbs.data(), g.mb_stride, g.slices.data(), 2);
       }},
      {"NULL plane 1",
       [&](Picture &p, Grid &g) {
         uint8_t *pl[3] = {p.data[0], nullptr, p.data[2]};
         return v3d_h264_deblock_frame(ctx, pl, p.stride, W, H, g.mbs.data(), g.mb_stride, g.slices.data(), 2);
       }},
      {"chroma stride below its width",
       [&](Picture &p, Grid &g) {
         ptrdiff_t st[3] = {p.stride[0], p.stride[1], (W + 1) / 2 - 1};
         return v3d_h264_deblock_frame(ctx, p.data, st, W, H, g.mbs.data(), g.mb_stride, g.slices.data(), 2);
       }},
      {"luma stride below its width",
       [&](Picture &p, Grid &g) {
         ptrdiff_t st[3] = {W - 1, p.stride[1], p.stride[2]};
         return v3d_h264_deblock_frame(ctx, p.data, st, W, H, g.mbs.data(), g.mb_stride, g.slices.data(), 2);
       }},
  };
  for (auto &b : bad) {
    Picture p(src);
    Grid g = g0;
    const int rc = b.call(p, g);
    int pl, x, y;
    check(rc < 0, "invalid input '%s' accepted (returned %d), seed 0x%llx", b.what, rc,
          static_cast<unsigned long long>(seed));
    check(p.same_as(src, &pl, &x, &y), "invalid input '%s': picture modified", b.what);
    check(rc >= 0 || v3d_last_error()[0], "invalid input '%s': no error message", b.what);
    if (rc < 0) printf("refused '%s': %s\n", b.what, v3d_last_error());
  }
  // The unchanged input is accepted (so the refusals above are the alterations' doing), and junk
  // in the unused entries past each row (mb_stride > mb_cols) is ignored.
  Picture p(src);
  Grid g = g0;
  g.mb_stride = g0.mb_cols + 1;
  g.mbs.assign(static_cast<size_t>(g.mb_rows) * g.mb_stride, V3dH264MbInfo{});
  for (int r = 0; r < g.mb_rows; r++) {
    for (int c = 0; c < g.mb_cols; c++) g.at(r, c) = g0.at(r, c);
    g.at(r, g.mb_cols).qp = 99;
    g.at(r, g.mb_cols).slice = 7;
  }
  check(std_run(p, g) == 0, "valid input refused: %s", v3d_last_error());
  v3d_context_free(ctx);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  test_pictures(seed);
  test_batches(seed ^ 0xBA7C4);
  test_invalid(seed ^ 0x1234);
  return v3dtest::finish();
}
