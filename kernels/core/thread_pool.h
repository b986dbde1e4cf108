// SPDX-License-Identifier: LGPL-2.1-or-later
// A fixed pool of CPU worker threads running one parallel loop at a time.
//
// Ownership: owned by one V3dContext. Thread-safety: run() may be called from any thread, but
// calls are serialized internally (one loop at a time); the pool never calls back into the caller
// except through the loop body, and never holds its lock while running a body.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace v3d {

class ThreadPool {
 public:
  // n_threads: how many threads run loop bodies, the calling thread of run() included (so
  // n_threads - 1 threads are created). At least 1. A thread that cannot be created (e.g.
  // EAGAIN) is logged as a warning and the pool runs with the threads it has: size() says how
  // many.
  explicit ThreadPool(int n_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  // Threads that run loop bodies now: capacity(), or fewer while a limit is set.
  int size() const {
    const int l = limit_.load(std::memory_order_relaxed);
    return l > 0 && l < n_threads_ ? l : n_threads_;
  }
  // Threads the pool has (the caller of run() included).
  int capacity() const { return n_threads_; }
  // Lets only threads 0..n-1 run loop bodies (n <= 0: all of them), e.g. to leave one core to
  // the GPU's submissions while a hybrid split runs. Not thread-safe against run(): set it
  // between loops, from the thread that calls run() (see PoolLimit).
  void set_limit(int n) { limit_.store(n, std::memory_order_relaxed); }

  // Runs body(task, thread) for task = 0..n_tasks-1 on the pool's threads and the calling thread;
  // thread is 0..size()-1 (0 = the caller). Blocks until every task is done.
  // beside (optional): the calling thread runs beside() instead of taking tasks, while the other
  // threads run them (e.g. the GPU's host-side work next to the CPU's share); with no other
  // thread, the caller runs beside() and then the tasks.
  // max_threads > 0: at most that many threads take part in this loop (on top of set_limit), e.g.
  // a wavefront that cannot keep more busy (core/wavefront.h).
  void run(int n_tasks, const std::function<void(int task, int thread)> &body,
           const std::function<void()> *beside = nullptr, int max_threads = 0);

 private:
  void worker_main(int thread);
  void run_tasks(int thread);

  int n_threads_;
  std::vector<std::thread> threads_;
  std::mutex run_mutex_;  // serializes run()
  std::mutex mutex_;      // guards the fields below
  std::condition_variable wake_;
  std::condition_variable done_cv_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  const std::function<void(int, int)> *body_ = nullptr;
  int n_tasks_ = 0;
  std::atomic<int> next_task_{0};
  int active_ = 0;  // workers still inside the current loop
  std::atomic<int> limit_{0};  // set_limit(); workers read run_limit_ (other threads may read
                               // size() while a loop runs: it is only a report there)
  int run_limit_ = 0;  // the current loop's thread count (guarded by mutex_ when set)
};

// Limits pool to n threads for the scope of one frame (n <= 0: no limit).
class PoolLimit {
 public:
  PoolLimit(ThreadPool &pool, int n) : pool_(pool) { pool_.set_limit(n); }
  ~PoolLimit() { pool_.set_limit(0); }
  PoolLimit(const PoolLimit &) = delete;
  PoolLimit &operator=(const PoolLimit &) = delete;

 private:
  ThreadPool &pool_;
};

// Number of online CPU cores (at least 1).
int online_cores();

}  // namespace v3d
