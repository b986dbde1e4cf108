// SPDX-License-Identifier: LGPL-2.1-or-later
// store_before_load (threads/store_load.h) on the store-buffering litmus test: two threads each
// store to their own flag and then load the other's; at least one of them must see the other's
// store. The pool, the wavefront and the decoder's filter rows depend on it to never miss a
// sleeper. Two pairings, as the library uses them: store_before_load on both sides, and
// store_before_load against a fetch_add. Natively this holds for plain seq_cst stores as well;
// the run that matters is the aarch64 build under qemu-user, where plain seq_cst stores fail it
// (their count is printed for information, not checked: real hardware gives 0).
#include <atomic>
#include <cstdio>
#include <thread>

#include "common/test_util.h"
#include "threads/store_load.h"
#include "threads/thread_pool.h"

using v3dtest::check;

namespace {

enum class Pair { kBothHelper, kHelperAgainstRmw, kBothPlainStore };

std::atomic<int> g_x{0}, g_y{0};

// Spins for the value, yielding now and then so that the two threads may share one core.
void wait_for(const std::atomic<int> &a, int v) {
  for (unsigned i = 1; a.load(std::memory_order_acquire) != v; i++) {
    v3d::cpu_relax();
    if ((i & 63) == 0) std::this_thread::yield();
  }
}

void store_side(std::atomic<int> &a, Pair p) {
  if (p == Pair::kBothPlainStore) a.store(1, std::memory_order_seq_cst);
  else v3d::store_before_load(a, 1);
}

// Runs `rounds` rounds; returns how many ended with both loads reading 0.
int both_zero_rounds(Pair p, int rounds) {
  std::atomic<int> start{-1}, finished{-1};
  int r2 = 0;
  std::thread other([&] {
    for (int i = 0; i < rounds; i++) {
      wait_for(start, i);
      if (p == Pair::kHelperAgainstRmw) g_y.fetch_add(1, std::memory_order_seq_cst);
      else store_side(g_y, p);
      r2 = g_x.load(std::memory_order_seq_cst);
      finished.store(i, std::memory_order_release);
    }
  });
  int both = 0;
  for (int i = 0; i < rounds; i++) {
    g_x.store(0, std::memory_order_relaxed);
    g_y.store(0, std::memory_order_relaxed);
    start.store(i, std::memory_order_seq_cst);
    store_side(g_x, p);
    const int r1 = g_y.load(std::memory_order_seq_cst);
    wait_for(finished, i);
    if (r1 == 0 && r2 == 0) both++;
  }
  other.join();
  return both;
}

}  // namespace

int main() {
  const int rounds = v3dtest::scaled(100000);
  const int helper = both_zero_rounds(Pair::kBothHelper, rounds);
  check(helper == 0, "store_before_load on both sides: both loads read 0 in %d of %d rounds",
        helper, rounds);
  const int rmw = both_zero_rounds(Pair::kHelperAgainstRmw, rounds);
  check(rmw == 0, "store_before_load against fetch_add: both loads read 0 in %d of %d rounds", rmw,
        rounds);
  const int plain = both_zero_rounds(Pair::kBothPlainStore, rounds);
  printf("for information: plain seq_cst stores let both loads read 0 in %d of %d rounds\n", plain,
         rounds);
  printf("store_before_load: %d + %d rounds, no reordering seen\n", rounds, rounds);
  return v3dtest::finish();
}
