// SPDX-License-Identifier: LGPL-2.1-or-later
// Shared pieces of v3d-bench: options, a tiny JSON writer, timing statistics.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/rng.h"
#include "v3d/v3d.h"

namespace v3dbench {

struct Options {
  std::string json_path;
  std::string cpu_json_path;
  bool cpu_targets = true;  // the per-target single-thread table (bench_itx_cpu.cpp)
  bool quick = false;
  int frames = 0;
  int threads = 0;  // 0 = online cores
  bool gpu = true;
  std::string only;
  std::string section;       // "" = every frame-level section (and pool), else the one named
  std::string configs;       // "" = every M4 configuration, else a comma-separated list of labels
                             // (cpu_1,cpu_n,gpu,cpu_n1_gpu,cpu_n_gpu,auto): VP9 transforms' M4 and
                             // the frames-in-flight M4s (cpu_n1 there, no cpu_1)
  double bandwidth_gbs = 0;  // device memory bandwidth, for the batch table's ratio
  std::string peer_checkasm;  // sections peers and itx-rows: a peer's checkasm program ("" = none)
  double peer_ghz = 0;        // its timer units per ns (0 = calibrate its native timer here)
};

// Sets V3D_POOL_SPIN_US to spin_us for its scope (spin_us < 0: leaves the environment alone), so
// that the contexts made meanwhile get pools that spin that long (the pool section's A/B).
class SpinEnv {
 public:
  explicit SpinEnv(int spin_us) : set_(spin_us >= 0) {
    if (!set_) return;
    const char *old = getenv("V3D_POOL_SPIN_US");
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv("V3D_POOL_SPIN_US", std::to_string(spin_us).c_str(), 1);
  }
  ~SpinEnv() {
    if (!set_) return;
    if (had_) setenv("V3D_POOL_SPIN_US", old_.c_str(), 1);
    else unsetenv("V3D_POOL_SPIN_US");
  }
  SpinEnv(const SpinEnv &) = delete;
  SpinEnv &operator=(const SpinEnv &) = delete;

 private:
  bool set_, had_ = false;
  std::string old_;
};

// Untimed frames (pictures) before the per-frame M4s' timed ones (--warmup, default 3): the
// pools' first frames and the adaptive controllers' first measurements of each way. A longer
// warm-up measures a stream's steady state (auto then explores the slower ways only now and then).
inline int &warmup_frames() {
  static int frames = 3;
  return frames;
}

// --gpu-share F: the VP9 transforms' per-frame hybrid configurations (CPU-(N-1)+GPU,
// CPU-N+GPU) run with the GPU's share fixed at F (v3d_context_set_gpu_share) instead of adapting
// it: to measure a GPU job of a given size beside the workers (the debug log's device times).
// < 0: adaptive (the default).
inline double &fixed_gpu_share() {
  static double share = -1;
  return share;
}

// --fresh-frames: before each timed frame of the VP9 transforms' per-frame M4s (untimed), the
// frame's pixels and coefficients are written anew, as a decoder writes a frame's prediction and
// its dequantized coefficients just before the transforms: the call then finds them in the
// CPU's caches, dirty. Without it, each configuration adds the same coefficients to its own
// frame over and over: the CPU's blocks stay in its caches between frames (left there by its
// last frame, with four other configurations' frames in between), the GPU's blocks come back
// from the GPU's writes (in memory, not in the caches).
inline bool &fresh_frames() {
  static bool fresh = false;
  return fresh;
}

// Whether the M4 configuration labelled label is to run (opt.configs).
inline bool config_wanted(const Options &opt, const char *label) {
  if (opt.configs.empty()) return true;
  const std::string list = "," + opt.configs + ",";
  return list.find("," + std::string(label) + ",") != std::string::npos;
}

// Builds a JSON document of nested objects and arrays, in order of calls. Keys and strings are
// plain ASCII written by this tool.
class Json {
 public:
  Json() { s_ = "{"; first_.push_back(true); }
  void key(const std::string &k) {
    sep();
    s_ += "\"" + k + "\": ";
    pending_value_ = true;
  }
  void num(const std::string &k, double v) {
    key(k);
    char b[64];
    snprintf(b, sizeof b, "%.6g", v);
    s_ += b;
    pending_value_ = false;
  }
  void str(const std::string &k, const std::string &v) {
    key(k);
    s_ += "\"" + v + "\"";
    pending_value_ = false;
  }
  void begin_object(const std::string &k) { open(k, '{'); }
  void begin_array(const std::string &k) { open(k, '['); }
  void begin_object() { open("", '{'); }
  void end_object() { close('}'); }
  void end_array() { close(']'); }
  std::string str() const { return s_ + "}\n"; }

