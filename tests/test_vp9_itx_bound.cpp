// SPDX-License-Identifier: LGPL-2.1-or-later
// Proof of the 16-bit path's coefficient bounds (vp9/itx/itx_int16_bound.h), by affine
// arithmetic on the scalar reference's own 1-D code (itx_ref_1d.h is a template on its value
// type):
//  * every value is a linear form sum_i a_i c_i in the n*n coefficients c_i plus an error
//    interval [lo, hi] (exact bookkeeping of everything except the roundings);
//  * wadd / wsub / wneg / wmul by a constant act exactly on the form and the interval;
//  * rnd14(x) = floor((x + 2^13) / 2^14) = x / 2^14 + e, e in [-(2^13 - 1) / 2^14, 1/2].
// For |c_i| <= B every value then lies within sum_i |a_i| B + max(|lo|, |hi|): a sound bound
// for all such inputs at once (no sampling). Values are classed as the reference types them:
// "narrow" (the inputs, and the results of additions, subtractions, negations of narrow values
// and of rnd14), which a 16-bit implementation holds in int16 lanes, and "wide" (products and
// their sums, the arguments of rnd14), formed in int32. The largest B keeping every narrow value
// within [-32767, 32767] and every wide value within +-(2^31 - 1 - 2^13) (so no wrap, including
// rnd14's + 2^13) is computed per (size, type) for the full 2-D transform (rows, then columns of
// the row results), and each non-zero kInt16Bound must not exceed it. A cross-check guards the
// bookkeeping itself: the int32 reference's 2-D outputs on random inputs with |c| <= B must lie
// inside the final affine forms evaluated on those inputs.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <vector>

#include "common/rng.h"
#include "common/test_util.h"
#include "vp9/itx/itx_int16_bound.h"
#include "vp9/itx/itx_ref_1d.h"

using v3dtest::check;

namespace aff {

// The limits a bound must respect, and the tightest B seen so far for them.
// max_b bounds the largest |input| (every value's slope is the sum of its |a_i|); max_l1 bounds
// the sum of the |inputs| (there a value's slope is its largest |a_i|, as
// |sum_i a_i c_i| <= max_i |a_i| * sum_i |c_i|); max_l2 bounds the root of the sum of the
// squared inputs (there the slope is |a|_2, by Cauchy-Schwarz).
struct Tracker {
  double max_b = 1e30, max_l1 = 1e30, max_l2 = 1e30;
  void narrow(double slope, double top, double norm2, double err) {
    note(slope, top, norm2, err, 32767.0);
  }
  void wide(double slope, double top, double norm2, double err) {
    note(slope, top, norm2, err, 2147483647.0 - 8192.0);
  }
  void note(double slope, double top, double norm2, double err, double lim) {
    if (norm2 > 0) max_l2 = std::min(max_l2, (lim - err - 1e-6 * lim) / (norm2 * (1 + 1e-12)));
    // Small safety margin for the floating-point bookkeeping of the slopes (exact binary
    // fractions with up to ~60 significant bits; double keeps 53).
    if (slope > 0) max_b = std::min(max_b, (lim - err - 1e-6 * lim) / (slope * (1 + 1e-12)));
    if (top > 0) max_l1 = std::min(max_l1, (lim - err - 1e-6 * lim) / (top * (1 + 1e-12)));
  }
};
Tracker *g_tracker = nullptr;

struct Val {
  std::vector<double> a;  // coefficients of the linear form
  double lo = 0, hi = 0;  // rounding-error interval
  bool wide = false;
  int id = -1;    // index in *g_log where one is kept
  int h_of = -1;  // a product by +-cos64(16): the id of its narrow factor
  char op = 0;    // 'a' wadd, 's' wsub, 'n' wneg, 'm' wmul, 'r' rnd14 (kept in *g_log)
  int arg[2] = {-1, -1};  // the ids of its operands (-1: an input, or none)
  double slope() const {
    double s = 0;
    for (double x : a) s += std::fabs(x);
    return s;
  }
  double top() const {
    double t = 0;
    for (double x : a) t = std::max(t, std::fabs(x));
    return t;
  }
  double norm2() const {
    double s = 0;
    for (double x : a) s += x * x;
    return std::sqrt(s);
  }
  double err() const { return std::max(std::fabs(lo), std::fabs(hi)); }
};

// Where set, record keeps every value here (id = its index) instead of noting it in
// g_tracker, and g_h_inputs[id] marks the narrow values rnd14(x * cos64(16)) is taken of (the
// inputs of the 16-bit templates' rounding multiplies H).
std::vector<Val> *g_log = nullptr;
std::vector<bool> *g_h_inputs = nullptr;
// Where set (with g_log): rnd14 of a form in the first g_fresh_base variables alone (the
// inputs) is logged as that form, and returned as a fresh variable (g_fresh_base + its count)
// with the same id: the values computed from it are then forms in those variables. The ids of
// the fresh variables, in order, go here.
std::vector<int> *g_fresh = nullptr;
size_t g_fresh_base = 0;

Val record(Val v) {
  if (g_log) {
    v.id = static_cast<int>(g_log->size());
    g_log->push_back(v);
    g_h_inputs->push_back(false);
    return v;
  }
  if (v.wide) g_tracker->wide(v.slope(), v.top(), v.norm2(), v.err());
  else g_tracker->narrow(v.slope(), v.top(), v.norm2(), v.err());
  return v;
}
Val lin(const Val &x, double kx, const Val &y, double ky, bool wide, char op, int arg1) {
  Val r;
  r.op = op;
  r.arg[0] = x.id;
  r.arg[1] = arg1;
  r.a.resize(x.a.size());
  for (size_t i = 0; i < r.a.size(); i++) r.a[i] = kx * x.a[i] + ky * y.a[i];
  auto scale = [](double lo, double hi, double k, double &olo, double &ohi) {
    olo = k >= 0 ? k * lo : k * hi;
    ohi = k >= 0 ? k * hi : k * lo;
  };
  double xl, xh, yl, yh;
  scale(x.lo, x.hi, kx, xl, xh);
  scale(y.lo, y.hi, ky, yl, yh);
  r.lo = xl + yl;
  r.hi = xh + yh;
  r.wide = wide;
  return record(r);
}
// Found by argument-dependent lookup from the reference's templates.
Val wadd(Val x, Val y) { return lin(x, 1, y, 1, x.wide || y.wide, 'a', y.id); }
Val wsub(Val x, Val y) { return lin(x, 1, y, -1, x.wide || y.wide, 's', y.id); }
Val wneg(Val x) { return lin(x, -1, x, 0, x.wide, 'n', -1); }
Val wmul(Val x, int32_t k) {
  Val r = lin(x, k, x, 0, true, 'm', -1);
  const int32_t c = v3d::vp9::ref::kCos64[16];
  if ((k == c || k == -c) && !x.wide) r.h_of = x.id;
  return r;
}
Val rnd14(Val x) {
  if (g_log && x.h_of >= 0) (*g_h_inputs)[static_cast<size_t>(x.h_of)] = true;
  Val r = x;
  r.h_of = -1;
  r.op = 'r';
  r.arg[0] = x.id;
  r.arg[1] = -1;
  for (double &v : r.a) v /= 16384.0;
  r.lo = x.lo / 16384.0 - 8191.0 / 16384.0;
  r.hi = x.hi / 16384.0 + 8192.0 / 16384.0;
  r.wide = false;
  r = record(r);
  bool inputs_only = g_fresh != nullptr;
  for (size_t i = g_fresh_base; inputs_only && i < r.a.size(); i++) inputs_only = r.a[i] == 0;
  if (!inputs_only) return r;
  Val f;
  f.a.assign(r.a.size(), 0.0);
  f.a.at(g_fresh_base + g_fresh->size()) = 1.0;
  f.id = r.id;
  g_fresh->push_back(r.id);
  return f;
}

}  // namespace aff

