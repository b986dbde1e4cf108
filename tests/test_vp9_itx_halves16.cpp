// SPDX-License-Identifier: LGPL-2.1-or-later
// test_vp9_itx's source of 16x16 blocks whose DCT columns lie in the halves' class of the AVX3_DL
// zmm path (DctColumnsClass, itx_hwy_16x16_zmm_dct.h; HalvesOps, itx_hwy_16x16_zmm.h): every
// column's even rows' squares sum to at most B_e^2 and its odd rows' to at most B_o^2
// (kInt16BoundL2x16Halves), not all within kInt16BoundL2x16[0]. The column pass there tracks
// only the inputs of the odd half's rounding multiplies by cos64(16) and lets the outputs
// saturate; the blocks reach each outcome of that, and the halves' bounds from both sides.
// Classified by an exact run of the reference's own 1-D code.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_itx_inputs.h"
#include "vp9/itx/itx_int16_bound.h"
#include "vp9/itx/itx_ref_1d.h"

namespace v3dtest {
namespace vp9halves {

using namespace v3dtest::vp9;
namespace ref = v3d::vp9::ref;

namespace obs {

// A value of the reference's 1-D code, exact in int64 (its templates find these operations by
// argument-dependent lookup); g_h collects the inputs of every rnd14(x * cos64(16)) in order.
struct Val {
  int64_t v;
  int64_t c16_of = INT64_MIN;  // a product x * cos64(16): x
};
std::vector<int64_t> g_h;
Val wadd(Val a, Val b) { return {a.v + b.v}; }
Val wsub(Val a, Val b) { return {a.v - b.v}; }
Val wneg(Val a) { return {-a.v}; }
Val wmul(Val a, int32_t k) { return {a.v * k, k == ref::kCos64[16] ? a.v : INT64_MIN}; }
Val rnd14(Val a) {
  if (a.c16_of != INT64_MIN) g_h.push_back(a.c16_of);
  return {(a.v + 8192) >> 14};
}

}  // namespace obs

namespace {

constexpr int kHalves[2] = {v3d::vp9::kInt16BoundL2x16Halves[0],
                            v3d::vp9::kInt16BoundL2x16Halves[1]};

// The reference's 16-point DCT of x exactly: *h its multiplies' inputs, out its outputs.
void dct16(const int64_t *x, std::vector<int64_t> *h, int64_t *out) {
  obs::Val in[16], o[16];
  for (int i = 0; i < 16; i++) in[i] = obs::Val{x[i]};
  obs::g_h.clear();
  ref::idct16(in, o);
  *h = obs::g_h;
  for (int i = 0; i < 16; i++) out[i] = o[i].v;
}

// Unit-free forms over the 16 inputs (d value / d in[j], from inputs of 2^14): output k's
// (outs[k]) and every multiply input's (hs[m]).
struct Forms {
  double outs[16][16];
  std::vector<std::vector<double>> hs;
  Forms() {
    for (int j = 0; j < 16; j++) {
      int64_t x[16] = {}, out[16];
      x[j] = 1 << 14;
      std::vector<int64_t> h;
      dct16(x, &h, out);
      hs.resize(h.size(), std::vector<double>(16, 0.0));
      for (int k = 0; k < 16; k++) outs[k][j] = out[k] / 16384.0;
      for (size_t m = 0; m < h.size(); m++) hs[m][j] = h[m] / 16384.0;
    }
  }
};
const Forms &forms() {
  static const Forms f;
  return f;
}

// v restricted to the inputs of one parity (odd: 1 or 0), scaled to root sum of squares s
// (v zero there: a random direction).
void along(Rng &rng, const double *v, int odd, double s, double *x) {
  double d[16], n = 0;
  for (int j = 0; j < 16; j++) {
    d[j] = j % 2 != odd ? 0 : v ? v[j] : rng.range(-1000, 1000);
    n += d[j] * d[j];
  }
  for (int j = odd; j < 16; j += 2) x[j] = n > 0 ? s * d[j] / std::sqrt(n) : 0;
}

// The row results of coefficients c in row r (the others zero) under the row transform.
void row_results(bool adst, int c, int64_t *out) {
  int32_t in[16] = {}, o[16];
  in[0] = c;
  adst ? ref::iadst16(in, o) : ref::idct16(in, o);
  for (int j = 0; j < 16; j++) out[j] = o[j];
}

double frac(Rng &rng) { return rng.range(0, 1000) / 1000.0; }

}  // namespace

// A 16x16 block non-zero only in column 0 whose every column's inputs (row results) follow x:
// row r's coefficient (within the row transform's L1 bound) is such that its row result in the
// column where the row transform's impulse response is largest is about x_r; rows: the
// reference's row results.
void column0_block(bool row_adst, const double *x, int16_t *coeffs, int64_t (*rows)[16]) {
  int64_t g[16];
  row_results(row_adst, 1 << 14, g);
  int jmax = 0;
  for (int j = 1; j < 16; j++)
    if (std::llabs(g[j]) > std::llabs(g[jmax])) jmax = j;
  const int rb = v3d::vp9::kInt16BoundL1[2][row_adst];
  std::fill(coeffs, coeffs + 256, int16_t{0});
  for (int r = 0; r < 16; r++) {
    const double c = std::round(x[r] * 16384.0 / static_cast<double>(g[jmax]));
    coeffs[r * 16] = static_cast<int16_t>(std::max<double>(-rb, std::min<double>(rb, c)));
    row_results(row_adst, coeffs[r * 16], rows[r]);
  }
}

// By class of the block's columns, for DCT_DCT ([0]) and DCT_ADST ([1]): within the halves
// (class 1 of DctColumnsClass) with [0] every multiply input and output inside int16, [1] an
// output outside (saturated: the pixel clamps as the reference's does), the multiply inputs in
// [-32767, 32766] (the 16-bit pass is taken), [2] a multiply input outside that (the pass
// rejects the block); [3] class 1 with a half's sum above 0.97 of its bound, [4] class 2 with
// both halves' sums below 1.03 of theirs.
int g_halves16[2][5];

// A 16x16 DCT_DCT or DCT_ADST block (p) non-zero only in column 0, whose every column's inputs
// (row results) follow x: row r's coefficient c_r is such that its row result in the column
// where the row transform's impulse response is largest is about x_r (the other columns get
// smaller multiples for ADST rows). By mode = (it / 8) % 4: [0] the odd inputs along a
// multiply input's form with root sum of squares 0.75-1.0 B_o (that input, |a|_2 about 2.8,
// leaves int16), the even ones small; [1] the even inputs along output k's even form at
// 0.93-1.0 B_e and the odd ones along its odd form at 4000-8000, the same sign: output k leaves
// int16, the multiply inputs stay inside; [2] the even inputs at 11700-14500 and the odd ones
// within 1500 in random directions: every value inside; [3] the even inputs along output k's
// even form at 0.97-0.995 B_e or (every other time) 1.005-1.03 B_e and the odd ones the other
// way along its odd form so that output k is 6 % of the even half's value (a value of that half
// saturated where the halves' check admitted a block above its bound would change output k,
// and not clip it away).
int make_halves16_coeffs(Rng &rng, const TxPair &p, int it, int16_t *coeffs) {
  const bool row_adst = p.tx_type == 2;
  const Forms &f = forms();
  const int mode = (it / 8) % 4;
  double x[16] = {};
  if (mode == 0) {
    std::vector<int> odd_h;
    for (size_t m = 0; m < f.hs.size(); m++)
      if (f.hs[m][0] == 0 && f.hs[m][2] == 0 && f.hs[m][4] == 0) odd_h.push_back(int(m));
    const int m = odd_h[rng.range(0, int(odd_h.size()) - 1)];
    along(rng, f.hs[m].data(), 1, kHalves[1] * (0.75 + 0.25 * frac(rng)), x);
    along(rng, nullptr, 0, rng.range(0, 4000), x);
  } else if (mode == 1) {
    const int k = rng.range(0, 15), sign = rng.range(0, 1) ? 1 : -1;
    along(rng, f.outs[k], 0, sign * kHalves[0] * (0.93 + 0.07 * frac(rng)), x);
    along(rng, f.outs[k], 1, sign * rng.range(4000, 8000), x);
  } else if (mode == 2) {
    along(rng, nullptr, 0, rng.range(11700, 14500), x);
    along(rng, nullptr, 1, rng.range(0, 1500), x);
  } else {
    const int k = rng.range(0, 15);
    double ne = 0, no = 0;
    for (int j = 0; j < 16; j++) (j % 2 ? no : ne) += f.outs[k][j] * f.outs[k][j];
    const double t = (it / 32) % 2 ? 1.005 + 0.025 * frac(rng) : 0.97 + 0.025 * frac(rng);
    const double se = kHalves[0] * t;
    along(rng, f.outs[k], 0, se, x);
    along(rng, f.outs[k], 1, -0.94 * se * std::sqrt(ne / no), x);
  }
  // The class the kernel takes, from the reference's row results.
  int64_t rows[16][16];
  column0_block(row_adst, x, coeffs, rows);
  const int64_t b2 = int64_t{v3d::vp9::kInt16BoundL2x16[0]} * v3d::vp9::kInt16BoundL2x16[0];
  const int64_t be2 = int64_t{kHalves[0]} * kHalves[0], bo2 = int64_t{kHalves[1]} * kHalves[1];
  bool all = true, halves = true;
  double ratio = 0;  // the largest S_e / B_e^2 or S_o / B_o^2
  bool h_out = false, out_out = false;
  for (int j = 0; j < 16; j++) {
    int64_t col[16], se = 0, so = 0;
    for (int r = 0; r < 16; r++) {
      col[r] = rows[r][j];
      (r % 2 ? so : se) += col[r] * col[r];
    }
    all = all && se + so <= b2;
    halves = halves && se <= be2 && so <= bo2;
    ratio = std::max({ratio, double(se) / double(be2), double(so) / double(bo2)});
    std::vector<int64_t> h;
    int64_t out[16];
    dct16(col, &h, out);
    for (int64_t v : h) h_out = h_out || v > 32766 || v < -32767;
    for (int64_t v : out) out_out = out_out || v > 32767 || v < -32768;
  }
  const int q = row_adst ? 1 : 0;
  if (!all && halves) {
    g_halves16[q][h_out ? 2 : out_out ? 1 : 0]++;
    if (ratio > 0.97 * 0.97) g_halves16[q][3]++;
  } else if (!halves && ratio <= 1.03 * 1.03) {
    g_halves16[q][4]++;
  }
  return block_shape(coeffs, 16).eob;
}

// Prints the classes reached (per target: nt targets ran the same inputs) and fails unless
// every one was.
void report_halves16(int nt) {
  static const char *const kName[2] = {"DCT_DCT", "DCT_ADST"};
  for (int q = 0; q < 2; q++) {
    const int *c = g_halves16[q];
    printf("16x16 %s columns by halves: %d inside int16, %d with outputs outside, %d with a "
           "multiply input outside (rejected); %d near a half's bound, %d just above "
           "(per target)\n", kName[q], c[0] / nt, c[1] / nt, c[2] / nt, c[3] / nt, c[4] / nt);
    check(c[0] > 0 && c[1] > 0 && c[2] > 0 && c[3] > 0 && c[4] > 0,
          "16x16 %s columns by halves: classes %d / %d / %d / %d / %d, wanted every class",
          kName[q], c[0], c[1], c[2], c[3], c[4]);
  }
}

}  // namespace vp9halves
}  // namespace v3dtest
