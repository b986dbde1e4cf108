// SPDX-License-Identifier: LGPL-2.1-or-later
// A fixed pool of CPU worker threads running one parallel loop at a time.
//
// Ownership: owned by one V3dContext. Thread-safety: run() may be called from any thread, but
// calls are serialized internally (one loop at a time); the pool never calls back into the caller
// except through the loop body, and never holds its lock while running a body.
//
// Waking: inside a frame's call (PoolHot), a worker that has finished a loop spins for a short
// while (spin_us, with a pause instruction and a yield every microsecond or two) watching for the
// next loop before it sleeps (a futex on the loop counter), and run()'s caller likewise spins
// before sleeping until the loop is done.
// A frame's call runs two or three loops back to back (validation, the GPU's preparation, the
// CPU's share), and a sleeping thread's wake-up is a system call and a reschedule. On the device
// machine (16 threads, loops of one 2-us task per thread; v3d-bench --section pool,
// docs/benchmarks.md): 8.7-9.1 us per loop back to back spinning against 21.6-41.0 sleeping at
// once, and a call of three loops after an idle gap 54-61 us against 145-240.
//
// A loop ends when its tasks are done, not when every thread has taken part: a thread that wakes
// late (asleep, or preempted by the host) joins the loop if it is still open, else goes back to
// waiting, so one slow wake-up no longer holds up the loop. The caller closes the loop, then waits
// for the threads inside it to leave (they find no task left); a thread enters by counting itself
// in and then checking that the loop is open, the caller closes by clearing the flag and then
// reading the count (sequentially consistent both), so that either the thread sees the loop
// closed or the caller sees the thread inside (the flag is cleared with store_before_load, see
// threads/store_load.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace v3d {

// One round of a spin-wait: tells the core this thread is waiting (x86 pause, Arm yield).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

class ThreadPool {
 public:
  // n_threads: how many threads run loop bodies, the calling thread of run() included (so
  // n_threads - 1 threads are created). At least 1. A thread that cannot be created (e.g.
  // EAGAIN) is logged as a warning and the pool runs with the threads it has: size() says how
  // many.
  // spin_us: how long an idle thread spins before it sleeps; < 0: V3D_POOL_SPIN_US from the
  // environment, else kDefaultSpinUs; 0: no spinning (sleep at once, as a plain condition-variable
  // pool).
  explicit ThreadPool(int n_threads, int spin_us = -1);
  static constexpr int kDefaultSpinUs = 50;
  // The spin time in effect (microseconds).
  int spin_us() const { return spin_us_; }
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

  // A frame's call holds its pool hot (PoolHot) for its length: while any hold is open, a thread
  // that has finished a loop spins (up to spin_us) for the next one before it sleeps; with none,
  // it sleeps at once, so that idle pools (between frames, or several contexts' pools in one
  // process) leave the cores to others. Any thread may hold and release.
  void hold() { hot_.fetch_add(1, std::memory_order_relaxed); }
  void release() { hot_.fetch_sub(1, std::memory_order_relaxed); }

  // Runs body(task, thread) for task = 0..n_tasks-1 on the pool's threads and the calling thread;
  // thread is 0..size()-1 (0 = the caller). Blocks until every task is done.
  // beside (optional): the calling thread runs beside() instead of taking tasks, while the other
  // threads run them (e.g. the GPU's host-side work next to the CPU's share); with no other
  // thread, the caller runs beside() and then the tasks.
  // max_threads > 0: at most that many threads take part in this loop (on top of set_limit), e.g.
  // a wavefront that cannot keep more busy (threads/wavefront.h).
  // then_tasks: the calling thread takes tasks after beside() has returned, as any other thread
  // (e.g. the GPU's submission first, then its part of validation); else it only waits.
  void run(int n_tasks, const std::function<void(int task, int thread)> &body,
           const std::function<void()> *beside = nullptr, int max_threads = 0,
           bool then_tasks = false);

