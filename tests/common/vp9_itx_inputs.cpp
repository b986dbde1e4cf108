// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/vp9_itx_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "vp9/itx/itx_ref_1d.h"

namespace v3dtest {
namespace vp9 {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kBasisBits = 20;

// Real 1-D inverse transform matrices g[n][k] (sample n, coefficient k) with the gain of VP9's
// 1-D inverse transforms, sqrt(N/2) times an orthonormal matrix (so every |g| <= 1):
//   DCT:     w_k cos(pi (2n+1) k / 2N),  w_0 = sqrt(1/2), w_k = 1
//   ADST4:   (2 sqrt(2) / 3) sin(pi (n+1) (2k+1) / 9)    (a DST-VII)
//   ADST8/16: sin(pi (2n+1) (2k+1) / 4N)                 (a DST-IV)
// stored as round(2^20 g), computed once, so the forward transform below is exact integer
// arithmetic (identical on every platform).
struct Basis {
  int64_t g[32][32];
};

const Basis &basis(int tx_size, bool adst) {
  static Basis cache[4][2];
  static bool done[4][2];
  Basis &b = cache[tx_size][adst];
  if (!done[tx_size][adst]) {
    const int n = tx_n(tx_size);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < n; k++) {
        double v;
        if (!adst)
          v = (k == 0 ? std::sqrt(0.5) : 1.0) * std::cos(kPi * (2 * i + 1) * k / (2.0 * n));
        else if (n == 4)
          v = 2.0 * std::sqrt(2.0) / 3.0 * std::sin(kPi * (i + 1) * (2 * k + 1) / 9.0);
        else
          v = std::sin(kPi * (2 * i + 1) * (2 * k + 1) / (4.0 * n));
        b.g[i][k] = std::llround(std::ldexp(v, kBasisBits));
      }
    done[tx_size][adst] = true;
  }
  return b;
}

// Exact integer inverse of one 1-D inverse WHT of the reference (its lifting steps run
// backwards): returns in[] such that iwht4(in, shift 0) == out.
void fwht4(const int *out, int *in) {
  const int s = out[0] + out[1];  // a + c
  const int t = out[3] - out[2];  // d - b
  const int e = (s - t) >> 1;
  const int b = e - out[1];
  const int c = e - out[2];
  in[0] = s - c;
  in[1] = c;
  in[2] = t + b;
  in[3] = b;
}

std::vector<uint16_t> build_scan(int n) {
  std::vector<uint16_t> s(n * n);
  for (int i = 0; i < n * n; i++) s[i] = static_cast<uint16_t>(i);
  std::stable_sort(s.begin(), s.end(), [n](uint16_t a, uint16_t b) {
    const int da = a / n + a % n, db = b / n + b % n;
    return da != db ? da < db : a / n < b / n;
  });
  return s;
}

int clamp255(int v) { return std::min(255, std::max(-255, v)); }

// A value of the reference's 1-D transforms, instantiated on this type to watch the int16 range:
// `prod` marks products and sums of products (the inside of a butterfly, never stored by a
// decoder); every other result (rounded values, sums of stored values) must fit int16.
struct Chk {
  int32_t v;
  bool prod;
};
thread_local bool g_out_of_range = false;  // per thread: tests generate inputs on several threads
Chk stored(int32_t v, bool prod) {
  if (!prod && (v < -32768 || v > 32767)) g_out_of_range = true;
  return {v, prod};
}
Chk wadd(Chk a, Chk b) { return stored(v3d::vp9::ref::wadd(a.v, b.v), a.prod || b.prod); }
Chk wsub(Chk a, Chk b) { return stored(v3d::vp9::ref::wsub(a.v, b.v), a.prod || b.prod); }
Chk wneg(Chk a) { return stored(v3d::vp9::ref::wneg(a.v), a.prod); }
Chk wmul(Chk a, int32_t c) { return {v3d::vp9::ref::wmul(a.v, c), true}; }
Chk rnd14(Chk a) { return stored(v3d::vp9::ref::rnd14(a.v), false); }

using ChkFn = void (*)(const Chk *, Chk *);
ChkFn chk_fn(int tx_size, bool adst) {
  namespace r = v3d::vp9::ref;
  switch (tx_size) {
    case 0: return adst ? r::iadst4<Chk> : r::idct4<Chk>;
    case 1: return adst ? r::iadst8<Chk> : r::idct8<Chk>;
    case 2: return adst ? r::iadst16<Chk> : r::idct16<Chk>;
    default: return r::idct32<Chk>;
  }
}

}  // namespace

