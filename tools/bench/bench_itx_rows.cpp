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
//
// After the targets' columns (their add slots, eob a hint) and FFmpeg's two: "exact", the
// first (chosen) target's add_exact_eob slot, the entry for callers whose eob is exact, as
// FFmpeg's is (v3d_vp9_itxfm_add_exact_eob), and with a peer "x-ratio", exact / FFmpeg. Each
// row's promise (nothing non-zero at a scan position >= eob) and the slot's pixels are checked
// first (bench_itx_row.h time_itx_row_exact); a row failing either gets an error line and "-".
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

void bench_itx_rows(FILE *out, const char *peer_checkasm, const char *only);

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
// SIMD figure for the same row (measured now, by that program) and the first target's ratio,
// and the exact column's ratio to FFmpeg after it. only: nullptr, or the rows whose label
// contains it ("32x32", "16x16 DCT_DCT sub").
void bench_itx_rows(FILE *out, const char *peer_checkasm, const char *only) {
  using namespace v3d::vp9;
  const char *names[16];
  int nt = v3d_cpu_targets(names, 16);
  if (nt > 16) nt = 16;
  const std::map<std::string, double> peer = peer_rows(peer_checkasm, out);
  fprintf(out, "VP9 itx + add, checkasm-style rows, 1 thread, ns/call (median of batches)\n");
  fprintf(out, "%-26s", "row");
  for (int t = 0; t < nt; t++) fprintf(out, " %9s", names[t]);
  if (!peer.empty()) fprintf(out, " %9s %9s", "FFmpeg", "ratio");
  fprintf(out, " %9s", "exact");
  if (!peer.empty()) fprintf(out, " %9s", "x-ratio");
  fprintf(out, " %9s", "cm");
  if (!peer.empty()) fprintf(out, " %9s", "c-ratio");
  fprintf(out, "\n");
  std::vector<ItxDsp> dsps;
  for (int t = 0; t < nt; t++) {
    v3d_cpu_force_target(names[t]);
    dsps.push_back(itx_dsp());
  }
  v3d_cpu_force_target(nullptr);
  uint64_t seed = 1;
  std::vector<int16_t> c;
  int lines = 0, broken = 0;
  for (const Line &l : make_lines()) {
    if (only && l.label.find(only) == std::string::npos) {
      seed++;  // each row keeps its coefficients with or without the filter
      continue;
    }
    const int eob = v3dbench::itx_row_coeffs(l.row, l.kind, seed, &c);
    double ns[16];
    for (int t = 0; t < nt; t++)
      ns[t] = v3dbench::time_itx_row(dsps[t].add[l.row.size][l.row.type], c, eob, seed);
    // Timed after the targets; before the line is printed, so that an error line stands alone.
    const double exact = v3dbench::time_itx_row_exact(dsps[0], l.row, c, eob, seed,
                                                      l.label.c_str(), out);
    const double cm = v3dbench::time_itx_row_exact_cm(dsps[0], l.row, c, eob, seed,
                                                      l.label.c_str(), out);
    lines++;
    broken += exact < 0 || cm < 0;
    fprintf(out, "%-26s", l.label.c_str());
    for (int t = 0; t < nt; t++) fprintf(out, " %9.1f", ns[t]);
    const double first = ns[0];
    // The peer's rows have checkasm's own coefficients only.
    auto it = l.kind == ItxCoeffs::kReal ? peer.find(v3dbench::itx_row_name(l.row)) : peer.end();
    if (it != peer.end()) fprintf(out, " %9.1f %9.2f", it->second, first / it->second);
    else if (!peer.empty()) fprintf(out, " %9s %9s", "", "");
    if (exact < 0) fprintf(out, " %9s", "-");
    else fprintf(out, " %9.1f", exact);
    if (it != peer.end() && exact >= 0) fprintf(out, " %9.2f", exact / it->second);
    else if (!peer.empty()) fprintf(out, " %9s", "");
    const bool native = dsps[0].cm_native[l.row.size][l.row.type];
    if (cm < 0) fprintf(out, " %9s", "-");
    else fprintf(out, " %8.1f%c", cm, native ? ' ' : 't');
    if (it != peer.end() && cm >= 0) fprintf(out, " %9.2f", cm / it->second);
    fprintf(out, "\n");
    fflush(out);
    seed++;
  }
  fprintf(out, "exact: %s's add_exact_eob slot; cm: its add_exact_eob_cm slot on the block "
          "transposed (t: a transpose and the exact slot, not a kernel of its own); eob promise "
          "and pixels checked on %d rows, %d failed%s\n", names[0], lines, broken,
          broken ? " (see the error lines)" : "");
}
