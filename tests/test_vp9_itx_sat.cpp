// SPDX-License-Identifier: LGPL-2.1-or-later
// test_vp9_itx's "saturate-and-detect" source (kernels/vp9/itx/itx_hwy_sat.h): 16x16 and 32x32
// blocks whose rows pass the row check and whose row results fail the per-pass L1 column check,
// so that the column pass runs in int16 with saturating operations and is taken iff no tracked
// value is 32767 or -32768; classified by an exact run of the reference's own 1-D code.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/test_util.h"
#include "common/vp9_itx_inputs.h"
#include "vp9/itx/itx_int16_bound.h"
#include "vp9/itx/itx_ref_1d.h"

namespace v3dtest {
namespace vp9halves {
int make_halves16_coeffs(Rng &rng, const vp9::TxPair &p, int it, int16_t *coeffs);
}  // namespace vp9halves
namespace vp9adst16 {
int make_adst16_coeffs(Rng &rng, const vp9::TxPair &p, int it, int16_t *coeffs);
}  // namespace vp9adst16
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
  bool by_c16 = false;  // a product x * cos64(16): x is an input of the 16-bit templates' H
  int64_t factor = 0;   // x
};
int64_t g_hi, g_lo;
// The extremes of the inputs of the rounded products rnd14(x * cos64(16)) (H).
int64_t g_h_hi, g_h_lo;
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
Obs wmul(Obs a, int32_t k) { return {a.v * k, true, k == v3d::vp9::ref::kCos64[16], a.v}; }
Obs rnd14(Obs a) {
  if (a.by_c16) {
    g_h_hi = std::max(g_h_hi, a.factor);
    g_h_lo = std::min(g_h_lo, a.factor);
  }
  return note({(a.v + 8192) >> 14, false}, 2);
}

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

// The AVX3_DL 32x32 DCT_DCT checks by sums of squares (itx_hwy_32.h), by the square a block
// occupies (kSquares32, square32_index: 8, 12, 16, 20, 24, 32): g_rows32[sq] its rows [0]
// within RowPairsWithinL2 (rows 2j, 2j + 1 together within kInt16BoundL2x32), [1] outside it
// but within the L1 row check, [2] outside both; g_cols32[sq - 2] (squares 16, 20, 24, 32, rows within a check) its columns by
// ColsClass32 on the reference's row results: [0] class 0 (within kInt16BoundL2x32), [1] class 1
// (within kInt16BoundL2x32Halves) with every input of a rounding multiply by cos64(16) in
// [-32767, 32766] (the pass tracking those is taken), [2] class 1 with one outside (its
// tracking rejects it), [3] class 2; reported for the squares ColsClass32 checks (16, 20, 24).
int g_rows32[6][3];
int g_cols32[4][4];

void note_squares32(const int16_t *coeffs) {
  namespace ref = v3d::vp9::ref;
  if (block_shape(coeffs, 32).extent <= 1) return;
  const int sq = square32_index(coeffs);
  const int64_t b2 = int64_t{v3d::vp9::kInt16BoundL2x32} * v3d::vp9::kInt16BoundL2x32;
  bool pairs = true, l1 = true;
  int64_t rows[32][32];
  for (int i = 0; i < 32; i += 2) {
    int64_t sq_sum = 0;
    for (int r = i; r < i + 2; r++) {
      int32_t in[32], out[32];
      int64_t abs_sum = 0;
      for (int j = 0; j < 32; j++) {
        in[j] = coeffs[r * 32 + j];
        sq_sum += int64_t{in[j]} * in[j];
        abs_sum += std::abs(in[j]);
      }
      l1 = l1 && abs_sum <= v3d::vp9::kInt16BoundL1[3][0];
      ref::idct32(in, out);
      for (int j = 0; j < 32; j++) rows[r][j] = out[j];
    }
    pairs = pairs && sq_sum <= b2;
  }
  g_rows32[sq][pairs ? 0 : l1 ? 1 : 2]++;
  if (sq < 2 || !(pairs || l1)) return;
  const int64_t be = v3d::vp9::kInt16BoundL2x32Halves[0], bo = v3d::vp9::kInt16BoundL2x32Halves[1];
  bool all = true, halves = true;
  for (int j = 0; j < 32; j++) {
    int64_t e = 0, o = 0;
    for (int r = 0; r < 32; r++) (r % 2 ? o : e) += rows[r][j] * rows[r][j];
    all = all && e + o <= b2;
    halves = halves && e <= be * be && o <= bo * bo;
  }
  int cls = all ? 0 : halves ? 1 : 3;
  if (cls == 1) {
    sat::g_h_hi = sat::g_h_lo = 0;
    for (int j = 0; j < 32; j++) {
      sat::Obs ci[32], co[32];
      for (int r = 0; r < 32; r++) ci[r] = sat::Obs{rows[r][j], false};
      ref::idct32(ci, co);
    }
    if (sat::g_h_hi > 32766 || sat::g_h_lo < -32767) cls = 2;
  }
  g_cols32[sq - 2][cls]++;
}

