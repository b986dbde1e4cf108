// SPDX-License-Identifier: LGPL-2.1-or-later
// Single-thread micro-benchmark of the VP9 inverse transform + add kernel table, for every CPU
// target this machine has (v3d_cpu_targets(), "scalar" = the references): ns per block for each
// (size, type), on realistic coefficients and on full blocks, and ms per 1920x1088 luma plane of
// 8x8 DCT_DCT blocks. Kernels are called through the table (vp9::itx_dsp()), as the frame code
// does, without the validation of the public one-block entry point.
//
// Realistic coefficients: a residual (a gentle gradient plus Gaussian noise whose sigma is drawn
// per block, log-uniform from 0.75 up to 8 / 8 / 4 / 2 for 4x4 / 8x8 / 16x16 / 32x32, since
// encoders choose large transforms for smooth areas), an orthonormal 2-D DCT scaled to VP9's
// coefficient scale (x8 for 4x4..16x16, x4 for 32x32: the inverse's final shifts), then a
// dead-zone quantizer (step 48, rounding offset 1/3; 32x32 values halved as VP9 dequantizes).
// This is a timing model, not an encoder: many blocks end up DC-only or with a few
// low-frequency coefficients, some are dense (the average count is printed). Full blocks:
// uniform residual in [-255, 255], step 8, nearest rounding (nearly every coefficient non-zero).
//
// Build standalone: compile with -DBENCH_ITX_CPU_MAIN and link with the kernel library.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx.h"

void bench_itx_cpu(FILE *json_or_null);

namespace {

using v3dbench::Rng;

// Position of coefficient (i, j) in a diagonal scan (raster indices sorted by (i + j, i)): close
// enough to VP9's default scans for an eob that kernels use only as a hint.
int diag_pos(int n, int i, int j) {
  int pos = 0;
  for (int s = 0; s < i + j; s++) pos += s < n ? s + 1 : 2 * n - 1 - s;  // earlier diagonals
  const int i0 = i + j < n ? 0 : i + j - n + 1;  // first row on this diagonal
  return pos + i - i0;
}

// One block of coefficients (see the header comment). Returns the eob: 1 + diag_pos of the last
// non-zero coefficient.
int make_block(Rng &rng, int n, bool full, int16_t *out) {
  std::vector<double> r(n * n), t(n * n), basis(n * n);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      basis[k * n + i] =
          std::sqrt((k ? 2.0 : 1.0) / n) * std::cos(M_PI * (2 * i + 1) * k / (2 * n));
  // Encoders pick large transforms for smooth areas: the noise shrinks with the block size.
  const double sigma_max = n <= 8 ? 8 : n == 16 ? 4 : 2;
  const double sigma = 0.75 * std::pow(sigma_max / 0.75, rng.uniform());
  const double gx = rng.gauss() * 2, gy = rng.gauss() * 2, m = rng.gauss() * 6;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      r[i * n + j] = full ? std::floor(rng.uniform() * 511) - 255
                          : m + (gx * (j - n / 2.0) + gy * (i - n / 2.0)) / n +
                                rng.gauss() * sigma;
  for (int i = 0; i < n; i++)  // rows
    for (int k = 0; k < n; k++) {
      double s = 0;
      for (int j = 0; j < n; j++) s += r[i * n + j] * basis[k * n + j];
      t[i * n + k] = s;
    }
  const double scale = n == 32 ? 4 : 8, q = full ? 8 : 48, offset = full ? 0.5 : 1.0 / 3;
  int eob = 0;
  for (int k = 0; k < n; k++)  // columns
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int i = 0; i < n; i++) s += t[i * n + j] * basis[k * n + i];
      s *= scale;
      const double level = std::floor(std::fabs(s) / q + offset);
      double v = (s < 0 ? -level : level) * q;
      if (n == 32) v = std::trunc(v / 2);  // VP9 halves dequantized 32x32 coefficients
      v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
      out[k * n + j] = static_cast<int16_t>(v);
      if (v != 0) eob = std::max(eob, diag_pos(n, k, j) + 1);
    }
  if (eob == 0) {  // callers skip empty blocks: keep a DC
    out[0] = static_cast<int16_t>(q);
    eob = 1;
  }
  return eob;
}

struct BlockSet {
  int n = 0;
  std::vector<int16_t> coeffs;
  std::vector<int> eob;
  double avg_nonzero = 0, dc_only = 0;
};

BlockSet make_set(int n, bool full, int count, uint64_t seed) {
  BlockSet s;
  s.n = n;
  s.coeffs.resize(static_cast<size_t>(count) * n * n);
  Rng rng{seed};
  long nz = 0, dc = 0;
  for (int b = 0; b < count; b++) {
    int16_t *c = &s.coeffs[static_cast<size_t>(b) * n * n];
    s.eob.push_back(make_block(rng, n, full, c));
    int cnt = 0;
    for (int i = 0; i < n * n; i++) cnt += c[i] != 0;
    nz += cnt;
    dc += cnt == 1 && c[0] != 0;
  }
  s.avg_nonzero = static_cast<double>(nz) / count;
  s.dc_only = static_cast<double>(dc) / count;
  return s;
}

