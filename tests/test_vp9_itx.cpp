// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transform + reconstruction, one block (checkasm-style):
//  1. the scalar reference against independent facts: the spec's constants, round trips through
//     an independent forward transform, the DC-only closed forms, and a golden table of hashes
//     produced by libvpx's own C inverse transforms on this file's inputs;
//  2. every SIMD target this CPU has (and "scalar"), every valid (tx_size, tx_type), against the
//     reference: valid inputs made as an encoder makes them (every eob cut), the largest valid
//     magnitudes, raw int16 coefficients (the wrapping contract), and coefficients just inside
//     and just outside the 16-bit path's proven bound (both paths; for 32x32 DCT_DCT both sides
//     of the row and the column check of every square; for 16x16 and 32x32, blocks around the
//     saturate-and-detect column pass's limit, test_vp9_itx_sat.cpp: in int16, one value just
//     outside, 32767 or -32768 exactly), with random prediction pixels, odd strides and
//     offsets, a guard border, an unaligned coefficient pointer, and eob given as the true
//     value, n*n and a random hint (the result must not depend on it); and, for the fast
//     paths' block classes, a probe coefficient at every position beside a small corner
//     (test_vp9_itx_region.cpp).
// V3D_TEST_SEED changes the inputs; V3D_TEST_ITERS scales the iteration counts (default 1).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx_int16_bound.h"
#include "vp9/itx/itx_ref_1d.h"
#include "common/vp9_itx_inputs.h"

using v3dtest::check;
using v3dtest::Rng;
using namespace v3dtest::vp9;

// The saturate-and-detect source (test_vp9_itx_sat.cpp).
namespace v3dtest {
namespace vp9sat {
int make_sat_coeffs(Rng &rng, const vp9::TxPair &p, int it, int16_t *coeffs);
void report(int nt);
void note_squares32(const int16_t *coeffs);
void report_squares32(int nt);
}  // namespace vp9sat
// 16x16 blocks whose DCT columns lie in the halves' class (test_vp9_itx_halves16.cpp).
namespace vp9halves {
void report_halves16(int nt);
}  // namespace vp9halves
// 16x16 blocks whose ADST columns lie in class 1 of the AVX3_DL zmm path
// (test_vp9_itx_adst16.cpp).
namespace vp9adst16 {
void report_adst16(int nt);
}  // namespace vp9adst16
// 8x8 DCT_DCT blocks that wrap int16 behind one per-pass check (test_vp9_itx_l2x8.cpp).
namespace vp9l2 {
void test_8x8_square_checks();
}  // namespace vp9l2
// The block-class test (test_vp9_itx_region.cpp).
namespace vp9region {
void test_positions();
}  // namespace vp9region
}  // namespace v3dtest

