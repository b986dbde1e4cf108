// SPDX-License-Identifier: LGPL-2.1-or-later
// test_vp9_itx's "saturate-and-detect" source (kernels/vp9/itx/itx_hwy_sat.h): 16x16 and 32x32
// blocks whose rows pass the row check and whose row results fail the per-pass L1 column check,
// so that the column pass runs in int16 with saturating operations and is taken iff no tracked
// value is 32767 or -32768; classified by an exact run of the reference's own 1-D code.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/test_util.h"
#include "common/vp9_itx_inputs.h"
#include "vp9/itx/itx_int16_bound.h"
#include "vp9/itx/itx_ref_1d.h"

namespace v3dtest {
namespace vp9sat {

using namespace v3dtest::vp9;

// Saturate-and-detect column passes (itx_hwy_sat.h): blocks whose rows pass the row check and
// whose row results fail the per-pass L1 column check take the column pass in int16 with
// saturating operations and accept it iff no tracked value is 32767 or -32768.

namespace sat {

// A value of the reference's 1-D code (its templates find these operations by argument-
// dependent lookup), computed exactly in int64. Narrow values (the results of additions,
// subtractions and negations of narrow values, and of every rnd14) are recorded in g_hi / g_lo.
// The 16-bit column pass takes its result when every narrow value of the reference's column
// transform lies in [-32767, 32766] (it forms the same values and none is extreme) and never
// when one leaves int16 (a saturation, which its tracking always detects); in between (an
// extreme value of exactly 32767 or -32768) it may do either, exactly both ways.
struct Obs {
  int64_t v;
  bool wide;
};
int64_t g_hi, g_lo;
// The first value outside int16 came from: 0 none, 1 an addition, subtraction or negation,
// 2 an rnd14 (a rounded product sum: a single rounded product cannot leave int16).
int g_first;
Obs note(Obs x, int kind) {
  if (!x.wide) {
    g_hi = std::max(g_hi, x.v);
    g_lo = std::min(g_lo, x.v);
    if (g_first == 0 && (x.v > 32767 || x.v < -32768)) g_first = kind;
  }
  return x;
}
Obs wadd(Obs a, Obs b) { return note({a.v + b.v, a.wide || b.wide}, 1); }
Obs wsub(Obs a, Obs b) { return note({a.v - b.v, a.wide || b.wide}, 1); }
Obs wneg(Obs a) { return note({-a.v, a.wide}, 1); }
Obs wmul(Obs a, int32_t k) { return {a.v * k, true}; }
Obs rnd14(Obs a) { return note({(a.v + 8192) >> 14, false}, 2); }

}  // namespace sat

// The extremes of the narrow values of the reference's column pass (row pass in int32, the
// reference's own) of a 16x16 or 32x32 block: *hi, *lo; *first: sat::g_first of its first
// column with a value outside int16 (0: none).
void column_extremes(const TxPair &p, const int16_t *coeffs, int64_t *hi, int64_t *lo,
                     int *first = nullptr) {
  namespace ref = v3d::vp9::ref;
  const int n = tx_n(p.tx_size);
  const bool row_adst = p.tx_type == 2 || p.tx_type == 3;
  const bool col_adst = p.tx_type == 1 || p.tx_type == 3;
  int32_t in[32], out[32], rows[32 * 32];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) in[j] = coeffs[i * n + j];
    if (n == 16) row_adst ? ref::iadst16(in, out) : ref::idct16(in, out);
    else ref::idct32(in, out);
    for (int j = 0; j < n; j++) rows[i * n + j] = out[j];
  }
  sat::g_hi = sat::g_lo = 0;
  sat::g_first = 0;
  for (int j = 0; j < n; j++) {
    sat::Obs ci[32], co[32];
    for (int i = 0; i < n; i++) ci[i] = sat::Obs{rows[i * n + j], false};
    if (n == 16) col_adst ? ref::iadst16(ci, co) : ref::idct16(ci, co);
    else ref::idct32(ci, co);
  }
  *hi = sat::g_hi;
  *lo = sat::g_lo;
  if (first) *first = sat::g_first;
}

