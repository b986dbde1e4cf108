// SPDX-License-Identifier: LGPL-2.1-or-later
// checkasm-style rows of the VP9 inverse transform + add table: one block, called again and
// again on the same 64x64 destination, ns per call (the minimum over many short timings, so a
// sample that lost the CPU on a shared machine does not count). One row per case that issue
// reports compare against FFmpeg's checkasm: full blocks of every size and type, DC only
// (eob 1), and the low-eob corners (non-zero coefficients only in the top-left 4x4 or 8x8).
// Printed for every CPU target this machine has (v3d_cpu_targets()).
//
// Coefficients: "full" blocks are random in [-kFullMax, kFullMax] (every coefficient non-zero
// with high probability); "small" blocks in [-kSmallMax, kSmallMax], a range inside every
// 16-bit-arithmetic bound of the table (docs/itx_int16_bounds.md), so both paths get a row.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "bench_common.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx.h"

void bench_itx_rows(FILE *out);

namespace {

using v3dbench::Rng;

constexpr int kFullMax = 2047, kSmallMax = 48;

double now_ns() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Row {
  const char *name;
  int size, type;
  int corner;  // non-zero coefficients inside the top-left corner x corner square
  int max;     // coefficient magnitude bound
  int eob;     // the hint passed (as a decoder would: 1 for DC only)
};

double time_row(v3d::vp9::ItxAddFn fn, const Row &r, uint64_t seed) {
  const int n = 4 << r.size;
  std::vector<int16_t> c(static_cast<size_t>(n) * n, 0);
  Rng rng{seed};
  for (int i = 0; i < r.corner; i++)
    for (int j = 0; j < r.corner; j++) {
      int v = static_cast<int>(rng.next() % static_cast<uint64_t>(2 * r.max + 1)) - r.max;
      if (v == 0) v = 1;
      c[static_cast<size_t>(i) * n + j] = static_cast<int16_t>(v);
    }
  std::vector<uint8_t> dst(64 * 64);
  for (auto &p : dst) p = static_cast<uint8_t>(rng.next() >> 56);
  constexpr int kCalls = 64, kRounds = 400;
  double best = 1e30;
  for (int k = 0; k < kRounds; k++) {
    const double t0 = now_ns();
    for (int i = 0; i < kCalls; i++) fn(dst.data(), 64, c.data(), r.eob);
    best = std::min(best, (now_ns() - t0) / kCalls);
  }
  return best;
}

}  // namespace

void bench_itx_rows(FILE *out) {
  using namespace v3d::vp9;
  static const Row kRows[] = {
      {"4x4 DCT_DCT full", kTx4x4, kDctDct, 4, kFullMax, 16},
      {"4x4 DCT_DCT small", kTx4x4, kDctDct, 4, kSmallMax, 16},
      {"4x4 ADST_ADST full", kTx4x4, kAdstAdst, 4, kFullMax, 16},
      {"4x4 ADST_ADST small", kTx4x4, kAdstAdst, 4, kSmallMax, 16},
      {"4x4 WHT_WHT", kTx4x4, kWhtWht, 4, 256, 16},
      {"8x8 DCT_DCT full", kTx8x8, kDctDct, 8, kFullMax, 64},
      {"8x8 DCT_DCT small", kTx8x8, kDctDct, 8, kSmallMax, 64},
      {"8x8 ADST_ADST full", kTx8x8, kAdstAdst, 8, kFullMax, 64},
      {"8x8 ADST_ADST small", kTx8x8, kAdstAdst, 8, kSmallMax, 64},
      {"16x16 DCT_DCT full", kTx16x16, kDctDct, 16, kFullMax, 256},
      {"16x16 ADST_ADST full", kTx16x16, kAdstAdst, 16, kFullMax, 256},
      {"32x32 DCT_DCT full", kTx32x32, kDctDct, 32, kFullMax, 1024},
      {"4x4 DCT_DCT DC only", kTx4x4, kDctDct, 1, kFullMax, 1},
      {"8x8 DCT_DCT DC only", kTx8x8, kDctDct, 1, kFullMax, 1},
      {"16x16 DCT_DCT DC only", kTx16x16, kDctDct, 1, kFullMax, 1},
      {"32x32 DCT_DCT DC only", kTx32x32, kDctDct, 1, kFullMax, 1},
      {"8x8 DCT_DCT 4x4 corner", kTx8x8, kDctDct, 4, kFullMax, 12},
      {"16x16 DCT_DCT 4x4 corner", kTx16x16, kDctDct, 4, kFullMax, 24},
      {"32x32 DCT_DCT 8x8 corner", kTx32x32, kDctDct, 8, kFullMax, 34},
  };
  const char *names[16];
  int nt = v3d_cpu_targets(names, 16);
  if (nt > 16) nt = 16;
  fprintf(out, "VP9 itx + add, checkasm-style rows, 1 thread, ns/call (min of many)\n");
  fprintf(out, "%-26s", "row");
  for (int t = 0; t < nt; t++) fprintf(out, " %9s", names[t]);
  fprintf(out, "\n");
  std::vector<ItxDsp> dsps;
  for (int t = 0; t < nt; t++) {
    v3d_cpu_force_target(names[t]);
    dsps.push_back(itx_dsp());
  }
  v3d_cpu_force_target(nullptr);
  int seed = 1;
  for (const Row &r : kRows) {
    fprintf(out, "%-26s", r.name);
    for (int t = 0; t < nt; t++)
      fprintf(out, " %9.1f", time_row(dsps[t].add[r.size][r.type], r, seed));
    fprintf(out, "\n");
    seed++;
  }
}

#ifdef BENCH_ITX_ROWS_MAIN
int main() {
  bench_itx_rows(stdout);
  return 0;
}
#endif