bool conformant(const int16_t *coeffs, int tx_size, int tx_type) {
  if (tx_type == 4) return true;  // lossless: exact transforms of residuals, small values
  const int n = tx_n(tx_size);
  const ChkFn row = chk_fn(tx_size, tx_type == 2 || tx_type == 3);
  const ChkFn col = chk_fn(tx_size, tx_type == 1 || tx_type == 3);
  g_out_of_range = false;
  Chk tmp[kMaxCoeffs], in[32], out[32];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) in[j] = {coeffs[i * n + j], false};
    row(in, tmp + i * n);
  }
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) in[i] = tmp[i * n + j];
    col(in, out);
  }
  return !g_out_of_range;
}

const char *tx_name(int tx_size, int tx_type) {
  static const char *sizes[] = {"4x4", "8x8", "16x16", "32x32"};
  static const char *types[] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST", "WHT_WHT"};
  static char buf[4][5][24];
  if (tx_size < 0 || tx_size > 3 || tx_type < 0 || tx_type > 4) return "invalid";
  snprintf(buf[tx_size][tx_type], sizeof buf[0][0], "%s %s", sizes[tx_size], types[tx_type]);
  return buf[tx_size][tx_type];
}

const char *cut_name(int cut) {
  static const char *names[] = {"full",        "scan-cut",   "dc-only",   "top-left-4",
                                "top-left-8",  "top-left-16", "first-row", "first-col",
                                "sparse"};
  return cut >= 0 && cut < kNumCuts ? names[cut] : "?";
}

const uint16_t *diag_scan(int tx_size) {
  static const std::vector<uint16_t> scans[4] = {build_scan(4), build_scan(8), build_scan(16),
                                                 build_scan(32)};
  return scans[tx_size].data();
}

int eob_of(const int16_t *coeffs, int tx_size) {
  const int n = tx_n(tx_size);
  const uint16_t *scan = diag_scan(tx_size);
  for (int p = n * n - 1; p >= 0; p--)
    if (coeffs[scan[p]]) return p + 1;
  return 0;
}

void make_residual(Rng &rng, int tx_size, int pattern, int *r) {
  const int n = tx_n(tx_size);
  switch (pattern) {
    case kPatRandom:
      for (int i = 0; i < n * n; i++) r[i] = rng.range(-255, 255);
      break;
    case kPatSmall: {
      const int a = rng.range(1, 32);
      for (int i = 0; i < n * n; i++) r[i] = rng.range(-a, a);
      break;
    }
    case kPatSmooth: {
      const int base = rng.range(-200, 200), sx = rng.range(-400, 400), sy = rng.range(-400, 400);
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          r[i * n + j] = clamp255(base + sx * j / n + sy * i / n + rng.range(-3, 3));
      break;
    }
    case kPatEdge: {
      const int px = rng.range(0, n - 1), py = rng.range(0, n - 1);
      const int dx = rng.range(-8, 8), dy = rng.range(-8, 8) | 1;
      const int v0 = rng.range(-255, 255), v1 = rng.range(-255, 255);
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) r[i * n + j] = dx * (i - py) - dy * (j - px) >= 0 ? v0 : v1;
      break;
    }
    case kPatPlus255:
    case kPatMinus255:
      for (int i = 0; i < n * n; i++) r[i] = pattern == kPatPlus255 ? 255 : -255;
      break;
    case kPatChecker:
    case kPatStripesH:
    case kPatStripesV: {
      const int s = rng.range(0, 1) ? 255 : -255;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          const int k = pattern == kPatChecker ? i + j : pattern == kPatStripesH ? i : j;
          r[i * n + j] = k & 1 ? -s : s;
        }
      break;
    }
    default:  // kPatSigns
      for (int i = 0; i < n * n; i++) r[i] = rng.range(0, 1) ? 255 : -255;
      break;
  }
}

