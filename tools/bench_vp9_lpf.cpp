// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench, VP9 loop filter: the whole-frame process on a 1920x1088 frame whose content makes
// the filters fire, with a uniform grid (8x8 blocks, 8x8 transforms, level 32) and a realistic
// one (random VP9 partitions, mixed transform sizes, levels and skip flags: the tests' generator).
// Per backend: frame time (median, p99) and whether the result is bit-exact with the scalar
// sequential reference. The GPU backends run the CPU path until the loop-filter shader exists.
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "v3d/v3d.h"
#include "vp9_lpf_grid.h"

namespace v3dbench {
namespace {

constexpr int kW = 1920, kH = 1088;

struct LfResult {
  bool ok = false;
  Stats t;
  std::vector<uint8_t> out[3];
};

LfResult run_lf(const char *backend, int threads, const v3dtest::vp9::LfFrame &src,
                const std::vector<V3dVp9LfInfo> &grid, int grid_stride, int frames) {
  LfResult r;
  V3dContext *ctx = v3d_context_new(backend, threads);
  if (!ctx) return r;
  v3dtest::vp9::LfFrame f = src;
  for (int p = 0; p < 3; p++) f.data[p] = f.buf[p].data() + (f.data[p] - src.buf[p].data());
  std::vector<double> times;
  for (int i = 0; i < frames + 1; i++) {
    for (int p = 0; p < 3; p++) f.buf[p] = src.buf[p];  // the same unfiltered frame each time
    auto t0 = Clock::now();
    int rc = v3d_vp9_loop_filter_frame(ctx, f.data, f.stride, kW, kH, grid.data(), grid_stride, 0);
    double s = since(t0);
    if (rc) {
      fprintf(stderr, "loop filter (%s): %s\n", backend, v3d_last_error());
      v3d_context_free(ctx);
      return r;
    }
    if (i) times.push_back(s);
  }
  for (int p = 0; p < 3; p++) r.out[p] = f.buf[p];
  r.t = stats_of(times);
  r.ok = true;
  v3d_context_free(ctx);
  return r;
}

}  // namespace

int bench_vp9_lpf(const Options &opt, Json &json) {
  const int cores = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const int stride = (kW + 7) / 8;
  v3dtest::Rng rng(2026);
  v3dtest::vp9::LfFrame frame(kW, kH);
  frame.fill_smooth(rng);
  struct Grid {
    const char *name;
    std::vector<V3dVp9LfInfo> g;
  } grids[2];
  grids[0].name = "uniform 8x8";
  grids[0].g.assign(static_cast<size_t>(stride) * ((kH + 7) / 8), V3dVp9LfInfo{32, 3, 1, 0});
  grids[1].name = "realistic";
  grids[1].g = v3dtest::vp9::make_lf_grid(rng, kW, kH, stride, v3dtest::vp9::LfGridParams{});
  printf("\nVP9 loop filter, whole %dx%d frame, ms per frame (median / p99), %d timed frames; "
         "exact = bit-exact with the scalar sequential process\n", kW, kH, opt.frames);
  printf("%-12s | %-18s %-18s %-18s %-18s %-18s\n", "grid", "scalar", "simd 1 thread",
         ("simd " + std::to_string(cores) + " threads").c_str(),
         ("simd " + std::to_string(std::max(1, cores - 1)) + " threads").c_str(), "auto");
  json.begin_object("vp9_lpf");
  int rc = 0;
  for (const Grid &g : grids) {
    if (!opt.only.empty() && std::string(g.name).find(opt.only) == std::string::npos) continue;
    LfResult ref = run_lf("scalar", 1, frame, g.g, stride, std::max(1, opt.frames / 4));
    struct Cfg {
      const char *label, *backend;
      int threads;
    } cfgs[] = {{"scalar", "scalar", 1}, {"simd_1", "simd", 1}, {"simd_n", "simd", cores},
                {"simd_n1", "simd", std::max(1, cores - 1)}, {"auto", "auto", 0}};
    json.begin_object(g.name);
    printf("%-12s |", g.name);
    for (const Cfg &c : cfgs) {
      const bool is_ref = strcmp(c.label, "scalar") == 0;
      LfResult run = is_ref ? LfResult{} : run_lf(c.backend, c.threads, frame, g.g, stride, opt.frames);
      const LfResult &r = is_ref ? ref : run;
      bool exact = r.ok && ref.ok && r.out[0] == ref.out[0] && r.out[1] == ref.out[1] &&
                   r.out[2] == ref.out[2];
      if (r.ok && !exact) rc = 1;
      char cell[40];
      if (r.ok) snprintf(cell, sizeof cell, " %6.2f/%6.2f %s", r.t.median * 1e3, r.t.p99 * 1e3, exact ? "ok" : "DIFF");
      else snprintf(cell, sizeof cell, " %-17s", "-");
      printf("%-19s", cell);
      json.begin_object(c.label);
      json.num("frame_ms_median", r.t.median * 1e3);
      json.num("frame_ms_p99", r.t.p99 * 1e3);
      json.num("bit_exact", exact ? 1 : 0);
      json.end_object();
    }
    printf("\n");
    json.end_object();
  }
  json.end_object();
  return rc;
}

}  // namespace v3dbench
