// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench --section peers [--peer-checkasm PATH] [--peer-ghz F]: the project's kernels beside a
// peer's (FFmpeg's checkasm, built outside the repository: docs/benchmarks.md says how), one
// thread, ns per call, on the rows checkasm benchmarks:
//  * VP9 inverse transform + add, every size/type and WHT, and for DCT_DCT every "subN" row
//    (non-zero coefficients only in the top-left N x N, eob = the scan position where the scan
//    first leaves that square: checkasm's copy_subcoefs rule). The peer's assembly does the same
//    work for any coefficient values with a given eob; the project's kernels choose a 16-bit or a
//    32-bit path from the coefficients, so the project gets two columns: "small" (|c| <= 48,
//    inside every 16-bit bound, as typical dequantized residuals) and "large" (|c| <= 2047).
//    Rows, coefficients and timer are bench_itx_row.h's, shared with the itx-rows section.
//    After the peer's figure and the ratios, the same two columns for the decoder's entry
//    ("ex-small", "ex-large": the exact-eob slot, whose eob is trusted as the peer's is, in the
//    layout the decoder writes for the slot: ItxDsp::add_exact_eob_cm on the block transposed
//    where cm_native, else add_exact_eob) and their ratios ("ex-s", "ex-l"); each row's eob
//    promise and the slot's pixels are checked first, and a row failing either gets an error
//    line and "-".
//  * VP9 loop filter edges: 4/8/16-wide over 8 pixels, 16-wide over 16, and the 16-pixel
//    4+4 / 8+8 pairs (checkasm's mix2 44 / 88), E 20, I 10, H 7, lines of every regime (flat16,
//    flat8, normal, off: two of each per 8 lines, as checkasm builds them).
//  * H.264 edges (luma, luma intra, chroma, chroma intra; both directions): random pixels and
//    checkasm's 35 alpha/beta/tc0 sets, averaged over the sets.
// The project is timed through its DSP table slots (the peer through its DSP pointers); the
// public functions' extra cost is the calls section's business (bench_calls.cpp). Without a
// peer, the project's column alone is printed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench_common.h"
#include "bench_itx_row.h"
#include "bench_peer_run.h"
#include "h264/deblock/deblock.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx.h"
#include "vp9/lpf/lpf.h"

