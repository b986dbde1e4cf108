// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench, VP9 loop filter: the whole-frame process on a 1920x1088 frame whose content makes
// the filters fire, with a uniform grid (8x8 blocks, 8x8 transforms, level 32) and a realistic
// one (random VP9 partitions, mixed transform sizes, levels and skip flags: the tests' generator).
//  * per backend (scalar, simd 1 thread, simd N, simd N-1, gpu, hybrid N-1 and N threads, auto):
//    frame time (median, p99), edges/s (8-pixel edge segments the frame really filters: block,
//    transform and internal 4x4 edges, both directions, all planes), bit-exact with the scalar
//    sequential process; the M4 matrix (CPU-1, CPU-N, GPU, CPU-(N-1)+GPU, CPU-N+GPU, auto) is the
//    same runs under the names of the transform section;
//  * GPU batches of 1, 4, 16 frames (v3d_vp9_loop_filter_frames): wall and device (timestamp)
//    time per frame against the memory-bandwidth bound (each pixel read and written once:
//    2 bytes per pixel; --bandwidth-gbs);
//  * the M4 matrix with frames in flight: batches of 8 frames through v3d_vp9_loop_filter_frames
//    (the elements' way with max-frames-in-flight), ms per frame and hybrid against the sum of
//    its two sides alone (--section lpf-fif runs only this);
//  * the CPU wavefront's scaling with 1, 2, 4, 8, 15 threads (those the machine has).
// Frames live in the context's shared memory (as the elements' pool gives them), so the GPU
// makes no copies.
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "sched/context.h"
#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "vp9/lpf/lpf_frame.h"
#include "vp9/lpf/lpf_gpu.h"
#include "common/vp9_lpf_grid.h"
#include "gpu/gpu.h"

