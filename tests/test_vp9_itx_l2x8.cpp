// SPDX-License-Identifier: LGPL-2.1-or-later
// 8x8 DCT_DCT blocks built to wrap int16 in one pass of a 16-bit path, each behind exactly one
// of the checks by squares of kernels/vp9/itx/itx_hwy_8x8_zmm.h (and of the other targets'
// per-pass checks), so that a path which skipped that check would differ from the reference:
//  * row wrap: one row with in0 = in4 = +-32767, in2 = +-32767, in6 = +-13573 (in2 / in6 near
//    cos64(8) / cos64(24), so that s2 is about 0): in int16, s0 and s3 saturate to 32767 and
//    e0 = s0 + s3 wraps to -2 while the row's other outputs are about 0, so the wrong row
//    results would pass every column check; the reference's are near 80000. The row check fails.
//  * column wrap: rows 0, 2, 4, 6 = a * (row j of the 8-point inverse DCT) with a up to 4095,
//    so every lane of the row check by squares holds at most 8190^2 (it passes) and column j's
//    inputs 0, 2, 4, 6 are all about 4a: its e0 = s0 + s3 is about 2.7 * 4a > 32767 (wraps in
//    int16). The column check fails.
// Both entries, every target, against the reference.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/test_util.h"
#include "v3d/vp9_itx.h"

namespace v3dtest {
namespace vp9l2 {

namespace {

// Seed of one case, printed on failure (V3D_TEST_SEED=... reproduces the whole run).
uint64_t case_seed(int it) {
  const uint64_t h = (base_seed() ^ static_cast<uint64_t>(it + 0x3011)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

// kind 0: row wrap, 1: column wrap.
void make_block(Rng &rng, int kind, int16_t *c) {
  for (int i = 0; i < 64; i++) c[i] = static_cast<int16_t>(rng.range(-3, 3));
  const int s = rng.range(0, 1) ? 1 : -1;
  if (kind == 0) {
    const int r = rng.range(0, 7);
    static const int kRow[8] = {32767, 0, 32767, 0, 32767, 0, 13573, 0};
    for (int k = 0; k < 8; k++) c[8 * r + k] = static_cast<int16_t>(s * kRow[k]);
    return;
  }
  const int j = rng.range(0, 7);
  const double a = rng.range(3900, 4095);
  for (int r = 0; r < 8; r += 2) {
    for (int k = 0; k < 8; k++) {
      const double m = k == 0 ? std::sqrt(0.5) : std::cos((2 * j + 1) * k * M_PI / 16);
      c[8 * r + k] = static_cast<int16_t>(std::lround(s * a * m));
    }
  }
}

}  // namespace

void test_8x8_square_checks() {
  const char *names[32];
  const int nt = std::min(v3d_cpu_targets(names, 32), 32);
  const int count = scaled(64);
  for (int t = 0; t < nt; t++) {
    if (v3d_cpu_force_target(names[t]) != 0) continue;  // reported by test_targets
    int bad = 0;
    for (int it = 0; it < count && bad == 0; it++) {
      const uint64_t seed = case_seed(it);
      Rng rng(seed);
      int16_t c[64];
      const int kind = it % 2;
      make_block(rng, kind, c);
      uint8_t init[8 * 8], want[8 * 8];
      for (uint8_t &p : init) p = static_cast<uint8_t>(rng.u32() >> 24);
      std::memcpy(want, init, sizeof want);
      v3d_vp9_itxfm_add_ref(want, 8, c, 1, 0, 64);
      for (int e = 0; e < 2; e++) {
        uint8_t got[8 * 8];
        std::memcpy(got, init, sizeof got);
        if (e == 0) v3d_vp9_itxfm_add(got, 8, c, 1, 0, 64);
        else v3d_vp9_itxfm_add_exact_eob(got, 8, c, 1, 0, 64);
        if (std::memcmp(got, want, sizeof got) != 0) {
          bad++;
          check(false, "%s 8x8 DCT_DCT %s wrap, %s entry, iteration %d: differs from the "
                "reference (case seed 0x%" PRIx64 ")", names[t], kind ? "column" : "row",
                e ? "exact-eob" : "hint", it, seed);
          break;
        }
      }
    }
    if (bad == 0) counter().passed++;
  }
  v3d_cpu_force_target(nullptr);
}

}  // namespace vp9l2
}  // namespace v3dtest
