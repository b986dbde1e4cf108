// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench --section itx-rows [--peer-checkasm PATH]: checkasm-style rows of the VP9 inverse
// transform + add table, ns per call, for every CPU target this machine has
// (v3d_cpu_targets()). The rows, their coefficients and the timer are bench_itx_row.h's, shared
// with the peers section: one block, called again and again on the same 64x64 destination.
//
// Per row of checkasm's list: its own coefficients ("full" for a whole block, "subN" for a
// corner), made as checkasm makes them; for whole blocks (not WHT_WHT) also "wide" and "small"
// coefficients, and for DCT_DCT corners of 4 and more from 8x8 on "subN small" (the 16-bit
// paths of quieter blocks).
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_common.h"
#include "bench_itx_row.h"
#include "bench_peer_run.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx.h"

void bench_itx_rows(FILE *out, const char *peer_checkasm);

namespace {

using v3dbench::ItxCoeffs;
using v3dbench::ItxRow;

// FFmpeg's figures from its checkasm program (`checkasm --test=vp9dsp --bench=vp9_inv_*`, run
// through the peer section's runner, bench_peer_run.h), ns per call, by checkasm's function name
// without the CPU suffix: the best SIMD version's figure. Empty without a program, or where its
// timer units cannot be converted.
std::map<std::string, double> peer_rows(const char *checkasm, FILE *out) {
  std::map<std::string, double> best;
  if (!checkasm) return best;
  const double per_ns = v3dbench::native_timer_per_ns();
  if (per_ns <= 0) {
    fprintf(out, "peer: no native timer here to convert checkasm's figures; no peer column\n");
    return best;
  }
  for (const auto &f : v3dbench::run_checkasm(checkasm, "vp9dsp", "vp9_inv_*", nullptr))
    best[f.first] = f.second.units / per_ns;
  fprintf(out, "peer: %s, %zu rows, its timer %.3f units per ns (figures: mean units per call)\n",
          checkasm, best.size(), per_ns);
  return best;
}

// One printed line: a row with coefficients of one kind.
struct Line {
  ItxRow row;
  ItxCoeffs kind;
  std::string label;  // "8x8 DCT_DCT sub4 small"
};

std::vector<Line> make_lines() {
  using namespace v3d::vp9;
  static const char *const kTypes[5] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST",
                                        "WHT_WHT"};
  std::vector<Line> lines;
  for (const ItxRow &r : v3dbench::itx_rows_checkasm()) {
    const int n = 4 << r.size;
    char base[48];
    snprintf(base, sizeof base, "%dx%d %s ", n, n, kTypes[r.type]);
    const std::string sub = "sub" + std::to_string(r.sub);
    lines.push_back({r, ItxCoeffs::kReal, base + (r.whole() ? std::string("full") : sub)});
    if (r.whole() && r.type != kWhtWht) {
      lines.push_back({r, ItxCoeffs::kWide, base + std::string("wide")});
      lines.push_back({r, ItxCoeffs::kSmall, base + std::string("small")});
    }
    if (!r.whole() && r.sub >= 4 && r.size >= kTx8x8)
      lines.push_back({r, ItxCoeffs::kSmall, base + sub + " small"});
  }
  return lines;
}

}  // namespace

// peer_checkasm: FFmpeg's checkasm program, or nullptr; with it, two more columns: FFmpeg's best
// SIMD figure for the same row (measured now, by that program) and the first target's ratio.
void bench_itx_rows(FILE *out, const char *peer_checkasm) {
  using namespace v3d::vp9;
  const char *names[16];
  int nt = v3d_cpu_targets(names, 16);
  if (nt > 16) nt = 16;
  const std::map<std::string, double> peer = peer_rows(peer_checkasm, out);
  fprintf(out, "VP9 itx + add, checkasm-style rows, 1 thread, ns/call (median of batches)\n");
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
  uint64_t seed = 1;
  std::vector<int16_t> c;
  for (const Line &l : make_lines()) {
    const int eob = v3dbench::itx_row_coeffs(l.row, l.kind, seed, &c);
    fprintf(out, "%-26s", l.label.c_str());
    double first = 0;
    for (int t = 0; t < nt; t++) {
      const double ns = v3dbench::time_itx_row(dsps[t].add[l.row.size][l.row.type], c, eob, seed);
      if (t == 0) first = ns;
      fprintf(out, " %9.1f", ns);
    }
    // The peer's rows have checkasm's own coefficients only.
    auto it = l.kind == ItxCoeffs::kReal ? peer.find(v3dbench::itx_row_name(l.row)) : peer.end();
    if (it != peer.end()) fprintf(out, " %9.1f %9.2f", it->second, first / it->second);
    fprintf(out, "\n");
    fflush(out);
    seed++;
  }
}
