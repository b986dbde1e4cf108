// SPDX-License-Identifier: LGPL-2.1-or-later
#include <algorithm>
#include <cmath>
#include <vector>

#include "bench_common.h"
#include "bench_vp9_itx.h"
#include "common/vp9_itx_blocks.h"

namespace v3dbench {
namespace itx {
namespace {

// Realistic coefficients, the way an encoder makes them: a residual (half the blocks nearly flat
// noise, half textured with an edge), an orthonormal 2-D DCT scaled to VP9's coefficient scale
// (x8 for 4x4..16x16, x4 for 32x32: the inverse's final shifts), then a dead-zone quantizer with
// step q. This is a model for timing, not an encoder: it gives the spread of eobs real streams
// have (many DC-only and low-frequency blocks, some dense ones).
void realistic_block(Rng &rng, int n, int q, bool full, int16_t *out, uint32_t *eob) {
  std::vector<double> r(n * n), t(n * n), c(n * n);
  bool textured = full || rng.uniform() < 0.5;
  double sigma = textured ? 25 : 3, gx = rng.gauss() * 4, gy = rng.gauss() * 4;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double v = rng.gauss() * sigma + (textured ? gx * (j - n / 2) + gy * (i - n / 2) : 0);
      r[i * n + j] = std::max(-255.0, std::min(255.0, v));
    }
  auto basis = [n](int k, int x) {
    double a = k == 0 ? std::sqrt(1.0 / n) : std::sqrt(2.0 / n);
    return a * std::cos(M_PI * (2 * x + 1) * k / (2.0 * n));
  };
  for (int i = 0; i < n; i++)  // rows
    for (int k = 0; k < n; k++) {
      double s = 0;
      for (int x = 0; x < n; x++) s += r[i * n + x] * basis(k, x);
      t[i * n + k] = s;
    }
  for (int k = 0; k < n; k++)  // columns
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int y = 0; y < n; y++) s += t[y * n + j] * basis(k, y);
      c[k * n + j] = s;
    }
  double scale = n == 32 ? 4 : 8;
  *eob = 0;
  for (int k = 0; k < n * n; k++) {
    double v = c[k] * scale;
    long qv = full ? std::lround(v / 4) * 4 : static_cast<long>(v / q) * q;  // dead zone
    qv = std::max(-32768L, std::min(32767L, qv));
    out[k] = static_cast<int16_t>(qv);
  }
  // eob: position after the last non-zero in a zig-zag scan.
  int pos = 0;
  for (int s = 0; s < 2 * n - 1; s++)
    for (int i = 0; i < n; i++) {
      int j = s - i;
      if (j < 0 || j >= n) continue;
      pos++;
      if (out[i * n + j]) *eob = pos;
    }
}

}  // namespace

// Tiles all three planes of a 1920x1088 frame with blocks of one size (mixed: random sizes and
// types per 32x32 cell). Every block is coded.
Workload make_workload(int tx_size, int tx_type, bool full, uint64_t seed) {
  Workload w;
  w.tx_size = tx_size;
  w.tx_type = tx_type;
  static const char *types[] = {"DCT_DCT", "ADST_DCT", "DCT_ADST", "ADST_ADST", "WHT_WHT"};
  if (tx_size < 0) w.name = "mixed";
  else
    w.name = std::to_string(4 << tx_size) + "x" + std::to_string(4 << tx_size) + " " + types[tx_type];
  if (full) w.name += " full";
  // The test library's block generator (tests/common/vp9_itx_blocks.h): 32x32 cells of one
  // size and type each, every block coded.
  Rng rng{seed};
  v3dtest::vp9::BlockSpec spec;
  spec.tx_size = tx_size;
  spec.tx_type = tx_type;
  spec.type_per_cell = true;
  v3dtest::vp9::Blocks bl = v3dtest::vp9::make_blocks(
      rng, kWidth, kHeight, spec, [full](Rng &r, const V3dVp9TxBlock &b, int16_t *c) {
        const int n = 4 << b.tx_size;
        const int q = b.tx_type == 4 ? 1 : r.range(24, 103);
        uint32_t eob;
        realistic_block(r, n, q, full, c, &eob);
        if (!eob) {  // keep every block coded: a DC of one step
          c[0] = static_cast<int16_t>(q);
          eob = 1;
        }
        return eob;
      });
  w.blocks = std::move(bl.blocks);
  w.coeffs = std::move(bl.coeffs);
  return w;
}

}  // namespace itx
}  // namespace v3dbench
