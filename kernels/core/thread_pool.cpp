// SPDX-License-Identifier: LGPL-2.1-or-later
#include "core/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "core/fault.h"
#include "core/log.h"

namespace v3d {

int online_cores() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : static_cast<int>(n);
}

ThreadPool::ThreadPool(int n_threads) : n_threads_(n_threads < 1 ? 1 : n_threads) {
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto &t : threads_) t.join();
}

void ThreadPool::run_tasks(int thread) {
  if (thread >= run_limit_) return;  // left out of this loop (set_limit)
  for (;;) {
    int task = next_task_.fetch_add(1, std::memory_order_relaxed);
    if (task >= n_tasks_) break;
    (*body_)(task, thread);
  }
}

void ThreadPool::worker_main(int thread) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_tasks(thread);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--active_ == 0) done_cv_.notify_one();
    }
  }
}

void ThreadPool::run(int n_tasks, const std::function<void(int, int)> &body,
                     const std::function<void()> *beside, int max_threads) {
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    n_tasks_ = n_tasks;
    next_task_.store(0, std::memory_order_relaxed);
    active_ = static_cast<int>(threads_.size());
    run_limit_ = threads;
    generation_++;
  }
  wake_.notify_all();
  if (beside) (*beside)();
  else run_tasks(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [&] { return active_ == 0; });
  body_ = nullptr;
}

}  // namespace v3d
