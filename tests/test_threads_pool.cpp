// SPDX-License-Identifier: LGPL-2.1-or-later
// ThreadPool (threads/thread_pool.h) on random loops: every task runs exactly once, on a thread
// index within the loop's limit (set_limit, max_threads); beside() runs once, on the calling
// thread, while other threads take the tasks, and before the calling thread takes any (then_tasks,
// or a pool of one thread); run() returns only after every task has finished
// (each task's effect is checked at once after the call). Loops come back to back (threads still
// spinning), after sleeps longer than the spin (threads asleep), and from two threads at once
// (run() serializes them), with spin times of 0 (sleep at once), short, and long; pools are
// destroyed while their threads spin or sleep. Prints the seed of a failing case.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/test_util.h"
#include "threads/thread_pool.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;

namespace {

// The loop whose run() is in progress (-1: none); a task of another loop running is a failure
// (a thread that joined a loop late must never run its body after run() returned).
std::atomic<int> g_current_loop{-1};
std::atomic<int> g_stale_tasks{0};
std::mutex g_check_mutex;  // check() is not thread-safe; two threads call run() in one_case

// One loop on pool; checks it. Returns false on a failure. check_stale: whether this is the only
// thread calling run() (then g_current_loop names the loop).
bool one_loop(v3d::ThreadPool &pool, Rng &rng, uint64_t seed, int loop, bool check_stale = true) {
  const int n_tasks = rng.range(0, 3) == 0 ? rng.range(0, 3) : rng.range(1, 300);
  const int max_threads = rng.range(0, 3) == 0 ? rng.range(1, pool.capacity() + 1) : 0;
  const bool use_beside = rng.range(0, 3) == 0;
  const bool then_tasks = use_beside && rng.range(0, 1) == 1;
  const int allowed = max_threads > 0 ? std::min(pool.size(), max_threads) : pool.size();
  std::vector<std::atomic<int>> runs(static_cast<size_t>(n_tasks));
  for (auto &r : runs) r.store(0);
  std::atomic<int> bad_thread{-1}, beside_runs{0};
  std::atomic<bool> beside_other_thread{false}, beside_done{false}, caller_task_early{false};
  const std::thread::id caller = std::this_thread::get_id();
  const int work = rng.range(0, 2000);
  const int id = (static_cast<int>(seed & 0xFFFF) << 12) + loop;
  const std::function<void(int, int)> body = [&, id](int task, int thread) {
    if (check_stale && g_current_loop.load() != id) g_stale_tasks.fetch_add(1);
    if (thread < 0 || thread >= allowed) bad_thread.store(thread);
    if (thread == 0 && use_beside && !beside_done.load()) caller_task_early.store(true);
    volatile int x = 0;
    for (int k = 0; k < work; k++) x = x + k;
    runs[task].fetch_add(1, std::memory_order_relaxed);
  };
  const std::function<void()> beside = [&] {
    beside_runs.fetch_add(1);
    if (std::this_thread::get_id() != caller) beside_other_thread.store(true);
    beside_done.store(true);
  };
  if (check_stale) g_current_loop.store(id);
  pool.run(n_tasks, body, use_beside ? &beside : nullptr, max_threads, then_tasks);
  if (check_stale) g_current_loop.store(-1);
  std::lock_guard<std::mutex> lock(g_check_mutex);
  int wrong = 0;
  for (int t = 0; t < n_tasks; t++) wrong += runs[t].load(std::memory_order_relaxed) != 1;
  bool ok = check(wrong == 0, "seed 0x%" PRIx64 " loop %d: %d of %d tasks did not run exactly once "
                  "(pool %d threads, max_threads %d, beside %d, then tasks %d)", seed, loop, wrong,
                  n_tasks, pool.size(), max_threads, use_beside, then_tasks);
  ok &= check(bad_thread.load() < 0, "seed 0x%" PRIx64 " loop %d: thread index %d outside 0..%d",
              seed, loop, bad_thread.load(), allowed - 1);
  if (use_beside) {
    ok &= check(beside_runs.load() == 1 && !beside_other_thread.load(),
                "seed 0x%" PRIx64 " loop %d: beside ran %d times%s", seed, loop, beside_runs.load(),
                beside_other_thread.load() ? ", not on the calling thread" : "");
    ok &= check(!caller_task_early.load(),
                "seed 0x%" PRIx64 " loop %d: the calling thread ran a task before beside returned "
                "(then tasks %d)", seed, loop, then_tasks);
  }
  return ok;
}

void one_case(uint64_t seed) {
  Rng rng(seed);
  const int threads = rng.range(1, 12);
  static const int spins[] = {0, 1, 20, 50, 3000};
  const int spin = spins[rng.range(0, 4)];
  auto pool = std::make_unique<v3d::ThreadPool>(threads, spin);
  if (!check(pool->spin_us() == spin, "seed 0x%" PRIx64 ": spin %d, asked for %d", seed,
             pool->spin_us(), spin))
    return;
  const int loops = rng.range(1, 40);
  // Some loops inside a hot scope (threads spin between them), some outside (they sleep at once).
  std::unique_ptr<v3d::PoolHot> hot;
  for (int l = 0; l < loops; l++) {
    if (rng.range(0, 3) == 0) {
      if (hot) hot.reset();
      else hot.reset(new v3d::PoolHot(*pool));
    }
    if (rng.range(0, 4) == 0) pool->set_limit(rng.range(0, threads));
    const int gap = rng.range(0, 5);
    if (gap == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng.range(1, 4000)));
    const bool ok = one_loop(*pool, rng, seed, l);
    pool->set_limit(0);
    if (!ok) return;
  }
  // Two threads calling run() at once: serialized, each loop whole.
  if (rng.range(0, 1)) {
    Rng a(seed ^ 0xA5A5), b(seed ^ 0x5A5A);
    std::thread other([&] {
      for (int l = 0; l < 10; l++) one_loop(*pool, a, seed ^ 0xA5A5, 1000 + l, false);
    });
    for (int l = 0; l < 10; l++) one_loop(*pool, b, seed ^ 0x5A5A, 2000 + l, false);
    other.join();
  }
  // Destroyed while its threads spin (at once) or sleep (after the spin).
  if (rng.range(0, 1)) std::this_thread::sleep_for(std::chrono::microseconds(spin + 200));
  hot.reset();  // a hold ends before its pool
  pool.reset();
}

}  // namespace

