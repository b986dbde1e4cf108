// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench's peer section (bench_peers.cpp): running a peer's checkasm benchmark, turning its
// figures into ns per call, and timing the project's kernels the way checkasm times the peer's.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace v3dbench {

// One function's best SIMD figure in a checkasm --bench listing.
struct PeerFigure {
  double units = 0;  // checkasm's figure: timer units per call (its decicycles / 10)
  std::string cpu;   // the version that gave it (checkasm's suffix: sse2, avx2, neon, ...)
};

// Runs `checkasm --test=TEST --bench=PATTERN` (the program at `path`, a child of this process,
// so it inherits this process's CPU affinity) and returns, per function name without its CPU
// suffix, the lowest figure among its SIMD versions (the "c" versions are left out). Empty if
// the program cannot be run or lists nothing; `log` receives checkasm's stderr lines.
std::map<std::string, PeerFigure> run_checkasm(const std::string &path, const char *test,
                                               const char *pattern, std::string *log);

// Units of checkasm's native timer per ns, calibrated against std::chrono::steady_clock over
// about 0.2 s (median of 3): on x86 the TSC (rdtsc), on aarch64 the generic timer (cntvct_el0).
// Those are checkasm's units when it is built without --enable-linux-perf; a build with it
// counts core cycles instead (give --peer-ghz then). 0 where no such timer is known.
double native_timer_per_ns();

// ns per call of `call`: batches of kBatch calls, the median of the batches' mean (checkasm
// times batches of 32 calls with its cycle timer and averages them after discarding outliers;
// steady_clock is coarser, hence the longer batches, and the median is the closest robust
// figure). `call` must be cheap to repeat on the same data.
constexpr int kBatch = 128;

template <class F>
double ns_per_call(F &&call, int batches = 300) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 64; i++) call();  // warm-up: caches, branch predictors, table fill
  std::vector<double> t(static_cast<size_t>(batches));
  for (auto &v : t) {
    const auto t0 = Clock::now();
    for (int i = 0; i < kBatch; i++) call();
    v = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kBatch;
  }
  std::nth_element(t.begin(), t.begin() + batches / 2, t.end());
  return t[static_cast<size_t>(batches / 2)];
}

}  // namespace v3dbench
