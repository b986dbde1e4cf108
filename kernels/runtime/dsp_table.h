// SPDX-License-Identifier: LGPL-2.1-or-later
// One kernel family's DSP table (a struct of function pointers), filled with the family's scalar
// references and then overridden slot by slot by the SIMD target in force (runtime/cpu.cpp). The
// runtime knows no family: each family owns one DspTable<Its Dsp> and its accessor
// (`const ItxDsp &itx_dsp()`), so a new family joins without touching the runtime.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace v3d {

// Changes each time the SIMD target in force changes (first use, v3d_cpu_force_target()); never 0.
// Thread-safe; one acquire load once the runtime is initialised.
uint64_t cpu_target_generation();
// The value cpu_target_generation() returns, read without initialising the runtime: 0 before
// the first target is set (runtime/cpu.cpp writes it). For DspTable's fast path only.
extern std::atomic<uint64_t> g_cpu_target_generation;

// Calls fill(arg) with Highway's chosen target set to the target in force, so that the fill's
// HWY_DYNAMIC_DISPATCH picks that target's functions. Does nothing when the target in force is
// "scalar" (the references alone). Serialised with other fills; not for kernels' hot paths.
void cpu_fill_simd(void (*fill)(void *arg), void *arg);

// Thread-safe: get() refills the table once after each target change; the table's address never
// changes, so a caller may keep the reference (v3d_cpu_force_target() is not thread-safe anyway).
template <class Dsp>
class DspTable {
 public:
  using InitFn = void (*)(Dsp *);
  constexpr DspTable(InitFn init_ref, InitFn init_simd) : init_ref_(init_ref), init_simd_(init_simd) {}
  DspTable(const DspTable &) = delete;
  DspTable &operator=(const DspTable &) = delete;

  // The fast path is two loads and a compare, inlined into per-edge and per-block entry points;
  // the refill stays out of line so that those entry points need no stack frame for it.
  const Dsp &get() {
    if (__builtin_expect(generation_.load(std::memory_order_acquire) ==
                             g_cpu_target_generation.load(std::memory_order_acquire), 1))
      return dsp_;
    return refill();
  }

  // The table when it is current, else nullptr (get() then refills it). For entry points that
  // tail-call a separate out-of-line path for the refill, so that they need no stack frame.
  const Dsp *current() const {
    return generation_.load(std::memory_order_acquire) ==
                   g_cpu_target_generation.load(std::memory_order_acquire)
               ? &dsp_
               : nullptr;
  }

 private:
  // kUnfilled never equals a generation, not even the 0 before the runtime is initialised.
  static constexpr uint64_t kUnfilled = ~uint64_t{0};

  [[gnu::noinline]] const Dsp &refill() {
    const uint64_t g = cpu_target_generation();  // initialises the runtime on first use
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation_.load(std::memory_order_relaxed) == g) return dsp_;
    init_ref_(&dsp_);
    cpu_fill_simd([](void *self) {
      auto *t = static_cast<DspTable *>(self);
      t->init_simd_(&t->dsp_);
    }, this);
    generation_.store(g, std::memory_order_release);
    return dsp_;
  }

  InitFn init_ref_;
  InitFn init_simd_;
  std::mutex mutex_;
  std::atomic<uint64_t> generation_{kUnfilled};
  Dsp dsp_{};
};

}  // namespace v3d
