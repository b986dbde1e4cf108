// SPDX-License-Identifier: LGPL-2.1-or-later
#include "threads/thread_pool.h"

#include <unistd.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#include "runtime/fault.h"
#include "runtime/log.h"
#include "threads/store_load.h"

namespace v3d {

int online_cores() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : static_cast<int>(n);
}

namespace {

// Spins until done() or for about spin_us microseconds; returns done(). Yields the core every 16
// rounds (a microsecond or two): two threads that wait for each other may share one core (the
// scheduler wakes a thread on its waker's core), and a thread that spun there without yielding
// kept the other from running for its whole spin (2-core machine: 53 us per loop instead of
// 0.3); a machine with more threads than cores (lavapipe beside the workers) likewise gets its
// core back at once.
template <class Done>
bool spin_until(const Done &done, int spin_us) {
  if (spin_us <= 0) return done();
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + std::chrono::microseconds(spin_us);
  for (unsigned i = 1;; i++) {
    if (done()) return true;
    cpu_relax();
    if ((i & 15) == 0) {
      if (Clock::now() >= end) return done();
      std::this_thread::yield();
    }
  }
}

int spin_from_env() {
  long v = ThreadPool::kDefaultSpinUs;
  char otherwise[32];
  snprintf(otherwise, sizeof otherwise, "using %d", ThreadPool::kDefaultSpinUs);
  env_int("V3D_POOL_SPIN_US", 0, 1000000, &v, otherwise);
  return static_cast<int>(v);
}

}  // namespace

#if defined(__linux__)
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "the futex word is the atomic's own storage");

namespace {
// A process-private futex operation on word.
void futex(std::atomic<uint32_t> &word, int op, uint32_t value) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), op, value, nullptr, nullptr, 0);
}
}  // namespace
#endif

void ThreadPool::sleep_while(uint32_t seen) {
#if defined(__linux__)
  // Returns at once if generation_ is no longer seen; a wake-up may be spurious (the caller checks).
  futex(generation_, FUTEX_WAIT_PRIVATE, seen);
#else
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait(lock, [&] { return generation_.load(std::memory_order_seq_cst) != seen; });
#endif
}

void ThreadPool::wake_sleepers() {
#if defined(__linux__)
  futex(generation_, FUTEX_WAKE_PRIVATE, INT_MAX);
#else
  std::lock_guard<std::mutex> lock(mutex_);
  wake_.notify_all();
#endif
}

ThreadPool::ThreadPool(int n_threads, int spin_us)
    : n_threads_(n_threads < 1 ? 1 : n_threads), spin_us_(spin_us < 0 ? spin_from_env() : spin_us) {
  for (int i = 1; i < n_threads_; i++) {
    try {
      if (fault_hit(Fault::kThread))
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
      threads_.emplace_back([this, i] { worker_main(i); });
    } catch (const std::system_error &e) {
      log(kLogWarning, "could not start CPU worker thread %d of %d (%s): running with %d threads", i,
          n_threads_ - 1, e.what(), i);
      n_threads_ = i;
      break;
    }
  }
}

ThreadPool::~ThreadPool() {
  stop_.store(true, std::memory_order_seq_cst);
  generation_.fetch_add(1, std::memory_order_seq_cst);
  wake_sleepers();
  for (auto &t : threads_) t.join();
}