double now_ns() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Applies every block of the set to consecutive blocks of a plane (width w, rows of blocks),
// repeatedly; returns the best ns per block over `rounds` timings of >= min_ns each (many short
// samples and their minimum: robust on a shared machine, where a sample may lose the CPU).
double time_set(v3d::vp9::ItxAddFn fn, const BlockSet &s, std::vector<uint8_t> &plane, int w,
                double min_ns = 5e5, int rounds = 25) {
  const int n = s.n, count = static_cast<int>(s.eob.size()), per_row = w / n;
  double best = 1e30;
  for (int r = 0; r < rounds; r++) {
    long blocks = 0;
    const double t0 = now_ns();
    double t1;
    do {
      for (int b = 0; b < count; b++) {
        uint8_t *dst = plane.data() + static_cast<size_t>(b / per_row) * n * w + (b % per_row) * n;
        fn(dst, w, &s.coeffs[static_cast<size_t>(b) * n * n], s.eob[b]);
      }
      blocks += count;
      t1 = now_ns();
    } while (t1 - t0 < min_ns);
    best = std::min(best, (t1 - t0) / blocks);
  }
  return best;
}

const char *kTypeNames[] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST", "WHT_WHT"};

}  // namespace

void bench_itx_cpu(FILE *json) {
  const char *names[16];
  int nt = v3d_cpu_targets(names, 16);
  if (nt > 16) nt = 16;
  // 512 blocks per set (128 for 32x32): at most 256 KiB of coefficients, mostly cache-resident,
  // as in checkasm-style measurements. The plane benchmark streams 4 MiB of coefficients.
  constexpr int kW = 1920, kH = 1088, kCount = 512;
  std::vector<uint8_t> plane(static_cast<size_t>(kW) * kH);
  Rng prng{7};
  for (auto &p : plane) p = static_cast<uint8_t>(prng.next() >> 56);

  BlockSet sets[4][5][2];
  for (int sz = 0; sz < 4; sz++)
    for (int ty = 0; ty < 5; ty++)
      if (v3d::vp9::valid_tx(sz, ty))
        for (int full = 0; full < 2; full++)
          sets[sz][ty][full] = make_set(4 << sz, full, kCount >> (sz == 3 ? 2 : 0),
                                        1000 + sz * 10 + ty * 2 + full);
  // The plane benchmark: every 8x8 block of a 1920x1088 luma plane, distinct coefficients.
  const BlockSet plane_set = make_set(8, false, (kW / 8) * (kH / 8), 4242);

  printf("VP9 itx + add, 1 thread, ns/block (realistic | full); realistic sets: avg non-zero "
         "coefficients, share DC-only\n");
  if (json) fprintf(json, "{\"itx_cpu\": [");
  for (int t = 0; t < nt; t++) {
    if (v3d_cpu_force_target(names[t]) != 0) continue;
    const v3d::vp9::ItxDsp dsp = v3d::vp9::itx_dsp();
    printf("target %s\n", names[t]);
    if (json) fprintf(json, "%s{\"target\": \"%s\", \"blocks\": [", t ? ", " : "", names[t]);
    bool first = true;
    for (int sz = 0; sz < 4; sz++)
      for (int ty = 0; ty < 5; ty++) {
        if (!v3d::vp9::valid_tx(sz, ty)) continue;
        const double real = time_set(dsp.add[sz][ty], sets[sz][ty][0], plane, kW);
        const double full = time_set(dsp.add[sz][ty], sets[sz][ty][1], plane, kW);
        printf("  %2dx%-2d %-9s %8.1f | %8.1f   (nz %.1f, dc-only %.0f%%)\n", 4 << sz, 4 << sz,
               kTypeNames[ty], real, full, sets[sz][ty][0].avg_nonzero,
               100 * sets[sz][ty][0].dc_only);
        if (json)
          fprintf(json,
                  "%s{\"size\": %d, \"type\": \"%s\", \"ns_realistic\": %.2f, \"ns_full\": %.2f}",
                  first ? "" : ", ", 4 << sz, kTypeNames[ty], real, full);
        first = false;
      }
    const double plane_ns = time_set(dsp.add[1][0], plane_set, plane, kW, 1, 25);
    const double plane_ms = plane_ns * plane_set.eob.size() / 1e6;
    printf("  1920x1088 luma plane of 8x8 DCT_DCT: %.3f ms (%.1f ns/block; nz %.1f, dc-only "
           "%.0f%%)\n",
           plane_ms, plane_ns, plane_set.avg_nonzero, 100 * plane_set.dc_only);
    if (json) fprintf(json, "], \"plane_8x8_ms\": %.4f}", plane_ms);
  }
  if (json) fprintf(json, "]}\n");
  v3d_cpu_force_target(nullptr);
}

#ifdef BENCH_ITX_CPU_MAIN
int main(int argc, char **argv) {
  FILE *json = argc > 1 ? fopen(argv[1], "w") : nullptr;
  bench_itx_cpu(json);
  if (json) fclose(json);
  return 0;
}
#endif