 private:
  void sep() {
    if (pending_value_) return;
    if (!first_.back()) s_ += ", ";
    first_.back() = false;
  }
  void open(const std::string &k, char c) {
    if (!k.empty()) key(k);
    else sep();
    s_ += c;
    pending_value_ = false;
    first_.push_back(true);
  }
  void close(char c) {
    s_ += c;
    first_.pop_back();
  }
  std::string s_;
  std::vector<bool> first_;
  bool pending_value_ = false;
};

// The tests' generator (tests/common/rng.h): xorshift64* with a normal deviate for residuals.
using Rng = v3dtest::Rng;

// The order in which round `round` of an interleaved measurement visits its n configurations: a
// shuffle of 0..n-1, the same in every run. A fixed order let each configuration always follow
// the same one, and what ran just before changed a frame's time: on the device machine CPU-16
// right after CPU-1 (15 cores idle for 3 ms) measured 30.6 Mblock/s on 16x16 blocks, right
// after auto 40.2, and auto right after the GPU alone (one busy core) 1-8 % below CPU-16.
inline std::vector<size_t> visit_order(size_t n, int round) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; i++) order[i] = i;
  Rng rng{0x9E3779B97F4A7C15ull ^ (static_cast<uint64_t>(round) * 0x100000001B3ull + 1)};
  for (size_t i = n; i > 1; i--) std::swap(order[i - 1], order[rng.next() % i]);
  return order;
}

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One configuration's times from time_interleaved().
struct Interleaved {
  std::vector<double> times;
  bool failed = false;  // set beforehand to leave a configuration out (e.g. no context)
};
// Times configurations together: `rounds` rounds, each calling run(i) once for every
// configuration i not failed, in visit_order's shuffle for the round, so that a drift of the
// host's speed, and what ran just before, affect every configuration alike. run(i) returns the
// seconds its timed work took, or a negative number when it failed (the configuration then runs
// no more). The times of the first `skip` rounds are not kept (warm-up, an adaptive split's
// probes).
template <class Run>
void time_interleaved(std::vector<Interleaved> &cfgs, int rounds, int skip, Run run) {
  for (int r = 0; r < rounds; r++)
    for (size_t i : visit_order(cfgs.size(), r)) {
      if (cfgs[i].failed) continue;
      const double s = run(i);
      if (s < 0) cfgs[i].failed = true;
      else if (r >= skip) cfgs[i].times.push_back(s);
    }
}

struct Stats {
  double median = 0, p99 = 0, mean = 0, min = 0;
};
inline Stats stats_of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.median = v[v.size() / 2];
  s.p99 = v[std::min(v.size() - 1, static_cast<size_t>(v.size() * 0.99))];
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / v.size();
  return s;
}

// The keys of one frame-time measurement in the current JSON object: frame_ms_median,
// frame_ms_p99, bit_exact.
inline void frame_time_fields(Json &json, const Stats &t, bool exact) {
  json.num("frame_ms_median", t.median * 1e3);
  json.num("frame_ms_p99", t.p99 * 1e3);
  json.num("bit_exact", exact ? 1 : 0);
}

// One cell of a per-backend frame-time table: prints " median/p99 ok" (ms; "DIFF" when not
// bit-exact, "-" when the run failed) and writes the same as the JSON object `label`.
inline void frame_time_cell(Json &json, const char *label, bool ok, const Stats &t, bool exact) {
  char cell[40];
  if (ok) snprintf(cell, sizeof cell, " %6.2f/%6.2f %s", t.median * 1e3, t.p99 * 1e3, exact ? "ok" : "DIFF");
  else snprintf(cell, sizeof cell, " %-17s", "-");
  printf("%-19s", cell);
  json.begin_object(label);
  frame_time_fields(json, t, exact);
  json.end_object();
}

// The M4 configurations of a frames-in-flight run, in table order (indices kFif*).
struct FifCfg {
  const char *label, *backend;
  int threads;
};
enum { kFifCpuN1, kFifCpuN, kFifGpu, kFifCpuN1Gpu, kFifCpuNGpu, kFifAuto, kFifConfigs };
inline std::vector<FifCfg> fif_configs(int cores) {
  return {{"cpu_n1", "simd", std::max(1, cores - 1)},
          {"cpu_n", "simd", cores},
          {"gpu", "gpu", 1},
          {"cpu_n1_gpu", "hybrid", std::max(1, cores - 1)},
          {"cpu_n_gpu", "hybrid", cores},
          {"auto", "auto", cores}};
}
// The context of configuration c, or null when --no-gpu or --configs leaves it out (or it cannot
// be made).
inline V3dContext *fif_context(const Options &opt, const FifCfg &c) {
  if (std::string(c.backend) != "simd" && !opt.gpu) return nullptr;
  if (!config_wanted(opt, c.label)) return nullptr;
  return v3d_context_new(c.backend, c.threads);
}
// Times a frames-in-flight M4's batches (loop filter, H.264): one batch of `batch` frames through
// each configuration c with has(c), interleaved, after two untimed rounds (adaptive hybrid's first
// batches measure both sides). reset(c) restores c's frames, untimed; run(c) runs its batch and
// returns 0 or an error code (printed with `what` and c's label; c then runs no more). The times
// are per frame.
template <class Has, class Reset, class Run>
std::vector<Interleaved> time_fif_batches(const Options &opt, const std::vector<FifCfg> &cfgs,
                                          int batch, const char *what, Has has, Reset reset,
                                          Run run) {
  std::vector<Interleaved> timed(cfgs.size());
  for (size_t c = 0; c < cfgs.size(); c++) timed[c].failed = !has(c);
  time_interleaved(timed, std::max(16, opt.frames / 2) + 2, 2, [&](size_t c) {
    reset(c);
    const auto t0 = Clock::now();
    if (run(c)) {
      fprintf(stderr, "%s (%s): %s\n", what, cfgs[c].label, v3d_last_error());
      return -1.0;
    }
    return since(t0) / batch;
  });
  return timed;
}