namespace {

// Row k of the 32-point DCT's output forms restricted to the inputs of one parity (odd: 1 or
// 0) below nz: a[j] ~ d out[k] / d in[j], from the reference on one input of 2^14 at a time
// (its products stay inside int32).
void output_form(int k, int odd, int nz, double *a) {
  for (int j = 0; j < 32; j++) {
    a[j] = 0;
    if (j % 2 != odd || j >= nz) continue;
    int32_t in[32] = {}, out[32];
    in[j] = 1 << 14;
    v3d::vp9::ref::idct32(in, out);
    a[j] = out[k] / double(1 << 14);
  }
}

}  // namespace

// A 32x32 DCT_DCT block straddling the row-pair check (RowPairsWithinL2): row 0 along the
// 32-point DCT's output form k (|a|_2 = 4.0, the largest) with its root sum of squares within
// 1 % of kInt16BoundL2x32, the other rows zero, so that row 0's result k reaches 32767 (or just
// does not): a pair check admitting more would run that row in int16 past its range. Its
// |coefficients| sum far above the L1 row bound, which therefore rejects it as well.
void make_row_pair32_coeffs(Rng &rng, int16_t *coeffs) {
  double a[32], sq = 0;
  const int k = rng.range(0, 31);
  for (int j = 0; j < 32; j++) {
    int32_t in[32] = {}, out[32];
    in[j] = 1 << 14;
    v3d::vp9::ref::idct32(in, out);
    a[j] = out[k] / double(1 << 14);
    sq += a[j] * a[j];
  }
  const double s = v3d::vp9::kInt16BoundL2x32 * (0.99 + 0.02 * rng.range(0, 1000) / 1000.0);
  std::fill(coeffs, coeffs + 32 * 32, int16_t{0});
  for (int j = 0; j < 32; j++) coeffs[j] = static_cast<int16_t>(std::lround(s * a[j] / std::sqrt(sq)));
}

