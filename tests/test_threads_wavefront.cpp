// SPDX-License-Identifier: LGPL-2.1-or-later
// run_wavefront (threads/wavefront.h) on random grids, lags and pool sizes: every cell runs exactly
// once; cell (r, c) runs after (r, c - 1) and after row r - 1 finished its first
// min(c + 1 + lag, cols) cells (checked from a global sequence number taken at each cell's start
// and end); no more threads take part than wavefront_threads() allows; and wavefront_threads()
// itself against its definition, recomputed here in floating point. Prints the seed of a failing
// case. run_wavefronts likewise on several grids at once, each in its own order.
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "common/test_util.h"
#include "threads/thread_pool.h"
#include "threads/wavefront.h"

using v3dtest::check;
using v3dtest::Rng;

namespace {

// wavefront_threads by its definition: ceil(cells / shortest duration) + 1, within [1, rows].
int expected_threads(int rows, int cols, int lag) {
  if (rows <= 1 || cols <= 0) return 1;
  const double span = static_cast<double>(rows - 1) * (lag + 1) + cols;
  const double busy = std::ceil(static_cast<double>(rows) * cols / span - 1e-9);
  return static_cast<int>(std::min<double>(rows, busy + 1));
}

void one_case(uint64_t seed) {
  Rng rng(seed);
  const int rows = rng.range(1, 40), cols = rng.range(1, 50), lag = rng.range(0, 7);
  const int pool_threads = rng.range(1, 16);
  v3d::ThreadPool pool(pool_threads);
  std::atomic<uint64_t> clock{0};
  std::vector<uint64_t> start(static_cast<size_t>(rows) * cols, 0), end(start.size(), 0);
  std::vector<int> runs(start.size(), 0);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  v3d::run_wavefront(pool, rows, cols, lag, [&](int r, int c) {
    const size_t i = static_cast<size_t>(r) * cols + c;
    start[i] = ++clock;
    {
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    // A little work, so that threads overlap.
    volatile int x = 0;
    for (int k = 0; k < 200; k++) x = x + k;
    runs[i]++;
    end[i] = ++clock;
  });
  int bad_runs = 0, bad_order = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      const size_t i = static_cast<size_t>(r) * cols + c;
      if (runs[i] != 1) bad_runs++;
      if (c > 0 && start[i] < end[i - 1]) bad_order++;
      if (r > 0) {
        const int need = std::min(c + 1 + lag, cols);
        if (start[i] < end[static_cast<size_t>(r - 1) * cols + need - 1]) bad_order++;
      }
    }
  const int cap = v3d::wavefront_threads(rows, cols, lag);
  check(bad_runs == 0, "seed 0x%" PRIx64 ": %dx%d lag %d, %d threads: %d cells not run exactly once",
        seed, rows, cols, lag, pool_threads, bad_runs);
  check(bad_order == 0, "seed 0x%" PRIx64 ": %dx%d lag %d, %d threads: %d cells ran too early",
        seed, rows, cols, lag, pool_threads, bad_order);
  check(static_cast<int>(threads.size()) <= std::min(cap, pool_threads),
        "seed 0x%" PRIx64 ": %dx%d lag %d: %zu threads ran cells, at most min(%d, pool %d) allowed",
        seed, rows, cols, lag, threads.size(), cap, pool_threads);
  check(cap == expected_threads(rows, cols, lag),
        "seed 0x%" PRIx64 ": wavefront_threads(%d, %d, %d) = %d, by its definition %d", seed, rows,
        cols, lag, cap, expected_threads(rows, cols, lag));
}

// run_wavefronts: 1-5 independent grids at once. Every cell of every grid runs once, each grid in
// its own wavefront order, and no more threads than the sum of the grids' caps (and the pool).
void multi_case(uint64_t seed) {
  Rng rng(seed);
  const int n = rng.range(1, 5), lag = rng.range(0, 4), pool_threads = rng.range(1, 16);
  std::vector<v3d::WaveGrid> grids;
  std::vector<size_t> base;
  size_t total = 0;
  int cap = 0;
  for (int k = 0; k < n; k++) {
    const v3d::WaveGrid g{rng.range(0, 25), rng.range(1, 30)};
    grids.push_back(g);
    base.push_back(total);
    total += static_cast<size_t>(g.rows) * g.cols;
    if (g.rows > 0) cap += v3d::wavefront_threads(g.rows, g.cols, lag);
  }
  v3d::ThreadPool pool(pool_threads);
  std::atomic<uint64_t> clock{0};
  std::vector<uint64_t> start(total, 0), end(total, 0);
  std::vector<int> runs(total, 0);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  int bad_index = 0;
  v3d::run_wavefronts(pool, grids, lag, [&](int k, int r, int c) {
    if (k < 0 || k >= n || r < 0 || r >= grids[k].rows || c < 0 || c >= grids[k].cols) {
      std::lock_guard<std::mutex> lock(mutex);
      bad_index++;
      return;
    }
    const size_t i = base[k] + static_cast<size_t>(r) * grids[k].cols + c;
    start[i] = ++clock;
    {
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    volatile int x = 0;
    for (int j = 0; j < 200; j++) x = x + j;
    runs[i]++;
    end[i] = ++clock;
  });
  int bad_runs = 0, bad_order = 0;
  for (int k = 0; k < n; k++)
    for (int r = 0; r < grids[k].rows; r++)
      for (int c = 0; c < grids[k].cols; c++) {
        const int cols = grids[k].cols;
        const size_t i = base[k] + static_cast<size_t>(r) * cols + c;
        if (runs[i] != 1) bad_runs++;
        if (c > 0 && start[i] < end[i - 1]) bad_order++;
        if (r > 0) {
          const int need = std::min(c + 1 + lag, cols);
          if (start[i] < end[base[k] + static_cast<size_t>(r - 1) * cols + need - 1]) bad_order++;
        }
      }
  check(bad_index == 0, "seed 0x%" PRIx64 ": %d cells outside their grid", seed, bad_index);
  check(bad_runs == 0, "seed 0x%" PRIx64 ": %d grids, lag %d, %d threads: %d cells not run exactly once",
        seed, n, lag, pool_threads, bad_runs);
  check(bad_order == 0, "seed 0x%" PRIx64 ": %d grids, lag %d, %d threads: %d cells ran too early",
        seed, n, lag, pool_threads, bad_order);
  check(static_cast<int>(threads.size()) <= std::max(1, std::min(cap, pool_threads)),
        "seed 0x%" PRIx64 ": %d grids: %zu threads ran cells, at most min(%d, pool %d) allowed",
        seed, n, threads.size(), cap, pool_threads);
}

}  // namespace

int main() {
  const uint64_t seed0 = v3dtest::base_seed();
  for (int i = 0; i < 300; i++) one_case(seed0 + 0x9E3779B97F4A7C15ull * (i + 1));
  for (int i = 0; i < 200; i++) multi_case(seed0 ^ (0xC2B2AE3D27D4EB4Full * (i + 1)));
  // The grids the kernels use at 1080p: the VP9 loop filter's 17 x 30 superblocks (lag 1) keep
  // no more than 10 threads busy; H.264's strips of 2 macroblock rows (34 x 122 steps, lag 3)
  // keep 16 busy and are not limited.
  check(v3d::wavefront_threads(17, 30, 1) == 10, "VP9 1080p: %d threads",
        v3d::wavefront_threads(17, 30, 1));
  check(v3d::wavefront_threads(34, 122, 3) >= 16, "H.264 1080p: %d threads",
        v3d::wavefront_threads(34, 122, 3));
  return v3dtest::finish();
}