namespace {

using v3dtest::scaled;

// Seed of one case, printed on failure (V3D_TEST_SEED=... reproduces the whole run).
uint64_t case_seed(int a, int b, int c, int d) {
  uint64_t h = v3dtest::base_seed();
  for (int v : {a, b, c, d}) h = (h ^ static_cast<uint64_t>(v + 1)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

// ---------------------------------------------------------------------------------------------
// 1. The reference against independent facts.

void test_constants() {
  using v3d::vp9::ref::kCos64;
  using v3d::vp9::ref::kSinPi9;
  const double pi = 3.14159265358979323846;
  for (int k = 0; k <= 32; k++)
    check(kCos64[k] == std::lround(16384 * std::cos(k * pi / 64)), "cos64(%d) = %d", k, kCos64[k]);
  for (int k = 1; k <= 4; k++)
    check(kSinPi9[k] == std::lround(16384 * std::sqrt(2.0) * 2 / 3 * std::sin(k * pi / 9)),
          "sinpi_%d_9 = %d", k, kSinPi9[k]);
}

// inverse(forward(residual)) with the finest quantizer gives the residual back: exactly for the
// lossless WHT, within a rounding tolerance otherwise.
void test_round_trip() {
  for (const TxPair &p : kTxPairs) {
    const int n = tx_n(p.tx_size);
    const bool wht = p.tx_type == 4;
    int max_err = 0;
    int64_t sum_err = 0, pixels = 0;
    int skipped = 0;
    const int iters = scaled(p.tx_size == 3 ? 40 : 120);
    for (int it = 0; it < iters; it++) {
      const uint64_t seed = case_seed(100, p.tx_size, p.tx_type, it);
      Rng rng(seed);
      int r[kMaxCoeffs];
      make_residual(rng, p.tx_size, it % kNumPatterns, r);
      uint8_t pred[kMaxCoeffs], target[kMaxCoeffs];
      for (int i = 0; i < n * n; i++) {  // prediction such that pred + residual is a pixel
        pred[i] = static_cast<uint8_t>(rng.range(std::max(0, -r[i]), std::min(255, 255 - r[i])));
        target[i] = static_cast<uint8_t>(pred[i] + r[i]);
      }
      int16_t coeffs[kMaxCoeffs];
      const int eob = quantize_residual(r, p.tx_size, p.tx_type, 4, 4, 32, coeffs);
      if (!conformant(coeffs, p.tx_size, p.tx_type)) {
        skipped++;  // extreme patterns at the finest step may leave VP9's range
        continue;
      }
      v3d_vp9_itxfm_add_ref(pred, n, coeffs, p.tx_size, p.tx_type, eob);
      int case_max = 0;
      for (int i = 0; i < n * n; i++) {
        const int e = std::abs(pred[i] - target[i]);
        case_max = std::max(case_max, e);
        sum_err += e;
      }
      pixels += n * n;
      max_err = std::max(max_err, case_max);
      check(case_max <= (wht ? 0 : 1), "round trip %s: error %d (seed 0x%" PRIx64 ", pattern %d)",
            tx_name(p.tx_size, p.tx_type), case_max, seed, it % kNumPatterns);
    }
    const double mean = pixels ? double(sum_err) / pixels : 0;
    check(mean <= (wht ? 0.0 : 0.02) && skipped < iters / 4,
          "round trip %s: mean error %.3f, %d of %d skipped", tx_name(p.tx_size, p.tx_type), mean,
          skipped, iters);
    printf("round trip %-16s max error %d, mean %.3f (%d inputs outside VP9's range skipped)\n",
           tx_name(p.tx_size, p.tx_type), max_err, mean, skipped);
  }
}

// DC only: the spec's DCT gives every pixel the same offset Round2(R(R(dc c16) c16), shift) with
// R = Round2(., 14); the WHT spreads dc >> 2 by its halving steps. Computed here in int64.
void test_dc_closed_form() {
  Rng rng(case_seed(200, 0, 0, 0));
  for (int tx_size = 0; tx_size < 4; tx_size++) {
    const int n = tx_n(tx_size), shift = tx_size == 0 ? 4 : tx_size == 1 ? 5 : 6;
    int bad = 0, count = 0;
    for (int32_t dc = -32768; dc <= 32767; dc += rng.range(1, 97)) {
      int16_t coeffs[kMaxCoeffs] = {};
      coeffs[0] = static_cast<int16_t>(dc);
      const int64_t c16 = 11585;  // cos64(16)
      const int64_t v1 = (dc * c16 + 8192) >> 14, v2 = (v1 * c16 + 8192) >> 14;
      const int64_t a = (v2 + (1 << (shift - 1))) >> shift;
      uint8_t dst[kMaxCoeffs], want[kMaxCoeffs];
      for (int i = 0; i < n * n; i++) {
        dst[i] = static_cast<uint8_t>(rng.u32() >> 24);
        want[i] = static_cast<uint8_t>(std::clamp<int64_t>(dst[i] + a, 0, 255));
      }
      v3d_vp9_itxfm_add_ref(dst, n, coeffs, tx_size, 0, 1);
      bad += memcmp(dst, want, n * n) != 0;
      count++;
    }
    check(bad == 0, "DC closed form %dx%d: %d of %d DC values wrong", n, n, bad, count);
  }
  int bad = 0;
  for (int32_t dc = -32768; dc <= 32767; dc += 3) {  // WHT_WHT
    int16_t coeffs[16] = {};
    coeffs[0] = static_cast<int16_t>(dc);
    const int a1 = dc >> 2, e1 = a1 >> 1;
    const int row[4] = {a1 - e1, e1, e1, e1};
    uint8_t dst[16], want[16];
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        const int v = row[j], half = v >> 1;
        dst[i * 4 + j] = static_cast<uint8_t>(rng.u32() >> 24);
        want[i * 4 + j] =
            static_cast<uint8_t>(std::clamp(dst[i * 4 + j] + (i == 0 ? v - half : half), 0, 255));
      }
    v3d_vp9_itxfm_add_ref(dst, 4, coeffs, 0, 4, 1);
    bad += memcmp(dst, want, 16) != 0;
  }
  check(bad == 0, "DC closed form WHT_WHT: %d DC values wrong", bad);
}

// FNV-1a hashes of golden_hash(fn, tx_size, tx_type, seed, 64) where fn applied libvpx's C
// inverse transforms (vp9_iht*_add / vp9_idct*_add / vp9_iwht4x4_add with their eob-specialised
// variants; libvpx 0cfc6da, 8-bit build, compiled outside this project) to this project's input
// generator (vp9_itx_inputs.cpp). An independent reference, like libvpx's test-vector MD5 files.
// Any change to the input generator changes these values: regenerate them with libvpx then.
struct Golden {
  int tx_size, tx_type;
  uint64_t seed, hash;
};
const Golden kGolden[] = {
    {0, 0, 1, 0x1a8280fe02fe997eull},  // 4x4 DCT_DCT
    {0, 0, 2, 0x9fb3ed434b1a02b4ull},  // 4x4 DCT_DCT
    {0, 0, 3, 0x50dfd28d606401a7ull},  // 4x4 DCT_DCT
    {0, 1, 1, 0x127d6c6101eaeef0ull},  // 4x4 ADST_DCT
    {0, 1, 2, 0x45bb13c8a4a9e041ull},  // 4x4 ADST_DCT
    {0, 1, 3, 0x8f2acbe37a15125cull},  // 4x4 ADST_DCT
    {0, 2, 1, 0x650467e6c39a1e8dull},  // 4x4 DCT_ADST
    {0, 2, 2, 0xe1ca0c99d5164aa8ull},  // 4x4 DCT_ADST
    {0, 2, 3, 0x1e5a1c7b6fb6932eull},  // 4x4 DCT_ADST
    {0, 3, 1, 0xab088d5a352baa22ull},  // 4x4 ADST_ADST
    {0, 3, 2, 0xa670bc8733b63dfaull},  // 4x4 ADST_ADST
    {0, 3, 3, 0xdf504d6bd40d780dull},  // 4x4 ADST_ADST
    {0, 4, 1, 0x90c7fafaf6f70fbbull},  // 4x4 WHT_WHT
    {0, 4, 2, 0x9f44df205a7d4812ull},  // 4x4 WHT_WHT
    {0, 4, 3, 0xb04a43de0803d672ull},  // 4x4 WHT_WHT
    {1, 0, 1, 0x43d6678dd494c60dull},  // 8x8 DCT_DCT
    {1, 0, 2, 0x1c959ea2e66cba72ull},  // 8x8 DCT_DCT
    {1, 0, 3, 0x92e5c079c188e300ull},  // 8x8 DCT_DCT
    {1, 1, 1, 0xfed7af6dbd13cd14ull},  // 8x8 ADST_DCT
    {1, 1, 2, 0xae92c3895f6409cdull},  // 8x8 ADST_DCT
    {1, 1, 3, 0x705b741dffdc55ecull},  // 8x8 ADST_DCT
    {1, 2, 1, 0xac9f2fb9c976ff75ull},  // 8x8 DCT_ADST
    {1, 2, 2, 0xed96dace710d511aull},  // 8x8 DCT_ADST
    {1, 2, 3, 0xa109d1509bc4d916ull},  // 8x8 DCT_ADST
    {1, 3, 1, 0x6bb98b16f84e1755ull},  // 8x8 ADST_ADST
    {1, 3, 2, 0xe50548007c435253ull},  // 8x8 ADST_ADST
    {1, 3, 3, 0x9a443200432bd6a4ull},  // 8x8 ADST_ADST
    {2, 0, 1, 0x7137b5f40878ec02ull},  // 16x16 DCT_DCT
    {2, 0, 2, 0x481f61ba9e4fb04eull},  // 16x16 DCT_DCT
    {2, 0, 3, 0x77d3703aec6779c0ull},  // 16x16 DCT_DCT
    {2, 1, 1, 0xcceefed59c268ea1ull},  // 16x16 ADST_DCT
    {2, 1, 2, 0xd882f3bd1569430eull},  // 16x16 ADST_DCT
    {2, 1, 3, 0x0c21d11be8602e40ull},  // 16x16 ADST_DCT
    {2, 2, 1, 0x3212da2bf22d6841ull},  // 16x16 DCT_ADST
    {2, 2, 2, 0x38f16894220b403bull},  // 16x16 DCT_ADST
    {2, 2, 3, 0x5fa44219abe33a4eull},  // 16x16 DCT_ADST
    {2, 3, 1, 0x135092a5c0c66b17ull},  // 16x16 ADST_ADST
    {2, 3, 2, 0x047188a8b3f372b9ull},  // 16x16 ADST_ADST
    {2, 3, 3, 0x07c6d559f929e5f0ull},  // 16x16 ADST_ADST
    {3, 0, 1, 0xbf07a3f101e8f05aull},  // 32x32 DCT_DCT
    {3, 0, 2, 0x796f2e054ef9a121ull},  // 32x32 DCT_DCT
    {3, 0, 3, 0x3b8e59f60e0cf402ull},  // 32x32 DCT_DCT
};

void test_golden() {
  for (const Golden &g : kGolden) {
    const uint64_t h = golden_hash(v3d_vp9_itxfm_add_ref, g.tx_size, g.tx_type, g.seed, 64);
    check(h == g.hash, "golden %s seed %" PRIu64 ": hash 0x%016" PRIx64 ", libvpx 0x%016" PRIx64,
          tx_name(g.tx_size, g.tx_type), g.seed, h, g.hash);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Every target against the reference.

constexpr int kGuard = 16;  // bytes (and rows) of guard around the block
enum Source {
  kSrcExtreme = kNumCuts,
  kSrcRaw,
  kSrcBoundIn,
  kSrcBoundOut,
  kSrcColumnIn,
  kSrcColumnOut,
  kSrcPass32,
  kSrcSat,
  kSrcRegion,
  kNumSources
};

const char *source_name(int s) {
  return s < kNumCuts         ? cut_name(s)
         : s == kSrcExtreme   ? "extreme"
         : s == kSrcRaw       ? "raw-int16"
         : s == kSrcBoundIn   ? "int16-bound-inside"
         : s == kSrcBoundOut  ? "int16-bound-outside"
         : s == kSrcColumnIn  ? "column-bound-inside"
         : s == kSrcColumnOut ? "column-bound-outside"
         : s == kSrcPass32    ? "32x32-per-pass-bounds"
         : s == kSrcSat       ? "saturate-and-detect"
                              : "region-edge";
}

// 8x8 and 16x16, around the row pass's per-pass bound R (kInt16BoundL1 of the row transform, a
// bound on each row's sum of |coefficients|): the non-zero corner x corner square's rows sum to
// R exactly or to a random value below it; outside, one of them to R + 1.
// prefix20 (32x32): only the positions of in_scan32_prefix20 (each row's last one there takes
// the rest of its sum).
int make_rowsum_coeffs(Rng &rng, const TxPair &p, int corner, bool outside, int16_t *coeffs,
                       bool prefix20 = false) {
  const int n = tx_n(p.tx_size);
  const int rb = v3d::vp9::kInt16BoundL1[p.tx_size][p.tx_type >= 2 ? 1 : 0];
  const int over = outside ? rng.range(0, corner - 1) : -1;
  std::fill(coeffs, coeffs + n * n, int16_t{0});
  for (int i = 0; i < corner; i++) {
    int left = i == over ? rb + 1 : rng.range(0, 1) ? rb : rng.range(0, rb);
    int last = corner - 1;
    while (prefix20 && !in_scan32_prefix20(i, last)) last--;
    for (int j = 0; j <= last; j++) {
      const int v = j == last ? left : rng.range(0, left);
      coeffs[i * n + j] = static_cast<int16_t>(rng.range(0, 1) ? v : -v);
      left -= v;
    }
  }
  int eob = 0;
  for (int k = 0; k < n * n; k++)
    if (coeffs[k]) eob = k + 1;  // a raster eob: only a hint
  return eob;
}

// 16x16 DCT_DCT around the total bound T (kInt16BoundL1Total16: NEON skips the column check
// when the |coefficients| sum to at most T): a random corner x corner square whose |values| sum
// to T exactly (inside) or T + 1 (outside), spread at random, each row within the row bound.
int make_total_coeffs(Rng &rng, int corner, bool outside, int16_t *coeffs) {
  constexpr int n = 16;
  const int rb = v3d::vp9::kInt16BoundL1[2][0];
  std::fill(coeffs, coeffs + n * n, int16_t{0});
  int row_sum[n] = {};
  int left = v3d::vp9::kInt16BoundL1Total16 + (outside ? 1 : 0);
  while (left > 0) {
    const int i = rng.range(0, corner - 1), j = rng.range(0, corner - 1);
    const int v = std::min({rng.range(1, 4000), left, rb - row_sum[i]});
    const int16_t c = coeffs[i * n + j];
    if (v <= 0 || std::abs(c) + v > 32767) continue;
    coeffs[i * n + j] = static_cast<int16_t>(c < 0 || (c == 0 && rng.range(0, 1)) ? c - v : c + v);
    row_sum[i] += v;
    left -= v;
  }
  int eob = 0;
  for (int k = 0; k < n * n; k++)
    if (coeffs[k]) eob = k + 1;  // a raster eob: only a hint
  return eob;
}

// Around the 16-bit path's bound B (vp9/itx/itx_int16_bound.h, the corner bounds for 8x8 and
// 16x16 DCT_DCT corners of up to 4x4; kInt16BoundWht for WHT_WHT; 256 for pairs without one;
// 16x16 otherwise around the row pass's per-pass L1 bound):
// inside, every coefficient in [-B, B] with many at +-B exactly (the 16-bit path); outside, the
// same plus one coefficient at +-(B + 1) (the 32-bit path). A random corner of the block is
// non-zero, so the DC-only and corner fast paths see these magnitudes too.
int make_bound_coeffs(Rng &rng, const TxPair &p, bool outside, int16_t *coeffs) {
  const int n = tx_n(p.tx_size);
  const int corner = rng.range(1, 4) == 1 ? n : rng.range(1, n);
  int b = p.tx_size < 4 && p.tx_type < 4 && v3d::vp9::kInt16Bound[p.tx_size][p.tx_type] > 0
              ? v3d::vp9::kInt16Bound[p.tx_size][p.tx_type]
              : 256;
  if (p.tx_type == 4) b = v3d::vp9::kInt16BoundWht;  // WHT_WHT: NEON's 16-bit path
  // 8x8 (but the DCT_DCT corner path's corners): half around the 2-D bound, half around the
  // row pass's per-pass bound.
  if (p.tx_size == 1 && !(p.tx_type == 0 && corner <= 4) && rng.range(0, 1))
    return make_rowsum_coeffs(rng, p, corner, outside, coeffs);
  // 16x16: DCT_DCT corners of 2x2 to 4x4 half the time at the corner path's bound (a 1x1 corner
  // is DC only, its own path); otherwise around the row pass's per-pass bound.
  if (p.tx_size == 2) {
    if (p.tx_type == 0 && corner >= 2 && rng.range(0, 3) == 0)
      return make_total_coeffs(rng, corner, outside, coeffs);
    if (!(p.tx_type == 0 && corner >= 2 && corner <= 4 && rng.range(0, 1)))
      return make_rowsum_coeffs(rng, p, corner, outside, coeffs);
    b = v3d::vp9::kInt16CornerBound16x16;
  }
  // 8x8 DCT_DCT corners of up to 2x2 / 4x4 have their own, larger bound (the corner path).
  if (p.tx_size == 1 && p.tx_type == 0 && corner <= 4)
    b = v3d::vp9::kInt16CornerBound8x8[corner <= 2 ? 0 : 1];
  std::fill(coeffs, coeffs + n * n, int16_t{0});
  for (int i = 0; i < corner; i++)
    for (int j = 0; j < corner; j++) {
      const int v = rng.range(0, 3) == 0 ? (rng.range(0, 1) ? b : -b) : rng.range(-b, b);
      coeffs[i * n + j] = static_cast<int16_t>(v);
    }
  if (outside) {
    const int i = rng.range(0, corner - 1), j = rng.range(0, corner - 1);
    coeffs[i * n + j] = static_cast<int16_t>(rng.range(0, 1) ? b + 1 : -b - 1);
  }
  int eob = 0;
  for (int k = 0; k < n * n; k++)
    if (coeffs[k]) eob = k + 1;  // a raster eob: only a hint
  return eob;
}

// Largest |value| among the row-pass results of the reference (the inputs of the column pass).
int row_pass_max(const TxPair &p, const int16_t *coeffs) {
  namespace ref = v3d::vp9::ref;
  const int n = tx_n(p.tx_size);
  const bool row_adst = p.tx_type == 2 || p.tx_type == 3;  // DCT_ADST, ADST_ADST
  int32_t in[32], out[32];
  int m = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) in[j] = coeffs[i * n + j];
    if (n == 16) row_adst ? ref::iadst16(in, out) : ref::idct16(in, out);
    else ref::idct32(in, out);
    for (int j = 0; j < n; j++) m = std::max(m, std::abs(out[j]));
  }
  return m;
}

// 8x8 and 16x16, around the column pass's per-pass bound C (kInt16BoundL1 of the column
// transform) with every row inside the row pass's bound R: a random square corner of
// coefficients +-v (random signs), each row summing to at most R, v chosen by bisection so that
// the largest column sum of the reference's row results is the largest one <= C (inside: both
// passes in 16-bit lanes) or just above C (outside: the row check passes, the column check
// fails). *straddled counts the cases verified on the wanted side; g_corner8 those of 16x16
// DCT_DCT in the 8x8 corner (the AVX-512 half form's own column check), [0] inside, [1] outside.
int g_corner8[2];
int make_column_sum_coeffs(Rng &rng, const TxPair &p, bool outside, int it, int16_t *coeffs,
                           int *straddled) {
  const int n = tx_n(p.tx_size);
  const bool row_adst = p.tx_type >= 2, col_adst = p.tx_type == 1 || p.tx_type == 3;
  const int rb = v3d::vp9::kInt16BoundL1[p.tx_size][row_adst];
  const int cb = v3d::vp9::kInt16BoundL1[p.tx_size][col_adst];
  // 16x16: the 8x8 corner in every third case from the first (whatever V3D_TEST_ITERS) and in a
  // third of the others, so that its own paths meet the bound on both sides.
  const int corner = n == 16 && (it % 3 == 0 || rng.range(0, 2) == 0) ? 8
                     : rng.range(0, 1)               ? n
                                                     : rng.range(n / 2, n);
  int sign[256];
  for (int &s : sign) s = rng.range(0, 1) ? 1 : -1;
  std::fill(coeffs, coeffs + n * n, int16_t{0});
  auto max_with = [&](int v) {
    for (int i = 0; i < corner; i++)
      for (int j = 0; j < corner; j++) coeffs[i * n + j] = static_cast<int16_t>(sign[i * n + j] * v);
    return column_sum_max(p, coeffs);
  };
  int lo = 0, hi = rb / corner;  // max_with(lo) <= cb; max_with(hi) > cb wanted
  if (max_with(lo) <= cb && max_with(hi) > cb) {
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      (max_with(mid) <= cb ? lo : hi) = mid;
    }
    const int m = max_with(outside ? hi : lo);
    const bool on_side = outside ? m > cb : m <= cb;
    *straddled += on_side;
    if (n == 16 && p.tx_type == 0 && corner == 8) g_corner8[outside ? 1 : 0] += on_side;
  } else {
    max_with(rng.range(0, hi));
  }
  int eob = 0;
  for (int k = 0; k < n * n; k++)
    if (coeffs[k]) eob = k + 1;  // a raster eob: only a hint
  // 16x16 8x8 corner: a hint of at most 86 leaves the block to the classification (not dense
  // by Eob16PastSquare8), so the first hint takes the 8x8 corner's own path.
  if (n == 16 && corner == 8) eob = std::min(eob, 86);
  return eob;
}

// Around the 16-bit column pass's bound B (kInt16ColumnBound, DCT columns of 16x16 and 32x32,
// after a 32-bit row pass): a random corner of small coefficients plus one coefficient v, v
// chosen by bisection so that the reference's largest row-pass result is the largest one <= B
// (inside: the 16-bit column pass) or just above B (outside: the 32-bit one). 8x8 and 16x16
// (16x16 ADST columns always, DCT columns half the cases) go around the per-pass L1 column bound
// instead (make_column_sum_coeffs); the other pairs get int16-bound inputs. *straddled counts
// the cases whose row-pass maximum was verified on the wanted side.
int make_column_coeffs(Rng &rng, const TxPair &p, bool outside, int it, int16_t *coeffs,
                       int *straddled) {
  const int n = tx_n(p.tx_size);
  const bool col_dct = p.tx_type == 0 || p.tx_type == 2;
  const int b = p.tx_size >= 2 && col_dct ? v3d::vp9::kInt16ColumnBound[p.tx_size] : 0;
  if (p.tx_size == 1) return make_column_sum_coeffs(rng, p, outside, it, coeffs, straddled + 2);
  // 16x16 DCT columns: the per-pass bound in the first case (so its 8x8 corner is met on both
  // sides whatever V3D_TEST_ITERS) and in half the others.
  if (p.tx_size == 2 && (!col_dct || it == 0 || rng.range(0, 1)))
    return make_column_sum_coeffs(rng, p, outside, it, coeffs, straddled + 4);
  if (b == 0) return make_bound_coeffs(rng, p, outside, coeffs);
  const int corner = rng.range(1, n);
  std::fill(coeffs, coeffs + n * n, int16_t{0});
  for (int i = 0; i < corner; i++)
    for (int j = 0; j < corner; j++) coeffs[i * n + j] = static_cast<int16_t>(rng.range(-8, 8));
  const int r = rng.range(0, corner - 1), c = rng.range(0, corner - 1);
  const int sign = rng.range(0, 1) ? 1 : -1;
  auto max_with = [&](int v) {
    coeffs[r * n + c] = static_cast<int16_t>(sign * v);
    return row_pass_max(p, coeffs);
  };
  // max_with(lo) <= b (tiny values), max_with(hi) > b
  int lo = 0, hi = 32767;
  if (max_with(lo) <= b && max_with(hi) > b) {
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      (max_with(mid) <= b ? lo : hi) = mid;
    }
    const int m = max_with(outside ? hi : lo);
    *straddled += outside ? m > b : m <= b;
  } else {
    max_with(0);
  }
  int eob = 0;
  for (int k = 0; k < n * n; k++)
    if (coeffs[k]) eob = k + 1;  // a raster eob: only a hint
  return eob;
}