namespace v3dbench {
namespace {

constexpr int kW = 1920, kH = 1088;

using v3dtest::vp9::LfFrame;

// A copy of src's buffers (guards included) in one shared allocation of ctx.
struct SharedFrame {
  uint8_t *mem = nullptr;
  size_t off[3] = {0, 0, 0};
  uint8_t *data[3];
  ptrdiff_t stride[3];
  const LfFrame &src;
  SharedFrame(V3dContext *ctx, const LfFrame &s) : src(s) {
    size_t total = 0;
    for (int p = 0; p < 3; p++) {
      off[p] = total;
      total += (s.size(p) + 63) & ~size_t{63};
    }
    mem = static_cast<uint8_t *>(v3d_shared_alloc(ctx, total));
    for (int p = 0; p < 3; p++) {
      data[p] = mem + off[p] + (s.data[p] - s.bytes(p));
      stride[p] = s.stride[p];
    }
    reset();
  }
  ~SharedFrame() { v3d_shared_free(mem); }
  void reset() {
    for (int p = 0; p < 3; p++) memcpy(mem + off[p], src.bytes(p), src.size(p));
  }
  bool same_as(const LfFrame &o) const {
    for (int p = 0; p < 3; p++)
      if (memcmp(mem + off[p], o.bytes(p), o.size(p)) != 0) return false;
    return true;
  }
};

struct Grid {
  const char *name;
  std::vector<V3dVp9LfInfo> g;
  int stride;
  uint64_t edges = 0;  // 8-pixel edge segments filtered per frame
};

struct Run {
  bool ok = false, exact = false;
  Stats t;
  double gpu_share = 0;
  std::string backend;
};

// Runs every configuration (backend NULL: skipped) on the same frame, interleaved: one frame
// through each context in turn, in a shuffled order per round (visit_order), so that a drift of
// the host's speed during the run (10-20 % between consecutive configurations on the device
// machine's shared hosts) hits all alike.
struct BackendCfg {
  const char *backend;
  int threads;
};
std::vector<Run> run_backends_interleaved(const std::vector<BackendCfg> &cfgs, const LfFrame &src,
                                          const Grid &g, const LfFrame &want, int frames) {
  struct Side {
    V3dContext *ctx = nullptr;
    std::unique_ptr<SharedFrame> f;
  };
  std::vector<Side> sides(cfgs.size());
  std::vector<Run> out(cfgs.size());
  std::vector<Interleaved> timed(cfgs.size());
  for (size_t i = 0; i < cfgs.size(); i++) {
    if (!cfgs[i].backend) continue;
    sides[i].ctx = v3d_context_new(cfgs[i].backend, cfgs[i].threads);
    if (!sides[i].ctx) continue;
    out[i].backend = v3d_context_backend(sides[i].ctx);
    sides[i].f.reset(new SharedFrame(sides[i].ctx, src));
  }
  for (size_t i = 0; i < sides.size(); i++) timed[i].failed = !sides[i].ctx;
  // Untimed frames first (hybrid's controller probes both sides): warmup_frames().
  time_interleaved(timed, frames + warmup_frames(), warmup_frames(), [&](size_t i) {
    Side &sd = sides[i];
    sd.f->reset();  // the same unfiltered frame each time
    auto t0 = Clock::now();
    int rc = v3d_vp9_loop_filter_frame(sd.ctx, sd.f->data, sd.f->stride, kW, kH, g.g.data(),
                                       g.stride, 0);
    const double s = since(t0);
    if (!rc) return s;
    fprintf(stderr, "loop filter (%s): %s\n", cfgs[i].backend, v3d_last_error());
    return -1.0;
  });
  for (size_t i = 0; i < sides.size(); i++) {
    Side &sd = sides[i];
    if (!sd.ctx) continue;
    if (!timed[i].failed) {
      Run &r = out[i];
      r.exact = sd.f->same_as(want);
      V3dStats st;
      v3d_context_get_stats(sd.ctx, &st);
      r.gpu_share = st.gpu_share;
      r.t = stats_of(timed[i].times);
      r.ok = true;
    }
    sd.f.reset();
    v3d_context_free(sd.ctx);
  }
  return out;
}

// Edge segments per frame; *cells_ms: the time to build the frame's cell words on one thread
// (the CPU's share of every GPU frame: masks, widths and levels of each superblock).
uint64_t count_edges(const LfFrame &src, const Grid &g, double *cells_ms) {
  v3d::vp9::LpfFrame f;
  uint8_t *planes[3] = {src.data[0], src.data[1], src.data[2]};
  v3d::vp9::lpf_frame_setup(planes, src.stride, kW, kH, g.g.data(), g.stride, 0, &f);
  v3d::ThreadPool pool(1);
  std::vector<uint32_t> cells;
  uint64_t e[3];
  std::vector<double> t;
  for (int i = 0; i < 5; i++) {
    auto t0 = Clock::now();
    v3d::vp9::lpf_gpu_frame_cells(f, pool, &cells, e);
    t.push_back(since(t0));
  }
  *cells_ms = stats_of(t).median * 1e3;
  return e[0] + e[1] + e[2];
}

// GPU batches: wall and device time per frame, against the bandwidth bound. Returns false if a
// batch's frames differ from want (the scalar sequential result).
bool gpu_batches(const Options &opt, const LfFrame &src, const Grid &g, const LfFrame &want,
                 Json &json) {
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (!ctx) return true;
  bool exact = true;
  const double bytes = 2.0 * kW * kH * 3 / 2;  // every pixel read once and written once
  printf("  GPU batches (%.2f MB touched per frame", bytes / 1e6);
  if (opt.bandwidth_gbs > 0)
    printf(", bound %.3f ms/frame at %.0f GB/s", bytes / (opt.bandwidth_gbs * 1e9) * 1e3,
           opt.bandwidth_gbs);
  printf("):\n");
  json.begin_object("gpu_batches");
  json.num("bytes_per_frame", bytes);
  json.num("bandwidth_gbs", opt.bandwidth_gbs);
  json.num("bound_ms", opt.bandwidth_gbs > 0 ? bytes / (opt.bandwidth_gbs * 1e9) * 1e3 : -1);
  for (int batch : {1, 4, 16}) {
    std::vector<std::unique_ptr<SharedFrame>> fr;
    std::vector<V3dVp9LfFrame> frames(batch);
    for (int i = 0; i < batch; i++) {
      fr.emplace_back(new SharedFrame(ctx, src));
      V3dVp9LfFrame &f = frames[i];
      for (int p = 0; p < 3; p++) {
        f.planes[p] = fr[i]->data[p];
        f.strides[p] = fr[i]->stride[p];
      }
      f.width = kW;
      f.height = kH;
      f.grid = g.g.data();
      f.grid_stride = g.stride;
      f.sharpness = 0;
    }
    const int reps = std::max(2, opt.frames * 2 / batch);
    std::vector<double> t, dev;
    for (int r = 0; r < reps + 1; r++) {
      for (auto &f : fr) f->reset();
      auto t0 = Clock::now();
      if (v3d_vp9_loop_filter_frames(ctx, frames.data(), frames.size())) {
        fprintf(stderr, "GPU batch %d: %s\n", batch, v3d_last_error());
        break;
      }
      if (!r) continue;  // warm-up
      t.push_back(since(t0) / batch);
      const double d = v3d::gpu_last_job_seconds(*ctx->gpu);
      if (d > 0) dev.push_back(d / batch);  // one job per batch (<= 16 frames)
    }
    for (auto &f : fr) exact = exact && f->same_as(want);
    const Stats st = stats_of(t), sd = stats_of(dev);
    const double gbs = bytes / st.median / 1e9, dev_gbs = sd.median > 0 ? bytes / sd.median / 1e9 : -1;
    printf("    batch %2d: %.3f ms/frame (p99 %.3f), device %.3f ms/frame, %.1f GB/s wall, %.1f GB/s "
           "device", batch, st.median * 1e3, st.p99 * 1e3, sd.median * 1e3, gbs, dev_gbs);
    if (opt.bandwidth_gbs > 0)
      printf(" (%.1f%% of %.0f GB/s)", 100 * dev_gbs / opt.bandwidth_gbs, opt.bandwidth_gbs);
    printf(", %.1f Medge/s, %s\n", g.edges / st.median / 1e6, exact ? "exact" : "DIFF");
    json.begin_object("batch_" + std::to_string(batch));
    json.num("frame_ms_median", st.median * 1e3);
    json.num("frame_ms_p99", st.p99 * 1e3);
    json.num("device_ms_median", sd.median * 1e3);
    json.num("gb_per_s", gbs);
    json.num("device_gb_per_s", dev_gbs);
    json.num("medges_per_s", g.edges / st.median / 1e6);
    json.num("bit_exact", exact ? 1 : 0);
    json.end_object();
  }
  json.end_object();
  v3d_context_free(ctx);
  return exact;
}

// M4 with frames in flight: batches of kBatch frames through v3d_vp9_loop_filter_frames, timed
// interleaved (one batch through each configuration in turn, in a shuffled order per round), the
// batch's frames reset to the unfiltered frame before each (untimed). ms per frame (a batch's
// time / kBatch, median and p99) and hybrid against the sum of its two sides measured alone.
// Returns false if a configuration's last batch differs from want.
bool m4_frames_in_flight(const Options &opt, const LfFrame &src, const Grid &g,
                         const LfFrame &want, int cores, Json &json) {
  constexpr int kBatch = 8;
  const std::vector<FifCfg> cfgs = fif_configs(cores);
  constexpr int kCfgs = kFifConfigs;
  struct Side {
    V3dContext *ctx = nullptr;
    std::vector<std::unique_ptr<SharedFrame>> fr;
    std::vector<V3dVp9LfFrame> frames;
  };
  Side sides[kCfgs];
  for (int c = 0; c < kCfgs; c++) {
    Side &sd = sides[c];
    if (!(sd.ctx = fif_context(opt, cfgs[c]))) continue;
    for (int i = 0; i < kBatch; i++) {
      sd.fr.emplace_back(new SharedFrame(sd.ctx, src));
      V3dVp9LfFrame f{};
      for (int p = 0; p < 3; p++) {
        f.planes[p] = sd.fr[i]->data[p];
        f.strides[p] = sd.fr[i]->stride[p];
      }
      f.width = kW;
      f.height = kH;
      f.grid = g.g.data();
      f.grid_stride = g.stride;
      f.sharpness = 0;
      sd.frames.push_back(f);
    }
  }
  const std::vector<Interleaved> timed = time_fif_batches(
      opt, cfgs, kBatch, "loop filter batch", [&](size_t c) { return sides[c].ctx != nullptr; },
      [&](size_t c) {
        for (auto &f : sides[c].fr) f->reset();
      },
      [&](size_t c) {
        return v3d_vp9_loop_filter_frames(sides[c].ctx, sides[c].frames.data(),
                                          sides[c].frames.size());
      });
  bool exact = true;
  double ms[kCfgs];
  printf("  M4 frames in flight (batches of %d frames), ms per frame (median/p99):", kBatch);
  json.begin_object("m4_frames_in_flight");
  json.num("batch", kBatch);
  for (int c = 0; c < kCfgs; c++) {
    Side &sd = sides[c];
    ms[c] = -1;
    if (!sd.ctx) continue;
    if (!timed[c].failed) {
      bool same = true;
      for (auto &f : sd.fr) same = same && f->same_as(want);
      exact = exact && same;
      const Stats st = stats_of(timed[c].times);
      V3dStats vs;
      v3d_context_get_stats(sd.ctx, &vs);
      ms[c] = st.median * 1e3;
      printf("  %s %.2f/%.2f%s", cfgs[c].label, st.median * 1e3, st.p99 * 1e3, same ? "" : " DIFF");
      json.begin_object(cfgs[c].label);
      frame_time_fields(json, st, same);
      json.num("medges_per_s", g.edges / st.median / 1e6);
      json.num("gpu_share", vs.blocks_cpu + vs.blocks_gpu
                                ? double(vs.blocks_gpu) / (vs.blocks_cpu + vs.blocks_gpu) : 0);
      json.end_object();
    }
    sd.fr.clear();
    v3d_context_free(sd.ctx);
  }
  std::vector<double> times[kCfgs];
  for (int c = 0; c < kCfgs; c++)
    if (ms[c] > 0) times[c] = timed[c].times;
  fif_percentages(times, json);
  printf("\n");
  json.end_object();
  return exact;
}

}  // namespace

// The figure libvpx and FFmpeg are compared by: every 8x8 edge of a 1920x1088 luma plane with
// the 8-wide filter, one thread, through v3d_vp9_loop_filter_edge (16-pixel calls, libvpx's
// _dual functions): vertical edges at x = 8, 16, ..., then horizontal edges at y = 8, 16, ...
// Level 32, sharpness 0 thresholds (E 100, I 32, H 2) on content that makes the filter fire.
// Returns ms (median over `frames` planes; the plane is refilled before each, untimed).
double luma_plane_8wide_ms(int frames) {
  v3dtest::Rng rng(88);
  LfFrame src(kW, kH), f(kW, kH);
  src.fill_smooth(rng);
  const ptrdiff_t s = f.stride[0];
  std::vector<double> t;
  for (int i = 0; i < frames + 1; i++) {
    f.copy_plane_from(src, 0);
    uint8_t *y = f.data[0];
    const auto t0 = Clock::now();
    for (int x = 8; x < kW; x += 8)
      for (int r = 0; r < kH; r += 16) v3d_vp9_loop_filter_edge(y + r * s + x, s, 0, 8, 16, 100, 32, 2);
    for (int r = 8; r < kH; r += 8)
      for (int x = 0; x < kW; x += 16) v3d_vp9_loop_filter_edge(y + r * s + x, s, 1, 8, 16, 100, 32, 2);
    if (i) t.push_back(since(t0));
  }
  return stats_of(t).median * 1e3;
}

int bench_vp9_lpf(const Options &opt, Json &json) {
  const int online = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const int cores = opt.threads > 0 ? opt.threads : online;
  const bool fif_only = opt.section == "lpf-fif";
  const int stride = (kW + 7) / 8;
  v3dtest::Rng rng(2026);
  LfFrame frame(kW, kH);
  frame.fill_smooth(rng);
  Grid grids[2];
  grids[0].name = "uniform 8x8";
  grids[0].stride = stride;
  grids[0].g = v3dtest::vp9::make_uniform_lf_grid(kH, stride, V3dVp9LfInfo{32, 3, 1, 0});
  grids[1].name = "realistic";
  grids[1].stride = stride;
  grids[1].g = v3dtest::vp9::make_lf_grid(rng, kW, kH, stride, v3dtest::vp9::LfGridParams{});
  printf("\nVP9 loop filter, whole %dx%d frame, %d timed frames, N = %d cores: ms per frame "
         "(median/p99), Medge/s (8-pixel edge segments filtered), exact = bit-exact with the "
         "scalar sequential process\n", kW, kH, opt.frames, cores);
  json.begin_object("vp9_lpf");
  const double plane_ms = luma_plane_8wide_ms(std::max(5, opt.frames));
  printf("every 8x8 edge of the %dx%d luma plane, 8-wide filter, 1 thread SIMD: %.3f ms\n", kW,
         kH, plane_ms);
  json.num("luma_plane_8wide_ms", plane_ms);
  json.num("width", kW);
  json.num("height", kH);
  json.num("cores", cores);
  json.num("frames", opt.frames);
  int rc = 0;
  struct Cfg {
    const char *label, *backend;
    int threads;
    bool gpu;
    const char *m4;  // name in the M4 matrix, or null
  };
  const Cfg cfgs[] = {{"scalar", "scalar", 1, false, nullptr},
                      {"simd_1", "simd", 1, false, "cpu_1"},
                      {"simd_n", "simd", cores, false, "cpu_n"},
                      {"simd_n1", "simd", std::max(1, cores - 1), false, nullptr},
                      {"gpu", "gpu", 1, true, "gpu"},
                      {"hybrid_n1", "hybrid", std::max(1, cores - 1), true, "cpu_n1_gpu"},
                      {"hybrid_n", "hybrid", cores, true, "cpu_n_gpu"},
                      {"auto", "auto", cores, false, "auto"}};
  for (Grid &g : grids) {
    if (!opt.only.empty() && std::string(g.name).find(opt.only) == std::string::npos) continue;
    double cells_ms = 0;
    g.edges = count_edges(frame, g, &cells_ms);
    LfFrame want(kW, kH);
    for (int p = 0; p < 3; p++) want.copy_plane_from(frame, p);
    {
      V3dContext *s = v3d_context_new("scalar", 1);
      v3d_vp9_loop_filter_frame(s, want.data, want.stride, kW, kH, g.g.data(), g.stride, 0);
      v3d_context_free(s);
    }
    printf("%s grid, %llu edge segments per frame; the GPU path's cell words take %.3f ms "
           "per frame on one thread\n", g.name, static_cast<unsigned long long>(g.edges), cells_ms);
    json.begin_object(g.name);
    json.num("edges_per_frame", static_cast<double>(g.edges));
    json.num("gpu_cells_ms_1thread", cells_ms);
    if (!fif_only) {
      printf("  %-10s %-10s %9s %9s %9s %6s %5s\n", "config", "backend", "median", "p99",
             "Medge/s", "share", "exact");
      std::vector<std::pair<const Cfg *, Run>> runs;
      std::vector<BackendCfg> bcfg;
      for (const Cfg &c : cfgs) bcfg.push_back({!c.gpu || opt.gpu ? c.backend : nullptr, c.threads});
      const std::vector<Run> results = run_backends_interleaved(bcfg, frame, g, want, opt.frames);
      for (size_t ci = 0; ci < std::size(cfgs); ci++) {
        const Cfg &c = cfgs[ci];
        const Run &r = results[ci];
        if (r.ok && !r.exact) rc = 1;
        if (r.ok)
          printf("  %-10s %-10s %9.3f %9.3f %9.1f %6.2f %5s\n", c.label, r.backend.c_str(),
                 r.t.median * 1e3, r.t.p99 * 1e3, g.edges / r.t.median / 1e6, r.gpu_share,
                 r.exact ? "ok" : "DIFF");
        else
          printf("  %-10s %-10s %9s\n", c.label, "-", "unavailable");
        json.begin_object(c.label);
        json.str("backend", r.ok ? r.backend : "none");
        json.num("frame_ms_median", r.t.median * 1e3);
        json.num("frame_ms_p99", r.t.p99 * 1e3);
        json.num("medges_per_s", r.ok ? g.edges / r.t.median / 1e6 : 0);
        json.num("gpu_share", r.gpu_share);
        json.num("bit_exact", r.exact ? 1 : 0);
        json.end_object();
        runs.emplace_back(&c, r);
      }
      // The M4 matrix: the same runs under the transform section's names.
      printf("  M4 ms (median/p99): ");
      json.begin_object("m4");
      for (auto &cr : runs) {
        if (!cr.first->m4) continue;
        if (cr.second.ok)
          printf("%s %.2f/%.2f  ", cr.first->m4, cr.second.t.median * 1e3, cr.second.t.p99 * 1e3);
        else
          printf("%s -  ", cr.first->m4);
        json.begin_object(cr.first->m4);
        json.str("config", cr.first->label);
        json.num("frame_ms_median", cr.second.t.median * 1e3);
        json.num("frame_ms_p99", cr.second.t.p99 * 1e3);
        json.num("medges_per_s", cr.second.ok ? g.edges / cr.second.t.median / 1e6 : 0);
        json.end_object();
      }
      json.end_object();
      printf("\n");
    }
    if (!m4_frames_in_flight(opt, frame, g, want, cores, json)) rc = 1;
    if (opt.gpu && !fif_only && !gpu_batches(opt, frame, g, want, json)) rc = 1;
    json.end_object();
    fflush(stdout);
  }
  // The CPU wavefront's scaling (realistic grid).
  const Grid &g = grids[1];
  if (!fif_only && (opt.only.empty() || std::string(g.name).find(opt.only) != std::string::npos)) {
    LfFrame want(kW, kH);
    for (int p = 0; p < 3; p++) want.copy_plane_from(frame, p);
    V3dContext *s = v3d_context_new("scalar", 1);
    v3d_vp9_loop_filter_frame(s, want.data, want.stride, kW, kH, g.g.data(), g.stride, 0);
    v3d_context_free(s);
    printf("CPU wavefront scaling (realistic grid, SIMD): ");
    json.begin_array("wavefront_scaling");
    double t1 = 0;
    std::vector<BackendCfg> scfg;
    for (int t : {1, 2, 4, 8, 15})
      if (t <= online) scfg.push_back({"simd", t});
    const std::vector<Run> sruns = run_backends_interleaved(scfg, frame, g, want, opt.frames);
    for (size_t si = 0; si < scfg.size(); si++) {
      const int t = scfg[si].threads;
      const Run &r = sruns[si];
      if (!r.ok) break;
      if (!r.exact) rc = 1;
      if (t == 1) t1 = r.t.median;
      printf("%d: %.3f ms (x%.2f)  ", t, r.t.median * 1e3, t1 / r.t.median);
      json.begin_object();
      json.num("threads", t);
      json.num("frame_ms_median", r.t.median * 1e3);
      json.num("frame_ms_p99", r.t.p99 * 1e3);
      json.num("speedup", t1 / r.t.median);
      json.num("bit_exact", r.exact ? 1 : 0);
      json.end_object();
    }
    json.end_array();
    printf("\n");
  }
  json.end_object();
  return rc;
}

}  // namespace v3dbench
