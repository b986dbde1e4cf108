// SPDX-License-Identifier: LGPL-2.1-or-later
// The aarch64 program tools/bench/neon_mca.py runs under qemu-aarch64 with per-instruction
// tracing: for each row it calls the project's public function and, when linked in, the peer's
// (FFmpeg's aarch64 NEON, assembled from its sources by neon_mca.py) on the same data. Each
// case is called once untimed (first-use table fills, lazy binding), then again right after
// v3d_trace_mark(id), so the trace holds, after the id-th mark, one whole call to study.
// Prints "MARK addr" once and "CASE id side row symbol entry-addr" per case; functions are found
// by name with dlsym (the peer's are absent from builds without it; their rows are skipped).
// Not a test: it checks nothing and its output is the trace.
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "vp9/dec/tile_tables.h"

namespace {

using ItxFn = void (*)(uint8_t *, ptrdiff_t, int16_t *, int);
using PubItxFn = void (*)(uint8_t *, ptrdiff_t, const int16_t *, int, int, int);
using LpfFn = void (*)(uint8_t *, ptrdiff_t, int, int, int);
using PubLpfFn = void (*)(uint8_t *, ptrdiff_t, int, int, int, int, int, int);
using H264Fn = void (*)(uint8_t *, ptrdiff_t, int, int, int8_t *);
using H264IntraFn = void (*)(uint8_t *, ptrdiff_t, int, int);
using PubH264Fn = void (*)(uint8_t *, ptrdiff_t, int, int, int, const int8_t *);
using PubH264IntraFn = void (*)(uint8_t *, ptrdiff_t, int, int, int);

uint64_t g_rng = 0x2545F4914F6CDD1Dull;
int rnd(int lo, int hi) {
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return lo + static_cast<int>(((g_rng * 0x2545F4914F6CDD1Dull) >> 33) % static_cast<uint64_t>(hi - lo + 1));
}

int g_case = 0;

}  // namespace

extern "C" __attribute__((noinline, used)) void v3d_trace_mark(int id) {
  asm volatile("" ::"r"(id) : "memory");
}

