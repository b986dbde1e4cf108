// SPDX-License-Identifier: LGPL-2.1-or-later
// The H.264 edge kernels beside FFmpeg's x86 ones in one process: ns per edge, one thread, the
// project through its public C functions (the target in force, or the one named as argv[1]),
// FFmpeg's SSE2 and AVX functions called directly; each pair's outputs are compared on the same
// input. Not part of the Meson build: tools/bench/h264-peer-rows.sh links it with a peer build's
// libavcodec/x86/h264_deblock.o (never committed) and prints this table.
//
// Layout: 64 edges spread over a 64-row picture, the rows of bench_h264_cpu.cpp (smooth ramps
// with a step below alpha: most lines filtered; alpha 63, beta 11, tC0 3), but 16-byte aligned
// with a stride that is a multiple of 16, because FFmpeg's x86 luma kernels for horizontal edges
// use aligned loads. FFmpeg's names count the filtering direction: its deblock_v_* filter a
// horizontal edge (dir 1 here), deblock_h_* a vertical one. Its chroma kernels take tC0 + 1
// (its caller adds the 1), the project's tC0.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "v3d/v3d.h"

extern "C" {
// The constants h264_deblock.o takes from FFmpeg's x86/constants.c.
alignas(16) extern const uint8_t ff_pb_1[16];
alignas(16) extern const uint8_t ff_pb_3[16];
alignas(16) const uint8_t ff_pb_1[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
alignas(16) const uint8_t ff_pb_3[16] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
using PeerFn = void (*)(uint8_t *, ptrdiff_t, int, int, int8_t *);
using PeerIntraFn = void (*)(uint8_t *, ptrdiff_t, int, int);
#define V3D_PEER(name) void name(uint8_t *, ptrdiff_t, int, int, int8_t *);
#define V3D_PEER_INTRA(name) void name(uint8_t *, ptrdiff_t, int, int);
V3D_PEER(ff_deblock_v_luma_8_sse2) V3D_PEER(ff_deblock_h_luma_8_sse2)
V3D_PEER(ff_deblock_v_luma_8_avx) V3D_PEER(ff_deblock_h_luma_8_avx)
V3D_PEER(ff_deblock_v_chroma_8_sse2) V3D_PEER(ff_deblock_h_chroma_8_sse2)
V3D_PEER(ff_deblock_v_chroma_8_avx) V3D_PEER(ff_deblock_h_chroma_8_avx)
V3D_PEER_INTRA(ff_deblock_v_luma_intra_8_sse2) V3D_PEER_INTRA(ff_deblock_h_luma_intra_8_sse2)
V3D_PEER_INTRA(ff_deblock_v_luma_intra_8_avx) V3D_PEER_INTRA(ff_deblock_h_luma_intra_8_avx)
V3D_PEER_INTRA(ff_deblock_v_chroma_intra_8_sse2) V3D_PEER_INTRA(ff_deblock_h_chroma_intra_8_sse2)
V3D_PEER_INTRA(ff_deblock_v_chroma_intra_8_avx) V3D_PEER_INTRA(ff_deblock_h_chroma_intra_8_avx)
}

namespace {

constexpr int kEdges = 64, kStride = 1952, kRows = 64;

struct Picture {
  std::vector<uint8_t> mem = std::vector<uint8_t>(kRows * kStride + 64);
  uint8_t *base() {
    const uintptr_t a = reinterpret_cast<uintptr_t>(mem.data());
    return reinterpret_cast<uint8_t *>((a + 63) & ~uintptr_t{63});
  }
  void fill() {
    uint32_t s = 12345;
    for (int y = 0; y < kRows; y++)
      for (int x = 0; x < kStride; x++) {
        s = s * 1664525u + 1013904223u;
        const int step = ((x / 4 + y / 4) & 1) * 20;
        base()[y * kStride + x] = static_cast<uint8_t>(100 + step + ((s >> 28) & 3));
      }
  }
  uint8_t *edge(int e) {
    return base() + 24 * kStride + 16 + (e * 28) / 16 * 16 + (e & 3) * 5 * kStride;
  }
};

template <class F>
double time_ns(F pass) {
  for (int i = 0; i < 200; i++) pass();
  double best = 1e30;
  for (int rep = 0; rep < 9; rep++) {
    const int passes = 1000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < passes; i++) pass();
    const auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    best = std::min(best, ns / (passes * kEdges));
  }
  return best;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc > 1 && v3d_cpu_force_target(argv[1]) != 0) {
    fprintf(stderr, "target %s is not available here\n", argv[1]);
    return 2;
  }
  int8_t tc0[4] = {3, 3, 3, 3}, tc1[4] = {4, 4, 4, 4};
  const int alpha = 63, beta = 11;
  static const char *const kNames[4] = {"luma", "luma intra", "chroma", "chroma intra"};
  // [chroma][avx][dir]
  const PeerFn peer[2][2][2] = {
      {{ff_deblock_h_luma_8_sse2, ff_deblock_v_luma_8_sse2},
       {ff_deblock_h_luma_8_avx, ff_deblock_v_luma_8_avx}},
      {{ff_deblock_h_chroma_8_sse2, ff_deblock_v_chroma_8_sse2},
       {ff_deblock_h_chroma_8_avx, ff_deblock_v_chroma_8_avx}}};
  const PeerIntraFn peer_intra[2][2][2] = {
      {{ff_deblock_h_luma_intra_8_sse2, ff_deblock_v_luma_intra_8_sse2},
       {ff_deblock_h_luma_intra_8_avx, ff_deblock_v_luma_intra_8_avx}},
      {{ff_deblock_h_chroma_intra_8_sse2, ff_deblock_v_chroma_intra_8_sse2},
       {ff_deblock_h_chroma_intra_8_avx, ff_deblock_v_chroma_intra_8_avx}}};
  printf("H.264 edges, one thread, ns per edge: project (target %s) beside FFmpeg\n",
         v3d_cpu_target());
  printf("| edge | project | FFmpeg SSE2 | FFmpeg AVX | project / FFmpeg best | outputs |\n");
  printf("|---|---|---|---|---|---|\n");
  int differ = 0;
  Picture a, b;
  for (int f = 0; f < 4; f++)
    for (int dir : {1, 0}) {
      const bool chroma = f >= 2, intra = f & 1;
      auto ours = [&](Picture &p) {
        for (int e = 0; e < kEdges; e++) {
          uint8_t *pix = p.edge(e);
          switch (f) {
            case 0: v3d_h264_loop_filter_luma(pix, kStride, dir, alpha, beta, tc0); break;
            case 1: v3d_h264_loop_filter_luma_intra(pix, kStride, dir, alpha, beta); break;
            case 2: v3d_h264_loop_filter_chroma(pix, kStride, dir, alpha, beta, tc0); break;
            default: v3d_h264_loop_filter_chroma_intra(pix, kStride, dir, alpha, beta); break;
          }
        }
      };
      auto theirs = [&](Picture &p, int avx) {
        for (int e = 0; e < kEdges; e++) {
          if (intra) peer_intra[chroma][avx][dir](p.edge(e), kStride, alpha, beta);
          else peer[chroma][avx][dir](p.edge(e), kStride, alpha, beta, chroma ? tc1 : tc0);
        }
      };
      a.fill();
      b.fill();
      ours(a);
      theirs(b, 1);
      const bool same = memcmp(a.base(), b.base(), kRows * kStride) == 0;
      differ += !same;
      a.fill();
      const double t = time_ns([&] { ours(a); });
      b.fill();
      const double ts = time_ns([&] { theirs(b, 0); });
      b.fill();
      const double ta = time_ns([&] { theirs(b, 1); });
      printf("| %s, %s | %.2f | %.2f | %.2f | %.2f | %s |\n", kNames[f],
             dir ? "horizontal" : "vertical", t, ts, ta, t / std::min(ts, ta),
             same ? "identical" : "DIFFER");
    }
  return differ ? 1 : 0;
}
