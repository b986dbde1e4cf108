// SPDX-License-Identifier: LGPL-2.1-or-later
#include "runtime/cpu.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <mutex>
#include <string>
#include <vector>

#include <hwy/targets.h>

#include "runtime/log.h"
#include "runtime/dsp_table.h"
#include "v3d/v3d.h"

namespace v3d {

// The generation of the target in force (runtime/dsp_table.h): the families' DspTables refill
// themselves when it moves; 0 until the first target is set.
std::atomic<uint64_t> g_cpu_generation{0};

namespace {

// The target in force (a Highway target bit, 0 = the scalar references).
int64_t g_bit = 0;
const char *g_target = "scalar";
std::once_flag g_once;
std::mutex g_fill_mutex;

void set_target(int64_t target) {
  g_bit = target;
  g_target = target == 0 ? "scalar" : hwy::TargetName(target);
  g_cpu_generation.fetch_add(1, std::memory_order_release);
}

// Highway targets compiled in and supported here, best first.
std::vector<int64_t> available_targets() {
  // Lowest bit first: Highway orders its targets so that a lower bit is a better target.
  return hwy::SupportedAndGeneratedTargets();
}

int64_t best_target() {
  auto t = available_targets();
  return t.empty() ? 0 : t.front();
}

}  // namespace

// Highway target bit of a name ("AVX2", "NEON", ...), 0 for "scalar", -1 if unavailable.
int64_t find_target(const char *name) {
  // "scalar" (lower case) is the references; Highway's own emulation target is "SCALAR".
  if (strcmp(name, "scalar") == 0) return 0;
  for (int64_t bit : available_targets())
    if (strcasecmp(name, hwy::TargetName(bit)) == 0 && strcmp(name, "scalar") != 0) return bit;
  return -1;
}

// Set once the tables are filled: the per-call cost of cpu_init() is then one acquire load
// (std::call_once alone cost about 15 ns a call, more than a 4x4 kernel).
static std::atomic<bool> g_ready{false};

void cpu_init() {
  if (g_ready.load(std::memory_order_acquire)) return;
  std::call_once(g_once, [] {
    const char *env = getenv("V3D_CPU_TARGET");
    int64_t bit = env && *env ? find_target(env) : -1;
    if (env && *env && bit < 0) log(kLogWarning, "V3D_CPU_TARGET=%s is not available here", env);
    set_target(bit >= 0 ? bit : best_target());
  });
  g_ready.store(true, std::memory_order_release);
}

uint64_t cpu_target_generation_slow() {
  cpu_init();
  return g_cpu_generation.load(std::memory_order_acquire);
}

void cpu_fill_simd(void (*fill)(void *arg), void *arg) {
  cpu_init();
  if (g_bit == 0) return;
  std::lock_guard<std::mutex> lock(g_fill_mutex);
  hwy::SetSupportedTargetsForTest(g_bit);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  fill(arg);
  hwy::SetSupportedTargetsForTest(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

}  // namespace v3d

extern "C" {

int v3d_cpu_targets(const char **names, int max) {
  auto t = v3d::available_targets();
  int n = 0;
  for (int64_t bit : t) {
    if (n < max && names) names[n] = hwy::TargetName(bit);
    n++;
  }
  if (n < max && names) names[n] = "scalar";
  return n + 1;
}

int v3d_cpu_force_target(const char *name) {
  v3d::cpu_init();
  int64_t bit = name && *name ? v3d::find_target(name) : v3d::best_target();
  if (bit < 0)
    return v3d::set_error(V3D_ERROR_UNAVAILABLE, "SIMD target '%s' is not available on this CPU",
                          name);
  v3d::set_target(bit);
  return 0;
}

const char *v3d_cpu_target(void) {
  v3d::cpu_init();
  return v3d::g_target;
}

}  // extern "C"
