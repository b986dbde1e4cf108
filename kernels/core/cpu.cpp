// SPDX-License-Identifier: LGPL-2.1-or-later
#include "core/cpu.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <mutex>
#include <string>
#include <vector>

#include <hwy/targets.h>

#include "core/log.h"
#include "v3d/v3d.h"
#include "vp9/itx.h"
#include "vp9/lpf.h"
#include "h264/deblock.h"

namespace v3d {
namespace {

vp9::ItxDsp g_itx;
vp9::LpfDsp g_lpf;
h264::DeblockDsp g_deblock;
const char *g_target = "scalar";
std::once_flag g_once;

// Fills every table for the given Highway target bit, or with the references when target == 0.
void fill_tables(int64_t target) {
  vp9::itx_dsp_init_ref(&g_itx);
  vp9::lpf_dsp_init_ref(&g_lpf);
  h264::deblock_dsp_init_ref(&g_deblock);
  if (target == 0) {
    g_target = "scalar";
    return;
  }
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  vp9::itx_dsp_init_simd(&g_itx);
  vp9::lpf_dsp_init_simd(&g_lpf);
  h264::deblock_dsp_init_simd(&g_deblock);
  g_target = hwy::TargetName(target);
  hwy::SetSupportedTargetsForTest(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
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
    fill_tables(bit >= 0 ? bit : best_target());
  });
  g_ready.store(true, std::memory_order_release);
}

namespace vp9 {
const ItxDsp &itx_dsp() {
  cpu_init();
  return g_itx;
}
const LpfDsp &lpf_dsp() {
  cpu_init();
  return g_lpf;
}
}  // namespace vp9

namespace h264 {
const DeblockDsp &deblock_dsp() {
  cpu_init();
  return g_deblock;
}
}  // namespace h264

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
  v3d::fill_tables(bit);
  return 0;
}

const char *v3d_cpu_target(void) {
  v3d::cpu_init();
  return v3d::g_target;
}

void v3d_vp9_itxfm_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int tx_size,
                       int tx_type, int eob) {
  if (eob <= 0 || !v3d::vp9::valid_tx(tx_size, tx_type) || !dst || !coeffs) return;
  v3d::vp9::itx_dsp().add[tx_size][tx_type](dst, stride, coeffs, eob);
}

}  // extern "C"