int quantize_residual(const int *r, int tx_size, int tx_type, int dc_q, int ac_q, int round64,
                      int16_t *coeffs) {
  const int n = tx_n(tx_size);
  if (tx_type == 4) {  // WHT_WHT: exact; the inverse reads coefficient >> 2 (lossless step 4)
    int tmp[16], in[4], out[4];
    for (int j = 0; j < 4; j++) {  // undo the column pass
      for (int i = 0; i < 4; i++) out[i] = r[i * 4 + j];
      fwht4(out, in);
      for (int i = 0; i < 4; i++) tmp[i * 4 + j] = in[i];
    }
    for (int i = 0; i < 4; i++) {  // undo the row pass
      fwht4(tmp + i * 4, in);
      for (int j = 0; j < 4; j++) coeffs[i * 4 + j] = static_cast<int16_t>(in[j] * 4);
    }
    return eob_of(coeffs, tx_size);
  }
  const bool col_adst = tx_type == 1 || tx_type == 3, row_adst = tx_type == 2 || tx_type == 3;
  const Basis &bc = basis(tx_size, col_adst), &br = basis(tx_size, row_adst);
  // Coefficients C = s / (N/2) * gc^T R gr with s = 8 (4x4..16x16) or 4 (32x32): the scale at
  // which the reference's inverse (gain N/2, then >> 4/5/6/6) reproduces R.
  thread_local int64_t t[32][32];  // per thread: tests generate inputs on several threads
  for (int m = 0; m < n; m++)
    for (int k = 0; k < n; k++) {
      int64_t s = 0;
      for (int j = 0; j < n; j++) s += int64_t{r[m * n + j]} * br.g[j][k];
      t[m][k] = s;  // |s| < 2^33
    }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      int64_t p = 0;
      for (int m = 0; m < n; m++) p += bc.g[m][i] * t[m][k];  // |p| < 2^58
      // p = 2^40 (N/2) F with F the orthonormal coefficient; the inverse expects C = 8 F
      // (4 F for 32x32). q = sign * floor((|x| + round64/64 * dq) / dq) with x = C, or 2 C for
      // 32x32, whose dequantized value is q * dq / 2 (truncated), as in VP9.
      const int64_t mul = n == 32 ? 1 : 16 / n;
      const int extra = n == 32 ? 1 : 0;
      const int dq = i == 0 && k == 0 ? dc_q : ac_q;
      const int64_t num = std::abs(p) * mul;
      const int64_t den = (int64_t{dq} << (2 * kBasisBits + extra));
      int64_t q = (num + (den >> 6) * round64) / den;
      int64_t v = n == 32 ? q * dq / 2 : q * dq;
      if (v > 32767) {  // keep the dequantized value within int16
        q = n == 32 ? 65535 / dq : 32767 / dq;
        v = n == 32 ? q * dq / 2 : q * dq;
      }
      coeffs[i * n + k] = static_cast<int16_t>(p < 0 ? -v : v);
    }
  return eob_of(coeffs, tx_size);
}

int apply_cut(Rng &rng, int cut, int tx_size, int16_t *c) {
  const int n = tx_n(tx_size);
  const uint16_t *scan = diag_scan(tx_size);
  switch (cut) {
    case kCutScan: {
      const double u = rng.uniform();
      const int pos = 1 + static_cast<int>(n * n * u * u * u);
      for (int p = pos; p < n * n; p++) c[scan[p]] = 0;
      break;
    }
    case kCutDcOnly:
      for (int i = 1; i < n * n; i++) c[i] = 0;
      break;
    case kCutTopLeft4:
    case kCutTopLeft8:
    case kCutTopLeft16: {
      const int k = cut == kCutTopLeft4 ? 4 : cut == kCutTopLeft8 ? 8 : 16;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          if (i >= k || j >= k) c[i * n + j] = 0;
      break;
    }
    case kCutFirstRow:
    case kCutFirstCol:
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          if (cut == kCutFirstRow ? i != 0 : j != 0) c[i * n + j] = 0;
      break;
    case kCutSparse: {
      int keep[4];
      const int m = rng.range(1, 4);
      for (int k = 0; k < m; k++) keep[k] = rng.range(0, n * n - 1);
      for (int i = 0; i < n * n; i++) {
        bool kept = false;
        for (int k = 0; k < m; k++) kept |= keep[k] == i;
        if (!kept) c[i] = 0;
      }
      break;
    }
    default:  // kCutFull
      break;
  }
  return eob_of(c, tx_size);
}

int make_valid_coeffs(Rng &rng, int tx_size, int tx_type, int cut, int16_t *coeffs) {
  for (int attempt = 0; attempt < 64; attempt++) {
    int r[kMaxCoeffs];
    make_residual(rng, tx_size, rng.range(0, kNumPatterns - 1), r);
    // VP9 8-bit quantizer steps: ac 4..1828, dc 4..1336 (every scale from 4 to the maximum
    // equally likely, a quarter at the minimum; integer only, so identical on every platform).
    int ac_q = 4, dc_q = 4;
    if (rng.range(0, 3)) {
      ac_q = 4 + rng.range(0, 1824 >> rng.range(0, 9));
      dc_q = std::max(4, std::min(1336, ac_q * rng.range(60, 100) / 100));
    }
    const int round64 = rng.range(0, 2) ? 32 : rng.range(10, 32);
    quantize_residual(r, tx_size, tx_type, dc_q, ac_q, round64, coeffs);
    int eob = apply_cut(rng, cut, tx_size, coeffs);
    if (eob == 0) {  // nothing survived: a DC alone, as a flat residual would give
      const int step = tx_type == 4 ? 4 : dc_q;
      int v = step * rng.range(1, 64);
      if (tx_size == 3) v /= 2;
      v = std::min(v, 32767 / step * step);
      coeffs[0] = static_cast<int16_t>(rng.range(0, 1) ? v : -v);
      eob = 1;
    }
    // Coarse quantization can overshoot: such a block breaks VP9's int16 range for the
    // inverse transform, so an encoder's stream would not be conformant. Draw again.
    if (conformant(coeffs, tx_size, tx_type)) return eob;
  }
  const int n = tx_n(tx_size);  // practically unreachable: a small DC
  for (int i = 0; i < n * n; i++) coeffs[i] = 0;
  coeffs[0] = 64;
  return 1;
}