namespace {

void *sym(const char *name) { return dlsym(RTLD_DEFAULT, name); }

// Announces a case and returns its id, or -1 when `fn` is absent.
int announce(const char *side, const char *row, const char *name, void *fn) {
  if (!fn) return -1;
  printf("CASE %d %s %s %s %p\n", g_case, side, row, name, fn);
  return g_case++;
}

const char *const kPeerItx[5] = {"idct_idct", "iadst_idct", "idct_iadst", "iadst_iadst", "iwht_iwht"};
const char *const kRowType[5] = {"dct_dct", "adst_dct", "dct_adst", "adst_adst", "wht_wht"};

void itx_cases() {
  auto *pub = reinterpret_cast<PubItxFn>(sym("v3d_vp9_itxfm_add"));
  // The entry for an exact eob (absent from older builds: its rows are then left out).
  auto *exact = reinterpret_cast<PubItxFn>(sym("v3d_vp9_itxfm_add_exact_eob"));
  std::vector<int16_t> c(1024), work(1024), small(1024);
  int small_eob = 0;
  std::vector<uint8_t> dst(64 * 64, 128);
  for (int s = 0; s < 4; s++) {
    const int n = 4 << s;
    for (int t = 0; t < 5; t++) {
      if ((t == 4 && s) || (s == 3 && t && t != 4) || (s == 3 && t == 4)) continue;
      for (int sub = t == 0 ? 1 : n; sub <= n; sub = sub < 4 ? sub * 2 : sub + 4) {
        char row[64], peer[64];
        snprintf(row, sizeof row, "vp9_inv_%s_%dx%d_sub%d", kRowType[t], n, n, sub);
        if (t == 4) snprintf(peer, sizeof peer, "ff_vp9_iwht_iwht_4x4_add_neon");
        else snprintf(peer, sizeof peer, "ff_vp9_%s_%dx%d_add_neon", kPeerItx[t], n, n);
        for (int k = 0; k < 4; k++) {  // project small, project large, peer, exact-eob small
          const int max = k == 1 ? 2047 : 48;
          const int16_t *scan = v3d::vp9::scan_for(s, t == 4 ? 0 : t);
          int eob = 0;
          if (k == 3) {  // the small case's block again (the other cases' draws unchanged)
            c = small;
            eob = small_eob;
          } else {
            std::fill(c.begin(), c.end(), 0);
            for (; eob < n * n; eob++) {
              const int rc = scan[eob];
              if (rc % n >= sub || rc / n >= sub) break;
              const int v = rnd(-max, max);
              c[static_cast<size_t>(rc)] = static_cast<int16_t>(v ? v : 1);
            }
          }
          if (k == 0) {
            small = c;
            small_eob = eob;
          }
          static const char *const kSide[4] = {"project-small", "project-large", "peer",
                                               "project-exact"};
          void *fn = k < 2 ? reinterpret_cast<void *>(pub)
                     : k == 2 ? sym(peer)
                              : reinterpret_cast<void *>(exact);
          const int id = announce(kSide[k], row,
                                  k == 2 ? peer : k == 3 ? "v3d_vp9_itxfm_add_exact_eob"
                                                         : "v3d_vp9_itxfm_add", fn);
          if (id < 0) continue;
          for (int rep = 0; rep < 2; rep++) {
            work = c;
            if (rep) v3d_trace_mark(id);
            if (k == 2) reinterpret_cast<ItxFn>(fn)(dst.data(), 64, work.data(), eob);
            else reinterpret_cast<PubItxFn>(fn)(dst.data(), 64, work.data(), s, t, eob);
          }
        }
      }
    }
  }
}

// Lines of every regime across the edge (two each of flat16, flat8, normal, off per 8 lines),
// as v3d-bench's peers section builds them; E 20, I 10, H 7.
void lpf_fill(uint8_t *edge, ptrdiff_t stride, int dir, int len) {
  for (int i = 0; i < len; i++) {
    const int cls = (i % 8) / 2;
    int px[16];
    for (int &x : px) x = rnd(0, 255);
    if (cls < 3) {
      px[8] = rnd(0, 255);
      px[7] = px[8] + rnd(-5, 5);
      const int inner = cls == 0 ? 8 : 4, step = cls == 2 ? 10 : 1;
      for (int j = 1; j < inner; j++) {
        px[7 - j] = (cls == 2 ? px[8 - j] : px[7]) + rnd(-step, step);
        px[8 + j] = (cls == 2 ? px[7 + j] : px[8]) + rnd(-step, step);
      }
    }
    for (int j = 0; j < 16; j++) {
      const uint8_t v = static_cast<uint8_t>(px[j] < 0 ? 0 : px[j] > 255 ? 255 : px[j]);
      if (dir == 0) edge[i * stride + j - 8] = v;
      else edge[(j - 8) * stride + i] = v;
    }
  }
}

void lpf_cases() {
  auto *pub = reinterpret_cast<PubLpfFn>(sym("v3d_vp9_loop_filter_edge"));
  struct R {
    const char *row;  // checkasm's name with %s for h / v
    const char *peer;
    int w, len;
  };
  static const R kRows[] = {{"vp9_loop_filter_%s_4_8", "ff_vp9_loop_filter_%s_4_8_neon", 4, 8},
                            {"vp9_loop_filter_%s_8_8", "ff_vp9_loop_filter_%s_8_8_neon", 8, 8},
                            {"vp9_loop_filter_%s_16_8", "ff_vp9_loop_filter_%s_16_8_neon", 16, 8},
                            {"vp9_loop_filter_%s_16_16", "ff_vp9_loop_filter_%s_16_16_neon", 16, 16},
                            {"vp9_loop_filter_mix2_%s_44_16", "ff_vp9_loop_filter_%s_44_16_neon", 4, 16},
                            {"vp9_loop_filter_mix2_%s_88_16", "ff_vp9_loop_filter_%s_88_16_neon", 8, 16}};
  std::vector<uint8_t> buf(64 * 48);
  uint8_t *edge = buf.data() + 16 * 64 + 16;
  for (const R &r : kRows)
    for (int dir = 0; dir < 2; dir++) {
      char row[64], peer[64];
      snprintf(row, sizeof row, r.row, dir ? "v" : "h");
      snprintf(peer, sizeof peer, r.peer, dir ? "v" : "h");
      for (int k = 0; k < 2; k++) {
        void *fn = k ? sym(peer) : reinterpret_cast<void *>(pub);
        const int id = announce(k ? "peer" : "project", row, k ? peer : "v3d_vp9_loop_filter_edge", fn);
        if (id < 0) continue;
        // The peer's 16-pixel pairs take two thresholds per argument (low byte: first 8 lines).
        const int two = r.len == 16 && r.w != 16;
        const int E = two && k ? 20 | 20 << 8 : 20, I = two && k ? 10 | 10 << 8 : 10,
                  H = two && k ? 7 | 7 << 8 : 7;
        for (int rep = 0; rep < 2; rep++) {
          g_rng = 0x1234567 + static_cast<uint64_t>(g_case);
          lpf_fill(edge, 64, dir, r.len);
          if (rep) v3d_trace_mark(id);
          if (k) reinterpret_cast<LpfFn>(fn)(edge, 64, E, I, H);
          else pub(edge, 64, dir, r.w, r.len, E, I, H);
        }
      }
    }
}

// Smooth lines with a step of 20 at the edge, below alpha: every line is filtered.
void h264_fill(uint8_t *buf) {
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 32; x++) buf[y * 32 + x] = static_cast<uint8_t>(100 + rnd(0, 2) + ((x >= 16) != (y >= 16)) * 20);
}

