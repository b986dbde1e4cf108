// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inter prediction (kernels/vp9/mc), checkasm-style:
//  1. the filter table against independent facts: every row sums to 128, phase 0 is the
//     identity, phases p and 16 - p mirror each other, the bilinear rows' closed form, and the
//     bounds the 16-bit SIMD arithmetic relies on (mc_hwy.cpp: sums, int8 taps, pair sums);
//  2. the scalar reference against a direct per-pixel formulation of the spec's block inter
//     prediction (each output pixel from its 8 x 8 source neighbourhood at position
//     (x0 + c * xStep, y0 + r * yStep) in 1/16 pel, Round2(., 7) per pass with libvpx's 8-bit
//     clip after each pass), unscaled (every slot, every phase pair) and scaled (random steps
//     1..64), plain and averaged;
//  3. mc_emu_edge against a clamp-the-coordinates model;
//  4. every SIMD target this CPU has (and "scalar"), every slot, every phase pair, against the
//     reference: random heights, pixel patterns with 0/255 extremes, random (also negative)
//     strides, random dst for the averaging slots, a guard border around dst, and the source
//     placed against an inaccessible page on one side so that reads outside the contract fault.
// V3D_TEST_SEED changes the inputs; V3D_TEST_ITERS scales the iteration counts (default 1).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "vp9/mc/mc.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::scaled;
using namespace v3d::vp9;

