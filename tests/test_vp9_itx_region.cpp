// SPDX-License-Identifier: LGPL-2.1-or-later
// test_vp9_itx's block-class test: the fast paths' choice of block class (DC only, the 2x2 /
// 4x4 / 8x8 / 16x16 top-left squares) against every position of a coefficient outside it. Each
// case is a random small top-left square (inside every 16-bit bound, so the 16-bit and corner
// paths run) plus one probe coefficient at one position of the block, every position in turn;
// a kernel that classified the block by a square not holding the probe would drop it. Every
// SIMD target this CPU has, every valid (tx_size, tx_type), against the scalar reference, with
// the true eob, eob 1 and the largest eob that still asks for the classification (n*n/2).
// V3D_TEST_SEED changes the inputs (test_vp9_itx prints the seed).
#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_itx_inputs.h"
#include "v3d/v3d.h"

namespace v3dtest {
namespace vp9region {

using namespace v3dtest::vp9;

namespace {

constexpr int kStride = 40;  // > 32: a guard column right of every block

// Seed of one (target, pair, side, position) case, printed on failure.
uint64_t case_seed(int a, int b, int c, int d) {
  uint64_t h = v3dtest::base_seed() ^ 0x7265676Eull;
  for (int v : {a, b, c, d}) h = (h ^ static_cast<uint64_t>(v + 1)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

// Runs one block on the current target against the reference; counts probes that changed no
// pixel of the reference's output in *inert (such a case cannot catch a dropped probe).
bool run_case(const char *target, const TxPair &p, int side, int pos, int *inert) {
  const int n = tx_n(p.tx_size);
  const uint64_t seed = case_seed(p.tx_size, p.tx_type, side, pos);
  Rng rng(seed);
  std::vector<int16_t> coeffs(n * n, 0);
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++) coeffs[i * n + j] = static_cast<int16_t>(rng.range(-8, 8));
  if (coeffs[0] == 0) coeffs[0] = 5;
  const int probe = rng.range(64, 256) * (rng.range(0, 1) ? 1 : -1);
  std::vector<uint8_t> init((n + 1) * kStride);
  for (auto &v : init) v = static_cast<uint8_t>(rng.range(48, 208));  // no clamping at 0 / 255

  std::vector<uint8_t> without = init;
  v3d_vp9_itxfm_add_ref(without.data(), kStride, coeffs.data(), p.tx_size, p.tx_type, n * n);
  coeffs[pos] = static_cast<int16_t>(coeffs[pos] + probe);
  std::vector<uint8_t> want = init;
  v3d_vp9_itxfm_add_ref(want.data(), kStride, coeffs.data(), p.tx_size, p.tx_type, n * n);
  if (want == without) ++*inert;

  int last = 0;
  for (int k = 0; k < n * n; k++)
    if (coeffs[k]) last = k + 1;
  const int eobs[3] = {last, 1, n * n / 2};
  for (int eob : eobs) {
    std::vector<uint8_t> got = init;
    v3d_vp9_itxfm_add(got.data(), kStride, coeffs.data(), p.tx_size, p.tx_type, eob);
    if (got == want) continue;
    const size_t bad = static_cast<size_t>(
        std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin());
    check(false,
          "%s %s, corner %d, probe %d at (%d, %d), eob %d: pixel (%zu, %zu) = %d, reference %d "
          "(case seed 0x%" PRIx64 ")",
          target, tx_name(p.tx_size, p.tx_type), side, probe, pos / n, pos % n, eob,
          bad / kStride, bad % kStride, got[bad], want[bad], seed);
    return false;
  }
  return true;
}

}  // namespace

// Every target, every pair, every probe position (called by test_vp9_itx's main).
void test_positions() {
  const char *names[32];
  const int nt = std::min(v3d_cpu_targets(names, 32), 32);
  for (int t = 0; t < nt; t++) {
    if (!check(v3d_cpu_force_target(names[t]) == 0, "v3d_cpu_force_target(%s)", names[t]))
      continue;
    int cases = 0, failed = 0, inert = 0;
    for (const TxPair &p : kTxPairs) {
      const int n = tx_n(p.tx_size);
      for (int side : {1, 2, 4, 8, 16}) {
        if (side > n / 2 && side > 1) continue;
        for (int pos = 0; pos < n * n; pos++) {
          const bool ok = run_case(names[t], p, side, pos, &inert);
          if (ok) v3dtest::counter().passed++;
          failed += !ok;
          cases++;
        }
      }
    }
    printf("block classes, target %-8s %d cases x 3 eob values, %d failed, %d probes changing "
           "no pixel\n",
           names[t], cases, failed, inert);
    // A probe that changes nothing tests nothing: nearly every one must show.
    check(inert * 100 < cases, "%s: %d of %d probes change no pixel", names[t], inert, cases);
  }
  v3d_cpu_force_target(nullptr);
}

}  // namespace vp9region
}  // namespace v3dtest