namespace {

namespace ref = v3d::vp9::ref;

template <typename V>
void run1d(int n, bool adst, const V *in, V *out) {
  if (n == 4) adst ? ref::iadst4(in, out) : ref::idct4(in, out);
  else if (n == 8) adst ? ref::iadst8(in, out) : ref::idct8(in, out);
  else if (n == 16) adst ? ref::iadst16(in, out) : ref::idct16(in, out);
  else ref::idct32(in, out);
}

// Largest B for one n-point 1-D transform (DCT, or ADST with adst) on inputs |x| <= B: the
// column bound (the inputs are the row pass's results, checked at run time) and the largest-|x|
// bounds of kInt16Bound1dDct32; the output forms go to *fin.
// Its outputs are narrow values, so B also keeps them inside int16. nz: only the inputs
// [0, nz) are variables, the others the constant zero (0: all n). *l1 (if given): the largest
// B1 for the inputs with sum |x| <= B1 (the per-pass bounds kInt16BoundL1); *l2 (if given):
// the largest B2 for the inputs with sum x^2 <= B2^2 (kInt16BoundL2x8 and the like).
double analyse_column(int n, std::vector<aff::Val> *fin, bool adst = false, int nz = 0,
                      double *l1 = nullptr, double *l2 = nullptr) {
  if (nz == 0) nz = n;
  aff::Tracker t;
  aff::g_tracker = &t;
  std::vector<aff::Val> in(n);
  for (int j = 0; j < n; j++) {
    in[j].a.assign(static_cast<size_t>(n), 0.0);
    if (j < nz) in[j].a[static_cast<size_t>(j)] = 1.0;
    aff::record(in[j]);
  }
  fin->resize(n);
  run1d(n, adst, in.data(), fin->data());
  aff::g_tracker = nullptr;
  if (l1) *l1 = std::floor(t.max_l1);
  if (l2) *l2 = std::floor(t.max_l2);
  return std::floor(t.max_b);
}

// The int32 reference 1-D transform on random inputs with |x| <= b (l1: sum |x| <= b instead)
// must land inside the forms; the inputs from nz on (0: none) are zero.
void cross_check_column(int n, int b, const std::vector<aff::Val> &fin, bool adst = false,
                        int nz = 0, bool l1 = false) {
  if (nz == 0) nz = n;
  v3dtest::Rng rng(v3dtest::base_seed() ^
                   static_cast<uint64_t>(0xC0 + n + 0x100 * adst + 0x200 * l1 + 0x400 * nz));
  int bad = 0;
  for (int it = 0; it < 256; it++) {
    std::vector<int32_t> in(n), out(n);
    for (int k = 0; k < n; k++)
      in[k] = k >= nz ? 0 : it % 2 ? (rng.u32() & 1 ? b : -b) : rng.range(-b, b);
    if (l1) {
      // The whole sum on one input, or spread at random.
      std::fill(in.begin(), in.end(), 0);
      int left = b;
      for (int k = 0; k < nz && left > 0; k++) {
        const int j = rng.range(0, nz - 1), v = it % 2 ? left : rng.range(0, left);
        in[j] += rng.u32() & 1 ? v : -v;
        left -= v;
      }
    }
    run1d(n, adst, in.data(), out.data());
    for (int i = 0; i < n; i++) {
      double v = 0;
      for (int k = 0; k < n; k++) v += fin[i].a[k] * in[k];
      bad += out[i] < v + fin[i].lo - 1e-6 || out[i] > v + fin[i].hi + 1e-6;
    }
  }
  check(bad == 0, "%d-point %s: %d reference outputs outside the affine forms (seed %" PRIu64 ")",
        n, adst ? "ADST" : "DCT", bad, v3dtest::base_seed());
}

// Largest B for the 2-D transform of size n, row transform row_adst, column col_adst, of the
// blocks whose coefficients outside the top-left corner x corner square are zero (corner = n:
// every block); the final forms (output (i, j) at fin[i*n + j]) go to *fin.
double analyse(int n, bool row_adst, bool col_adst, std::vector<aff::Val> *fin,
               int corner = 0) {
  if (corner == 0) corner = n;
  aff::Tracker t;
  aff::g_tracker = &t;
  std::vector<aff::Val> tmp(static_cast<size_t>(n) * n);
  std::vector<aff::Val> in(n), out(n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      in[j].a.assign(static_cast<size_t>(n) * n, 0.0);
      if (i < corner && j < corner) in[j].a[static_cast<size_t>(i) * n + j] = 1.0;
      in[j].lo = in[j].hi = 0;
      in[j].wide = false;
      aff::record(in[j]);
    }
    run1d(n, row_adst, in.data(), out.data());
    for (int j = 0; j < n; j++) tmp[static_cast<size_t>(i) * n + j] = out[j];
  }
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) in[i] = tmp[static_cast<size_t>(i) * n + j];
    run1d(n, col_adst, in.data(), out.data());
    for (int i = 0; i < n; i++) (*fin)[static_cast<size_t>(i) * n + j] = out[i];
  }
  aff::g_tracker = nullptr;
  return std::floor(t.max_b);
}

