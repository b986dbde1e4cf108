// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench, H.264 deblocking: the whole-picture process (v3d_h264_deblock_frame) on a 1920x1088
// picture whose content makes the filters fire, with two macroblock grids: "h264 intra" (every
// macroblock intra: bS 4 on macroblock edges, 3 inside, QP 30) and "h264 inter" (a realistic P
// picture: 10 % intra macroblocks, the others with bS 2 or 1 on macroblock edges and 2/1/0 inside,
// half with 8x8 transforms, QP 26..34, one slice). Per backend: picture time (median, p99) and
// whether the result is bit-exact with the scalar sequential process; then the CPU wavefront's
// scaling with 1, 2, 4, 8, 15 threads (those up to the core count). The GPU columns form the M4
// matrix with the CPU ones: CPU-1 (simd 1 thread), CPU-N (simd N), GPU (gpu: every plane on the
// GPU), CPU-(N-1)+GPU and CPU-N+GPU (hybrid with N-1 / N threads, chroma on the GPU: gpu share
// fixed at 1/3), hybrid adaptive (the split controller picks CPU, GPU or which planes go to the
// GPU from measured times), auto (the same with a core left to the GPU's host work); these are
// timed interleaved (run_db_interleaved). Then the M4 matrix with frames in flight: batches of 8
// pictures through v3d_h264_deblock_frames (--section h264-fif runs only this). --only
// intra|inter picks one grid.
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"

