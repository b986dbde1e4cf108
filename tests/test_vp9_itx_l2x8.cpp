// SPDX-License-Identifier: LGPL-2.1-or-later
// 8x8 blocks of every type built to wrap int16 in one pass of a 16-bit path, each behind
// exactly one of the checks by squares of kernels/vp9/itx/itx_hwy_8x8_zmm.h (and of the other
// targets' per-pass checks), so that a path which skipped that check would differ from the
// reference. With D[j][k] = (k == 0 ? sqrt(1/2) : cos((2j + 1) k pi / 16)) the inverse DCT's
// matrix and A[j][k] = sin((2j + 1)(2k + 1) pi / 32) the inverse ADST's (both satisfy
// M M^T = 4 I), a row of coefficients x M[j] / 4 has the row results x at j and about 0 elsewhere.
//  * row wrap, DCT rows: one row with in0 = in4 = +-32767, in2 = +-32767, in6 = +-13573 (in2 /
//    in6 near cos64(8) / cos64(24), so that s2 is about 0): in int16, s0 and s3 saturate to 32767
//    and e0 = s0 + s3 wraps to -2 while the row's other outputs are about 0, so the wrong row
//    results would pass every column check; the reference's are near 80000. The row check fails.
//  * row wrap, ADST rows: one row a * A[0] with a near 20000, along which s0 = s4 and s2 = s6
//    (s1 = s5 and s3 = s7 about 0): u0 = R(s0 + s4) and u2 = R(s2 + s6) are about 2a, saturate
//    in int16, and a0 = u0 + u2 wraps to -2 with the other outputs about 0 (the reference's out0
//    is about 4a).
//  * column wrap: row i = v_i * M[j] / 4 for one j, so column j's inputs are v. DCT columns:
//    v_i = a for i < 4, a near 10000 (out0 = e0 + t7 is about 3.4a > 32767 and wraps in int16).
//    ADST columns: v = a * A[0] with a near 11000 (u0 and u2 about 2a, a0 = u0 + u2 about 4a
//    wraps). Every row's squares stay within its check (at most half of them in one lane pair of
//    two rows with row results below 12000), column j's exceed the column check's.
// Both entries, every target, against the reference.
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

// Row j of the inverse DCT's (adst false) or ADST's matrix, word k.
double basis(bool adst, int j, int k) {
  if (adst) return std::sin((2 * j + 1) * (2 * k + 1) * M_PI / 32);
  return k == 0 ? std::sqrt(0.5) : std::cos((2 * j + 1) * k * M_PI / 16);
}

// kind 0: row wrap, 1: column wrap, for the row and column transforms given.
void make_block(Rng &rng, int kind, bool row_adst, bool col_adst, int16_t *c) {
  for (int i = 0; i < 64; i++) c[i] = static_cast<int16_t>(rng.range(-3, 3));
  const int s = rng.range(0, 1) ? 1 : -1;
  if (kind == 0) {
    const int r = rng.range(0, 7);
    static const int kRow[8] = {32767, 0, 32767, 0, 32767, 0, 13573, 0};
    const double a = rng.range(19000, 20400);
    for (int k = 0; k < 8; k++) {
      c[8 * r + k] = static_cast<int16_t>(row_adst ? std::lround(s * a * basis(true, 0, k))
                                                   : s * kRow[k]);
    }
    return;
  }
  const int j = rng.range(0, 7);
  const double a = col_adst ? rng.range(10500, 11500) : rng.range(10000, 10800);
  for (int i = 0; i < 8; i++) {
    const double v = col_adst ? a * basis(true, 0, i) : (i < 4 ? a : 0);
    for (int k = 0; k < 8; k++) {
      c[8 * i + k] = static_cast<int16_t>(std::lround(s * v * basis(row_adst, j, k) / 4));
    }
  }
}

}  // namespace

void test_8x8_square_checks() {
  each_target_cases(scaled(64), [](const char *target, int it) {
    const uint64_t seed = case_seed(it);
    Rng rng(seed);
    int16_t c[64];
    const int kind = it % 2, type = (it / 2) % 4;  // DCT_DCT, ADST_DCT, DCT_ADST, ADST_ADST
    make_block(rng, kind, type & 2, type & 1, c);
    uint8_t init[8 * 8], want[8 * 8];
    for (uint8_t &p : init) p = static_cast<uint8_t>(rng.u32() >> 24);
    std::memcpy(want, init, sizeof want);
    v3d_vp9_itxfm_add_ref(want, 8, c, 1, type, 64);
    for (int e = 0; e < 2; e++) {
      uint8_t got[8 * 8];
      std::memcpy(got, init, sizeof got);
      if (e == 0) v3d_vp9_itxfm_add(got, 8, c, 1, type, 64);
      else v3d_vp9_itxfm_add_exact_eob(got, 8, c, 1, type, 64);
      if (std::memcmp(got, want, sizeof got) != 0) {
        static const char *const kType[4] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST"};
        return check(false, "%s 8x8 %s %s wrap, %s entry, iteration %d: differs from the "
                     "reference (case seed 0x%" PRIx64 ")", target, kType[type],
                     kind ? "column" : "row", e ? "exact-eob" : "hint", it, seed);
      }
    }
    return true;
  });
}

}  // namespace vp9l2
}  // namespace v3dtest