namespace v3dbench {
namespace {

struct Peer {
  std::map<std::string, PeerFigure> figs;
  double units_per_ns = 0;
  bool given = false;
};

// A value column of the given width: v with prec decimals, "-" for a figure not taken (v < 0).
void print_value(double v, int width, int prec) {
  if (v < 0) printf(" %*s", width, "-");
  else printf(" %*.*f", width, prec, v);
}

// One row: the project's n_ours figures, the peer's and its version, the ratios of ours to it;
// then the n_extra figures and their ratios (none: no peer figure, or a figure not taken).
void print_row(const Peer &peer, const std::string &row, const std::string &peer_name,
               const double *ours, int n_ours, const double *extra = nullptr, int n_extra = 0) {
  printf("%-34s", row.c_str());
  for (int i = 0; i < n_ours; i++) printf(" %9.1f", ours[i]);
  auto it = peer.figs.find(peer_name);
  double p = -1;
  if (!peer.given || it == peer.figs.end() || peer.units_per_ns <= 0) {
    printf(" %9s %-9s", "-", peer.given ? "no SIMD" : "");
    for (int i = 0; i < n_ours && n_extra; i++) printf(" %6s", "");  // keep extra's columns
  } else {
    p = it->second.units / peer.units_per_ns;
    printf(" %9.1f %-9s", p, it->second.cpu.c_str());
    for (int i = 0; i < n_ours; i++) printf(" %6.2f", ours[i] / p);
  }
  for (int i = 0; i < n_extra; i++) print_value(extra[i], 9, 1);
  for (int i = 0; i < n_extra && p > 0; i++) print_value(extra[i] < 0 ? -1 : extra[i] / p, 6, 2);
  printf("\n");
}

void itx_rows(const Peer &peer) {
  printf("\nVP9 inverse transform + add, ns per call%s\n",
         peer.given ? "; ratio = project / peer" : "");
  printf("%-34s %9s %9s %9s %-9s %6s %6s %9s %9s %6s %6s\n", "row (checkasm name)", "small",
         "large", "peer", "peer simd", "small", "large", "ex-small", "ex-large", "ex-s", "ex-l");
  const v3d::vp9::ItxDsp &dsp = v3d::vp9::itx_dsp();
  uint64_t seed = 24;
  std::vector<int16_t> c;
  for (const ItxRow &r : itx_rows_checkasm()) {
    const std::string name = itx_row_name(r);
    double ours[2], exact[2];
    for (int k = 0; k < 2; k++, seed++) {
      const int eob = itx_row_coeffs(r, k ? ItxCoeffs::kWide : ItxCoeffs::kSmall, seed, &c);
      ours[k] = time_itx_row(dsp.add[r.size][r.type], c, eob, seed);
      exact[k] = time_itx_row_decoder(dsp, r, c, eob, seed, name.c_str(), stdout);
    }
    print_row(peer, name, name, ours, 2, exact, 2);
  }
}

// One line across a VP9 edge, p7..p0 at v[0..7], q0..q7 at v[8..15], of regime cls: 0 flat16,
// 1 flat8 (outer pixels random), 2 normal (inner steps within I, outer random), 3 off (random).
void lpf_line(Rng &rng, int cls, int E, int I, uint8_t v[16]) {
  int px[16];
  for (int &x : px) x = rng.range(0, 255);
  if (cls < 3) {
    const int q0 = rng.range(0, 255);
    const int p0 = q0 + rng.range(-(E >> 2), E >> 2);
    px[8] = q0;
    px[7] = p0;
    const int inner = cls == 0 ? 8 : 4, step = cls == 2 ? I : 1;
    for (int j = 1; j < inner; j++) {
      px[7 - j] = (cls == 2 ? px[8 - j] : p0) + rng.range(-step, step);
      px[8 + j] = (cls == 2 ? px[7 + j] : q0) + rng.range(-step, step);
    }
  }
  for (int j = 0; j < 16; j++) v[j] = static_cast<uint8_t>(std::min(255, std::max(0, px[j])));
}

void lpf_rows(const Peer &peer) {
  using namespace v3d::vp9;
  printf("\nVP9 loop filter edge, ns per call (h: vertical edge, v: horizontal edge)\n");
  printf("%-34s %9s %9s %-9s %6s\n", "row (checkasm name)", "project", "peer", "peer simd", "ratio");
  const LpfDsp &dsp = lpf_dsp();
  constexpr int kStride = 64, E = 20, I = 10, H = 7;
  struct R {
    const char *name;  // checkasm's, with %s for h / v
    int w, len;        // our slot: width index (kLpf4/8/16), len 0 = 8 pixels, 1 = 16
  };
  static const R kRows[] = {{"vp9_loop_filter_%s_4_8_8bpp", kLpf4, 0},
                            {"vp9_loop_filter_%s_8_8_8bpp", kLpf8, 0},
                            {"vp9_loop_filter_%s_16_8_8bpp", kLpf16, 0},
                            {"vp9_loop_filter_%s_16_16_8bpp", kLpf16, 1},
                            {"vp9_loop_filter_mix2_%s_44_16_8bpp", kLpf4, 1},
                            {"vp9_loop_filter_mix2_%s_88_16_8bpp", kLpf8, 1}};
  Rng rng{9};
  for (const R &r : kRows)
    for (int dir = 0; dir < 2; dir++) {
      std::vector<uint8_t> buf(kStride * 48);
      uint8_t *edge = buf.data() + 16 * kStride + 16;  // q0 of the first line
      const int len = r.len ? 16 : 8;
      for (int i = 0; i < len; i++) {
        uint8_t v[16];
        lpf_line(rng, (i % 8) / 2, E, I, v);
        for (int j = 0; j < 16; j++) {
          const int off = j - 8;  // across the edge
          if (dir == 0) edge[i * kStride + off] = v[j];
          else edge[off * kStride + i] = v[j];
        }
      }
      LpfEdgeFn fn = dsp.edge[dir][r.w][r.len];
      const double ours = ns_per_call([&] { fn(edge, kStride, E, I, H); });
      char name[64];
      snprintf(name, sizeof name, r.name, dir ? "v" : "h");
      print_row(peer, name, name, &ours, 1);
    }
}

void h264_rows(const Peer &peer) {
  using namespace v3d::h264;
  printf("\nH.264 deblocking edge, ns per call, mean over checkasm's 35 alpha/beta/tc0 sets "
         "(h: vertical edge, v: horizontal edge)\n");
  printf("%-34s %9s %9s %-9s %6s\n", "row (checkasm name)", "project", "peer", "peer simd", "ratio");
  const DeblockDsp &dsp = deblock_dsp();
  constexpr int kSets = 35;
  int alphas[kSets], betas[kSets];
  int8_t tc0[kSets][4];
  for (int i = kSets, a = 255, c = 250; --i >= 0;) {  // checkasm h264dsp's parameter sets
    alphas[i] = a;
    betas[i] = (i + 2) / 2;
    tc0[i][0] = tc0[i][3] = static_cast<int8_t>((c + 6) / 10);
    tc0[i][1] = static_cast<int8_t>((c + 7) / 15);
    tc0[i][2] = static_cast<int8_t>((c + 9) / 20);
    a = a * 9 / 10;
    c = c * 9 / 10;
  }
  static const char *const kKind[4] = {"luma", "luma_intra", "chroma", "chroma_intra"};
  Rng rng{264};
  for (int k = 0; k < 4; k++)
    for (int dir = 1; dir >= 0; dir--) {
      double sum = 0;
      for (int j = 0; j < kSets; j++) {
        std::vector<uint8_t> buf(32 * 32);
        for (auto &p : buf) p = static_cast<uint8_t>(rng.below(256));
        uint8_t *pix = buf.data() + 8 * 32 + (dir ? 0 : (j & 15) * 4);
        const int al = alphas[j], be = betas[j];
        const int8_t *tc = tc0[j];
        switch (k) {
          case 0: sum += ns_per_call([&] { dsp.luma[dir](pix, 32, al, be, tc); }, 60); break;
          case 1: sum += ns_per_call([&] { dsp.luma_intra[dir](pix, 32, al, be); }, 60); break;
          case 2: sum += ns_per_call([&] { dsp.chroma[dir](pix, 32, al, be, tc); }, 60); break;
          default: sum += ns_per_call([&] { dsp.chroma_intra[dir](pix, 32, al, be); }, 60); break;
        }
      }
      const double ours = sum / kSets;
      char name[64];
      snprintf(name, sizeof name, "%s_loop_filter_%s_8bpp", dir ? "v" : "h", kKind[k]);
      print_row(peer, name, name, &ours, 1);
    }
}

}  // namespace

void bench_peers(const Options &opt) {
  Peer peer;
  peer.given = !opt.peer_checkasm.empty();
  if (peer.given) {
    std::string log;
    auto add = [&](const char *test, const char *pattern) {
      for (auto &f : run_checkasm(opt.peer_checkasm, test, pattern, &log)) peer.figs[f.first] = f.second;
    };
    // checkasm matches --bench=PATTERN against whole names, '*' a wildcard.
    add("vp9dsp", "vp9_inv_*");
    add("vp9dsp", "vp9_loop_filter_*");
    add("h264dsp", "*_loop_filter_*");
    peer.units_per_ns = opt.peer_ghz > 0 ? opt.peer_ghz : native_timer_per_ns();
    printf("peer: %s, %zu functions with SIMD figures; its units: %s, %.4f per ns\n",
           opt.peer_checkasm.c_str(), peer.figs.size(),
           opt.peer_ghz > 0 ? "as given by --peer-ghz"
                            : "checkasm's native timer (x86: TSC, aarch64: cntvct), calibrated "
                              "here against steady_clock",
           peer.units_per_ns);
    if (peer.figs.empty()) {  // no peer column rather than a column of "no SIMD"
      printf("peer: checkasm listed nothing; its stderr:\n%s", log.c_str());
      peer.given = false;
    }
  }
  printf("project: SIMD target %s, timed through its DSP table slots; one thread (pin with "
         "taskset: the peer inherits the affinity)\n", v3d_cpu_target());
  itx_rows(peer);
  lpf_rows(peer);
  h264_rows(peer);
}

}  // namespace v3dbench
