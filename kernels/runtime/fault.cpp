// SPDX-License-Identifier: LGPL-2.1-or-later
#include "runtime/fault.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/log.h"

namespace v3d {
namespace {

constexpr int kNumFaults = static_cast<int>(Fault::kCount);
const char *const kNames[kNumFaults] = {"no-loader",   "no-device", "device-lost", "submit-lost",
                                        "gpu-timeout", "gpu-alloc", "thread",    "host-uncached",
                                        "lpf-stall"};
// Faults that keep failing after the n-th occurrence (no device stays no device, memory stays
// exhausted); the others fail once (a lost Gpu is never used again anyway).
constexpr bool kSticky[kNumFaults] = {false, true, false, false, false, true, false, true, false};

struct Plan {
  bool any = false;
  long at[kNumFaults] = {};  // 0: off; else the occurrence that fails
  std::atomic<long> count[kNumFaults] = {};
};

Plan *parse() {
  auto *plan = new Plan();  // never freed: read by any thread until exit
  const char *env = getenv("V3D_FAULT");
  if (!env || !*env) return plan;
  std::string spec(env);
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t end = spec.find(',', pos);
    if (end == std::string::npos) end = spec.size();
    std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    long n = 1;
    size_t colon = item.find(':');
    if (colon != std::string::npos) {
      n = strtol(item.c_str() + colon + 1, nullptr, 10);
      item.resize(colon);
    }
    int k = 0;
    while (k < kNumFaults && item != kNames[k]) k++;
    if (k == kNumFaults || n < 1) {
      log(kLogWarning, "V3D_FAULT: ignoring '%s' (kinds: no-loader, no-device, device-lost, "
          "submit-lost, gpu-timeout, gpu-alloc, thread, host-uncached, lpf-stall; n >= 1)",
          item.c_str());
      continue;
    }
    plan->at[k] = n;
    plan->any = true;
    log(kLogInfo, "V3D_FAULT: %s at occurrence %ld", kNames[k], n);
  }
  return plan;
}

}  // namespace

bool fault_hit(Fault f) {
  static Plan *plan = parse();
  if (!plan->any) return false;
  const int k = static_cast<int>(f);
  if (!plan->at[k]) return false;
  const long n = plan->count[k].fetch_add(1, std::memory_order_relaxed) + 1;
  const bool hit = kSticky[k] ? n >= plan->at[k] : n == plan->at[k];
  if (hit) log(kLogDebug, "V3D_FAULT: injecting %s (occurrence %ld)", kNames[k], n);
  return hit;
}

}  // namespace v3d