// The int32 reference on random coefficients with |c| <= b must land inside the forms.
void cross_check(int n, bool row_adst, bool col_adst, int b, const std::vector<aff::Val> &fin,
                 const char *name, int corner = 0) {
  if (corner == 0) corner = n;
  v3dtest::Rng rng(v3dtest::base_seed() ^ static_cast<uint64_t>(n * 16 + row_adst * 2 + col_adst));
  int bad = 0;
  for (int it = 0; it < 64; it++) {
    std::vector<int32_t> c(static_cast<size_t>(n) * n), tmp(c.size());
    for (size_t k = 0; k < c.size(); k++) {
      const bool in_corner = static_cast<int>(k) / n < corner && static_cast<int>(k) % n < corner;
      c[k] = !in_corner ? 0 : it % 2 ? (rng.u32() & 1 ? b : -b) : rng.range(-b, b);
    }
    std::vector<int32_t> in(n), out(n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) in[j] = c[static_cast<size_t>(i) * n + j];
      run1d(n, row_adst, in.data(), out.data());
      for (int j = 0; j < n; j++) tmp[static_cast<size_t>(i) * n + j] = out[j];
    }
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) in[i] = tmp[static_cast<size_t>(i) * n + j];
      run1d(n, col_adst, in.data(), out.data());
      for (int i = 0; i < n; i++) {
        const aff::Val &f = fin[static_cast<size_t>(i) * n + j];
        double v = 0;
        for (size_t k = 0; k < c.size(); k++) v += f.a[k] * c[k];
        bad += out[i] < v + f.lo - 1e-6 || out[i] > v + f.hi + 1e-6;
      }
    }
  }
  check(bad == 0, "%s: %d reference outputs outside the affine forms (seed %" PRIu64 ")", name,
        bad, v3dtest::base_seed());
}

