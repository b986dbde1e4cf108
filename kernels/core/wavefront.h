// SPDX-License-Identifier: LGPL-2.1-or-later
// A row wavefront on a ThreadPool: cell (r, c) of a rows x cols grid runs after (r, c-1) (same
// thread, in order) and after row r-1 has finished its first min(c + 1 + lag, cols) cells. The
// caller proves that this order is equivalent to raster order for its cells (see the users).
//
// Thread-safety: run_wavefront blocks until every cell is done; cell() is called from the pool's
// threads and the calling thread, for distinct cells concurrently.
#pragma once

#include <functional>

#include "core/thread_pool.h"

namespace v3d {

// Runs cell(r, c) for every cell. Rows are pool tasks taken in increasing order, so the row a
// task waits for was taken earlier by a running thread: no deadlock, even with one thread. With a
// one-thread pool or one row, runs in raster order on the calling thread.
void run_wavefront(ThreadPool &pool, int rows, int cols, int lag,
                   const std::function<void(int r, int c)> &cell);

}  // namespace v3d