// Cases of the column-bound sources verified inside / outside the bound: [0, 1] 16x16 and 32x32
// (kInt16ColumnBound), [2, 3] 8x8 and [4, 5] 16x16 (the per-pass L1 column bound).
int g_straddled[6];

// 32x32 DCT_DCT cases of make_pass32_coeffs by square (kSquares32: 8, 12, 16, 20, 24, 32; NEON
// runs 12 as 16, the targets without the 20x20 square run it as 24) and by the side of the
// per-pass L1 bound the reference puts them on: [0] both passes within (the 16-bit path), [1]
// every row's coefficients within but a column's row results outside (the column check fails),
// [2] a row's coefficients outside (the row check fails).
int g_pass32[6][3];

// Around the per-pass L1 bound B1 of the 32x32 DCT_DCT 16-bit path (kInt16BoundL1[3][0], the
// same for every square), in a random corner of square it % 6 (kSquares32; for 20 only the
// positions of in_scan32_prefix20, so that the exact-eob entry runs it as the 20x20 square), by
// kind (it / 6) % 4: rows whose |coefficients| sum to B1 exactly or to random values below it (0),
// or one of them to B1 + 1 (1: the row check); +-v at every position of the square (random
// signs, every row inside B1), v chosen by bisection so that the largest column sum of the
// reference's |row results| is the largest one <= B1 (2) or just above it (3: the column
// check). The cycle reaches every square and side within 24 iterations, whatever
// V3D_TEST_ITERS. Other pairs get int16-bound inputs.
int make_pass32_coeffs(Rng &rng, const TxPair &p, int it, int16_t *coeffs) {
  if (p.tx_size != 3 || p.tx_type != 0) return make_bound_coeffs(rng, p, false, coeffs);
  constexpr int n = 32;
  const int b1 = v3d::vp9::kInt16BoundL1[3][0];
  static const int kSide[7] = {1, 8, 12, 16, 20, 24, 32};
  const int q = it % 6, kind = (it / 6) % 4;
  const int corner = rng.range(kSide[q] + 1, kSide[q + 1]);
  const bool prefix20 = kSide[q + 1] == 20;
  if (kind < 2) {
    make_rowsum_coeffs(rng, p, corner, kind == 1, coeffs, prefix20);
  } else {
    int sign[n * n];
    for (int &x : sign) x = rng.range(0, 1) ? 1 : -1;
    std::fill(coeffs, coeffs + n * n, int16_t{0});
    auto max_with = [&](int v) {
      for (int i = 0; i < corner; i++)
        for (int j = 0; j < corner; j++)
          if (!prefix20 || in_scan32_prefix20(i, j))
            coeffs[i * n + j] = static_cast<int16_t>(sign[i * n + j] * v);
      return column_sum_max(p, coeffs);
    };
    int lo = 0, hi = b1 / corner;
    if (max_with(hi) > b1) {
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        (max_with(mid) <= b1 ? lo : hi) = mid;
      }
      max_with(kind == 3 ? hi : lo);
    }
  }
  const BlockShape b = block_shape(coeffs, n);
  const int eob = b.eob, extent = b.extent, rmax = b.rmax;
  // The side of each check the block is on, by the square it really occupies (as the path sees
  // it).
  const int sq = square32_index(coeffs);
  if (extent > 1) g_pass32[sq][rmax > b1 ? 2 : column_sum_max(p, coeffs) > b1 ? 1 : 0]++;
  return eob;
}