// The n-point DCT (16 or 32) checked by halves (kInt16BoundL2x16Halves: the AVX3_DL 16x16 DCT
// columns, itx_hwy_16x16_zmm_dct.h DctColumnsClass; kInt16BoundL2x32Halves: the AVX3_DL 32x32
// columns, itx_hwy_32.h ColsClass32): every value it forms except its n outputs and the n / 4
// inputs of its odd half's rounding multiplies by cos64(16) depends on the even inputs alone or
// on the odd inputs alone (the even half is the n / 2-point DCT of the even inputs, with the
// other n / 4 such multiplies, the odd half takes the odd ones, and only the outputs join
// them). *be / *bo: the largest B_e, B_o such that every such value of the even (odd) half
// stays within [-32767, 32767] (narrow) or +-(2^31 - 1 - 2^13) (wide) for every input vector
// whose even (odd) inputs have squares summing to at most B_e^2 (B_o^2): |sum_i a_i x_i + e|
// <= |a|_2 B + |e| over the half's inputs. False if a value outside the exempt ones mixes the
// halves, or the counts are not n outputs, n / 4 + n / 4 inputs of those multiplies.
bool analyse_dct_halves(int n, double *be, double *bo) {
  const size_t un = static_cast<size_t>(n);
  std::vector<aff::Val> log, in(un), out(un);
  std::vector<bool> h_inputs;
  aff::g_log = &log;
  aff::g_h_inputs = &h_inputs;
  for (size_t j = 0; j < un; j++) {
    in[j].a.assign(un, 0.0);
    in[j].a[j] = 1.0;
  }
  run1d(n, false, in.data(), out.data());
  aff::g_log = nullptr;
  aff::g_h_inputs = nullptr;
  // The inputs of the multiplies by cos64(16): exempt in the odd half only.
  std::vector<bool> exempt(log.size(), false);
  int h_even = 0, h_odd = 0;
  for (size_t i = 0; i < log.size(); i++) {
    if (!h_inputs[i]) continue;
    double even = 0;
    for (size_t j = 0; j < un; j += 2) even += log[i].a[j] * log[i].a[j];
    exempt[i] = even == 0;
    (even == 0 ? h_odd : h_even)++;
  }
  for (const aff::Val &o : out) exempt[static_cast<size_t>(o.id)] = true;
  int n_exempt = 0, mixed = 0;
  *be = *bo = 1e30;
  for (size_t i = 0; i < log.size(); i++) {
    if (exempt[i]) {
      n_exempt++;
      continue;
    }
    const aff::Val &v = log[i];
    double even = 0, odd = 0;
    for (size_t j = 0; j < un; j++) (j % 2 ? odd : even) += v.a[j] * v.a[j];
    if (even > 0 && odd > 0) {
      mixed++;
      continue;
    }
    const double lim = v.wide ? 2147483647.0 - 8192.0 : 32767.0;
    const double norm = std::sqrt(even + odd);
    if (norm == 0) continue;
    const double b = (lim - v.err() - 1e-6 * lim) / (norm * (1 + 1e-12));
    double &half = even > 0 ? *be : *bo;
    half = std::min(half, b);
  }
  *be = std::floor(*be);
  *bo = std::floor(*bo);
  return mixed == 0 && h_even == n / 4 && h_odd == n / 4 && n_exempt == n + n / 4;
}

