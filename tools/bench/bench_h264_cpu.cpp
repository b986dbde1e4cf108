// SPDX-License-Identifier: LGPL-2.1-or-later
// Single-thread timing of the H.264 deblocking edge kernels: ns per edge for every filter and
// direction, on every SIMD target this CPU has and on the scalar reference. Smooth inputs with a
// step below alpha at the edge (the filters fire on most lines), alpha/beta/tC0 at QP ~ 36
// (indexA 36: alpha 63, beta 11 at indexB 36, tC0 of bS 2 = 3). 64 edges spread over a buffer,
// stride 4-byte aligned but not 16 (as GStreamer's often are). For v3d-bench (the lead wires
// it): bench_h264_deblock_cpu(stdout).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "v3d/v3d.h"

namespace {

constexpr int kEdges = 64, kStride = 1924, kRows = 64;

double time_ns(int filter, int dir, bool ref, std::vector<uint8_t> &buf) {
  const int8_t tc0[4] = {3, 3, 3, 3};
  const int alpha = 63, beta = 11;
  auto one_pass = [&] {
    for (int e = 0; e < kEdges; e++) {
      uint8_t *pix = buf.data() + 24 * kStride + 8 + e * 28 + (e & 3) * 5 * kStride;
      switch (filter) {
        case 0: (ref ? v3d_h264_loop_filter_luma_ref : v3d_h264_loop_filter_luma)(pix, kStride, dir, alpha, beta, tc0); break;
        case 1: (ref ? v3d_h264_loop_filter_luma_intra_ref : v3d_h264_loop_filter_luma_intra)(pix, kStride, dir, alpha, beta); break;
        case 2: (ref ? v3d_h264_loop_filter_chroma_ref : v3d_h264_loop_filter_chroma)(pix, kStride, dir, alpha, beta, tc0); break;
        default: (ref ? v3d_h264_loop_filter_chroma_intra_ref : v3d_h264_loop_filter_chroma_intra)(pix, kStride, dir, alpha, beta); break;
      }
    }
  };
  for (int i = 0; i < 200; i++) one_pass();  // warm-up
  double best = 1e30;
  for (int rep = 0; rep < 7; rep++) {
    const int passes = 1000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < passes; i++) one_pass();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / (passes * kEdges));
  }
  return best;
}

void fill(std::vector<uint8_t> &buf) {
  // Smooth ramps with a step of 20 every 4 columns and rows: edges fire (|step| < alpha).
  uint32_t s = 12345;
  for (int y = 0; y < kRows; y++)
    for (int x = 0; x < kStride; x++) {
      s = s * 1664525u + 1013904223u;
      buf[y * kStride + x] = static_cast<uint8_t>(100 + ((x / 4 + y / 4) & 1) * 20 + ((s >> 28) & 3));
    }
}

}  // namespace

void bench_h264_deblock_cpu(FILE *out) {
  static const char *const kNames[4] = {"luma", "luma_intra", "chroma", "chroma_intra"};
  std::vector<uint8_t> buf(static_cast<size_t>(kRows) * kStride + 64);
  const char *targets[32];
  const int nt = std::min(v3d_cpu_targets(targets, 32), 32);
  fprintf(out, "H.264 deblocking, one thread, ns per edge (h: horizontal edge, v: vertical edge)\n");
  fprintf(out, "%-10s", "target");
  for (const char *n : kNames) fprintf(out, " %12s h %12s v", n, n);
  fprintf(out, "\n");
  for (int t = 0; t <= nt; t++) {
    const bool ref = t == nt;
    if (!ref && v3d_cpu_force_target(targets[t]) != 0) continue;
    fprintf(out, "%-10s", ref ? "reference" : targets[t]);
    for (int f = 0; f < 4; f++)
      for (int dir : {1, 0}) {
        fill(buf);
        fprintf(out, " %14.2f", time_ns(f, dir, ref, buf));
      }
    fprintf(out, "\n");
  }
  v3d_cpu_force_target(nullptr);
}