void ThreadPool::notify_caller() {
  if (!caller_waiting_.load(std::memory_order_seq_cst)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  done_cv_.notify_one();
}

template <class Done>
void ThreadPool::caller_wait(const Done &done) {
  if (spin_until(done, spin_us_)) return;
  std::unique_lock<std::mutex> lock(mutex_);
  // The flag, then the condition (in the wait's predicate); a thread changes the condition, then
  // reads the flag: one of the two sees the other's write. The notifier takes mutex_, so its
  // notification comes after this thread waits.
  store_before_load(caller_waiting_, true);
  done_cv_.wait(lock, done);
  caller_waiting_.store(false, std::memory_order_relaxed);
}

void ThreadPool::run_tasks(int thread) {
  if (thread >= run_limit_) return;  // left out of this loop (set_limit, max_threads)
  for (;;) {
    int task = next_task_.fetch_add(1, std::memory_order_relaxed);
    if (task >= n_tasks_) break;
    (*body_)(task, thread);
    if (tasks_done_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_tasks_) notify_caller();
  }
}

void ThreadPool::worker_main(int thread) {
  uint32_t seen = 0;
  auto woken = [&] {
    return stop_.load(std::memory_order_acquire) ||
           generation_.load(std::memory_order_acquire) != seen;
  };
  // Spinning stops at a new loop, or when no call holds the pool hot.
  auto stop_spinning = [&] { return woken() || hot_.load(std::memory_order_relaxed) == 0; };
  for (;;) {
    spin_until(stop_spinning, spin_us_);
    while (!woken()) {
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      if (generation_.load(std::memory_order_seq_cst) == seen && !stop_.load(std::memory_order_seq_cst))
        sleep_while(seen);
      sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen = generation_.load(std::memory_order_acquire);
    // Count in, then check that a loop is open (see the header). The open loop may be newer than
    // the generation seen (this thread was slow); its generation cannot change while this thread
    // is counted in.
    inside_.fetch_add(1, std::memory_order_seq_cst);
    if (open_.load(std::memory_order_seq_cst)) {
      seen = generation_.load(std::memory_order_acquire);
      run_tasks(thread);
    }
    if (inside_.fetch_sub(1, std::memory_order_seq_cst) == 1) notify_caller();
  }
}

void ThreadPool::run(int n_tasks, const std::function<void(int, int)> &body,
                     const std::function<void()> *beside, int max_threads, bool then_tasks) {
  if (n_tasks <= 0) {
    if (beside) (*beside)();
    return;
  }
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  const int threads = max_threads > 0 ? std::min(size(), max_threads) : size();
  if (threads_.empty() || threads == 1 || (n_tasks == 1 && !beside)) {
    if (beside) (*beside)();
    for (int t = 0; t < n_tasks; t++) body(t, 0);
    return;
  }
  body_ = &body;
  n_tasks_ = n_tasks;
  run_limit_ = threads;
  next_task_.store(0, std::memory_order_relaxed);
  tasks_done_.store(0, std::memory_order_relaxed);
  open_.store(true, std::memory_order_seq_cst);
  generation_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) > 0) wake_sleepers();
  if (beside) (*beside)();
  if (!beside || then_tasks) run_tasks(0);
  caller_wait([&] { return tasks_done_.load(std::memory_order_acquire) == n_tasks; });
  // Close the loop, then wait for the threads inside it to leave (they find no task left).
  store_before_load(open_, false);
  caller_wait([&] { return inside_.load(std::memory_order_seq_cst) == 0; });
  body_ = nullptr;
}

SideThread::SideThread(int spin_us) : spin_us_(spin_us) {
  try {
    if (fault_hit(Fault::kThread))
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    thread_ = std::thread([this] { main(); });
  } catch (const std::system_error &e) {
    log(kLogWarning, "could not start the GPU submission thread (%s): submitting from the "
        "calling thread", e.what());
  }
}

SideThread::~SideThread() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void SideThread::post(const std::function<void()> *fn) {
  if (!thread_.joinable()) {
    (*fn)();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = fn;
    posted_.fetch_add(1, std::memory_order_release);
  }
  cv_.notify_all();
}

void SideThread::wait() {
  const uint32_t target = posted_.load(std::memory_order_relaxed);
  auto done = [&] { return done_.load(std::memory_order_acquire) == target; };
  if (spin_until(done, spin_us_)) return;
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, done);
}

void SideThread::main() {
  uint32_t seen = 0;
  for (;;) {
    const std::function<void()> *job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [&] { return stop_ || posted_.load(std::memory_order_relaxed) != seen; });
      if (stop_) return;
      seen = posted_.load(std::memory_order_relaxed);
      job = job_;
    }
    (*job)();
    {
      // Under the lock, so that a waiter that found the job not done is asleep before the notify.
      std::lock_guard<std::mutex> lock(mutex_);
      done_.store(seen, std::memory_order_release);
    }
    cv_.notify_all();
  }
}

}  // namespace v3d