// 16x16 DCT_DCT cases by the side of the total bound T (kInt16BoundL1Total16) they are on, of
// those whose rows are all within the row bound: [0] sum of |coefficients| <= T, [1] above T
// (NEON checks the columns), [2] exactly T or T + 1. Inside, the lemma behind T is checked on
// the reference's own row results: every column's |row results| sum within the column bound.
int g_total16[3];
void note_total16(const TxPair &p, const int16_t *coeffs) {
  const int rb = v3d::vp9::kInt16BoundL1[2][0], t = v3d::vp9::kInt16BoundL1Total16;
  int total = 0, rmax = 0;
  for (int i = 0; i < 16; i++) {
    int r = 0;
    for (int j = 0; j < 16; j++) r += std::abs(coeffs[i * 16 + j]);
    total += r;
    rmax = std::max(rmax, r);
  }
  if (rmax > rb) return;
  g_total16[total <= t ? 0 : 1]++;
  if (total == t || total == t + 1) g_total16[2]++;
  if (total <= t) {
    const int m = column_sum_max(p, coeffs);
    check(m <= rb, "16x16 total %d within %d but a column's |row results| sum to %d", total, t,
          m);
  }
}

// The edges of the fast paths' non-zero squares (itx_hwy_region.h classifies a block by the
// smallest top-left square of side 1, 4, 8, 16 or, on 32x32, 12 (x86) or 24 holding its non-zero
// coefficients): small coefficients in a random s x s square (s = 1, 4, 8, 12, 16 or 24, below n)
// plus, half the time, one
// coefficient at a random place just outside it (row or column s), so that a square chosen one
// too small drops it. Small values keep every block inside the 16-bit paths' bounds.
int g_region_edge[2];  // cases with the coefficient outside the square, inside
int make_region_coeffs(Rng &rng, int n, int16_t *coeffs) {
  std::fill(coeffs, coeffs + n * n, int16_t{0});
  static const int kSides[6] = {1, 4, 8, 12, 16, 24};
  int count = 0;
  while (count < 6 && kSides[count] < n) count++;
  const int s = kSides[rng.range(0, count - 1)];
  auto small = [&] { return static_cast<int16_t>(rng.range(1, 8) * (rng.range(0, 1) ? 1 : -1)); };
  for (int i = 0; i < s; i++)
    for (int j = 0; j < s; j++) coeffs[i * n + j] = rng.range(0, 2) ? small() : int16_t{0};
  coeffs[0] = small();
  const bool outside = rng.range(0, 1) != 0;
  g_region_edge[outside ? 0 : 1]++;
  if (outside) {
    const int along = rng.range(0, s);  // the other coordinate, up to the corner (s, s)
    if (rng.range(0, 1)) coeffs[s * n + along] = small();
    else coeffs[along * n + s] = small();
  }
  return block_shape(coeffs, n).eob;
}

