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

// The generation of the target in force (runtime/cpu.cpp): 0 until the runtime is initialised,
// then bumped each time the target changes (v3d_cpu_force_target()). Read it through
// cpu_target_generation().
extern std::atomic<uint64_t> g_cpu_generation;
// Initialises the runtime (first use) and returns the generation; out of line.
uint64_t cpu_target_generation_slow();

// Changes each time the SIMD target in force changes (first use, v3d_cpu_force_target()); never 0.
// Thread-safe. Inline, one acquire load once the runtime is initialised: the public per-block and
// per-edge functions reach their table through it on every call, so it must cost no call.
inline uint64_t cpu_target_generation() {
  const uint64_t g = g_cpu_generation.load(std::memory_order_acquire);
  return g ? g : cpu_target_generation_slow();
}

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

  const Dsp &get() {
    uint64_t g = cpu_target_generation();
    if (generation_.load(std::memory_order_acquire) != g) refill(g);
    return dsp_;
  }

  // The table if it is filled for the target in force, else nullptr (then get() refills it).
  // No call on any path: a per-call entry point that tail-calls a slot through it needs no
  // stack frame, where get()'s possible refill call makes the compiler save the caller's
  // arguments on every call. Such an entry point calls a cold copy of itself through get()
  // when this returns nullptr.
  const Dsp *current() const {
    const uint64_t g = g_cpu_generation.load(std::memory_order_acquire);
    return g != 0 && generation_.load(std::memory_order_acquire) == g ? &dsp_ : nullptr;
  }

 private:
  [[gnu::noinline]] void refill(uint64_t g) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation_.load(std::memory_order_relaxed) == g) return;
    init_ref_(&dsp_);
    cpu_fill_simd([](void *self) {
      auto *t = static_cast<DspTable *>(self);
      t->init_simd_(&t->dsp_);
    }, this);
    generation_.store(g, std::memory_order_release);
  }

  InitFn init_ref_;
  InitFn init_simd_;
  std::mutex mutex_;
  std::atomic<uint64_t> generation_{0};
  Dsp dsp_{};
};

}  // namespace v3d
