// SPDX-License-Identifier: LGPL-2.1-or-later
#include "threads/wavefront.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "threads/store_load.h"

namespace v3d {
namespace {

// Polls of the row above before sleeping. A cell (an H.264 macroblock: ~0.3-1 us with SIMD) is
// short, so a waiter usually needs well under a microsecond or two: ~2000 pause instructions
// (a few microseconds) catch most waits without a sleep, and bound the CPU burnt on a long wait.
constexpr int kSpins = 2000;

// One row's progress on a cache line of its own: every cell's end stores it, and with rows of
// short cells (an H.264 macroblock) neighbouring counters on one line would make every store
// invalidate the line that all the other threads are polling. Threads waiting for this row
// sleep on its own condition variable, so a row's progress wakes only the row below (one
// variable for all rows woke every sleeper on every cell once 16 threads ran).
struct alignas(64) RowProgress {
  std::atomic<int> done{0};
  std::atomic<int> sleepers{0};
  std::mutex mutex;
  std::condition_variable cv;
};

}  // namespace

int wavefront_threads(int rows, int cols, int lag) {
  if (rows <= 1 || cols <= 0) return 1;
  // Row r cannot finish before r * (lag + 1) + cols cell times (each row starts lag + 1 cells
  // after the one above), so the last row ends no sooner than `span` cell times however many
  // threads run; rows * cols cells over that span keep ceil(rows * cols / span) threads busy.
  // One more absorbs cells of uneven cost.
  const long long span = static_cast<long long>(rows - 1) * (lag + 1) + cols;
  const long long cells = static_cast<long long>(rows) * cols;
  return static_cast<int>(std::min<long long>(rows, (cells + span - 1) / span + 1));
}

void run_wavefront(ThreadPool &pool, int rows, int cols, int lag,
                   const std::function<void(int r, int c)> &cell) {
  run_wavefronts(pool, {WaveGrid{rows, cols}}, lag, [&](int, int r, int c) { cell(r, c); });
}

void run_wavefronts(ThreadPool &pool, const std::vector<WaveGrid> &grids, int lag,
                    const std::function<void(int k, int r, int c)> &cell) {
  // Task t is row row_of[t] of grid grid_of[t]; the grids' rows in order.
  std::vector<int> grid_of, row_of;
  int max_threads = 0;
  for (size_t k = 0; k < grids.size(); k++) {
    if (grids[k].rows <= 0 || grids[k].cols <= 0) continue;
    for (int r = 0; r < grids[k].rows; r++) {
      grid_of.push_back(static_cast<int>(k));
      row_of.push_back(r);
    }
    max_threads += wavefront_threads(grids[k].rows, grids[k].cols, lag);
  }
  const int n_rows = static_cast<int>(row_of.size());
  if (n_rows == 0) return;
  if (pool.size() <= 1 || max_threads <= 1) {
    for (int t = 0; t < n_rows; t++)
      for (int c = 0; c < grids[grid_of[t]].cols; c++) cell(grid_of[t], row_of[t], c);
    return;
  }
  // done(t): cells of task t's row finished. A waiter spins briefly, then sleeps on the row
  // above's cv; the finisher of a cell of that row notifies only while someone sleeps there. The
  // sleeper count and done() use sequentially consistent operations on both sides, so either
  // the finisher sees the sleeper or the sleeper sees the progress (no lost wake-up). A waiter
  // remembers the last value it read (progress only grows) and reads done() again only when that
  // is not enough.
  // Progress is published every `publish` cells (and at the row's end): each store pulls the
  // counter's cache line back from the thread polling it, which costs as much as a short cell
  // where cores are far apart. A waiter needs the row above lag + 1 cells ahead of it, so
  // publishing every (lag + 1) / 2 cells delays it by less than half its margin.
  const int publish = std::max(1, (lag + 1) / 2);
  std::unique_ptr<RowProgress[]> progress(new RowProgress[n_rows]);
  pool.run(n_rows, [&](int t, int) {
    const int k = grid_of[t], r = row_of[t], cols = grids[k].cols;
    int seen = r > 0 ? 0 : cols;  // a grid's first row waits for nothing
    for (int c = 0; c < cols; c++) {
      const int need = std::min(c + 1 + lag, cols);
      if (seen < need) {
        RowProgress &above = progress[t - 1];
        seen = above.done.load();
        for (int spin = 0; spin < kSpins && seen < need; spin++) {
          cpu_relax();
          seen = above.done.load();
        }
        if (seen < need) {
          std::unique_lock<std::mutex> lock(above.mutex);
          above.sleepers.fetch_add(1);
          above.cv.wait(lock, [&] { return above.done.load() >= need; });
          above.sleepers.fetch_sub(1);
          seen = above.done.load();
        }
      }
      cell(k, r, c);
      if ((c + 1) % publish != 0 && c + 1 != cols) continue;
      RowProgress &mine = progress[t];
      store_before_load(mine.done, c + 1);
      if (mine.sleepers.load() > 0) {
        { std::lock_guard<std::mutex> lock(mine.mutex); }  // a sleeper is past its check, or asleep
        mine.cv.notify_all();
      }
    }
  }, nullptr, max_threads);
}

}  // namespace v3d