namespace {

uint64_t case_seed(int a, int b, int c, int d) {
  uint64_t h = v3dtest::base_seed();
  for (int v : {a, b, c, d}) h = (h ^ static_cast<uint64_t>(v + 1)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

const char *const kFilterNames[kNumInterpFilters] = {"regular", "smooth", "sharp", "bilinear"};

// ---------------------------------------------------------------------------------------------
// Pixel patterns: uniform, random extremes, stripes and checkerboards of 0/255 (the sharp
// kernel's largest sums and differences), near-extreme noise, flat.
constexpr int kNumPatterns = 7;

uint8_t pattern_pixel(Rng &rng, int pattern, int r, int c, int phase) {
  switch (pattern) {
    case 0: return static_cast<uint8_t>(rng.u32() >> 24);
    case 1: return (rng.u32() >> 31) ? 255 : 0;
    case 2: return ((c + phase) & 1) ? 255 : 0;
    case 3: return ((r + phase) & 1) ? 255 : 0;
    case 4: return ((r + c + phase) & 1) ? 255 : 0;
    case 5: {
      const int v = static_cast<int>(rng.u32() >> 30);
      return static_cast<uint8_t>((rng.u32() >> 31) ? 255 - v : v);
    }
    default: return static_cast<uint8_t>(phase * 37);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. The filter table.

void test_filter_table() {
  for (int f = 0; f < kNumInterpFilters; f++) {
    int bad_sum = 0, bad_mirror = 0, bad_bound = 0;
    for (int p = 0; p < 16; p++) {
      const int16_t *k = kSubpelFilters[f][p];
      int sum = 0, pos = 0, neg = 0;
      for (int t = 0; t < 8; t++) {
        sum += k[t];
        (k[t] > 0 ? pos : neg) += k[t] > 0 ? k[t] : -k[t];
        if (p > 0 && kSubpelFilters[f][16 - p][t] != k[7 - t]) bad_mirror++;
      }
      bad_sum += sum != 128;
      bad_bound += pos > 192 || neg > 64;
      // x86's pmaddubsw form (mc_hwy.cpp): phases 1..15 as int8 taps, the pairs it uses
      // ((t, t + 1) for even t; (3, 4) for bilinear) never beyond int16 over 8-bit pixels.
      for (int t = 0; p > 0 && t < 8; t++) {
        bad_bound += k[t] < -128 || k[t] > 127;
        if (f == kFilterBilinear ? t == 3 : t % 2 == 0) {
          const int a = k[t], b = k[t + 1];
          const int hi = 255 * (std::max(a, 0) + std::max(b, 0));
          const int lo = 255 * (std::min(a, 0) + std::min(b, 0));
          bad_bound += hi > 32767 || lo < -32768;
        }
      }
    }
    check(bad_sum == 0, "%s: %d rows do not sum to 128", kFilterNames[f], bad_sum);
    check(bad_mirror == 0, "%s: %d taps break the mirror symmetry", kFilterNames[f], bad_mirror);
    check(bad_bound == 0, "%s: %d rows outside the SIMD sum bounds", kFilterNames[f], bad_bound);
    const int16_t id[8] = {0, 0, 0, 128, 0, 0, 0, 0};
    check(memcmp(kSubpelFilters[f][0], id, sizeof(id)) == 0, "%s: phase 0 is not the identity",
          kFilterNames[f]);
  }
  int bad = 0;
  for (int p = 0; p < 16; p++) {
    const int16_t want[8] = {0, 0, 0, static_cast<int16_t>(128 - 8 * p),
                             static_cast<int16_t>(8 * p), 0, 0, 0};
    bad += memcmp(kSubpelFilters[kFilterBilinear][p], want, sizeof(want)) != 0;
  }
  check(bad == 0, "bilinear: %d rows differ from (128 - 8p, 8p)", bad);
}

// ---------------------------------------------------------------------------------------------
// 2. The reference against the per-pixel formulation.

inline int clip8(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

// Output pixel (r, c) of the prediction, src pointing at the block's integer top-left.
int spec_pixel(const uint8_t *src, ptrdiff_t stride, const int16_t (*k)[8], int x0, int xs,
               int y0, int ys, int r, int c) {
  const int px = x0 + c * xs, py = y0 + r * ys;
  int vsum = 0;
  for (int t = 0; t < 8; t++) {
    const uint8_t *row = src + ((py >> 4) + t - 3) * stride + (px >> 4) - 3;
    int hsum = 0;
    for (int u = 0; u < 8; u++) hsum += row[u] * k[px & 15][u];
    vsum += clip8((hsum + 64) >> 7) * k[py & 15][t];
  }
  return clip8((vsum + 64) >> 7);
}

// A source plane with room for any block and step: 300 x 300 around the origin (32, 32).
struct Plane {
  static constexpr int kSize = 300, kOrigin = 32;
  std::vector<uint8_t> buf;
  ptrdiff_t stride;
  Plane(Rng &rng, int pattern) : buf(kSize * kSize), stride(kSize) {
    const int phase = rng.range(0, 7);
    for (int r = 0; r < kSize; r++)
      for (int c = 0; c < kSize; c++) buf[r * kSize + c] = pattern_pixel(rng, pattern, r, c, phase);
  }
  const uint8_t *origin() const { return buf.data() + kOrigin * stride + kOrigin; }
};

// Runs one prediction into a random dst and compares with spec_pixel; returns mismatches.
template <class Fn>
int spec_case(Rng &rng, const Plane &pl, const int16_t (*k)[8], int w, int h, int x0, int xs,
              int y0, int ys, bool avg, Fn &&run) {
  uint8_t dst[64 * 64], orig[64 * 64];
  for (int i = 0; i < 64 * 64; i++) dst[i] = orig[i] = static_cast<uint8_t>(rng.u32() >> 24);
  run(dst, ptrdiff_t{64});
  int bad = 0;
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      int want = spec_pixel(pl.origin(), pl.stride, k, x0, xs, y0, ys, r, c);
      if (avg) want = (want + orig[r * 64 + c] + 1) >> 1;
      bad += dst[r * 64 + c] != want;
    }
  return bad;
}

void test_ref_vs_spec() {
  McDsp ref;
  mc_dsp_init_ref(&ref);
  for (int f = 0; f < kNumInterpFilters; f++) {
    for (int wi = 0; wi < 5; wi++) {
      const int w = 4 << wi;
      int bad = 0, cases = 0;
      const uint64_t seed = case_seed(10, f, wi, 0);
      Rng rng(seed);
      for (int avg = 0; avg < 2; avg++) {
        const Plane pl(rng, rng.range(0, kNumPatterns - 1));
        for (int mx = 0; mx < 16; mx++)
          for (int my = 0; my < 16; my++) {
            const int h = 4 * rng.range(1, 16);
            bad += spec_case(rng, pl, kSubpelFilters[f], w, h, mx, 16, my, 16, avg,
                             [&](uint8_t *d, ptrdiff_t ds) {
                               ref.mc[wi][f][avg](d, ds, pl.origin(), pl.stride, h, mx, my);
                             }) != 0;
            cases++;
          }
      }
      check(bad == 0,
            "reference %s w%d unscaled: %d of %d cases differ from the spec (seed 0x%" PRIx64 ")",
            kFilterNames[f], w, bad, cases, seed);
    }
    // Scaled: random sizes, phases and steps (1..32 as streams give, up to 64 as mc.h allows).
    int bad = 0;
    const int cases = scaled(400);
    const uint64_t seed = case_seed(11, f, 0, 0);
    Rng rng(seed);
    for (int i = 0; i < cases; i++) {
      const Plane pl(rng, rng.range(0, kNumPatterns - 1));
      const int w = rng.range(1, 64), h = rng.range(1, 64), avg = rng.range(0, 1);
      const int x0 = rng.range(0, 15), y0 = rng.range(0, 15);
      const int lim = i % 4 == 3 ? 64 : 32;
      const int xs = i % 5 == 0 ? 16 : rng.range(1, lim), ys = i % 7 == 0 ? 16 : rng.range(1, lim);
      bad += spec_case(rng, pl, kSubpelFilters[f], w, h, x0, xs, y0, ys, avg,
                       [&](uint8_t *d, ptrdiff_t ds) {
                         ref.scaled[f][avg](d, ds, pl.origin(), pl.stride, w, h, x0, xs, y0, ys);
                       }) != 0;
    }
    check(bad == 0, "reference %s scaled: %d of %d cases differ from the spec (seed 0x%" PRIx64 ")",
          kFilterNames[f], bad, cases, seed);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Border emulation.

void test_emu_edge() {
  const uint64_t seed = case_seed(20, 0, 0, 0);
  Rng rng(seed);
  int bad = 0;
  const int cases = scaled(3000);
  for (int i = 0; i < cases; i++) {
    const int pw = rng.range(1, 80), ph = rng.range(1, 80);
    const ptrdiff_t ss = pw + rng.range(0, 9);
    std::vector<uint8_t> plane(static_cast<size_t>(ss * ph));
    for (auto &p : plane) p = static_cast<uint8_t>(rng.u32() >> 24);
    const int bw = rng.range(1, 150), bh = rng.range(1, 150);
    const int x = rng.range(-bw - 20, pw + 20), y = rng.range(-bh - 20, ph + 20);
    const ptrdiff_t ds = bw + rng.range(0, 7);
    std::vector<uint8_t> dst(static_cast<size_t>(ds * (bh + 2)), 0xA5);
    mc_emu_edge(dst.data() + ds, ds, plane.data(), ss, pw, ph, x, y, bw, bh);
    for (int r = -1; r <= bh; r++)
      for (int c = 0; c < ds; c++) {
        const uint8_t got = dst[static_cast<size_t>((r + 1) * ds + c)];
        int want = 0xA5;
        if (r >= 0 && r < bh && c < bw) {
          const int sy = std::clamp(y + r, 0, ph - 1), sx = std::clamp(x + c, 0, pw - 1);
          want = plane[static_cast<size_t>(sy * ss + sx)];
        }
        bad += got != want;
      }
  }
  check(bad == 0, "mc_emu_edge: %d pixels differ from the clamp model (seed 0x%" PRIx64 ")", bad,
        seed);
}

// ---------------------------------------------------------------------------------------------
// 4. Every target against the reference.

// A source region between two inaccessible pages: the readable bytes of a block (its contract's
// rows and columns) placed against the front or the back page, so that a read outside faults.
class GuardedSource {
 public:
  GuardedSource() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    data_ = (kMaxBytes + page_ - 1) / page_ * page_;
    void *m = mmap(nullptr, data_ + 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (m == MAP_FAILED) abort();
    base_ = static_cast<uint8_t *>(m);
    mprotect(base_, page_, PROT_NONE);
    mprotect(base_ + page_ + data_, page_, PROT_NONE);
  }
  ~GuardedSource() { munmap(base_, data_ + 2 * page_); }
  GuardedSource(const GuardedSource &) = delete;
  GuardedSource &operator=(const GuardedSource &) = delete;

  // Fills a region of rows x cols readable bytes (row r0, column c0 relative to the block's
  // origin), stride apart (maybe negative), against the front or back page; returns the origin.
  const uint8_t *place(Rng &rng, int pattern, int r0, int rows, int c0, int cols, ptrdiff_t stride,
                       bool back) {
    const ptrdiff_t as = stride < 0 ? -stride : stride;
    const size_t span = static_cast<size_t>((rows - 1) * as + cols);
    if (span > data_) abort();
    uint8_t *lo = back ? base_ + page_ + data_ - span : base_ + page_;
    // lo holds the region's lowest row: row r0 for a positive stride, row r0 + rows - 1 else.
    const int low_row = stride > 0 ? r0 : r0 + rows - 1;
    uint8_t *origin = lo - static_cast<ptrdiff_t>(low_row) * stride - c0;
    const int phase = rng.range(0, 7);
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++)
        origin[(r0 + r) * stride + c0 + c] = pattern_pixel(rng, pattern, r, c, phase);
    return origin;
  }

 private:
  static constexpr size_t kMaxBytes = 300 * 400;
  size_t page_ = 0, data_ = 0;
  uint8_t *base_ = nullptr;
};

// dst with a guard border of kGuard pixels on every side; both runs start from the same bytes.
constexpr int kGuard = 16;

struct DstPair {
  std::vector<uint8_t> a, b;
  ptrdiff_t stride;
  int rows;
  DstPair(Rng &rng, int w, int h, bool negative) {
    stride = w + 2 * kGuard + rng.range(0, 13);
    rows = h + 2 * kGuard;
    a.resize(static_cast<size_t>(stride * rows));
    for (auto &p : a) p = static_cast<uint8_t>(rng.u32() >> 24);
    b = a;
    if (negative) stride = -stride;
  }
  // Block origin in buffer v: with a negative stride, row 0 is the buffer's last block row.
  uint8_t *origin(std::vector<uint8_t> &v) const {
    const ptrdiff_t as = stride < 0 ? -stride : stride;
    const ptrdiff_t row0 = stride < 0 ? rows - 1 - kGuard : kGuard;
    return v.data() + row0 * as + kGuard;
  }
};

void test_target(const char *target, GuardedSource &src_mem) {
  McDsp ref;
  mc_dsp_init_ref(&ref);
  const McDsp &dsp = mc_dsp();
  for (int wi = 0; wi < 5; wi++) {
    const int w = 4 << wi;
    for (int f = 0; f < kNumInterpFilters; f++)
      for (int avg = 0; avg < 2; avg++) {
        const uint64_t seed = case_seed(30, wi, f, avg);
        Rng rng(seed);
        int bad = 0, cases = 0;
        for (int rep = 0; rep < scaled(1); rep++)
          for (int mx = 0; mx < 16; mx++)
            for (int my = 0; my < 16; my++) {
              const int h = (mx + my) % 5 == 0 ? (rng.u32() & 1 ? 4 : 64) : 4 * rng.range(1, 16);
              const int r0 = my ? -3 : 0, rows = my ? h + 7 : h;
              const int c0 = mx ? -3 : 0, cols = mx ? w + 8 : w;
              const ptrdiff_t ss = (cols + rng.range(0, 40)) * (rng.range(0, 7) == 0 ? -1 : 1);
              const uint8_t *src = src_mem.place(rng, rng.range(0, kNumPatterns - 1), r0, rows, c0,
                                                 cols, ss, (cases & 1) != 0);
              DstPair d(rng, w, h, rng.range(0, 7) == 0);
              ref.mc[wi][f][avg](d.origin(d.a), d.stride, src, ss, h, mx, my);
              dsp.mc[wi][f][avg](d.origin(d.b), d.stride, src, ss, h, mx, my);
              if (d.a != d.b) {
                if (bad == 0)
                  printf("  first mismatch: %s %dx%d %s avg %d mx %d my %d\n", target, w, h,
                         kFilterNames[f], avg, mx, my);
                bad++;
              }
              cases++;
            }
        check(bad == 0, "%s mc w%d %s avg %d: %d of %d cases differ (seed 0x%" PRIx64 ")", target,
              w, kFilterNames[f], avg, bad, cases, seed);
      }
  }
  // Scaled slots: block sizes of VP9, random phases and steps.
  for (int f = 0; f < kNumInterpFilters; f++)
    for (int avg = 0; avg < 2; avg++) {
      const uint64_t seed = case_seed(31, f, avg, 0);
      Rng rng(seed);
      int bad = 0;
      const int cases = scaled(300);
      for (int i = 0; i < cases; i++) {
        const int w = 4 << rng.range(0, 4), h = 4 << rng.range(0, 4);
        const int x0 = rng.range(0, 15), y0 = rng.range(0, 15);
        // Steps 1..32 as streams give; now and then up to 64 (mc.h allows them).
        const int lim = i % 10 == 9 ? 64 : 32;
        const int xs = i % 5 == 0 ? 16 : rng.range(1, lim);
        const int ys = i % 3 == 0 ? 16 : rng.range(1, lim);
        const bool fx = x0 || xs != 16, fy = y0 || ys != 16;
        const int xl = (x0 + (w - 1) * xs) >> 4, yl = (y0 + (h - 1) * ys) >> 4;
        const int c0 = fx ? -3 : 0, cols = fx ? xl + 8 : xl + 1;
        const int r0 = fy ? -3 : 0, rows = fy ? yl + 8 : yl + 1;
        const ptrdiff_t ss = cols + rng.range(0, 20);
        const uint8_t *src = src_mem.place(rng, rng.range(0, kNumPatterns - 1), r0, rows, c0,
                                           cols, ss, (i & 1) != 0);
        DstPair d(rng, w, h, false);
        ref.scaled[f][avg](d.origin(d.a), d.stride, src, ss, w, h, x0, xs, y0, ys);
        dsp.scaled[f][avg](d.origin(d.b), d.stride, src, ss, w, h, x0, xs, y0, ys);
        bad += d.a != d.b;
      }
      check(bad == 0, "%s scaled %s avg %d: %d of %d cases differ (seed 0x%" PRIx64 ")", target,
            kFilterNames[f], avg, bad, cases, seed);
    }
}

void test_targets() {
  GuardedSource src_mem;
  const char *names[32];
  const int nt = std::min(v3d_cpu_targets(names, 32), 32);
  for (int t = 0; t < nt; t++) {
    const int rc = v3d_cpu_force_target(names[t]);
    if (!check(rc == 0, "v3d_cpu_force_target(%s) = %d", names[t], rc)) continue;
    const int failed_before = v3dtest::counter().failed;
    test_target(names[t], src_mem);
    printf("target %-8s %s\n", names[t],
           v3dtest::counter().failed == failed_before ? "ok" : "FAILED");
  }
  v3d_cpu_force_target(nullptr);
}

}  // namespace

int main() {
  v3dtest::base_seed();
  test_filter_table();
  test_ref_vs_spec();
  test_emu_edge();
  test_targets();
  return v3dtest::finish();
}