// SideThread: each posted job runs exactly once, on the side thread, and has returned when
// wait() returns; posts come back to back, after sleeps (the thread asleep), and with the
// waiter spinning (spin_us > 0) or sleeping at once (0); a pool loop runs meanwhile, as in a
// frame's validation beside the GPU's submission.
void side_thread_case(uint64_t seed) {
  Rng rng(seed);
  const int spin = rng.range(0, 1) ? 0 : 50;
  v3d::SideThread side(spin);
  v3d::ThreadPool pool(rng.range(1, 6), spin);
  if (!check(side.running(), "seed 0x%" PRIx64 ": the side thread did not start", seed)) return;
  const std::thread::id caller = std::this_thread::get_id();
  for (int j = 0; j < 60; j++) {
    std::atomic<int> runs{0}, finished{0};
    std::atomic<bool> on_caller{false};
    const int work = rng.range(0, 3000);
    const bool nap = rng.range(0, 9) == 0;  // (drawn here: the job runs beside this thread)
    const std::function<void()> job = [&] {
      runs.fetch_add(1);
      if (std::this_thread::get_id() == caller) on_caller.store(true);
      volatile int x = 0;
      for (int k = 0; k < work; k++) x = x + k;
      if (nap) std::this_thread::sleep_for(std::chrono::microseconds(200));
      finished.store(1);
    };
    if (rng.range(0, 3) == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng.range(1, 3000)));
    side.post(&job);
    if (rng.range(0, 1)) {
      std::atomic<int> tasks{0};
      pool.run(rng.range(1, 50), [&](int, int) { tasks.fetch_add(1); });
    }
    side.wait();
    if (!check(runs.load() == 1 && finished.load() == 1 && !on_caller.load(),
               "seed 0x%" PRIx64 " job %d: ran %d times, %s, %s", seed, j, runs.load(),
               finished.load() ? "finished" : "not finished before wait() returned",
               on_caller.load() ? "on the calling thread" : "on the side thread"))
      return;
  }
  side.wait();  // none pending: returns at once
}

