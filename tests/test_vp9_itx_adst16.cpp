// SPDX-License-Identifier: LGPL-2.1-or-later
// test_vp9_itx's source of 16x16 blocks whose ADST columns (ADST_DCT, ADST_ADST) lie in class 1
// of the AVX3_DL zmm path (AdstColumnsClass and AdstHalvesOps, itx_hwy_16x16_zmm_adst.h): every
// column's inputs' squares sum to at most kInt16BoundL2x16Adst[0]^2, not all to
// kInt16BoundL2x16[1]^2. The column pass there narrows the first two stages' rounded sums by
// wrapping, checks the halves of the first stage against kInt16BoundL2x16Adst[1], tracks only
// the inputs of the final multiplies by +-cos64(16) and lets the outputs saturate; the blocks
// reach each outcome of that, and both bounds from both sides. Classified by an exact run of
// the reference's own 1-D code.
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
void column0_block(bool row_adst, const double *x, int16_t *coeffs, int64_t (*rows)[16]);
}  // namespace vp9halves
namespace vp9adst16 {

using namespace v3dtest::vp9;
namespace ref = v3d::vp9::ref;

namespace obs {

// A value of the reference's 1-D code, exact in int64 (its templates find these operations by
// argument-dependent lookup); g_rnd collects every rnd14 result in order, g_h the inputs of
// every multiply by +-cos64(16).
struct Val {
  int64_t v;
  bool c16 = false;  // a product by +-cos64(16)
  int64_t of = 0;    // its factor
};
std::vector<int64_t> g_rnd, g_h;
Val wadd(Val a, Val b) { return {a.v + b.v}; }
Val wsub(Val a, Val b) { return {a.v - b.v}; }
Val wneg(Val a) { return {-a.v}; }
Val wmul(Val a, int32_t k) {
  const bool c16 = k == ref::kCos64[16] || k == -ref::kCos64[16];
  return {a.v * k, c16, a.v};
}
Val rnd14(Val a) {
  if (a.c16) g_h.push_back(a.of);
  const int64_t r = (a.v + 8192) >> 14;
  g_rnd.push_back(r);
  return {r};
}

}  // namespace obs

namespace {

constexpr int kA = v3d::vp9::kInt16BoundL2x16Adst[0], kB = v3d::vp9::kInt16BoundL2x16Adst[1];

// The reference's 16-point ADST of x exactly: *rnd every rounded value in order (x0, x8, x1,
// x9, ... first: the first stage; then v0..v7), *h the final multiplies' inputs, out its
// outputs.
void adst16(const int64_t *x, std::vector<int64_t> *rnd, std::vector<int64_t> *h,
            int64_t *out) {
  obs::Val in[16], o[16];
  for (int i = 0; i < 16; i++) in[i] = obs::Val{x[i]};
  obs::g_rnd.clear();
  obs::g_h.clear();
  ref::iadst16(in, o);
  *rnd = obs::g_rnd;
  *h = obs::g_h;
  for (int i = 0; i < 16; i++) out[i] = o[i].v;
}

// Unit-free forms over the 16 inputs (d value / d in[j], from inputs of 2^14): every rounded
// value's (rnd[m]), every multiply input's (hs[m]) and every output's (outs[k]).
struct Forms {
  std::vector<std::vector<double>> rnd, hs;
  double outs[16][16];
  Forms() {
    for (int j = 0; j < 16; j++) {
      int64_t x[16] = {}, out[16];
      x[j] = 1 << 14;
      std::vector<int64_t> r, h;
      adst16(x, &r, &h, out);
      rnd.resize(r.size(), std::vector<double>(16, 0.0));
      hs.resize(h.size(), std::vector<double>(16, 0.0));
      for (size_t m = 0; m < r.size(); m++) rnd[m][j] = r[m] / 16384.0;
      for (size_t m = 0; m < h.size(); m++) hs[m][j] = h[m] / 16384.0;
      for (int k = 0; k < 16; k++) outs[k][j] = out[k] / 16384.0;
    }
  }
};
const Forms &forms() {
  static const Forms f;
  return f;
}

double norm(const double *v) {
  double n = 0;
  for (int j = 0; j < 16; j++) n += v[j] * v[j];
  return std::sqrt(n);
}
// x += s * v / |v|^2 (v's own value becomes about s where x was orthogonal to it); or, with
// unit, x += s * v / |v| (root sum of squares s along v).
void add_along(const double *v, double s, bool unit, double *x) {
  const double n = norm(v), d = unit ? n : n * n;
  for (int j = 0; j < 16; j++) x[j] += s * v[j] / d;
}

double frac(Rng &rng) { return rng.range(0, 1000) / 1000.0; }
int sign(Rng &rng) { return rng.range(0, 1) ? 1 : -1; }

}  // namespace

// By outcome, for ADST_DCT ([0]) and ADST_ADST ([1]), blocks of class 1 (AdstColumnsClass) whose
// first stage's halves are within kB: [0] every multiply input and output inside int16, [1] an
// output outside (saturated: the pixel clamps as the reference's does), the multiply inputs in
// [-32767, 32766] (the 16-bit pass is taken), [2] a multiply input outside that (the pass
// rejects the block); [3] class 1 with a half's sum of squares above 0.97^2 kB^2, within it;
// [4] class 1 with a half above kB, within 1.03 kB (SatOps); [5] an input sum of squares within
// kA^2 and above 0.97^2 kA^2 (class 1), [6] above kA^2, within 1.03^2 kA^2 (class 2).
int g_adst16[2][7];

// A 16x16 ADST_DCT or ADST_ADST block (p) non-zero only in column 0, whose every column's inputs
// (row results) follow x (column0_block). By mode = (it / 8) % 6: [0] x in
// a random direction with root sum of squares 8300-22000 (inside class 1); [1] x along a
// multiply input's form, that input at 33000-50000 (outside int16: rejected); [2] x along the two
// values that a multiply input pair is the sum and difference of, one at 33000-37000 and the
// other 3000-15000 the other way (the first outside int16, the pair's sum and difference
// moderate: where its saturation went undetected, a pixel would change); [3] x along a rounded
// stage-2 value of the second half (v0..v7), its half's root sum of squares at 0.97-0.999 kB or
// (every other time) 1.001-1.03 kB (that value wraps in the pass's narrowing from kB
// sqrt(2) on); [4] x in a random direction at 0.97-0.999 kA or 1.001-1.03 kA; [5] x along the
// form of an output not formed by a multiply (0-3, 12-15), that output at 33000-40000 (it
// saturates, no multiply input leaves int16).
int make_adst16_coeffs(Rng &rng, const TxPair &p, int it, int16_t *coeffs) {
  const bool row_adst = p.tx_type == 3;
  const Forms &f = forms();
  const int mode = (it / 8) % 6;
  const bool above = (it / 48) % 2 != 0;
  double x[16] = {};
  if (mode == 0 || mode == 4) {
    double d[16];
    for (double &v : d) v = rng.range(-1000, 1000);
    const double s = mode == 0 ? rng.range(8300, 22000)
                               : kA * (above ? 1.001 + 0.029 * frac(rng) : 0.97 + 0.029 * frac(rng));
    add_along(d, s, true, x);
  } else if (mode == 5) {
    static const int kPlain[8] = {0, 1, 2, 3, 12, 13, 14, 15};
    add_along(f.outs[kPlain[rng.range(0, 7)]], sign(rng) * rng.range(33000, 40000), false, x);
  } else if (mode == 1) {
    add_along(f.hs[size_t(rng.range(0, 7))].data(), sign(rng) * rng.range(33000, 50000), false,
              x);
  } else if (mode == 2) {
    const size_t pair = size_t(2 * rng.range(0, 3));
    double sum[16], diff[16];
    for (int j = 0; j < 16; j++) {
      sum[j] = (f.hs[pair][j] + f.hs[pair + 1][j]) / 2;
      diff[j] = (f.hs[pair][j] - f.hs[pair + 1][j]) / 2;
    }
    const int s = sign(rng);
    const bool first = rng.range(0, 1) != 0;
    add_along(first ? sum : diff, s * rng.range(33000, 37000), false, x);
    add_along(first ? diff : sum, -s * rng.range(3000, 15000), false, x);
  } else {
    // v_k (rounded values 16 + k) = c^T x_v with |c| = sqrt(2) and |w_v| = 2 over the inputs:
    // x along w_v with root sum of squares s gives |x_v| about sqrt(2) s.
    const double t = above ? 1.001 + 0.029 * frac(rng) : 0.97 + 0.029 * frac(rng);
    add_along(f.rnd[size_t(16 + rng.range(0, 7))].data(), sign(rng) * t * kB / std::sqrt(2.0),
              true, x);
  }
  // The class the kernel takes, from the reference's row results.
  int64_t rows[16][16];
  vp9halves::column0_block(row_adst, x, coeffs, rows);  // test_vp9_itx_halves16.cpp
  const int64_t a0 = int64_t{v3d::vp9::kInt16BoundL2x16[1]} * v3d::vp9::kInt16BoundL2x16[1];
  const int64_t a2 = int64_t{kA} * kA, b2 = int64_t{kB} * kB;
  bool cls0 = true, cls1 = true, halves = true, h_out = false, out_out = false;
  double in_ratio = 0, half_ratio = 0;  // the largest S / kA^2, S_half / kB^2
  for (int j = 0; j < 16; j++) {
    int64_t col[16], s = 0;
    for (int r = 0; r < 16; r++) {
      col[r] = rows[r][j];
      s += col[r] * col[r];
    }
    cls0 = cls0 && s <= a0;
    cls1 = cls1 && s <= a2;
    in_ratio = std::max(in_ratio, double(s) / double(a2));
    std::vector<int64_t> rnd, h;
    int64_t out[16];
    adst16(col, &rnd, &h, out);
    int64_t su = 0, sv = 0;
    for (int m = 0; m < 16; m++) (m % 2 ? sv : su) += rnd[size_t(m)] * rnd[size_t(m)];
    halves = halves && su <= b2 && sv <= b2;
    half_ratio = std::max({half_ratio, double(su) / double(b2), double(sv) / double(b2)});
    for (int64_t v : h) h_out = h_out || v > 32766 || v < -32767;
    for (int64_t v : out) out_out = out_out || v > 32767 || v < -32768;
  }
  const int q = row_adst ? 1 : 0;
  if (!cls0 && cls1) {
    if (halves) g_adst16[q][h_out ? 2 : out_out ? 1 : 0]++;
    if (halves && half_ratio > 0.97 * 0.97) g_adst16[q][3]++;
    if (!halves && half_ratio <= 1.03 * 1.03) g_adst16[q][4]++;
    if (in_ratio > 0.97 * 0.97) g_adst16[q][5]++;
  } else if (!cls1 && in_ratio <= 1.03 * 1.03) {
    g_adst16[q][6]++;
  }
  return block_shape(coeffs, 16).eob;
}

// Prints the classes reached (per target: nt targets ran the same inputs) and fails unless
// every one was.
void report_adst16(int nt) {
  static const char *const kName[2] = {"ADST_DCT", "ADST_ADST"};
  for (int q = 0; q < 2; q++) {
    const int *c = g_adst16[q];
    printf("16x16 %s columns by first-stage halves: %d inside int16, %d with outputs outside, "
           "%d with a multiply input outside (rejected); halves %d near their bound, %d just "
           "above; inputs %d near their bound, %d just above (per target)\n", kName[q],
           c[0] / nt, c[1] / nt, c[2] / nt, c[3] / nt, c[4] / nt, c[5] / nt, c[6] / nt);
    check(c[0] > 0 && c[1] > 0 && c[2] > 0 && c[3] > 0 && c[4] > 0 && c[5] > 0 && c[6] > 0,
          "16x16 %s columns by halves: classes %d / %d / %d / %d / %d / %d / %d, wanted every "
          "class", kName[q], c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
  }
}

}  // namespace vp9adst16
}  // namespace v3dtest