// One case on the current target; returns false (after printing) on a mismatch.
bool run_case(const char *target, const TxPair &p, int source, int it) {
  const int n = tx_n(p.tx_size);
  const uint64_t seed = case_seed(p.tx_size, p.tx_type, source, it);
  Rng rng(seed);
  std::vector<int16_t> cbuf(kMaxCoeffs + 2);
  int16_t *coeffs = cbuf.data() + 1;  // not 4-byte aligned
  int eob;
  if (source < kNumCuts)
    eob = make_valid_coeffs(rng, p.tx_size, p.tx_type, source, coeffs);
  else if (source == kSrcExtreme)
    eob = make_extreme_coeffs(rng, p.tx_size, p.tx_type, coeffs);
  else if (source == kSrcRaw)
    eob = make_raw_coeffs(rng, p.tx_size, coeffs);
  // Every other raw case (8x8 and up) keeps a random top-left square of 2 to n/2 only, with a
  // raster eob (a hint), so that the corner paths' checks see int16 values far beyond their
  // bounds too.
  if (source == kSrcRaw && n >= 8 && it % 2 == 1) {
    const int side = rng.range(2, n / 2);
    eob = 1;
    for (int k = 0; k < n * n; k++) {
      if (k % n >= side || k / n >= side) coeffs[k] = 0;
      else if (coeffs[k]) eob = k + 1;
    }
  }
  // The first case of each bound source at 16x16 DCT_DCT sits on the total bound exactly (T or
  // T + 1), whatever V3D_TEST_ITERS; later ones reach it at random too.
  else if ((source == kSrcBoundIn || source == kSrcBoundOut) && p.tx_size == 2 &&
           p.tx_type == 0 && it == 0)
    eob = make_total_coeffs(rng, rng.range(2, 16), source == kSrcBoundOut, coeffs);
  else if (source == kSrcBoundIn || source == kSrcBoundOut)
    eob = make_bound_coeffs(rng, p, source == kSrcBoundOut, coeffs);
  else if (source == kSrcColumnIn || source == kSrcColumnOut)
    eob = make_column_coeffs(rng, p, source == kSrcColumnOut, it, coeffs,
                             &g_straddled[source - kSrcColumnIn]);
  else if (source == kSrcPass32)
    eob = make_pass32_coeffs(rng, p, it, coeffs);
  else if (source == kSrcRegion)
    eob = make_region_coeffs(rng, n, coeffs);
  else
    eob = v3dtest::vp9sat::make_sat_coeffs(rng, p, it, coeffs);
  if (eob == 0) eob = 1;
  if (p.tx_size == 2 && p.tx_type == 0) note_total16(p, coeffs);
  if (p.tx_size == 3 && p.tx_type == 0) v3dtest::vp9sat::note_squares32(coeffs);
  const std::vector<int16_t> saved(coeffs, coeffs + n * n);

  const int xoff = kGuard + 2 * rng.range(0, 3) + 1;             // odd column offset
  const ptrdiff_t stride = xoff + n + kGuard + 2 * rng.range(0, 8) + 1;  // odd stride
  const int rows = n + 2 * kGuard;
  std::vector<uint8_t> init(rows * stride);
  for (auto &v : init) v = static_cast<uint8_t>(rng.u32() >> 24);
  const ptrdiff_t off = kGuard * stride + xoff;

  std::vector<uint8_t> want = init;
  v3d_vp9_itxfm_add_ref(want.data() + off, stride, coeffs, p.tx_size, p.tx_type, n * n);
  // The third hint is often 1 whatever the block holds: fast paths keyed on eob == 1 must
  // check the coefficients they skip.
  const int eobs[3] = {eob, n * n, rng.range(0, 2) == 0 ? 1 : rng.range(1, n * n)};
  // A 32x32 DCT_DCT block also goes through the exact-eob entries: column-major (on its
  // transpose) with eob n * n, a promise every block keeps (the full square); and, non-zero only
  // in the scan's first 240 positions, with that eob in both layouts (its 20x20 square where the
  // target has one).
  // So does a 16x16 block with ADST columns, column-major with eob n * n (the AVX3_DL column
  // classes of its zmm kernel, which both layouts share).
  const bool dct32 = p.tx_size == 3 && p.tx_type == 0;
  const bool cm_full = dct32 || (p.tx_size == 2 && (p.tx_type == 1 || p.tx_type == 3));
  bool prefix20 = dct32;
  for (int k = 0; k < n * n && prefix20; k++)
    prefix20 = !coeffs[k] || in_scan32_prefix20(k / n, k % n);
  std::vector<int16_t> cm(cm_full ? n * n : 0);
  for (size_t k = 0; k < cm.size(); k++) cm[k] = coeffs[k % n * n + k / n];
  const int exact_eobs[3] = {n * n, kScan32Prefix20Eob, kScan32Prefix20Eob};
  for (int e = 0; e < (prefix20 ? 6 : cm_full ? 4 : 3); e++) {
    std::vector<uint8_t> got = init;
    if (e < 3)
      v3d_vp9_itxfm_add(got.data() + off, stride, coeffs, p.tx_size, p.tx_type, eobs[e]);
    else if (e == 4)
      v3d_vp9_itxfm_add_exact_eob(got.data() + off, stride, coeffs, p.tx_size, p.tx_type,
                                  kScan32Prefix20Eob);
    else
      v3d_vp9_itxfm_add_exact_eob_colmajor(got.data() + off, stride, cm.data(), p.tx_size,
                                           p.tx_type, exact_eobs[e - 3]);
    size_t bad = 0;
    while (bad < got.size() && got[bad] == want[bad]) bad++;
    const bool coeffs_ok = std::equal(saved.begin(), saved.end(), coeffs);
    if (bad == got.size() && coeffs_ok) continue;
    if (bad < got.size()) {
      const long y = static_cast<long>(bad / stride) - kGuard;
      const long x = static_cast<long>(bad % stride) - xoff;
      const bool inside = y >= 0 && y < n && x >= 0 && x < n;
      check(false,
            "%s %s, %s input, iteration %d, %s %d (true %d): pixel (%ld, %ld)%s = %d, "
            "reference %d (case seed 0x%" PRIx64 ")",
            target, tx_name(p.tx_size, p.tx_type), source_name(source), it,
            e < 3 ? "eob" : e == 4 ? "exact eob" : "column-major exact eob",
            e < 3 ? eobs[e] : exact_eobs[e - 3], eob, y, x,
            inside ? "" : " OUTSIDE the block", got[bad], want[bad], seed);
    } else {
      check(false, "%s %s, %s input, iteration %d: coefficients modified (case seed 0x%" PRIx64 ")",
            target, tx_name(p.tx_size, p.tx_type), source_name(source), it, seed);
    }
    return false;
  }
  return true;
}

