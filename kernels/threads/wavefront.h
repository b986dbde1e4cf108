// SPDX-License-Identifier: LGPL-2.1-or-later
// A row wavefront on a ThreadPool: cell (r, c) of a rows x cols grid runs after (r, c-1) (same
// thread, in order) and after row r-1 has finished its first min(c + 1 + lag, cols) cells. The
// caller proves that this order is equivalent to raster order for its cells (see the users).
//
// Thread-safety: run_wavefront blocks until every cell is done; cell() is called from the pool's
// threads and the calling thread, for distinct cells concurrently.
#pragma once

#include <functional>
#include <vector>

#include "threads/thread_pool.h"

namespace v3d {

// Runs cell(r, c) for every cell. Rows are pool tasks taken in increasing order, so the row a
// task waits for was taken earlier by a running thread: no deadlock, even with one thread. With a
// one-thread pool or one row, runs in raster order on the calling thread.
// Runs on at most wavefront_threads(rows, cols, lag) of the pool's threads. With cells of equal
// cost, more threads could only shorten the start of the wavefront and its tail; on the device
// machine they lost more than that to waiting and to the rows' cache lines moving between cores
// (the VP9 loop filter's 17 x 30 superblocks of a 1080p frame: 1.36-1.54 ms on 8 threads, 1.44-2.20
// ms on 15, before this limit).
void run_wavefront(ThreadPool &pool, int rows, int cols, int lag,
                   const std::function<void(int r, int c)> &cell);

// One grid of run_wavefronts.
struct WaveGrid {
  int rows, cols;
};

// Several independent wavefronts in one loop (the frames of a batch): grid k's cells run as
// run_wavefront's, cell(k, r, c), and a row waits only for the row above it in its own grid.
// Rows are pool tasks taken grid after grid, so threads that would wait at the start of one
// grid's wavefront, or idle at its tail, run the next grid's first rows instead. At most the sum
// of the grids' wavefront_threads() take part. With a one-thread pool, runs the grids one after
// another in raster order on the calling thread.
void run_wavefronts(ThreadPool &pool, const std::vector<WaveGrid> &grids, int lag,
                    const std::function<void(int k, int r, int c)> &cell);

// How many threads a rows x cols wavefront with this lag keeps busy, with cells of equal cost:
// its cells over its shortest possible duration ((rows - 1) * (lag + 1) + cols cell times),
// rounded up, plus one for uneven cells; at most rows, at least 1.
int wavefront_threads(int rows, int cols, int lag);

}  // namespace v3d