// 32x32 DCT_DCT blocks whose columns straddle the halves' bounds (kInt16BoundL2x32Halves,
// checked on the 16x16, 20x20, 24x24 and 32x32 squares) where a value they exempt or bound is
// largest: only the coefficients (r, 0), r < nz (32 when (it / 16) % 3 == 2; else mode 0: 16,
// 24 or 20 by it / 16 and it / 48, (r, 0) for r < 20 lying in square32_index's 20x20 prefix;
// else 24), are non-zero, so that every column's input r is x_r = R(c_r cos64(16)) (|c_r| <= 23170: within
// the row checks). By mode = (it / 4) % 4 (3: make_row_pair32_coeffs): [0] the odd inputs along
// output k's odd form (k = 4, 6, 8, 10: the odd half's value there is a rounding multiply by
// cos64(16), whose input is about 1.41 times as large; the forms restricted to 16 inputs still
// have |a|_2 > 2.05) with their root sum of squares 0.985-0.998 B_o: an input of H leaves
// int16; [1] the even inputs along output k's even form (k = 0 or 31: |a|_2 = 2.78 over the 12
// even inputs below 24, so its value reaches 32767 from 1.018 B_e on) with theirs at 0.99-1.06
// B_e, and the odd inputs the other way along its odd form, 0.94 times as far, so that output
// k is 6 % of the even half's value while the odd half's stays inside int16 (a saturated even
// value would change output k, and not clip it away); [2] the same with the halves swapped
// (the odd half's value there is a stage-6 sum: 2.79, from 1.015 B_o on).
void make_halves32_coeffs(Rng &rng, int it, int16_t *coeffs) {
  const int mode = (it / 4) % 4;
  if (mode == 3) return make_row_pair32_coeffs(rng, coeffs);
  // 32 one time in three; of the rest, mode 0 takes 16, 24 and 20 in turn, the others 24.
  const int c3 = (it / 16) % 3;
  const int nz = c3 == 2 ? 32 : mode != 0 ? 24 : c3 == 1 ? 16 : (it / 48) % 2 ? 20 : 24;
  const int be = v3d::vp9::kInt16BoundL2x32Halves[0], bo = v3d::vp9::kInt16BoundL2x32Halves[1];
  int k;
  if (mode == 0) k = 4 + 2 * rng.range(0, 3);
  else k = rng.range(0, 1) ? 0 : 31;
  double even[32], odd[32], x[32];
  output_form(k, 0, nz, even);
  output_form(k, 1, nz, odd);
  auto norm = [](const double *a) {
    double s = 0;
    for (int j = 0; j < 32; j++) s += a[j] * a[j];
    return std::sqrt(s);
  };
  const double ne = norm(even), no = norm(odd);
  const double t = 0.99 + 0.07 * rng.range(0, 1000) / 1000.0;  // 0.99-1.06 of the bound
  double se, so;
  if (mode == 0 && nz == 32 && (it / 48) % 2) {
    // Inside the 32-point L2 bound's reach only with the even part: S_e + S_o above
    // kInt16BoundL2x32^2, each half within its bound, the inputs of H near 0.55-0.69 of 32767.
    se = rng.range(3000, 4000);
    so = bo * (0.55 + 0.14 * rng.range(0, 1000) / 1000.0);
  } else if (mode == 0) {
    se = rng.range(0, 4000);
    so = bo * (0.985 + 0.013 * rng.range(0, 1000) / 1000.0);
  } else if (mode == 1) {
    se = be * t;
    so = -0.94 * se * ne / no;  // output k: 6 % of the even half's value
  } else {
    so = bo * t;
    se = -0.94 * so * no / ne;
  }
  for (int j = 0; j < 32; j++) x[j] = j % 2 ? so * odd[j] / no : se * even[j] / ne;
  std::fill(coeffs, coeffs + 32 * 32, int16_t{0});
  for (int r = 0; r < nz; r++) {
    const int64_t want = std::llround(x[r]);
    int c = static_cast<int>(want * 16384 / 11585);
    while (((int64_t{c} * 11585 + 8192) >> 14) < want) c++;
    while (((int64_t{c} * 11585 + 8192) >> 14) > want) c--;
    coeffs[r * 32] = static_cast<int16_t>(std::max(-23170, std::min(23170, c)));
  }
}

// Prints the classes of note_squares32 reached and fails unless every one was.
void report_squares32(int nt) {
  const int *kSide = kSquares32;
  for (int q = 0; q < 6; q++) {
    printf("32x32 %2dx%-2d rows by squares: %d pairs within, %d L1 only, %d outside (per target)\n",
           kSide[q], kSide[q], g_rows32[q][0] / nt, g_rows32[q][1] / nt, g_rows32[q][2] / nt);
    check(g_rows32[q][0] > 0 && g_rows32[q][1] > 0 && g_rows32[q][2] > 0,
          "32x32 %dx%d rows by squares: classes %d / %d / %d, wanted every class", kSide[q],
          kSide[q], g_rows32[q][0], g_rows32[q][1], g_rows32[q][2]);
  }
  for (int q = 0; q < 4; q++) {  // the squares whose columns are classed by squares
    const int side = kSide[q + 2];
    printf("32x32 %2dx%-2d columns by squares: %d within the L2 bound, %d within the halves' "
           "(%d of them rejected by H tracking), %d outside (per target)\n", side, side,
           g_cols32[q][0] / nt, (g_cols32[q][1] + g_cols32[q][2]) / nt, g_cols32[q][2] / nt,
           g_cols32[q][3] / nt);
    const bool every =
        g_cols32[q][0] > 0 && g_cols32[q][1] > 0 && g_cols32[q][2] > 0 && g_cols32[q][3] > 0;
    check(every, "32x32 %dx%d columns by squares: classes %d / %d / %d / %d, wanted every class",
          side, side, g_cols32[q][0], g_cols32[q][1], g_cols32[q][2], g_cols32[q][3]);
  }
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
  if (p.tx_size == 2 && (p.tx_type == 0 || p.tx_type == 2) && it % 8 == 7)
    return vp9halves::make_halves16_coeffs(rng, p, it, coeffs);  // test_vp9_itx_halves16.cpp
  if (p.tx_size == 2 && (p.tx_type == 1 || p.tx_type == 3) && it % 8 == 6)
    return vp9adst16::make_adst16_coeffs(rng, p, it, coeffs);  // test_vp9_itx_adst16.cpp
  if (p.tx_size == 3 && p.tx_type == 0 && it % 4 == 3) {
    make_halves32_coeffs(rng, it, coeffs);
    return block_shape(coeffs, 32).eob;
  }
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