// The 16-point ADST by the halves of its first stage (kInt16BoundL2x16Adst: the AVX3_DL 16x16
// ADST columns, itx_hwy_16x16_zmm_adst.h AdstHalvesOps). The reference's iadst16 is run with
// each first-stage rounded sum x0..x15 (an rnd14 of a form in the inputs alone) replaced by a
// fresh variable, so every later value is a form in x (exact integers: no error carried over).
// *b_in: the largest B_0 such that every value formed from the inputs alone (the products, their
// sums and x0..x15 themselves) stays inside int16 (narrow) or +-(2^31 - 1 - 2^13) (wide) for
// every input vector with squares summing to at most B_0^2. Exempt from the rest: the 16
// outputs, the 4 values only negated into outputs, the 8 inputs of the multiplies by
// +-cos64(16) (tracked at run time), and the 8 values those inputs are sums and differences of
// ("paired": each consumed only by the sum and the difference of itself and one other paired
// value, both tracked). *b_half: the largest B_1 such that every other value stays inside its
// limit for every x whose halves x0..x7 (the rounded sums, rnd14(s[k] + s[k + 8])) and x8..x15
// (the rounded differences) each have squares summing to at most B_1^2. False unless no value
// mixes inputs and x or the two halves of x, and the counts are 16 x, 16 outputs, 4 negated, 8
// tracked, 8 paired. *fresh_ids, *log: the ids of x0..x15 in creation order and the value log,
// for the cross-check.
bool analyse_adst_halves(double *b_in, double *b_half, std::vector<int> *fresh_ids,
                         std::vector<aff::Val> *log) {
  constexpr size_t kN = 16;
  std::vector<aff::Val> in(kN), out(kN);
  std::vector<bool> h_inputs;
  log->clear();
  fresh_ids->clear();
  aff::g_log = log;
  aff::g_h_inputs = &h_inputs;
  aff::g_fresh = fresh_ids;
  aff::g_fresh_base = kN;
  for (size_t j = 0; j < kN; j++) {
    in[j].a.assign(2 * kN, 0.0);
    in[j].a[j] = 1.0;
  }
  run1d(16, true, in.data(), out.data());
  aff::g_log = nullptr;
  aff::g_h_inputs = nullptr;
  aff::g_fresh = nullptr;
  const std::vector<aff::Val> &v = *log;
  enum Role { kPlain, kOut, kNegArg, kTracked, kPaired };
  std::vector<int> role(v.size(), kPlain);
  std::vector<std::vector<int>> users(v.size());
  for (size_t i = 0; i < v.size(); i++)
    for (int a : v[i].arg)
      if (a >= 0) users[static_cast<size_t>(a)].push_back(static_cast<int>(i));
  bool ok = fresh_ids->size() == kN;
  int counts[5] = {0, 0, 0, 0, 0};
  const auto set = [&](int id, int r) {
    ok = ok && id >= 0 && role[static_cast<size_t>(id)] == kPlain;
    if (id >= 0) role[static_cast<size_t>(id)] = r;
    counts[r]++;
  };
  for (const aff::Val &o : out) {
    set(o.id, kOut);
    if (v[static_cast<size_t>(o.id)].op == 'n') set(v[static_cast<size_t>(o.id)].arg[0], kNegArg);
  }
  for (size_t i = 0; i < v.size(); i++)
    if (h_inputs[i]) set(static_cast<int>(i), kTracked);
  for (size_t i = 0; i < v.size(); i++) {
    if (role[i] != kTracked) continue;
    ok = ok && (v[i].op == 'a' || v[i].op == 's');
    for (int a : v[i].arg)
      if (a < 0 || role[static_cast<size_t>(a)] != kPaired) set(a, kPaired);
  }
  for (size_t i = 0; i < v.size(); i++) {
    const std::vector<int> &u = users[i];
    if (role[i] == kNegArg) ok = ok && u.size() == 1;
    if (role[i] != kPaired) continue;
    // Consumed by exactly a sum and a difference of the same pair, both tracked.
    ok = ok && u.size() == 2;
    if (u.size() != 2) continue;
    const aff::Val &p = v[static_cast<size_t>(u[0])], &q = v[static_cast<size_t>(u[1])];
    const bool same = (p.arg[0] == q.arg[0] && p.arg[1] == q.arg[1]) ||
                      (p.arg[0] == q.arg[1] && p.arg[1] == q.arg[0]);
    ok = ok && same && role[static_cast<size_t>(u[0])] == kTracked &&
         role[static_cast<size_t>(u[1])] == kTracked && (p.op == 'a') != (q.op == 'a');
  }
  ok = ok && counts[kOut] == 16 && counts[kNegArg] == 4 && counts[kTracked] == 8 &&
       counts[kPaired] == 8;
  // The half of each x: 0 for a rounded sum, 1 for a rounded difference.
  std::vector<int> half(kN);
  for (size_t j = 0; j < fresh_ids->size() && j < kN; j++) {
    const aff::Val &r = v[static_cast<size_t>((*fresh_ids)[j])];
    const char op = r.arg[0] >= 0 ? v[static_cast<size_t>(r.arg[0])].op : 0;
    ok = ok && (op == 'a' || op == 's');
    half[j] = op == 's';
  }
  *b_in = *b_half = 1e30;
  for (size_t i = 0; i < v.size(); i++) {
    double sq_in = 0, sq_x[2] = {0, 0};
    for (size_t j = 0; j < kN; j++) sq_in += v[i].a[j] * v[i].a[j];
    for (size_t j = 0; j < kN; j++) sq_x[half[j]] += v[i].a[kN + j] * v[i].a[kN + j];
    if (sq_in > 0 && sq_x[0] + sq_x[1] > 0) ok = false;
    if (role[i] != kPlain && sq_in == 0) continue;
    if (sq_x[0] > 0 && sq_x[1] > 0) ok = false;
    const double lim = v[i].wide ? 2147483647.0 - 8192.0 : 32767.0;
    const double norm = std::sqrt(sq_in + sq_x[0] + sq_x[1]);
    if (norm == 0) continue;
    const double b = (lim - v[i].err() - 1e-6 * lim) / (norm * (1 + 1e-12));
    double &bound = sq_in > 0 ? *b_in : *b_half;
    bound = std::min(bound, b);
  }
  *b_in = std::floor(*b_in);
  *b_half = std::floor(*b_half);
  return ok;
}