// Cases of make_sat_coeffs on the saturate-and-detect path ([0] 16x16 DCT columns, [1] 32x32,
// [2] 16x16 ADST columns: row check passed, column check failed) by the reference's narrow
// column values: [0] all in [-32767, 32766] (the 16-bit result is taken), [1] one outside int16
// (a saturation: the 32-bit columns), [2] the extreme exactly 32767 or -32768 (no saturation,
// still the 32-bit columns).
int g_sat[3][3];
// Of class [1], the cases whose first value outside int16 is a rounded product sum (the
// saturating narrow of the 16-bit pass).
int g_sat_narrow[3];

// 16x16 and 32x32: a valid block (a forward transform of a random residual, as checkasm makes
// them) or a square corner of +-64 (random signs: outputs of every size, so errors show in
// unclipped pixels) scaled by s / 1024: by iteration, as made (s = 1024); the smallest s found
// by bisection whose column pass leaves int16 (one value just outside); the largest below it;
// the latter with its DC coefficient moved until a column value is 32767 or -32768 exactly
// (where one is found); 17/16 of the smallest (values well outside: a saturated value taken as
// exact changes pixels); for DCT_DCT and 16x16 ADST_DCT, a block whose first value outside
// int16 is a rounded product sum (below).
int make_sat_coeffs(Rng &rng, const TxPair &p, int it, int16_t *coeffs) {
  if (p.tx_size < 2) return make_valid_coeffs(rng, p.tx_size, p.tx_type, kCutFull, coeffs);
  const int n = tx_n(p.tx_size);
  const bool row_adst = p.tx_type >= 2, col_adst = p.tx_type == 1 || p.tx_type == 3;
  const int rb = v3d::vp9::kInt16BoundL1[p.tx_size][row_adst];
  const int cb = v3d::vp9::kInt16BoundL1[p.tx_size][col_adst];
  static const int kCuts[] = {kCutFull, kCutFull, kCutScan, kCutTopLeft8, kCutTopLeft16,
                              kCutFirstCol};
  int16_t base[kMaxCoeffs];
  auto new_base = [&] {
    if (rng.range(0, 1)) {
      make_valid_coeffs(rng, p.tx_size, p.tx_type, kCuts[rng.range(0, 5)], base);
    } else {  // +-64 with random signs in a random square corner
      const int corner = rng.range(2, n);
      std::fill(base, base + n * n, int16_t{0});
      for (int i = 0; i < corner; i++)
        for (int j = 0; j < corner; j++)
          base[i * n + j] = static_cast<int16_t>(rng.range(0, 1) ? 64 : -64);
    }
  };
  int64_t hi, lo;
  int first = 0;
  auto with = [&](int64_t s) {
    for (int k = 0; k < n * n; k++) {
      const int64_t v = (base[k] * s + (s > 0 ? 512 : -512)) / 1024;
      coeffs[k] = static_cast<int16_t>(std::max<int64_t>(-32768, std::min<int64_t>(32767, v)));
    }
    column_extremes(p, coeffs, &hi, &lo, &first);
    return hi > 32767 || lo < -32768;  // a value leaves int16
  };
  // The smallest scale whose column pass leaves int16 (bisection), 0 if none up to 1024 times.
  auto smallest_out = [&]() -> int64_t {
    if (!with(1 << 20)) return 0;
    int64_t a = 0, b = 1 << 20;  // with(a) false, with(b) true
    while (b - a > 1) {
      const int64_t m = (a + b) / 2;
      (with(m) ? b : a) = m;
    }
    return b;
  };
  new_base();
  const int mode = it % 6;
  int64_t b = mode == 0 || mode == 5 ? 0 : smallest_out();
  const bool adst_dct16 = p.tx_type == 1 && n == 16;
  if (mode == 5 && (p.tx_type == 0 || adst_dct16)) {
    // DCT_DCT or ADST_DCT whose column inputs leave int16 first in a rounded product sum (the
    // saturating narrow), from up to 4000 random draws: rows k of kRows with only a DC
    // coefficient c_k, so that every column's input k is x_k = R(c_k cos64(16)) (|c_k| <= 23180:
    // within the row check). For the DCT the inputs k are those of one stage-2 pair of
    // rotations of the odd half; for the ADST every input (its first stage rounds sums of four
    // products).
    static const int kRows32[4] = {1, 31, 17, 15}, kRows16[4] = {1, 15, 9, 7};
    static const int kAll16[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const int *rows = adst_dct16 ? kAll16 : n == 32 ? kRows32 : kRows16;
    const int nr = adst_dct16 ? 16 : 4;
    for (int tries = 0; tries < 4000; tries++) {
      sat::Obs ci[32], co[32];
      for (auto &v : ci) v = sat::Obs{0, false};
      for (int k = 0; k < nr; k++) ci[rows[k]].v = rng.range(-16390, 16390);
      sat::g_first = 0;
      if (n == 32) v3d::vp9::ref::idct32(ci, co);
      else if (adst_dct16) v3d::vp9::ref::iadst16(ci, co);
      else v3d::vp9::ref::idct16(ci, co);
      if (sat::g_first != 2) continue;
      std::fill(coeffs, coeffs + n * n, int16_t{0});
      for (int k = 0; k < nr; k++) {
        const int64_t x = ci[rows[k]].v;
        int c = static_cast<int>(x * 16384 / 11585);
        while (((c * 11585 + 8192) >> 14) < x) c++;
        while (((c * 11585 + 8192) >> 14) > x) c--;
        coeffs[rows[k] * n] = static_cast<int16_t>(c);
      }
      column_extremes(p, coeffs, &hi, &lo, &first);
      b = -1;
      break;
    }
  }
  if (b == 0) {
    with(1024);
  } else if (b > 0) {
    with(mode == 1 ? b : mode == 4 ? b * 17 / 16 : b - 1);
    if (mode == 3) {
      const int16_t dc = coeffs[0];
      for (int d = 1; d <= 600 && hi != 32767 && lo != -32768; d++) {
        const int v = dc + (d % 2 ? (d + 1) / 2 : -(d / 2));
        if (v < -32768 || v > 32767) continue;
        coeffs[0] = static_cast<int16_t>(v);
        column_extremes(p, coeffs, &hi, &lo);
      }
      if (hi != 32767 && lo != -32768) coeffs[0] = dc;
      column_extremes(p, coeffs, &hi, &lo);
    }
  }
  const BlockShape shape = block_shape(coeffs, n);
  const int eob = shape.eob, extent = shape.extent, rmax = shape.rmax;
  if (extent > 1 && rmax <= rb && column_sum_max(p, coeffs) > cb) {
    const int cls = hi > 32767 || lo < -32768 ? 1 : hi == 32767 || lo == -32768 ? 2 : 0;
    const int q = p.tx_size == 3 ? 1 : col_adst ? 2 : 0;
    g_sat[q][cls]++;
    if (cls == 1 && first == 2) g_sat_narrow[q]++;
  }
  return eob;
}


// Prints the classes reached (per target: nt targets ran the same inputs) and fails unless
// every one was.
void report(int nt) {
  static const char *const kName[3] = {"16x16 DCT", "32x32 DCT", "16x16 ADST"};
  for (int q = 0; q < 3; q++) {
    printf("%s saturate-and-detect columns: %d exact in 16-bit, %d saturating (%d first in a "
           "narrowing), %d at 32767/-32768 exactly (per target)\n", kName[q],
           g_sat[q][0] / nt, g_sat[q][1] / nt, g_sat_narrow[q] / nt, g_sat[q][2] / nt);
  }
  for (int q = 0; q < 3; q++) {
    check(g_sat[q][0] > 0 && g_sat[q][1] > 0 && g_sat[q][2] > 0 && g_sat_narrow[q] > 0,
          "%s saturate-and-detect classes %d / %d / %d, wanted every class", kName[q],
          g_sat[q][0], g_sat[q][1], g_sat[q][2]);
  }
}

}  // namespace vp9sat
}  // namespace v3dtest
