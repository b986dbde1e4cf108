// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench, VP9 inverse transforms: for each transform size/type, a 1920x1088 frame's worth of
// blocks (all three planes) with realistic coefficients.
//   M1  bit-exact % of blocks against the scalar reference, per backend
//   M2  GPU throughput (Mblock/s)
//   M5  per-submission overhead (a frame of one 4x4 block on the GPU)
//   M3  CPU throughput with 1 thread, scalar and SIMD (ns/block), realistic and full blocks
//   M4  the concurrent matrix: CPU-1, CPU-N, GPU only, CPU-(N-1)+GPU, CPU-N+GPU, auto
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "bench_vp9_itx.h"
#include "threads/thread_pool.h"
#include "v3d/v3d.h"

namespace v3dbench {
namespace {

using namespace itx;  // the workloads and frames of bench_vp9_itx.h

// One configuration's frame times (run_contexts_interleaved).
struct RunResult {
  bool ok = false;
  Stats t;
  double gpu_share = 0;
  std::string backend;
};

// The M4 configurations timed together: one frame through each context in turn (in a shuffled
// order per round, visit_order), so that a change of the host's speed during the run (the device
// machine's shared hosts drift by 10-20 % from one configuration to the next) affects every
// configuration alike. Skipped entries (backend NULL) stay !ok.
struct M4Config {
  const char *backend;  // NULL: skipped
  int threads;
  int spin_us = -1;  // the context's pool spin (V3D_POOL_SPIN_US at its creation); -1: as it is
};
std::vector<RunResult> run_contexts_interleaved(const std::vector<M4Config> &cfgs,
                                                const Workload &w, int frames) {
  struct Side {
    V3dContext *ctx = nullptr;
    std::unique_ptr<Frame> frame;
    std::unique_ptr<SharedCoeffs> coeffs;
  };
  // --fresh-frames: the pixels every frame starts from (plain memory).
  std::unique_ptr<Frame> pristine;
  if (fresh_frames()) pristine.reset(new Frame(nullptr, kWidth, kHeight));
  std::vector<Side> sides(cfgs.size());
  std::vector<RunResult> out(cfgs.size());
  std::vector<Interleaved> timed(cfgs.size());
  for (size_t i = 0; i < cfgs.size(); i++) {
    if (!cfgs[i].backend) continue;
    V3dContextOptions o{};
    o.backend = cfgs[i].backend;
    o.cpu_threads = cfgs[i].threads;
    o.gpu_share = strcmp(cfgs[i].backend, "hybrid") == 0 ? fixed_gpu_share() : -1;
    {
      SpinEnv spin(cfgs[i].spin_us);
      sides[i].ctx = v3d_context_new_with_options(&o);
    }
    if (!sides[i].ctx) continue;
    out[i].backend = v3d_context_backend(sides[i].ctx);
    sides[i].frame.reset(new Frame(sides[i].ctx, kWidth, kHeight));
    sides[i].coeffs.reset(new SharedCoeffs(sides[i].ctx, w.coeffs));
  }
  for (size_t i = 0; i < sides.size(); i++) timed[i].failed = !sides[i].ctx;
  // The first frames are not timed: the adaptive split's probes (warmup_frames()).
  time_interleaved(timed, frames + warmup_frames(), warmup_frames(), [&](size_t i) {
    Side &sd = sides[i];
    if (pristine) {  // untimed: the frame's prediction and coefficients, just written
      sd.frame->copy_from(*pristine);
      memcpy(sd.coeffs->data, w.coeffs.data(), w.coeffs.size() * sizeof(int16_t));
    }
    auto t0 = Clock::now();
    int rc = v3d_vp9_itxfm_add_frame(sd.ctx, sd.frame->planes, sd.frame->strides, kWidth,
                                     kHeight, w.blocks.data(), w.blocks.size(), sd.coeffs->data,
                                     w.coeffs.size());
    const double s = since(t0);
    if (!rc) return s;
    fprintf(stderr, "%s: %s\n", v3d_context_backend(sd.ctx), v3d_last_error());
    return -1.0;
  });
  for (size_t i = 0; i < sides.size(); i++) {
    Side &sd = sides[i];
    if (!sd.ctx) continue;
    if (!timed[i].failed) {
      V3dStats st;
      v3d_context_get_stats(sd.ctx, &st);
      out[i].gpu_share = st.gpu_share;
      out[i].t = stats_of(timed[i].times);
      out[i].ok = true;
    }
    sd.frame.reset();
    sd.coeffs.reset();
    v3d_context_free(sd.ctx);
  }
  return out;
}

}  // namespace

// The pool section's per-frame A/B: the M4's per-frame configurations with their pools spinning
// (the default) and sleeping at once (spin 0), timed interleaved, on 16x16, 4x4 and mixed frames.
void bench_vp9_itx_pool_ab(const Options &opt, Json &json) {
  const int cores = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  struct Cfg {
    const char *label, *backend;
    int threads;
  };
  const Cfg cfgs[] = {{"cpu_n", "simd", cores},
                      {"gpu", "gpu", 1},
                      {"cpu_n1_gpu", "hybrid", std::max(1, cores - 1)},
                      {"auto", "auto", cores}};
  printf("\nVP9 transforms one frame per call, pools spinning (%d us) against sleeping at once, "
         "ms per frame median (p99); %d frames\n", v3d::ThreadPool::kDefaultSpinUs, opt.frames);
  printf("%-16s", "workload");
  for (const Cfg &c : cfgs) printf(" %14s/spin %14s/sleep", c.label, c.label);
  printf("\n");
  json.begin_array("pool_ab");
  for (int spec = 0; spec < 3; spec++) {
    const int size = spec == 0 ? 2 : spec == 1 ? 0 : -1;
    Workload w = make_workload(size, size < 0 ? -1 : 0, false, 4321 + spec);
    if (!opt.only.empty() && w.name.find(opt.only) == std::string::npos) continue;
    std::vector<M4Config> m4;
    for (const Cfg &c : cfgs)
      for (int spin : {-1, 0}) {
        const bool needs_gpu = strcmp(c.backend, "simd") != 0;
        m4.push_back({(!needs_gpu || opt.gpu) && config_wanted(opt, c.label) ? c.backend : nullptr,
                      c.threads, spin});
      }
    const std::vector<RunResult> r = run_contexts_interleaved(m4, w, opt.frames);
    json.begin_object();
    json.str("name", w.name);
    printf("%-16s", w.name.c_str());
    for (size_t k = 0; k < m4.size(); k++) {
      const Cfg &c = cfgs[k / 2];
      if (r[k].ok) printf(" %9.3f (%6.3f)", r[k].t.median * 1e3, r[k].t.p99 * 1e3);
      else printf(" %18s", "-");
      json.begin_object(std::string(c.label) + (k % 2 ? "_sleep" : "_spin"));
      json.num("ok", r[k].ok ? 1 : 0);
      json.num("frame_ms_median", r[k].t.median * 1e3);
      json.num("frame_ms_p99", r[k].t.p99 * 1e3);
      json.end_object();
    }
    printf("\n");
    fflush(stdout);
    json.end_object();
  }
  json.end_array();
}

namespace {

// Fraction of blocks whose pixels match the scalar reference exactly, through a context.
double bit_exact_percent(const char *backend, const Workload &w) {
  V3dContext *ctx = v3d_context_new(backend, 0);
  if (!ctx) return -1;
  Frame got(ctx, kWidth, kHeight), want(nullptr, kWidth, kHeight);
  want.copy_from(got);
  int rc = v3d_vp9_itxfm_add_frame(ctx, got.planes, got.strides, kWidth, kHeight, w.blocks.data(),
                                   w.blocks.size(), w.coeffs.data(), w.coeffs.size());
  v3d_context_free(ctx);
  if (rc) return -1;
  size_t same = 0;
  for (const auto &b : w.blocks) {
    int n = 4 << b.tx_size;
    uint8_t *d = want.planes[b.plane] + b.y * want.strides[b.plane] + b.x;
    v3d_vp9_itxfm_add_ref(d, want.strides[b.plane], &w.coeffs[b.coeff_offset], b.tx_size,
                          b.tx_type, static_cast<int>(b.eob));
    bool eq = true;
    for (int r = 0; r < n && eq; r++)
      eq = memcmp(d + r * want.strides[b.plane],
                  got.planes[b.plane] + (b.y + r) * got.strides[b.plane] + b.x, n) == 0;
    same += eq;
  }
  return 100.0 * same / w.blocks.size();
}

// Single-thread ns/block calling the kernel directly over the frame's blocks.
double cpu1_ns_per_block(const Workload &w, bool ref, int frames) {
  Frame f(nullptr, kWidth, kHeight);
  std::vector<double> times;
  for (int i = 0; i < frames + 1; i++) {
    auto t0 = Clock::now();
    for (const auto &b : w.blocks) {
      uint8_t *d = f.planes[b.plane] + b.y * f.strides[b.plane] + b.x;
      if (ref)
        v3d_vp9_itxfm_add_ref(d, f.strides[b.plane], &w.coeffs[b.coeff_offset], b.tx_size,
                              b.tx_type, static_cast<int>(b.eob));
      else
        v3d_vp9_itxfm_add(d, f.strides[b.plane], &w.coeffs[b.coeff_offset], b.tx_size,
                          b.tx_type, static_cast<int>(b.eob));
    }
    if (i) times.push_back(since(t0));
  }
  return stats_of(times).median * 1e9 / w.blocks.size();
}

// A whole 1920x1088 luma plane of 8x8 DCT_DCT blocks, one thread (the figure libvpx and FFmpeg
// are compared by).
double luma_plane_ms(int frames) {
  Workload w = make_workload(1, 0, false, 42);
  std::vector<V3dVp9TxBlock> luma;
  for (auto &b : w.blocks)
    if (b.plane == 0) luma.push_back(b);
  Frame f(nullptr, kWidth, kHeight);
  std::vector<double> times;
  for (int i = 0; i < frames + 1; i++) {
    auto t0 = Clock::now();
    for (const auto &b : luma)
      v3d_vp9_itxfm_add(f.planes[0] + b.y * f.strides[0] + b.x, f.strides[0],
                        &w.coeffs[b.coeff_offset], 1, 0, static_cast<int>(b.eob));
    if (i) times.push_back(since(t0));
  }
  return stats_of(times).median * 1e3;
}

double gpu_submission_overhead_us(int frames) {
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (!ctx) return -1;
  Frame f(ctx, 8, 8);
  int16_t c[16] = {64};
  V3dVp9TxBlock b{};
  b.eob = 1;
  std::vector<double> times;
  for (int i = 0; i < frames * 5 + 2; i++) {
    auto t0 = Clock::now();
    v3d_vp9_itxfm_add_frame(ctx, f.planes, f.strides, 8, 8, &b, 1, c, 16);
    if (i >= 2) times.push_back(since(t0));
  }
  v3d_context_free(ctx);
  return stats_of(times).median * 1e6;
}

// GPU throughput with batches of frames in flight (v3d_vp9_itxfm_add_frames), and the bytes the
// GPU must move per frame: each block's pixels read and written once, its coefficients read once.
void gpu_batches(const Options &opt, const Workload &w, Json &json) {
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (!ctx) return;
  double bytes = 0;
  for (const auto &b : w.blocks) {
    double n = 4 << b.tx_size;
    bytes += n * n * (2 + 2);  // 1 byte read + 1 written per pixel, 2 bytes per coefficient
  }
  printf("GPU batches, %s (%.1f MB moved per frame):", w.name.c_str(), bytes / 1e6);
  SharedCoeffs coeffs(ctx, w.coeffs);
  json.begin_object("gpu_batches");
  json.num("bytes_per_frame", bytes);
  for (int batch : {1, 4, 16}) {
    FrameBatch fb(ctx, w, coeffs, batch);
    std::vector<V3dVp9ItxFrame> &frames = fb.frames;
    v3d_vp9_itxfm_add_frames(ctx, frames.data(), frames.size());  // warm-up
    int reps = std::max(2, opt.frames * 2 / batch);
    std::vector<double> t;
    for (int r = 0; r < reps; r++) {
      auto t0 = Clock::now();
      v3d_vp9_itxfm_add_frames(ctx, frames.data(), frames.size());
      t.push_back(since(t0) / batch);
    }
    Stats st = stats_of(t);
    double mbs = w.blocks.size() / st.median / 1e6, gbs = bytes / st.median / 1e9;
    printf("  batch %2d: %.3f ms/frame, %.1f Mblock/s, %.1f GB/s", batch, st.median * 1e3, mbs, gbs);
    if (opt.bandwidth_gbs > 0) printf(" (%.1f%% of %.0f GB/s)", 100 * gbs / opt.bandwidth_gbs, opt.bandwidth_gbs);
    printf(";");
    json.begin_object("batch_" + std::to_string(batch));
    json.num("frame_ms_median", st.median * 1e3);
    json.num("frame_ms_p99", st.p99 * 1e3);
    json.num("mblocks_per_s", mbs);
    json.num("gb_per_s", gbs);
    json.end_object();
  }
  printf("\n");
  json.end_object();
  v3d_context_free(ctx);
}

// M4 with frames in flight: batches of kBatch frames through v3d_vp9_itxfm_add_frames, so that
// hybrid puts whole frames on each side at once. Mblock/s per configuration, and hybrid against
// the sum of its two sides measured alone (CPU with the same threads, GPU only).
void m4_frames_in_flight(const Options &opt, const Workload &w, int cores, Json &json) {
  constexpr int kBatch = 8;
  const std::vector<FifCfg> cfgs = fif_configs(cores);
  constexpr int kCfgs = kFifConfigs;
  double mbs[kCfgs] = {-1, -1, -1, -1, -1, -1};
  printf("M4 frames in flight (%s, batches of %d frames), Mblock/s:", w.name.c_str(), kBatch);
  json.begin_object("m4_frames_in_flight");
  json.num("batch", kBatch);
  // The configurations are timed interleaved (one batch through each in turn, in a shuffled order
  // per round), as the per-frame M4 is: the device machine's hosts drift by 10-20 % within a
  // run, which made columns timed one after another incomparable (e.g. CPU-15 23 % slower than
  // CPU-16 in one run).
  struct Side {
    V3dContext *ctx = nullptr;
    std::unique_ptr<SharedCoeffs> coeffs;
    std::unique_ptr<FrameBatch> fb;
  };
  Side sides[kCfgs];
  for (int c = 0; c < kCfgs; c++) {
    Side &sd = sides[c];
    if (!(sd.ctx = fif_context(opt, cfgs[c]))) continue;
    sd.coeffs.reset(new SharedCoeffs(sd.ctx, w.coeffs));
    sd.fb.reset(new FrameBatch(sd.ctx, w, *sd.coeffs, kBatch));
    v3d_vp9_itxfm_add_frames(sd.ctx, sd.fb->frames.data(), sd.fb->frames.size());  // warm-up
  }
  // Enough batches for adaptive hybrid's first measurements (CPU, GPU, both) and its later
  // retries to stay out of the median.
  std::vector<Interleaved> timed(kCfgs);
  for (int c = 0; c < kCfgs; c++) timed[c].failed = !sides[c].ctx;
  time_interleaved(timed, std::max(16, opt.frames / 2), 0, [&](size_t i) {
    Side &sd = sides[i];
    auto t0 = Clock::now();
    v3d_vp9_itxfm_add_frames(sd.ctx, sd.fb->frames.data(), sd.fb->frames.size());
    return since(t0) / kBatch;
  });
  for (int c = 0; c < kCfgs; c++) {
    Side &sd = sides[c];
    if (!sd.ctx) continue;
    Stats st = stats_of(timed[c].times);
    V3dStats vs;
    v3d_context_get_stats(sd.ctx, &vs);
    sd.fb.reset();
    sd.coeffs.reset();
    v3d_context_free(sd.ctx);
    mbs[c] = w.blocks.size() / st.median / 1e6;
    printf("  %s %.1f", cfgs[c].label, mbs[c]);
    json.begin_object(cfgs[c].label);
    json.num("mblocks_per_s", mbs[c]);
    json.num("frame_ms_median", st.median * 1e3);
    json.num("frame_ms_p99", st.p99 * 1e3);
    json.num("gpu_fraction_of_blocks",
             vs.blocks_cpu + vs.blocks_gpu ? double(vs.blocks_gpu) / (vs.blocks_cpu + vs.blocks_gpu) : 0);
    json.end_object();
  }
  std::vector<double> times[kCfgs];
  for (int c = 0; c < kCfgs; c++)
    if (mbs[c] > 0) times[c] = timed[c].times;
  fif_percentages(times, json);
  printf("\n");
  json.end_object();
}

// The ceiling of any division of work on this machine: the CPU workers (N and N-1 threads) and
// the GPU alone, each on its own frames in a loop for a fixed window, then together, each side
// still on its own frames and contexts — no split, no synchronisation between the sides. What the
// two sides lose against their standalone throughputs when they run at once (memory, caches, the
// host-side work of GPU jobs, the cores the GPU's driving thread takes) bounds what a hybrid
// frame can reach: hybrid / sum can be no better than together / sum here. Per phase the window
// is run `rounds` times in a shuffled order (visit_order); the medians are reported.
void concurrent_ceiling(const Options &opt, const Workload &w, int cores, Json &json) {
  // The GPU side twice: frame by frame, and in batches of kBatch frames in flight (its host work
  // overlapping the device's: more GPU traffic per second).
  constexpr int kBatch = 4;
  // CPU-N, CPU-(N-1), the GPU frame by frame, the GPU in batches.
  struct Side {
    const char *backend = "";
    int threads = 0, batch = 0;
    V3dContext *ctx = nullptr;
    std::unique_ptr<Frame> frame;
    std::unique_ptr<SharedCoeffs> coeffs;
    std::unique_ptr<FrameBatch> fb;
    void release() {  // its shared memory before its context
      fb.reset();
      frame.reset();
      coeffs.reset();
      if (ctx) v3d_context_free(ctx);
      ctx = nullptr;
    }
  };
  Side sides[4];
  const char *backends[4] = {"simd", "simd", "gpu", "gpu"};
  const int threads[4] = {cores, std::max(1, cores - 1), 1, 1};
  for (int i = 0; i < 4; i++) {
    sides[i].backend = backends[i];
    sides[i].threads = threads[i];
    sides[i].batch = i == 3 ? kBatch : 0;
  }
  for (Side &sd : sides) {
    sd.ctx = v3d_context_new(sd.backend, sd.threads);
    if (!sd.ctx || (strcmp(sd.backend, "gpu") == 0 && strcmp(v3d_context_backend(sd.ctx), "gpu"))) {
      printf("ceiling (%s): no %s context, skipped\n", w.name.c_str(), sd.backend);
      for (Side &s2 : sides) s2.release();
      return;
    }
    sd.frame.reset(new Frame(sd.ctx, kWidth, kHeight));
    sd.coeffs.reset(new SharedCoeffs(sd.ctx, w.coeffs));
    if (sd.batch) sd.fb.reset(new FrameBatch(sd.ctx, w, *sd.coeffs, sd.batch));
  }
  // Runs the sides in `which` at once, each on a thread of its own, for `window` seconds; the
  // Mblock/s of each (frames done over the time to the end of its last frame).
  auto window = [&](const std::vector<int> &which, double seconds, std::vector<double> *mbs) {
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    mbs->assign(which.size(), 0);
    for (size_t k = 0; k < which.size(); k++)
      threads.emplace_back([&, k]() {
        Side &sd = sides[which[k]];
        while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
        const auto t0 = Clock::now();
        size_t frames = 0;
        double elapsed = 0;
        while ((elapsed = since(t0)) < seconds) {
          if (sd.fb) {
            if (v3d_vp9_itxfm_add_frames(sd.ctx, sd.fb->frames.data(), sd.fb->frames.size()))
              break;
            frames += sd.fb->frames.size();
            continue;
          }
          if (v3d_vp9_itxfm_add_frame(sd.ctx, sd.frame->planes, sd.frame->strides, kWidth, kHeight,
                                      w.blocks.data(), w.blocks.size(), sd.coeffs->data,
                                      w.coeffs.size()))
            break;
          frames++;
        }
        (*mbs)[k] = frames ? frames * w.blocks.size() / since(t0) / 1e6 : 0;
      });
    go.store(true, std::memory_order_release);
    for (auto &t : threads) t.join();
  };
  // Phases: each side alone, then CPU-N + GPU and CPU-(N-1) + GPU together, and CPU-(N-1) beside
  // the GPU's batches.
  const std::vector<std::vector<int>> phases = {{0}, {1}, {2}, {0, 2}, {1, 2}, {3}, {1, 3}};
  std::vector<std::vector<std::vector<double>>> got(phases.size());
  const double seconds = opt.quick ? 0.05 : 0.25;
  const int rounds = opt.quick ? 2 : 7;
  std::vector<double> warm;
  for (size_t p = 0; p < phases.size(); p++) window(phases[p], 0.02, &warm);
  for (int r = 0; r < rounds; r++)
    for (size_t p : visit_order(phases.size(), r)) {
      std::vector<double> m;
      window(phases[p], seconds, &m);
      got[p].push_back(m);
    }
  auto median = [&](size_t p, size_t k) {
    std::vector<double> v;
    for (const auto &m : got[p]) v.push_back(m[k]);
    return stats_of(v).median;
  };
  const double cpu_n = median(0, 0), cpu_n1 = median(1, 0), gpu = median(2, 0);
  const double tog_n_cpu = median(3, 0), tog_n_gpu = median(3, 1);
  const double tog_n1_cpu = median(4, 0), tog_n1_gpu = median(4, 1);
  const double gpu_b = median(5, 0), tog_b_cpu = median(6, 0), tog_b_gpu = median(6, 1);
  printf("ceiling %-18s alone: CPU-N %.1f, CPU-(N-1) %.1f, GPU %.1f | together: CPU-N %.1f + GPU "
         "%.1f = %.0f%% of the sum | CPU-(N-1) %.1f + GPU %.1f = %.0f%% of CPU-N + GPU\n",
         w.name.c_str(), cpu_n, cpu_n1, gpu, tog_n_cpu, tog_n_gpu,
         100 * (tog_n_cpu + tog_n_gpu) / (cpu_n + gpu), tog_n1_cpu, tog_n1_gpu,
         100 * (tog_n1_cpu + tog_n1_gpu) / (cpu_n + gpu));
  printf("ceiling %-18s GPU in batches of %d alone %.1f | CPU-(N-1) %.1f + GPU batches %.1f = %.0f%% "
         "of CPU-N + GPU batches\n", w.name.c_str(), kBatch, gpu_b, tog_b_cpu, tog_b_gpu,
         100 * (tog_b_cpu + tog_b_gpu) / (cpu_n + gpu_b));
  fflush(stdout);
  json.begin_object();
  json.str("name", w.name);
  json.num("window_s", seconds);
  json.num("rounds", rounds);
  json.num("cpu_n_alone", cpu_n);
  json.num("cpu_n1_alone", cpu_n1);
  json.num("gpu_alone", gpu);
  json.num("cpu_n_together", tog_n_cpu);
  json.num("gpu_with_cpu_n", tog_n_gpu);
  json.num("cpu_n1_together", tog_n1_cpu);
  json.num("gpu_with_cpu_n1", tog_n1_gpu);
  json.num("together_n_percent_of_sum", 100 * (tog_n_cpu + tog_n_gpu) / (cpu_n + gpu));
  json.num("together_n1_percent_of_sum", 100 * (tog_n1_cpu + tog_n1_gpu) / (cpu_n + gpu));
  json.num("gpu_batches_alone", gpu_b);
  json.num("cpu_n1_with_gpu_batches", tog_b_cpu);
  json.num("gpu_batches_with_cpu_n1", tog_b_gpu);
  json.num("together_batches_percent_of_sum", 100 * (tog_b_cpu + tog_b_gpu) / (cpu_n + gpu_b));
  json.end_object();
  for (Side &sd : sides) sd.release();
}

}  // namespace

void print_machine(Json &json, const Options &opt) {
  const char *targets[16];
  int n = v3d_cpu_targets(targets, 16);
  std::string t;
  for (int i = 0; i < n && i < 16; i++) t += std::string(i ? "," : "") + targets[i];
  V3dContext *g = opt.gpu ? v3d_context_new("gpu", 1) : nullptr;
  std::string gpu = g && v3d_context_gpu_name(g) ? v3d_context_gpu_name(g) : "none";
  // Where the frames of GPU contexts lie (v3d_shared_alloc: the GPU's memory, or plain memory
  // where the CPU does not cache the GPU's, V3D_SHARED_MEMORY).
  const char *frames = v3d_context_shares_gpu_memory(g) ? "the GPU's memory" : "plain memory";
  if (g) v3d_context_free(g);
  printf("v3d-bench: SIMD target %s (available: %s), GPU: %s, frames in %s\n", v3d_cpu_target(),
         t.c_str(), gpu.c_str(), frames);
  json.str("simd_target", v3d_cpu_target());
  json.str("simd_available", t);
  json.str("gpu", gpu);
  json.str("frames_in", frames);
}

void bench_vp9_itx_fif(const Options &opt, Json &json) {
  const int cores = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  for (int size : {-1, 1}) {
    Workload w = make_workload(size, size < 0 ? -1 : 0, false, 77);
    if (!opt.only.empty() && w.name.find(opt.only) == std::string::npos) continue;
    json.begin_object(w.name == "mixed" ? "fif_mixed" : "fif_8x8");
    m4_frames_in_flight(opt, w, cores, json);
    json.end_object();
  }
}

void bench_vp9_itx_ceiling(const Options &opt, Json &json) {
  if (!opt.gpu) {  // nothing to run beside the CPU
    printf("\nCeiling, VP9 transforms: skipped (--no-gpu)\n");
    return;
  }
  const int cores = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  printf("\nCeiling, VP9 transforms: each side on its own frames, alone and both at once (Mblock/s, "
         "medians of windows)\n");
  json.begin_array("ceiling");
  for (int size : {0, 2, -1}) {
    Workload w = make_workload(size, size < 0 ? -1 : 0, false, 1234 + size * 10 + (size < 0 ? -1 : 0));
    if (!opt.only.empty() && w.name.find(opt.only) == std::string::npos) continue;
    concurrent_ceiling(opt, w, cores, json);
  }
  json.end_array();
}

int bench_vp9_itx(const Options &opt, Json &json) {
  int cores = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  int frames = opt.frames;
  struct Spec {
    int size, type;
    bool full;
  };
  std::vector<Spec> specs;
  for (int s = 0; s < 4; s++)
    for (int t = 0; t < (s == 0 ? 5 : s == 3 ? 1 : 4); t++) specs.push_back({s, t, false});
  specs.push_back({1, 0, true});
  specs.push_back({3, 0, true});
  specs.push_back({-1, -1, false});
  json.begin_object("vp9_itx");
  json.num("width", kWidth);
  json.num("height", kHeight);
  json.num("cores", cores);
  json.num("frames", frames);
  double plane_ms = luma_plane_ms(frames);
  printf("\nVP9 inverse transforms, %dx%d, all three planes; %d timed frames; N = %d cores\n",
         kWidth, kHeight, frames, cores);
  printf("1920x1088 luma plane of 8x8 DCT_DCT, 1 thread SIMD: %.3f ms\n", plane_ms);
  json.num("luma_plane_8x8_ms", plane_ms);
  double overhead = opt.gpu ? gpu_submission_overhead_us(frames) : -1;
  if (overhead >= 0) printf("M5 GPU per-submission overhead (one 4x4 block frame): %.1f us\n", overhead);
  json.num("m5_gpu_submission_us", overhead);

  printf("\n%-22s %7s | %8s %8s %8s | %8s %8s %8s | %8s | %-44s\n", "workload", "blocks",
         "M1 simd", "M1 gpu", "M1 hyb", "M3 ref", "M3 simd", "x", "M2 GPU",
         "M4 Mblock/s: CPU-1 CPU-N GPU CPU-(N-1)+GPU CPU-N+GPU auto");
  printf("%-22s %7s | %8s %8s %8s | %8s %8s %8s | %8s |\n", "", "", "%", "%", "%", "ns/blk",
         "ns/blk", "speedup", "Mblk/s");
  json.begin_array("workloads");
  int rc = 0;
  for (const Spec &sp : specs) {
    Workload w = make_workload(sp.size, sp.type, sp.full, 1234 + sp.size * 10 + sp.type);
    if (!opt.only.empty() && w.name.find(opt.only) == std::string::npos) continue;
    json.begin_object();
    json.str("name", w.name);
    json.num("blocks", static_cast<double>(w.blocks.size()));
    double m1_simd = bit_exact_percent("simd", w);
    double m1_gpu = opt.gpu ? bit_exact_percent("gpu", w) : -1;
    double m1_hyb = opt.gpu ? bit_exact_percent("hybrid", w) : -1;
    if ((m1_simd >= 0 && m1_simd < 100) || (m1_gpu >= 0 && m1_gpu < 100) ||
        (m1_hyb >= 0 && m1_hyb < 100))
      rc = 1;
    double ref_ns = cpu1_ns_per_block(w, true, std::max(1, frames / 4));
    double simd_ns = cpu1_ns_per_block(w, false, frames);
    json.num("m1_simd_percent", m1_simd);
    json.num("m1_gpu_percent", m1_gpu);
    json.num("m1_hybrid_percent", m1_hyb);
    json.num("m3_scalar_ns_per_block", ref_ns);
    json.num("m3_simd_ns_per_block", simd_ns);
    struct Cfg {
      const char *label, *backend;
      int threads;
    };
    const Cfg cfgs[] = {{"cpu_1", "simd", 1},
                        {"cpu_n", "simd", cores},
                        {"gpu", "gpu", 1},
                        {"cpu_n1_gpu", "hybrid", std::max(1, cores - 1)},
                        {"cpu_n_gpu", "hybrid", cores},
                        {"auto", "auto", cores}};
    std::string m4;
    double m2 = -1;
    json.begin_object("m4");
    std::vector<M4Config> m4cfg;
    for (const Cfg &c : cfgs) {
      const bool needs_gpu = strcmp(c.backend, "simd") != 0;
      m4cfg.push_back({(!needs_gpu || opt.gpu) && config_wanted(opt, c.label) ? c.backend : nullptr,
                       c.threads});
    }
    const std::vector<RunResult> results = run_contexts_interleaved(m4cfg, w, frames);
    for (size_t ci = 0; ci < std::size(cfgs); ci++) {
      const Cfg &c = cfgs[ci];
      const RunResult &r = results[ci];
      char cell[32];
      if (!r.ok) {
        snprintf(cell, sizeof cell, " %5s", "-");
      } else {
        double mbs = w.blocks.size() / r.t.median / 1e6;
        snprintf(cell, sizeof cell, " %5.1f", mbs);
        if (strcmp(c.label, "gpu") == 0) m2 = mbs;
        json.begin_object(c.label);
        json.str("backend", r.backend);
        json.num("mblocks_per_s", mbs);
        json.num("frame_ms_median", r.t.median * 1e3);
        json.num("frame_ms_p99", r.t.p99 * 1e3);
        json.num("gpu_share", r.gpu_share);
        json.end_object();
      }
      m4 += cell;
    }
    json.end_object();
    json.num("m2_gpu_mblocks_per_s", m2);
    auto pct = [](double v) {
      char b[16];
      if (v < 0) snprintf(b, sizeof b, "-");
      else snprintf(b, sizeof b, "%.2f", v);
      return std::string(b);
    };
    printf("%-22s %7zu | %8s %8s %8s | %8.1f %8.1f %8.1f | %8.1f |%s\n", w.name.c_str(),
           w.blocks.size(), pct(m1_simd).c_str(), pct(m1_gpu).c_str(), pct(m1_hyb).c_str(),
           ref_ns, simd_ns, ref_ns / simd_ns, m2, m4.c_str());
    fflush(stdout);
    json.end_object();
  }
  json.end_array();
  if (opt.configs.empty() &&
      (opt.only.empty() || std::string("mixed").find(opt.only) != std::string::npos)) {
    printf("\n");
    Options all = opt;
    all.only.clear();
    bench_vp9_itx_fif(all, json);
  }
  if (opt.gpu && opt.configs.empty()) {
    printf("\n");
    for (auto sp : {Spec{1, 0, false}, Spec{-1, -1, false}}) {
      Workload w = make_workload(sp.size, sp.type, sp.full, 99);
      json.begin_object(w.name == "mixed" ? "batches_mixed" : "batches_8x8");
      gpu_batches(opt, w, json);
      json.end_object();
    }
  }
  if (opt.configs.empty()) bench_vp9_itx_ceiling(opt, json);
  json.end_object();
  printf("\nM4 columns: Mblock/s at the median frame time; frame-time medians and p99 are in the "
         "JSON.\n");
  return rc;
}

}  // namespace v3dbench
