// SPDX-License-Identifier: LGPL-2.1-or-later
// The store of a "store, then load another variable" pair (Dekker's pattern: publish progress,
// then look for sleepers; announce a sleep, then look at the condition), which needs the store
// ordered before the load.
//
// Contract: store_before_load(a, v) stores v into a such that a later sequentially consistent
// load by this thread of any other atomic cannot be satisfied before the store is visible to
// other threads. The other side of the pair must order its own store (or read-modify-write)
// before its load the same way.
//
// Why not a plain seq_cst store: the C++ memory model already forbids that reordering, and real
// hardware honours it (x86 compiles the store as xchg; AArch64's stlr is ordered before a later
// ldar). But qemu-user, which runs this project's aarch64 test suite on x86 hosts, translates
// stlr and ldar with barriers that leave the host free to let the load pass the buffered store:
// a store-buffering litmus test of seq_cst store + load under qemu-aarch64 saw both loads read
// the old value in about 1 % of rounds, so a waker could miss a sleeper and a wave of worker
// threads sleep forever (docs/reliability.md). A read-modify-write (swpal, or an exclusive
// pair) is translated into a host atomic instruction, a full barrier on x86, and costs on real
// AArch64 about what the release store did.
#pragma once

#include <atomic>

namespace v3d {

template <class T>
inline void store_before_load(std::atomic<T> &a, T v) {
  a.exchange(v, std::memory_order_seq_cst);
}

}  // namespace v3d