void test_targets() {
  const char *names[32];
  const int nt = std::min(v3d_cpu_targets(names, 32), 32);
  static const int kBase[4] = {48, 32, 16, 8};  // iterations per (pair, source), by tx_size
  for (int t = 0; t < nt; t++) {
    const int rc = v3d_cpu_force_target(names[t]);
    if (!check(rc == 0, "v3d_cpu_force_target(%s) = %d", names[t], rc)) continue;
    // Case-insensitive: runtime/cpu.cpp maps any spelling of "scalar" (Highway's "SCALAR" too)
    // to the references.
    check(strcasecmp(v3d_cpu_target(), names[t]) == 0, "target is %s, wanted %s",
          v3d_cpu_target(), names[t]);
    if (strcmp(v3d_cpu_target(), names[t]) != 0)
      printf("note: target %s runs as %s\n", names[t], v3d_cpu_target());
    int cases = 0, failed = 0;
    for (const TxPair &p : kTxPairs)
      for (int s = 0; s < kNumSources; s++) {
        // The 32x32 per-pass source has nine classes of cases to reach, the saturate-and-detect
        // source three per size, the region-edge source two per candidate square.
        const int more = s == kSrcPass32 && p.tx_size == 3 ? 24
                         : s == kSrcSat && p.tx_size >= 2  ? 8 * p.tx_size * p.tx_size
                         : s == kSrcRegion                 ? 10
                                                           : 1;
        const int iters = scaled(kBase[p.tx_size]) * more;
        for (int it = 0; it < iters; it++) {
          const bool ok = run_case(names[t], p, s, it);
          if (ok) v3dtest::counter().passed++;
          failed += !ok;
          cases++;
        }
      }
    printf("target %-8s %d cases x 3 eob values, %d failed\n", names[t], cases, failed);
  }
  // Both sides of the column bound were reached (on every target, by the same inputs): 16x16
  // and 32x32 DCT-column pairs, iterations per source each.
  printf("column bound: %d cases inside, %d outside (per target)\n", g_straddled[0] / nt,
         g_straddled[1] / nt);
  check(g_straddled[0] > 0 && g_straddled[1] > 0,
        "column-bound inputs straddle the bound: %d inside, %d outside", g_straddled[0],
        g_straddled[1]);
  printf("8x8 per-pass column bound: %d cases inside, %d outside (per target)\n",
         g_straddled[2] / nt, g_straddled[3] / nt);
  check(g_straddled[2] > 0 && g_straddled[3] > 0,
        "8x8 column-bound inputs straddle the bound: %d inside, %d outside", g_straddled[2],
        g_straddled[3]);
  printf("16x16 per-pass column bound: %d cases inside, %d outside (per target)\n",
         g_straddled[4] / nt, g_straddled[5] / nt);
  check(g_straddled[4] > 0 && g_straddled[5] > 0,
        "16x16 column-bound inputs straddle the bound: %d inside, %d outside", g_straddled[4],
        g_straddled[5]);
  printf("16x16 DCT_DCT 8x8 corner, per-pass column bound: %d cases inside, %d outside (per "
         "target)\n", g_corner8[0] / nt, g_corner8[1] / nt);
  check(g_corner8[0] > 0 && g_corner8[1] > 0,
        "16x16 8x8-corner column-bound inputs straddle the bound: %d inside, %d outside",
        g_corner8[0], g_corner8[1]);
  printf("16x16 DCT_DCT total bound: %d cases within, %d above, %d at it or one above (per "
         "target)\n", g_total16[0] / nt, g_total16[1] / nt, g_total16[2] / nt);
  check(g_total16[0] > 0 && g_total16[1] > 0 && g_total16[2] > 0,
        "16x16 total bound: cases %d / %d / %d, wanted every class", g_total16[0], g_total16[1],
        g_total16[2]);
  // Every square of the 32x32 per-pass path, on every side of its bounds (same inputs on every
  // target).
  for (int q = 0; q < 6; q++) {
    const int side = kSquares32[q];
    printf("32x32 %2dx%-2d square: %d cases in 16-bit, %d column check failing, %d row check "
           "failing (per target)\n", side, side, g_pass32[q][0] / nt, g_pass32[q][1] / nt,
           g_pass32[q][2] / nt);
    check(g_pass32[q][0] > 0 && g_pass32[q][1] > 0 && g_pass32[q][2] > 0,
          "32x32 %dx%d square: per-pass cases %d / %d / %d, wanted every class", side, side,
          g_pass32[q][0], g_pass32[q][1], g_pass32[q][2]);
  }
  printf("region edges: %d cases with a coefficient just outside the square, %d inside (per "
         "target)\n", g_region_edge[0] / nt, g_region_edge[1] / nt);
  check(g_region_edge[0] > 0 && g_region_edge[1] > 0,
        "region-edge cases on both sides: %d outside, %d inside", g_region_edge[0],
        g_region_edge[1]);
  // The saturate-and-detect column passes: every class on the 16x16 DCT- and ADST-column and
  // the 32x32 DCT_DCT paths (test_vp9_itx_sat.cpp).
  v3dtest::vp9sat::report(nt);
  v3dtest::vp9sat::report_squares32(nt);
  v3dtest::vp9halves::report_halves16(nt);  // test_vp9_itx_halves16.cpp
  v3dtest::vp9adst16::report_adst16(nt);    // test_vp9_itx_adst16.cpp
  v3d_cpu_force_target(nullptr);
}