 private:
  void worker_main(int thread);
  void run_tasks(int thread);
  // Sleeps while generation_ is seen (may return early: the caller checks again).
  void sleep_while(uint32_t seen);
  // Wakes every thread sleeping in sleep_while.
  void wake_sleepers();
  // Wakes run()'s caller if it sleeps (after a change of what it waits for).
  void notify_caller();
  // Spins, then sleeps on done_cv_, until done().
  template <class Done>
  void caller_wait(const Done &done);

  int n_threads_;
  int spin_us_;
  std::vector<std::thread> threads_;
  std::mutex run_mutex_;  // serializes run()
  std::mutex mutex_;      // guards the caller's sleep on done_cv_
  std::condition_variable done_cv_;
  // A loop is published by storing body_, n_tasks_, run_limit_, next_task_ and tasks_done_, then
  // open_ (true), then incrementing generation_; threads read the fields only after counting
  // themselves into inside_ and seeing open_. Sleeping workers wait on generation_ itself (a futex
  // on Linux): a thread counts itself into sleepers_, then checks generation_; run() increments
  // generation_, then reads sleepers_ (sequentially consistent both), so either the thread sees
  // the new loop or run() wakes it. No lock on the way: a condition variable's woken threads each
  // took its mutex in turn, one wake-up after another.
  std::atomic<uint32_t> generation_{0};
  std::atomic<int> sleepers_{0};  // workers asleep (or about to sleep) on generation_
#if !defined(__linux__)
  std::condition_variable wake_;  // elsewhere: sleeps on a condition variable under mutex_
#endif
  std::atomic<bool> stop_{false};
  std::atomic<bool> open_{false};
  std::atomic<int> inside_{0};      // threads inside the open loop (counted in before checking)
  const std::function<void(int, int)> *body_ = nullptr;
  int n_tasks_ = 0;
  std::atomic<int> next_task_{0};
  std::atomic<int> tasks_done_{0};
  std::atomic<bool> caller_waiting_{false};  // run()'s caller asleep (or about to) on done_cv_
  std::atomic<int> hot_{0};    // open holds (hold(), release())
  std::atomic<int> limit_{0};  // set_limit(); workers read run_limit_ (other threads may read
                               // size() while a loop runs: it is only a report there)
  int run_limit_ = 0;  // the current loop's thread count (published with the loop)
};

// One thread of its own for work that runs beside a pool's loops without being one of their
// tasks (the submission of a frame's GPU share during the frame's validation: as a task, or as
// the loop caller's beside(), the loop could not end before it). One job at a time: post(fn),
// then wait() before the next post(). The thread sleeps between jobs (no spinning: it would take
// a core from the workers while they run the frame's CPU share); wait() spins for up to spin_us
// before it sleeps.
class SideThread {
 public:
  explicit SideThread(int spin_us = ThreadPool::kDefaultSpinUs);
  ~SideThread();
  SideThread(const SideThread &) = delete;
  SideThread &operator=(const SideThread &) = delete;
  // False when the thread could not be created (post() then runs fn on the calling thread).
  bool running() const { return thread_.joinable(); }
  // Runs fn (which must stay valid until wait() returns) on the side thread.
  void post(const std::function<void()> *fn);
  // Returns once the posted job has returned (at once when none is pending).
  void wait();

 private:
  void main();
  int spin_us_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;  // a job posted, a job done, stop (under mutex_)
  const std::function<void()> *job_ = nullptr;
  std::atomic<uint32_t> posted_{0}, done_{0};
  bool stop_ = false;  // under mutex_
};

// Holds pool hot (ThreadPool::hold) for its scope: a frame's call, whose loops follow each other.
class PoolHot {
 public:
  explicit PoolHot(ThreadPool &pool) : pool_(pool) { pool_.hold(); }
  ~PoolHot() { pool_.release(); }
  PoolHot(const PoolHot &) = delete;
  PoolHot &operator=(const PoolHot &) = delete;

 private:
  ThreadPool &pool_;
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
