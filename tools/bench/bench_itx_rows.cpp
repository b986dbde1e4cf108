// SPDX-License-Identifier: LGPL-2.1-or-later
// checkasm-style rows of the VP9 inverse transform + add table: one block, called again and
// again on the same 64x64 destination, ns per call (the minimum over many short timings, so a
// sample that lost the CPU on a shared machine does not count). One row per case that issue
// reports compare against FFmpeg's checkasm: full blocks of every size and type, DC only
// (eob 1), and the low-eob corners (non-zero coefficients only in a top-left square).
// Printed for every CPU target this machine has (v3d_cpu_targets()).
//
// Coefficients: the plain rows ("full", "subN") are made as FFmpeg's checkasm makes its own:
// the forward transform of a random residual in [-255, 255], quantized with the finest VP9
// step (4), so nearly every coefficient is non-zero and the block is one a valid stream can
// hold; "subN" then keeps only the top-left N x N corner. "wide" rows are uniform in
// [-kWideMax, kWideMax] (far outside what a valid stream holds: every 16-bit path's bound is
// exceeded, so they time the 32-bit paths and the cost of the checks that reject the 16-bit
// ones); "small" rows uniform in [-kSmallMax, kSmallMax], inside every 16-bit bound
// (docs/itx_int16_bounds.md).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>


#include "bench_common.h"
#include "bench_peer_run.h"
#include "common/vp9_itx_inputs.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx.h"

void bench_itx_rows(FILE *out, const char *peer_checkasm);