int main() {
  const uint64_t seed0 = v3dtest::base_seed();
  const int cases = v3dtest::scaled(150);
  for (int i = 0; i < cases; i++) one_case(seed0 + 0x9E3779B97F4A7C15ull * (i + 1));
  for (int i = 0; i < v3dtest::scaled(12); i++) side_thread_case(seed0 ^ (0xC2B2AE3D27D4EB4Full * (i + 1)));
  // The environment's spin: V3D_POOL_SPIN_US when valid, else the default.
  setenv("V3D_POOL_SPIN_US", "7", 1);
  check(v3d::ThreadPool(2).spin_us() == 7, "V3D_POOL_SPIN_US=7 not taken");
  setenv("V3D_POOL_SPIN_US", "-3", 1);
  check(v3d::ThreadPool(2).spin_us() == v3d::ThreadPool::kDefaultSpinUs,
        "V3D_POOL_SPIN_US=-3 not refused");
  setenv("V3D_POOL_SPIN_US", "12x", 1);
  check(v3d::ThreadPool(2).spin_us() == v3d::ThreadPool::kDefaultSpinUs,
        "V3D_POOL_SPIN_US=12x not refused");
  unsetenv("V3D_POOL_SPIN_US");
  check(v3d::ThreadPool(2).spin_us() == v3d::ThreadPool::kDefaultSpinUs, "default spin");
  check(v3d::ThreadPool(2, 0).spin_us() == 0, "explicit spin 0");
  setenv("V3D_POOL_SPIN_US", "", 1);  // empty: as if unset
  check(v3d::ThreadPool(2).spin_us() == v3d::ThreadPool::kDefaultSpinUs, "V3D_POOL_SPIN_US empty");
  unsetenv("V3D_POOL_SPIN_US");
  // A context's default worker count: V3D_CPU_THREADS when valid, else online cores - 1 (cpu).
  const int default_threads = std::max(1, v3d::online_cores() - 1);
  const struct {
    const char *value;  // nullptr: unset
    int threads;
  } env_cases[] = {{"3", 3}, {"1", 1}, {nullptr, default_threads}, {"", default_threads},
                   {"0", default_threads}, {"1025", default_threads}, {"4x", default_threads},
                   {"x", default_threads}, {"-2", default_threads}};
  for (const auto &c : env_cases) {
    if (c.value) setenv("V3D_CPU_THREADS", c.value, 1);
    else unsetenv("V3D_CPU_THREADS");
    V3dContext *ctx = v3d_context_new("simd", 0);
    check(ctx && v3d_context_cpu_threads(ctx) == c.threads, "V3D_CPU_THREADS=%s: %d threads, want %d",
          c.value ? c.value : "(unset)", ctx ? v3d_context_cpu_threads(ctx) : -1, c.threads);
    v3d_context_free(ctx);
    // The context's own count wins over the environment.
    ctx = v3d_context_new("simd", 2);
    check(ctx && v3d_context_cpu_threads(ctx) == 2, "cpu_threads 2 with V3D_CPU_THREADS=%s",
          c.value ? c.value : "(unset)");
    v3d_context_free(ctx);
  }
  unsetenv("V3D_CPU_THREADS");
  check(g_stale_tasks.load() == 0, "%d tasks ran outside their loop's run() call",
        g_stale_tasks.load());
  return v3dtest::finish();
}