namespace tr {
// The int32 reference's arithmetic, every value it forms appended to *g_trace in order.
struct TI {
  int32_t v;
};
std::vector<int32_t> *g_trace = nullptr;
TI rec(int32_t v) {
  g_trace->push_back(v);
  return TI{v};
}
TI wadd(TI a, TI b) { return rec(ref::wadd(a.v, b.v)); }
TI wsub(TI a, TI b) { return rec(ref::wsub(a.v, b.v)); }
TI wneg(TI a) { return rec(ref::wneg(a.v)); }
TI wmul(TI a, int32_t k) { return rec(ref::wmul(a.v, k)); }
TI rnd14(TI a) { return rec(ref::rnd14(a.v)); }
}  // namespace tr

// The bookkeeping of analyse_adst_halves: the int32 reference's iadst16 on random inputs with
// squares summing to at most b_in^2 (half of them along the form of one first-stage value, at
// the bound) must form every value inside its logged form, evaluated on the inputs and on that
// run's own x0..x15.
void cross_check_adst_halves(int b_in, const std::vector<int> &fresh_ids,
                             const std::vector<aff::Val> &log) {
  v3dtest::Rng rng(v3dtest::base_seed() ^ 0xAD57u);
  int bad = 0, runs = 0;
  for (int it = 0; it < 512; it++) {
    double dir[16], norm = 0;
    const aff::Val &f = log[static_cast<size_t>(fresh_ids[rng.range(0, 15)])];
    for (int k = 0; k < 16; k++) {
      dir[k] = it % 2 ? f.a[static_cast<size_t>(k)] * (rng.u32() & 1 ? 1 : -1)
                      : rng.range(-1000, 1000);
      norm += dir[k] * dir[k];
    }
    if (norm == 0) continue;
    tr::TI in[16], out[16];
    for (int k = 0; k < 16; k++)
      in[k].v = static_cast<int32_t>(std::trunc(dir[k] * b_in / std::sqrt(norm)));
    std::vector<int32_t> trace;
    tr::g_trace = &trace;
    ref::iadst16(in, out);
    tr::g_trace = nullptr;
    runs++;
    if (trace.size() != log.size()) {
      bad++;
      continue;
    }
    for (size_t i = 0; i < log.size(); i++) {
      double x = 0;
      for (size_t k = 0; k < 16; k++) x += log[i].a[k] * in[k].v;
      for (size_t k = 0; k < 16; k++)
        x += log[i].a[16 + k] * trace[static_cast<size_t>(fresh_ids[k])];
      bad += trace[i] < x + log[i].lo - 1e-6 || trace[i] > x + log[i].hi + 1e-6;
    }
  }
  check(bad == 0 && runs > 400, "16-point ADST by halves: %d values outside their forms in %d "
        "runs (seed %" PRIu64 ")", bad, runs, v3dtest::base_seed());
}

}  // namespace