namespace {

using v3dbench::Rng;

constexpr int kReal = 0, kWideMax = 2047, kSmallMax = 48;

double now_ns() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Row {
  const char *name;
  int size, type;
  int corner;  // non-zero coefficients inside the top-left corner x corner square
  int max;     // kReal, or the bound of uniformly random coefficients
  int eob;     // the hint passed (as a decoder would: 1 for DC only)
};

double time_row(v3d::vp9::ItxAddFn fn, const Row &r, uint64_t seed) {
  const int n = 4 << r.size;
  std::vector<int16_t> c(static_cast<size_t>(n) * n, 0);
  Rng rng{seed};
  if (r.max == kReal) {
    v3dtest::Rng trng(seed);
    int residual[v3dtest::vp9::kMaxCoeffs];
    v3dtest::vp9::make_residual(trng, r.size, v3dtest::vp9::kPatRandom, residual);
    v3dtest::vp9::quantize_residual(residual, r.size, r.type, 4, 4, 32, c.data());
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (i >= r.corner || j >= r.corner) c[static_cast<size_t>(i) * n + j] = 0;
    if (c[0] == 0) c[0] = 1;
  } else {
    for (int i = 0; i < r.corner; i++)
      for (int j = 0; j < r.corner; j++) {
        int v = static_cast<int>(rng.next() % static_cast<uint64_t>(2 * r.max + 1)) - r.max;
        if (v == 0) v = 1;
        c[static_cast<size_t>(i) * n + j] = static_cast<int16_t>(v);
      }
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

// The rows: every valid (size, type) pair "full", "wide", "small" and with only the DC
// coefficient ("sub1"); for DCT_DCT also the top-left sub x sub corners (FFmpeg checkasm's
// "subN" rows), from 8x8 on also with "small" coefficients.
// The eob passed is what a decoder would pass for such a block: 1 for DC only, n*n for full
// blocks, and 3/2 sub^2 (the scan reaches a corner's last coefficient about there) otherwise.
std::vector<Row> make_rows() {
  using namespace v3d::vp9;
  static const char *kTypes[] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST", "WHT_WHT"};
  static char names[128][40];
  std::vector<Row> rows;
  auto add = [&](int size, int type, int corner, int max, const char *what) {
    const int n = 4 << size;
    const int eob = corner == 1 ? 1 : corner == n ? n * n : corner * corner * 3 / 2;
    char *name = names[rows.size()];
    snprintf(name, sizeof names[0], "%dx%d %s %s", n, n, kTypes[type], what);
    rows.push_back(Row{name, size, type, corner, max, eob});
  };
  char sub[16];
  for (int size = 0; size < kNumTxSizes; size++) {
    const int n = 4 << size;
    for (int type = 0; type < kNumTxTypes; type++) {
      if (!valid_tx(size, type)) continue;
      add(size, type, n, kReal, "full");
      if (type == kWhtWht) continue;
      add(size, type, n, kWideMax, "wide");
      add(size, type, n, kSmallMax, "small");
      add(size, type, 1, kReal, "sub1");
      if (type != kDctDct) continue;
      for (int c = 2; c < n; c *= 2) {  // FFmpeg checkasm's sub2, sub4, ... below n
        snprintf(sub, sizeof sub, "sub%d", c);
        add(size, type, c, kReal, sub);
        if (size >= kTx8x8 && c >= 4) {  // corners of a quieter block (16-bit paths)
          snprintf(sub, sizeof sub, "sub%d small", c);
          add(size, type, c, kSmallMax, sub);
        }
      }
    }
  }
  return rows;
}

// FFmpeg's figures from its checkasm program (`checkasm --test=vp9dsp --bench=vp9_inv_*`, run
// here through the peer section's runner, bench_peer_run.h), ns per call: for each 8-bit function
// "<type>_<n>x<n>_sub<s>" the best SIMD version's figure. Empty without a program, or where its
// timer units cannot be converted.
std::map<std::string, double> peer_rows(const char *checkasm, FILE *out) {
  std::map<std::string, double> best;
  if (!checkasm) return best;
  const double per_ns = v3dbench::native_timer_per_ns();
  if (per_ns <= 0) {
    fprintf(out, "peer: no native timer here to convert checkasm's figures; no peer column\n");
    return best;
  }
  const std::string prefix = "vp9_inv_", suffix = "_add_8";
  for (const auto &f : v3dbench::run_checkasm(checkasm, "vp9dsp", "vp9_inv_*", nullptr)) {
    const std::string &s = f.first;
    if (s.size() <= prefix.size() + suffix.size() || s.compare(0, prefix.size(), prefix) != 0 ||
        s.compare(s.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    best[s.substr(prefix.size(), s.size() - prefix.size() - suffix.size())] = f.second.units / per_ns;
  }
  fprintf(out, "peer: %s, %zu rows, its timer %.3f units per ns (figures: mean units per call)\n",
          checkasm, best.size(), per_ns);
  return best;
}

// The peer's name for a row: "dct_adst_8x8_sub8" ("full" is sub n); "" for rows it has not.
std::string peer_key(const Row &r) {
  static const char *kTypes[] = {"dct_dct", "adst_dct", "dct_adst", "adst_adst", "wht_wht"};
  const int n = 4 << r.size;
  if (r.max != kReal) return "";
  char key[64];
  snprintf(key, sizeof key, "%s_%dx%d_sub%d", kTypes[r.type], n, n, r.corner);
  return key;
}

}  // namespace

// peer_checkasm: FFmpeg's checkasm program, or nullptr; with it, two more columns: FFmpeg's best
// SIMD figure for the same row (measured now, by that program) and the first target's ratio.
void bench_itx_rows(FILE *out, const char *peer_checkasm) {
  using namespace v3d::vp9;
  const std::vector<Row> rows = make_rows();
  const char *names[16];
  int nt = v3d_cpu_targets(names, 16);
  if (nt > 16) nt = 16;
  const std::map<std::string, double> peer = peer_rows(peer_checkasm, out);
  fprintf(out, "VP9 itx + add, checkasm-style rows, 1 thread, ns/call (min of many)\n");
  fprintf(out, "%-26s", "row");
  for (int t = 0; t < nt; t++) fprintf(out, " %9s", names[t]);
  if (!peer.empty()) fprintf(out, " %9s %9s", "FFmpeg", "ratio");
  fprintf(out, "\n");
  std::vector<ItxDsp> dsps;
  for (int t = 0; t < nt; t++) {
    v3d_cpu_force_target(names[t]);
    dsps.push_back(itx_dsp());
  }
  v3d_cpu_force_target(nullptr);
  int seed = 1;
  for (const Row &r : rows) {
    fprintf(out, "%-26s", r.name);
    double first = 0;
    for (int t = 0; t < nt; t++) {
      const double ns = time_row(dsps[t].add[r.size][r.type], r, seed);
      if (t == 0) first = ns;
      fprintf(out, " %9.1f", ns);
    }
    if (!peer.empty()) {
      auto it = peer.find(peer_key(r));
      if (it != peer.end()) fprintf(out, " %9.1f %9.2f", it->second, first / it->second);
    }
    fprintf(out, "\n");
    fflush(out);
    seed++;
  }
}

#ifdef BENCH_ITX_ROWS_MAIN
int main(int argc, char **argv) {
  bench_itx_rows(stdout, argc > 1 ? argv[1] : nullptr);
  return 0;
}
#endif