// Prints and writes the hybrid (N-1 threads) against CPU-(N-1) + GPU alone, auto against CPU-N
// + GPU alone, both against the best single side (the one with the best median), from each
// configuration's times per frame (time_interleaved's, round by round; empty: not measured):
// from the medians, and paired: the median over rounds of the same ratio within each round, in
// which the configurations ran one right after another (the device machine's hosts drift by
// 10-20 % within a run).
inline void fif_percentages(const std::vector<double> (&times)[kFifConfigs], Json &json) {
  double rate[kFifConfigs];
  for (int c = 0; c < kFifConfigs; c++) {
    const double m = stats_of(times[c]).median;
    rate[c] = m > 0 ? 1.0 / m : 0.0;
  }
  int best = kFifCpuN1;
  for (int c : {kFifCpuN, kFifGpu})
    if (rate[c] > rate[best]) best = c;
  // The median over rounds of f(round): the rounds every configuration involved has.
  auto paired = [&](std::initializer_list<int> cfgs, auto f) {
    size_t rounds = SIZE_MAX;
    for (int c : cfgs) rounds = std::min(rounds, times[c].size());
    std::vector<double> v;
    for (size_t r = 0; r < rounds; r++) v.push_back(f(r));
    return stats_of(v).median;
  };
  auto r = [&](int c, size_t k) { return 1.0 / times[c][k]; };
  // Configuration mix against its two sides alone (CPU configuration cpu and the GPU) and against
  // the best single side; json keys prefixed with key.
  auto report = [&](int mix, int cpu, const char *name, const char *cpu_name, const std::string &key) {
    if (rate[cpu] <= 0 || rate[kFifGpu] <= 0 || rate[mix] <= 0) return;
    const double of_sum = 100 * rate[mix] / (rate[cpu] + rate[kFifGpu]);
    const double of_best = 100 * rate[mix] / rate[best];
    const double p_sum = 100 * paired({cpu, kFifGpu, mix}, [&](size_t k) {
      return r(mix, k) / (r(cpu, k) + r(kFifGpu, k));
    });
    const double p_best = 100 * paired({best, mix}, [&](size_t k) { return r(mix, k) / r(best, k); });
    printf("; %s = %.0f%% of %s + GPU (paired %.0f%%), %.0f%% of the best single side "
           "(paired %.0f%%)", name, of_sum, cpu_name, p_sum, of_best, p_best);
    json.num(key + "_percent_of_sum", of_sum);
    json.num(key + "_percent_of_sum_paired", p_sum);
    json.num(key + "_percent_of_best_single", of_best);
    json.num(key + "_percent_of_best_single_paired", p_best);
  };
  report(kFifCpuN1Gpu, kFifCpuN1, "CPU-(N-1)+GPU", "CPU-(N-1)", "hybrid");
  report(kFifAuto, kFifCpuN, "auto", "CPU-N", "auto");
}

void print_machine(Json &json, const Options &opt);
void bench_peers(const Options &opt);  // bench_peers.cpp: --section peers
void bench_calls();                    // bench_calls.cpp: --section calls
int bench_vp9_itx(const Options &opt, Json &json);
// The VP9 transforms' ceiling for any split: each side alone and both at once on their own frames.
void bench_vp9_itx_ceiling(const Options &opt, Json &json);
// The VP9 transforms' M4 with frames in flight (batches), mixed and 8x8 (--only picks one).
void bench_vp9_itx_fif(const Options &opt, Json &json);
int bench_vp9_lpf(const Options &opt, Json &json);
int bench_h264_frame(const Options &opt, Json &json);  // bench_h264_frame.cpp
// The worker pool's wake-up costs (bench_pool.cpp), and the VP9 transforms' per-frame M4 with the
// pools spinning against sleeping at once (bench_vp9_itx.cpp).
void bench_pool(const Options &opt, Json &json);
// The CPU in the GPU's host-visible memory against plain memory (bench_memory.cpp).
void bench_memory(const Options &opt, Json &json);
void bench_vp9_itx_pool_ab(const Options &opt, Json &json);

}  // namespace v3dbench
