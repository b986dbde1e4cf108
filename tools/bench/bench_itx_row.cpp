// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse transform + add rows of v3d-bench. See bench_itx_row.h.
#include "bench_itx_row.h"

#include <cstdio>

#include "bench_peer_run.h"
#include "common/rng.h"
#include "common/vp9_itx_inputs.h"

namespace v3d {
namespace vp9 {
// The decoder's scan tables (vp9/dec/tile_scan_tables.cpp; its header's enums clash with
// vp9/itx/itx.h's, so they are declared here).
extern const int16_t kDefaultScan4x4[16], kColScan4x4[16], kRowScan4x4[16];
extern const int16_t kDefaultScan8x8[64], kColScan8x8[64], kRowScan8x8[64];
extern const int16_t kDefaultScan16x16[256], kColScan16x16[256], kRowScan16x16[256];
extern const int16_t kDefaultScan32x32[1024];
}  // namespace vp9
}  // namespace v3d

namespace v3dbench {
namespace {

// Scan of a size and type (spec get_scan: ADST_DCT reads rows, DCT_ADST columns; WHT_WHT the
// default scan).
const int16_t *scan_for(int size, int type) {
  using namespace v3d::vp9;
  static const int16_t *const table[4][4] = {
      {kDefaultScan4x4, kRowScan4x4, kColScan4x4, kDefaultScan4x4},
      {kDefaultScan8x8, kRowScan8x8, kColScan8x8, kDefaultScan8x8},
      {kDefaultScan16x16, kRowScan16x16, kColScan16x16, kDefaultScan16x16},
      {kDefaultScan32x32, kDefaultScan32x32, kDefaultScan32x32, kDefaultScan32x32}};
  return table[size][type == kWhtWht ? 0 : type];
}

}  // namespace

std::vector<ItxRow> itx_rows_checkasm() {
  using namespace v3d::vp9;
  std::vector<ItxRow> rows;
  for (int s = 0; s < kNumTxSizes; s++) {
    const int n = 4 << s;
    for (int t = 0; t < kNumTxTypes; t++) {
      if (!valid_tx(s, t)) continue;
      for (int sub = t == kDctDct ? 1 : n; sub <= n; sub = sub < 4 ? sub * 2 : sub + 4)
        rows.push_back(ItxRow{s, t, sub});
    }
  }
  return rows;
}

std::string itx_row_name(const ItxRow &r) {
  static const char *const kTypes[5] = {"dct_dct", "adst_dct", "dct_adst", "adst_adst",
                                        "wht_wht"};
  const int n = 4 << r.size;
  char name[64];
  snprintf(name, sizeof name, "vp9_inv_%s_%dx%d_sub%d_add_8", kTypes[r.type], n, n, r.sub);
  return name;
}

int itx_row_coeffs(const ItxRow &r, ItxCoeffs kind, uint64_t seed, std::vector<int16_t> *c) {
  const int n = 4 << r.size, nn = n * n;
  std::vector<int16_t> values(static_cast<size_t>(nn), 0);
  v3dtest::Rng rng(seed);
  if (kind == ItxCoeffs::kReal) {
    int residual[v3dtest::vp9::kMaxCoeffs];
    v3dtest::vp9::make_residual(rng, r.size, v3dtest::vp9::kPatRandom, residual);
    v3dtest::vp9::quantize_residual(residual, r.size, r.type, 4, 4, 32, values.data());
  } else {
    const int max = kind == ItxCoeffs::kSmall ? kItxSmallMax : kItxWideMax;
    for (int16_t &v : values) v = static_cast<int16_t>(rng.range(-max, max));
  }
  c->assign(static_cast<size_t>(nn), 0);
  const int16_t *scan = scan_for(r.size, r.type);
  int eob = 0;
  for (; eob < nn; eob++) {
    const int rc = scan[eob];
    if (rc % n >= r.sub || rc / n >= r.sub) break;
    const int16_t v = values[static_cast<size_t>(rc)];
    (*c)[static_cast<size_t>(rc)] = v ? v : 1;
  }
  return eob;
}

double time_itx_row(v3d::vp9::ItxAddFn fn, const std::vector<int16_t> &c, int eob,
                    uint64_t seed) {
  std::vector<uint8_t> dst(64 * 64);
  v3dtest::Rng rng(seed);
  for (uint8_t &p : dst) p = static_cast<uint8_t>(rng.below(256));
  return ns_per_call([&] { fn(dst.data(), 64, c.data(), eob); });
}

}  // namespace v3dbench
