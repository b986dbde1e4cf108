// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench --section pool: what a loop of the CPU worker pool (threads/thread_pool.h) costs beyond
// its tasks' work, with its threads spinning between the loops of a call (the default) and
// sleeping at once (spin 0): back to back inside one call, as the loops of one frame's call
// follow each other; one loop after an idle gap long enough for every thread to be asleep (a
// pipeline's frame's first loop); and a call of three loops after such a gap. Then the VP9
// transforms' per-frame configurations with each kind of pool.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "threads/thread_pool.h"

namespace v3dbench {

void bench_pool(const Options &opt, Json &json) {
  const int threads = opt.threads > 0 ? opt.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const int spins[] = {v3d::ThreadPool::kDefaultSpinUs, 0};
  const int loops = opt.quick ? 200 : 4000, gaps = opt.quick ? 20 : 200;
  json.begin_object("pool");
  json.num("threads", threads);
  printf("\nWorker pool, %d threads, one 2-us task per thread: us per loop (ideal 2), median / p99\n",
         threads);
  printf("%-12s %22s %22s %26s\n", "pool", "back to back", "after 2 ms idle",
         "3 loops after 2 ms idle");
  std::vector<std::unique_ptr<v3d::ThreadPool>> pools;
  for (int spin : spins) pools.emplace_back(new v3d::ThreadPool(threads, spin));
  std::atomic<int> sink{0};
  // Each task works for 2 us (so that the calling thread cannot run a loop's tasks alone before
  // the others wake): a loop's ideal time is 2 us.
  const std::function<void(int, int)> body = [&](int, int) {
    const auto t0 = Clock::now();
    while (since(t0) < 2e-6) {
    }
    sink.fetch_add(1, std::memory_order_relaxed);
  };
  // [pool][measure]: 0 back to back, 1 one loop after a gap, 2 three loops after a gap.
  std::vector<double> times[2][3];
  // Interleaved: each round runs every pool's measurements in turn.
  const int rounds = 10;
  for (int r = 0; r < rounds; r++)
    for (size_t k : visit_order(2, r)) {
      v3d::ThreadPool &pool = *pools[k];
      {
        v3d::PoolHot hot(pool);  // as inside one long call
        for (int i = 0; i < loops / rounds; i++) {
          const auto t0 = Clock::now();
          pool.run(threads, body);
          times[k][0].push_back(since(t0));
        }
      }
      for (int i = 0; i < gaps / rounds; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        auto t0 = Clock::now();
        pool.run(threads, body);
        times[k][1].push_back(since(t0));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        t0 = Clock::now();
        {
          v3d::PoolHot hot(pool);  // a call of three loops
          for (int l = 0; l < 3; l++) pool.run(threads, body);
        }
        times[k][2].push_back(since(t0));
      }
    }
  static const char *keys[] = {"back_to_back_us", "after_idle_us", "three_after_idle_us"};
  json.begin_array("pools");
  for (int k = 0; k < 2; k++) {
    char name[32];
    snprintf(name, sizeof name, "spin %d us", spins[k]);
    printf("%-12s", name);
    json.begin_object();
    json.num("spin_us", spins[k]);
    for (int m = 0; m < 3; m++) {
      const Stats s = stats_of(times[k][m]);
      printf(" %*s%9.1f / %9.1f", m == 2 ? 4 : 0, "", s.median * 1e6, s.p99 * 1e6);
      json.begin_object(keys[m]);
      json.num("median", s.median * 1e6);
      json.num("p99", s.p99 * 1e6);
      json.end_object();
    }
    printf("\n");
    json.end_object();
  }
  json.end_array();
  if (sink.load() <= 0) printf("(no task ran)\n");
  bench_vp9_itx_pool_ab(opt, json);
  json.end_object();
}

}  // namespace v3dbench