namespace v3dbench {
namespace {

constexpr int kW = 1920, kH = 1088;
using v3dtest::h264::Grid;
using v3dtest::h264::Picture;

struct DbResult {
  bool ok = false;
  Stats t;
  std::vector<uint8_t> out[3];
};

DbResult run_db(const char *backend, int threads, const Picture &src, Grid &g, int frames,
               double share = -1) {
  DbResult r;
  V3dContext *ctx = v3d_context_new(backend, threads);
  if (!ctx) return r;
  if (share >= 0) v3d_context_set_gpu_share(ctx, share);
  Picture pic(src);
  std::vector<double> times;
  for (int i = 0; i < frames + 1; i++) {
    for (int p = 0; p < 3; p++) pic.copy_plane_from(src, p);  // the same unfiltered picture each time
    auto t0 = Clock::now();
    const int rc = v3d_h264_deblock_frame(ctx, pic.data, pic.stride, kW, kH, g.mbs.data(),
                                          g.mb_stride, g.slices.data(),
                                          static_cast<int>(g.slices.size()));
    const double s = since(t0);
    if (rc) {
      fprintf(stderr, "h264 deblocking (%s): %s\n", backend, v3d_last_error());
      v3d_context_free(ctx);
      return r;
    }
    if (i) times.push_back(s);  // the first call warms the pool and caches
  }
  for (int p = 0; p < 3; p++) r.out[p] = pic.plane_bytes(p);
  r.t = stats_of(times);
  r.ok = true;
  v3d_context_free(ctx);
  return r;
}

// The M4 configurations timed together (time_interleaved), as the transform M4 is: what ran just
// before changes a picture's time on the device machine's shared hosts, and their speed drifts
// within a run. The first kProbes pictures of each are not timed (the pool's warm-up, the
// adaptive split's probes).
struct DbConfig {
  const char *backend;
  int threads;
  double share;
};
std::vector<DbResult> run_db_interleaved(const std::vector<DbConfig> &cfgs, const Picture &src,
                                         Grid &g, int frames) {
  const int kProbes = warmup_frames();
  struct Side {
    V3dContext *ctx = nullptr;
    std::unique_ptr<Picture> pic;
  };
  std::vector<Side> sides(cfgs.size());
  std::vector<DbResult> out(cfgs.size());
  std::vector<Interleaved> timed(cfgs.size());
  for (size_t i = 0; i < cfgs.size(); i++) {
    sides[i].ctx = v3d_context_new(cfgs[i].backend, cfgs[i].threads);
    if (!sides[i].ctx) continue;
    if (cfgs[i].share >= 0) v3d_context_set_gpu_share(sides[i].ctx, cfgs[i].share);
    sides[i].pic.reset(new Picture(src));
  }
  for (size_t i = 0; i < sides.size(); i++) timed[i].failed = !sides[i].ctx;
  time_interleaved(timed, frames + kProbes, kProbes, [&](size_t i) {
    Picture &pic = *sides[i].pic;
    for (int p = 0; p < 3; p++) pic.copy_plane_from(src, p);  // the same unfiltered picture
    auto t0 = Clock::now();
    const int rc = v3d_h264_deblock_frame(sides[i].ctx, pic.data, pic.stride, kW, kH,
                                          g.mbs.data(), g.mb_stride, g.slices.data(),
                                          static_cast<int>(g.slices.size()));
    const double s = since(t0);
    if (!rc) return s;
    fprintf(stderr, "h264 deblocking (%s): %s\n", cfgs[i].backend, v3d_last_error());
    return -1.0;
  });
  for (size_t i = 0; i < sides.size(); i++) {
    Side &sd = sides[i];
    if (!sd.ctx) continue;
    if (!timed[i].failed) {
      for (int p = 0; p < 3; p++) out[i].out[p] = sd.pic->plane_bytes(p);
      out[i].t = stats_of(timed[i].times);
      out[i].ok = true;
    }
    v3d_context_free(sd.ctx);
  }
  return out;
}

bool same(const DbResult &a, const DbResult &b) {
  return a.ok && b.ok && a.out[0] == b.out[0] && a.out[1] == b.out[1] && a.out[2] == b.out[2];
}

// M4 with frames in flight: batches of kBatch pictures through v3d_h264_deblock_frames, timed
// interleaved, the pictures reset to the unfiltered one before each batch (untimed). ms per
// picture (median, p99) and the percentages of fif_percentages. Returns false if a
// configuration's last batch differs from ref.
bool m4_frames_in_flight(const Options &opt, const Picture &src, Grid &g, const DbResult &ref,
                         int cores, Json &json) {
  constexpr int kBatch = 8;
  const std::vector<FifCfg> cfgs = fif_configs(cores);
  constexpr int kCfgs = kFifConfigs;
  struct Side {
    V3dContext *ctx = nullptr;
    std::vector<Picture> pics;
    std::vector<V3dH264Frame> frames;
  };
  Side sides[kCfgs];
  for (int c = 0; c < kCfgs; c++) {
    Side &sd = sides[c];
    if (!(sd.ctx = fif_context(opt, cfgs[c]))) continue;
    sd.pics.reserve(kBatch);
    for (int i = 0; i < kBatch; i++) sd.pics.emplace_back(src);
    for (Picture &pic : sd.pics) {
      V3dH264Frame f{};
      for (int p = 0; p < 3; p++) {
        f.planes[p] = pic.data[p];
        f.strides[p] = pic.stride[p];
      }
      f.width = kW;
      f.height = kH;
      f.mbs = g.mbs.data();
      f.mb_stride = g.mb_stride;
      f.slices = g.slices.data();
      f.n_slices = static_cast<int>(g.slices.size());
      sd.frames.push_back(f);
    }
  }
  const std::vector<Interleaved> timed = time_fif_batches(
      opt, cfgs, kBatch, "h264 batch", [&](size_t c) { return sides[c].ctx != nullptr; },
      [&](size_t c) {
        for (Picture &pic : sides[c].pics)
          for (int p = 0; p < 3; p++) pic.copy_plane_from(src, p);
      },
      [&](size_t c) {
        return v3d_h264_deblock_frames(sides[c].ctx, sides[c].frames.data(), sides[c].frames.size());
      });
  bool exact = true;
  std::vector<double> times[kCfgs];
  printf("%-12s | M4 frames in flight (batches of %d), ms per picture (median/p99):", "", kBatch);
  json.begin_object("m4_frames_in_flight");
  json.num("batch", kBatch);
  for (int c = 0; c < kCfgs; c++) {
    Side &sd = sides[c];
    if (!sd.ctx) continue;
    if (!timed[c].failed) {
      bool ok = true;
      for (const Picture &pic : sd.pics)
        ok = ok && pic.plane_bytes(0) == ref.out[0] && pic.plane_bytes(1) == ref.out[1] && pic.plane_bytes(2) == ref.out[2];
      exact = exact && ok;
      const Stats st = stats_of(timed[c].times);
      times[c] = timed[c].times;
      printf("  %s %.2f/%.2f%s", cfgs[c].label, st.median * 1e3, st.p99 * 1e3, ok ? "" : " DIFF");
      json.begin_object(cfgs[c].label);
      frame_time_fields(json, st, ok);
      json.end_object();
    }
    v3d_context_free(sd.ctx);
  }
  fif_percentages(times, json);
  printf("\n");
  json.end_object();
  return exact;
}

}  // namespace

int bench_h264_frame(const Options &opt, Json &json) {
  const int cores = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const bool fif_only = opt.section == "h264-fif";
  v3dtest::Rng rng(2026);
  Picture frame(kW, kH);
  frame.fill(rng);
  struct G {
    const char *name;
    Grid g;
  } grids[2] = {{"h264 intra", v3dtest::h264::make_uniform_grid(kW, kH, 30, 0, 0, 0, true, 0, false)},
                {"h264 inter", v3dtest::h264::make_inter_grid(rng, kW, kH)}};
  printf("\nH.264 deblocking, whole %dx%d picture, ms per picture (median / p99), %d timed "
         "pictures; exact = bit-exact with the scalar sequential process\n", kW, kH, opt.frames);
  const int n1 = std::max(1, cores - 1);
  printf("%-12s | %-18s %-18s %-18s %-18s %-18s %-18s %-18s %-18s %-18s\n", "grid", "scalar",
         "CPU-1", ("CPU-" + std::to_string(cores)).c_str(), ("CPU-" + std::to_string(n1)).c_str(),
         "auto", "GPU", ("CPU-" + std::to_string(n1) + "+GPU").c_str(),
         ("CPU-" + std::to_string(cores) + "+GPU").c_str(), "hybrid adaptive");
  json.begin_object("h264_deblock");
  json.num("width", kW);
  json.num("height", kH);
  int rc = 0;
  const int scale_threads[] = {1, 2, 4, 8, 15};
  for (G &g : grids) {
    if (!opt.only.empty() && std::string(g.name).find(opt.only) == std::string::npos) continue;
    DbResult ref = run_db("scalar", 1, frame, g.g, std::max(1, opt.frames / 4));
    struct Cfg {
      const char *label, *backend;
      int threads;
      double share;
    } cfgs[] = {{"scalar", "scalar", 1, -1},      {"simd_1", "simd", 1, -1},
                {"simd_n", "simd", cores, -1},    {"simd_n1", "simd", n1, -1},
                {"auto", "auto", cores, -1},        {"gpu", "gpu", cores, -1},
                {"hybrid_n1", "hybrid", n1, 1.0 / 3}, {"hybrid_n", "hybrid", cores, 1.0 / 3},
                {"hybrid_adaptive", "hybrid", cores, -1}};
    json.begin_object(g.name + 5);  // "intra" / "inter"
    if (!fif_only) {
      printf("%-12s |", g.name);
      // Every configuration but the scalar reference, interleaved.
      std::vector<DbConfig> timed;
      for (const Cfg &c : cfgs)
        if (strcmp(c.label, "scalar") != 0) timed.push_back(DbConfig{c.backend, c.threads, c.share});
      std::vector<DbResult> runs = run_db_interleaved(timed, frame, g.g, opt.frames);
      size_t next = 0;
      for (const Cfg &c : cfgs) {
        const bool is_ref = strcmp(c.label, "scalar") == 0;
        const DbResult &r = is_ref ? ref : runs[next++];
        const bool exact = same(r, ref);
        if (r.ok && !exact) rc = 1;
        frame_time_cell(json, c.label, r.ok, r.t, exact);
      }
      printf("\n");
    } else {
      printf("%-12s |\n", g.name);
    }
    if (!m4_frames_in_flight(opt, frame, g.g, ref, cores, json)) rc = 1;
    if (!fif_only) {
      // The CPU wavefront's scaling (simd backend).
      printf("%-12s | wavefront scaling, simd:", "");
      json.begin_object("simd_scaling");
      double t1 = 0;
      for (int n : scale_threads) {
        if (n > cores) break;
        DbResult r = run_db("simd", n, frame, g.g, opt.frames);
        if (!r.ok) continue;
        const bool exact = same(r, ref);
        if (!exact) rc = 1;
        if (n == 1) t1 = r.t.median;
        printf("  %d: %.2f/%.2f ms (x%.2f)%s", n, r.t.median * 1e3, r.t.p99 * 1e3,
               t1 > 0 ? t1 / r.t.median : 0.0, exact ? "" : " DIFF");
        json.begin_object("threads_" + std::to_string(n));
        frame_time_fields(json, r.t, exact);
        json.num("speedup", t1 > 0 ? t1 / r.t.median : 0);
        json.end_object();
      }
      json.end_object();
      printf("\n");
    }
    json.end_object();
  }
  json.end_object();
  return rc;
}

}  // namespace v3dbench