void h264_cases() {
  static const char *const kKind[4] = {"luma", "luma_intra", "chroma", "chroma_intra"};
  std::vector<uint8_t> buf(32 * 32);
  int8_t tc0[4] = {3, 3, 3, 3};
  for (int kind = 0; kind < 4; kind++)
    for (int dir = 1; dir >= 0; dir--) {
      char row[64], peer[64], pubname[64];
      snprintf(row, sizeof row, "%s_loop_filter_%s", dir ? "v" : "h", kKind[kind]);
      snprintf(peer, sizeof peer, "ff_h264_%s_loop_filter_%s_neon", dir ? "v" : "h", kKind[kind]);
      snprintf(pubname, sizeof pubname, "v3d_h264_loop_filter_%s", kKind[kind]);
      const bool intra = kind & 1;
      for (int k = 0; k < 2; k++) {
        void *fn = sym(k ? peer : pubname);
        const int id = announce(k ? "peer" : "project", row, k ? peer : pubname, fn);
        if (id < 0) continue;
        // q0 of the first line: a vertical edge between columns 15/16 from row 8, a horizontal
        // edge between rows 15/16 from column 8.
        uint8_t *pix = buf.data() + (dir ? 16 * 32 + 8 : 8 * 32 + 16);
        for (int rep = 0; rep < 2; rep++) {
          g_rng = 0x5151 + static_cast<uint64_t>(g_case);
          h264_fill(buf.data());
          if (rep) v3d_trace_mark(id);
          if (k && intra) reinterpret_cast<H264IntraFn>(fn)(pix, 32, 63, 11);
          else if (k) reinterpret_cast<H264Fn>(fn)(pix, 32, 63, 11, tc0);
          else if (intra) reinterpret_cast<PubH264IntraFn>(fn)(pix, 32, dir, 63, 11);
          else reinterpret_cast<PubH264Fn>(fn)(pix, 32, dir, 63, 11, tc0);
        }
      }
    }
}

}  // namespace

int main() {
  printf("MARK %p\n", reinterpret_cast<void *>(&v3d_trace_mark));
  itx_cases();
  lpf_cases();
  h264_cases();
  fflush(stdout);
  return 0;
}