int main() {
  static const char *kTypes[4] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST"};
  for (int sz = 0; sz < 3; sz++) {
    const int n = 4 << sz;
    for (int ty = 0; ty < 4; ty++) {
      // ADST_DCT (1) = ADST on columns, DCT on rows; DCT_ADST (2) = the reverse.
      const bool col_adst = ty == 1 || ty == 3, row_adst = ty == 2 || ty == 3;
      std::vector<aff::Val> fin(static_cast<size_t>(n) * n);
      const double b = analyse(n, row_adst, col_adst, &fin);
      const int have = v3d::vp9::kInt16Bound[sz][ty];
      char name[32];
      snprintf(name, sizeof name, "%dx%d %s", n, n, kTypes[ty]);
      cross_check(n, row_adst, col_adst, static_cast<int>(b), fin, name);
      printf("%2dx%-2d %-9s proven bound %6.0f, table %d\n", n, n, kTypes[ty], b, have);
      check(have >= 0 && have <= b, "%dx%d %s: kInt16Bound %d exceeds the proven bound %.0f", n,
            n, kTypes[ty], have, b);
    }
  }
  // The 8x8 DCT_DCT corner path: blocks non-zero only in the top-left 2x2 / 4x4 square.
  for (int k = 0; k < 2; k++) {
    const int corner = 2 << k;
    std::vector<aff::Val> fin(64);
    const double b = analyse(8, false, false, &fin, corner);
    const int have = v3d::vp9::kInt16CornerBound8x8[k];
    char name[48];
    snprintf(name, sizeof name, "8x8 DCT_DCT %dx%d corner", corner, corner);
    cross_check(8, false, false, static_cast<int>(b), fin, name, corner);
    printf("%s: proven bound %6.0f, table %d\n", name, b, have);
    check(have >= 0 && have <= b, "%s: kInt16CornerBound8x8 %d exceeds the proven bound %.0f",
          name, have, b);
  }
  // The 16x16 DCT_DCT corner path: blocks non-zero only in the top-left 4x4 square.
  {
    std::vector<aff::Val> fin(256);
    const double b = analyse(16, false, false, &fin, 4);
    const int have = v3d::vp9::kInt16CornerBound16x16;
    cross_check(16, false, false, static_cast<int>(b), fin, "16x16 DCT_DCT 4x4 corner", 4);
    printf("16x16 DCT_DCT 4x4 corner: proven bound %6.0f, table %d\n", b, have);
    check(have >= 0 && have <= b, "16x16 4x4 corner: kInt16CornerBound16x16 %d exceeds the "
          "proven bound %.0f", have, b);
  }
  for (int ty = 0; ty < 4; ty++)
    check(v3d::vp9::kInt16Bound[3][ty] == 0, "32x32 has no 16-bit path (type %d)", ty);
  for (int sz = 0; sz < 4; sz++) {
    const int n = 4 << sz;
    std::vector<aff::Val> fin;
    const double b = analyse_column(n, &fin);
    const int have = v3d::vp9::kInt16ColumnBound[sz];
    cross_check_column(n, static_cast<int>(b), fin);
    printf("%2d-point DCT column: proven bound %6.0f, table %d\n", n, b, have);
    check(have >= 0 && have <= b, "%d-point kInt16ColumnBound %d exceeds the proven bound %.0f", n,
          have, b);
  }
  // The 16-point L1 bounds with the inputs from T on zero (the 4x4 and 8x8 corners of the 16x16
  // per-pass path check kInt16BoundL1[2] too).
  for (int k = 0; k < 2; k++) {
    for (int adst = 0; adst < 2; adst++) {
      const int t = 4 << k, have = v3d::vp9::kInt16BoundL1[2][adst];
      std::vector<aff::Val> fin;
      double b1 = 0;
      analyse_column(16, &fin, adst != 0, t, &b1);
      cross_check_column(16, static_cast<int>(b1), fin, adst != 0, t, true);
      printf("16-point %s, inputs from %d on zero: L1 bound %6.0f, table (L1) %d\n",
             adst ? "ADST" : "DCT", t, b1, have);
      check(have > 0 && have <= b1, "16-point %s, %d inputs: kInt16BoundL1 %d not in (0, proven "
            "L1 bound %.0f]", adst ? "ADST" : "DCT", t, have, b1);
    }
  }
  // The 16x16 DCT_DCT total bound T (kInt16BoundL1Total16): a block whose |coefficients| sum to
  // at most T needs no column check. Each row's sum is at most T <= B1 (its row check passes, so
  // its results are the reference's), and row result k of row i is f_k(row i) + e with f_k the
  // 16-point DCT's output form and e in its error interval: |r_ik| <= top_k * sum_j |c_ij| +
  // err_k, so column k's |row results| sum to at most top_k * T + 16 * err_k, which must be
  // within the column DCT's L1 bound B1 (kInt16BoundL1[2][0], itself proven below).
  {
    std::vector<aff::Val> fin;
    analyse_column(16, &fin);
    cross_check_column(16, v3d::vp9::kInt16BoundL1[2][0], fin, false, 0, true);
    const double b1 = v3d::vp9::kInt16BoundL1[2][0];
    double t = b1;
    for (const aff::Val &f : fin) t = std::min(t, (b1 - 16 * f.err()) / (f.top() * (1 + 1e-12)));
    const int have = v3d::vp9::kInt16BoundL1Total16;
    printf("16x16 DCT_DCT total L1 bound (no column check): proven %6.0f, table %d\n",
           std::floor(t), have);
    check(have > 0 && have <= std::floor(t), "kInt16BoundL1Total16 %d not in (0, proven %.0f]",
          have, std::floor(t));
  }
  // The per-pass L1 bounds (kInt16BoundL1): one n-point DCT or ADST on inputs sum |x| <= B1.
  for (int sz = 0; sz < 4; sz++) {
    const int n = 4 << sz;
    for (int adst = 0; adst < (n < 32 ? 2 : 1); adst++) {
      std::vector<aff::Val> fin;
      double b1 = 0;
      const double b = analyse_column(n, &fin, adst, 0, &b1);
      const int have = v3d::vp9::kInt16BoundL1[sz][adst];
      cross_check_column(n, static_cast<int>(b1), fin, adst, 0, true);
      printf("%2d-point %-4s: proven bound %6.0f, L1 bound %6.0f, table (L1) %d\n", n,
             adst ? "ADST" : "DCT", b, b1, have);
      check(have >= 0 && have <= b1, "%d-point %s kInt16BoundL1 %d exceeds the proven bound %.0f",
            n, adst ? "ADST" : "DCT", have, b1);
    }
    if (n == 32) check(v3d::vp9::kInt16BoundL1[sz][1] == 0, "32-point has no ADST");
  }
  // The per-pass L2 bounds (kInt16BoundL2x8, kInt16BoundL2x16, kInt16BoundL2x32): one n-point
  // DCT or ADST on inputs with sum x^2 <= B2^2; the forms are those cross-checked above. A vector
  // with some inputs zero is one of these, so the bound holds for the corners and squares too.
  const int l2_table[3][2] = {{v3d::vp9::kInt16BoundL2x8[0], v3d::vp9::kInt16BoundL2x8[1]},
                              {v3d::vp9::kInt16BoundL2x16[0], v3d::vp9::kInt16BoundL2x16[1]},
                              {v3d::vp9::kInt16BoundL2x32, 0}};
  for (int k = 0; k < 3; k++) {
    const int n = 8 << k;
    for (int adst = 0; adst < (n < 32 ? 2 : 1); adst++) {
      std::vector<aff::Val> fin;
      double b1 = 0, b2 = 0;
      analyse_column(n, &fin, adst != 0, 0, &b1, &b2);
      const int have = l2_table[k][adst];
      printf("%2d-point %-4s: L2 bound %6.0f, table (L2) %d\n", n, adst ? "ADST" : "DCT", b2,
             have);
      check(have > 0 && have <= b2, "%d-point %s L2 bound %d not in (0, proven L2 bound %.0f]", n,
            adst ? "ADST" : "DCT", have, b2);
    }
  }
  // The 16- and 32-point DCTs by halves (kInt16BoundL2x16Halves, kInt16BoundL2x32Halves):
  // values with the inputs of the other half zero are those of the forms analysed above, so the
  // cross-checks there cover them.
  for (int n = 16; n <= 32; n *= 2) {
    double be = 0, bo = 0;
    const bool ok = analyse_dct_halves(n, &be, &bo);
    const int *have = n == 16 ? v3d::vp9::kInt16BoundL2x16Halves : v3d::vp9::kInt16BoundL2x32Halves;
    printf("%d-point DCT by halves, outputs and the odd half's cos64(16) inputs exempt: L2 "
           "bounds %6.0f (even), %6.0f (odd), table %d, %d\n", n, be, bo, have[0], have[1]);
    check(ok, "%d-point DCT by halves: a value mixes the halves, or not %d + %d exempt values", n,
          n, n / 4);
    check(have[0] > 0 && have[0] <= be && have[1] > 0 && have[1] <= bo,
          "%d-point DCT by halves: table %d, %d not in (0, proven %.0f, %.0f]", n, have[0],
          have[1], be, bo);
  }
  // The 16-point ADST by its first stage's halves (kInt16BoundL2x16Adst).
  {
    double b_in = 0, b_half = 0;
    std::vector<int> fresh_ids;
    std::vector<aff::Val> log;
    const bool ok = analyse_adst_halves(&b_in, &b_half, &fresh_ids, &log);
    const int *have = v3d::vp9::kInt16BoundL2x16Adst;
    printf("16-point ADST by first-stage halves, outputs, negated, 8 tracked and 8 paired values "
           "exempt: L2 bounds %6.0f (inputs), %6.0f (halves), table %d, %d\n", b_in, b_half,
           have[0], have[1]);
    check(ok, "16-point ADST by halves: the structure is not the one the kernel relies on");
    check(have[0] > 0 && have[0] <= b_in && have[1] > 0 && have[1] <= b_half,
          "16-point ADST by halves: table %d, %d not in (0, proven %.0f, %.0f]", have[0], have[1],
          b_in, b_half);
    if (ok) cross_check_adst_halves(static_cast<int>(b_in), fresh_ids, log);
  }
  // The 32-point DCT of the per-pass 32x32 path, inputs from 8 / 16 / 32 on zero: the largest-|x|
  // bounds (kInt16Bound1dDct32) and the L1 bound, which the 32x32 path's per-pass checks share
  // for every square (kInt16BoundL1[3][0] must be within the L1 bound of each).
  for (int k = 0; k < 3; k++) {
    const int nz = 8 << k;
    std::vector<aff::Val> fin;
    double b1 = 0;
    const double b = analyse_column(32, &fin, false, nz, &b1);
    const int have = v3d::vp9::kInt16Bound1dDct32[k], have1 = v3d::vp9::kInt16BoundL1[3][0];
    cross_check_column(32, static_cast<int>(b), fin, false, nz);
    cross_check_column(32, static_cast<int>(b1), fin, false, nz, true);
    printf("32-point DCT, %2d non-zero inputs: proven bound %6.0f, table %d; L1 bound %6.0f, "
           "table (L1) %d\n", nz, b, have, b1, have1);
    check(have > 0 && have <= b, "kInt16Bound1dDct32[%d] = %d: not in (0, proven bound %.0f]", k,
          have, b);
    check(have1 > 0 && have1 <= b1, "32-point DCT, %d inputs: kInt16BoundL1 %d not in (0, proven "
          "L1 bound %.0f]", nz, have1, b1);
  }
  return v3dtest::finish();
}