// WHT_WHT blocks of +32767 / -32768 with random signs: about one in twelve sign patterns wraps
// int16 in the second pass of the reference's iwht4, so a 16-bit WHT path whose bound check
// (kInt16BoundWht, NEON) admitted them would differ from the reference. Every target.
void test_wht_extremes() {
  v3dtest::each_target_cases(scaled(2048), [](const char *target, int it) {
    const uint64_t seed = case_seed(300, 0, 4, it);
    Rng rng(seed);
    int16_t coeffs[16];
    for (int16_t &c : coeffs) c = static_cast<int16_t>(rng.range(0, 1) ? 32767 : -32768);
    uint8_t want[4 * 4], got[4 * 4];
    for (int i = 0; i < 16; i++) want[i] = got[i] = static_cast<uint8_t>(rng.u32() >> 24);
    v3d_vp9_itxfm_add_ref(want, 4, coeffs, 0, 4, 16);
    v3d_vp9_itxfm_add(got, 4, coeffs, 0, 4, 16);
    if (memcmp(got, want, sizeof got) == 0) return true;
    return check(false, "%s WHT_WHT +-32767 signs, iteration %d: differs from the reference "
                 "(case seed 0x%" PRIx64 ")", target, it, seed);
  });
}

// eob <= 0 and invalid (tx_size, tx_type) pairs leave dst untouched, on both entry points.
void test_no_op() {
  int16_t coeffs[kMaxCoeffs];
  for (int i = 0; i < kMaxCoeffs; i++) coeffs[i] = static_cast<int16_t>(1000 - i);
  uint8_t dst[kMaxCoeffs], ref[kMaxCoeffs];
  for (int i = 0; i < kMaxCoeffs; i++) dst[i] = ref[i] = static_cast<uint8_t>(i * 7);
  const int calls[][3] = {{0, 0, 0}, {2, 1, -1}, {3, 1, 1024}, {3, 4, 16}, {1, 4, 64},
                          {4, 0, 16}, {-1, 0, 16}, {0, 5, 16}, {0, -1, 16}};
  for (const auto &c : calls) {
    v3d_vp9_itxfm_add(dst, 32, coeffs, c[0], c[1], c[2]);
    v3d_vp9_itxfm_add_ref(dst, 32, coeffs, c[0], c[1], c[2]);
    check(memcmp(dst, ref, sizeof dst) == 0, "tx_size %d tx_type %d eob %d wrote to dst", c[0],
          c[1], c[2]);
  }
}

}  // namespace

int main() {
  v3dtest::base_seed();
  test_constants();
  test_dc_closed_form();
  test_round_trip();
  test_golden();
  test_no_op();
  test_targets();
  test_wht_extremes();
  v3dtest::vp9l2::test_8x8_square_checks();
  v3dtest::vp9region::test_positions();
  return v3dtest::finish();
}