int make_extreme_coeffs(Rng &rng, int tx_size, int tx_type, int16_t *coeffs) {
  static const int kExtremes[] = {kPatPlus255, kPatMinus255, kPatChecker,
                                  kPatStripesH, kPatStripesV, kPatSigns};
  int r[kMaxCoeffs];
  make_residual(rng, tx_size, kExtremes[rng.range(0, 5)], r);
  // The smallest quantizer whose result is conformant (4, VP9's minimum, almost always).
  for (int q = 4;; q++) {
    const int eob = quantize_residual(r, tx_size, tx_type, q, q, 32, coeffs);
    if (conformant(coeffs, tx_size, tx_type) || q >= 1828) return eob;
  }
}

int make_raw_coeffs(Rng &rng, int tx_size, int16_t *coeffs) {
  const int n = tx_n(tx_size);
  static const int kDensity[] = {1, 8, 32, 64};  // out of 64
  const int density = kDensity[rng.range(0, 3)];
  const int kind = rng.range(0, 3);
  for (int i = 0; i < n * n; i++) {
    int v = 0;
    if (i == 0 || rng.range(1, 64) <= density) {
      switch (kind) {
        case 0: v = rng.range(-32768, 32767); break;
        case 1: v = rng.range(0, 1) ? 32767 : -32768; break;
        case 2: v = (rng.range(0, 1) ? 1 : -1) * (1 << rng.range(0, 15)); break;  // no shift of a negative value (UB)
        default: v = rng.range(-2048, 2047); break;
      }
    }
    coeffs[i] = static_cast<int16_t>(std::max(-32768, std::min(32767, v)));
  }
  return n * n;
}

uint64_t fnv1a(const void *data, size_t size, uint64_t h) {
  const uint8_t *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < size; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

uint64_t golden_hash(AddFn fn, int tx_size, int tx_type, uint64_t seed, int cases) {
  Rng rng(seed);
  const int n = tx_n(tx_size);
  uint64_t h = fnv1a(nullptr, 0);
  for (int c = 0; c < cases; c++) {
    int16_t coeffs[kMaxCoeffs];
    const int eob = c % 8 == 7 ? make_extreme_coeffs(rng, tx_size, tx_type, coeffs)
                               : make_valid_coeffs(rng, tx_size, tx_type, c % kNumCuts, coeffs);
    uint8_t dst[kMaxCoeffs];
    for (int i = 0; i < n * n; i++) dst[i] = static_cast<uint8_t>(rng.u32() >> 24);
    if (eob > 0) fn(dst, n, coeffs, tx_size, tx_type, eob);
    h = fnv1a(dst, n * n, h);
  }
  return h;
}

BlockShape block_shape(const int16_t *coeffs, int n) {
  BlockShape b{0, 1, 0};
  int rsum[32] = {};
  for (int k = 0; k < n * n; k++) {
    if (!coeffs[k]) continue;
    b.eob = k + 1;
    b.extent = std::max(b.extent, std::max(k / n, k % n) + 1);
    rsum[k / n] += std::abs(static_cast<int>(coeffs[k]));
  }
  for (int i = 0; i < n; i++) b.rmax = std::max(b.rmax, rsum[i]);
  return b;
}

int square32_index(const int16_t *coeffs) {
  const int extent = block_shape(coeffs, 32).extent;
  bool prefix = true;
  for (int k = 0; k < 32 * 32 && prefix; k++)
    prefix = !coeffs[k] || in_scan32_prefix20(k / 32, k % 32);
  return extent <= 8 ? 0 : extent <= 12 ? 1 : extent <= 16 ? 2 : prefix ? 3 : extent <= 24 ? 4 : 5;
}

int column_sum_max(const TxPair &p, const int16_t *coeffs) {
  namespace ref = v3d::vp9::ref;
  const int n = tx_n(p.tx_size);
  const bool row_adst = p.tx_type == 2 || p.tx_type == 3;
  int32_t in[32], out[32];
  int sum[32] = {};
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) in[j] = coeffs[i * n + j];
    if (n == 8) row_adst ? ref::iadst8(in, out) : ref::idct8(in, out);
    else if (n == 16) row_adst ? ref::iadst16(in, out) : ref::idct16(in, out);
    else ref::idct32(in, out);
    for (int j = 0; j < n; j++) sum[j] += std::abs(out[j]);
  }
  return *std::max_element(sum, sum + n);
}

}  // namespace vp9
}  // namespace v3dtest
