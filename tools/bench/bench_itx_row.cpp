// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse transform + add rows of v3d-bench. See bench_itx_row.h.
#include "bench_itx_row.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bench_peer_run.h"
#include "common/rng.h"
#include "common/vp9_itx_inputs.h"
#include "vp9/dec/tile_tables.h"

namespace v3dbench {
namespace {

// Scan of a size and type: the decoder's (spec get_scan), WHT_WHT reading the default scan.
const int16_t *row_scan(int size, int type) {
  return v3d::vp9::scan_for(size, type == v3d::vp9::kWhtWht ? v3d::vp9::kDctDct : type);
}

// Where every row is timed: one destination and one coefficient block at a fixed place. The
// time of one function on one block moves by up to a fifth with the destination's address
// against the coefficients' (modulo 4 KiB, where stores and later loads alias), so buffers the
// heap places anywhere make two timings of the same work differ, within a run and across runs.
// The place is one without that aliasing: the pixels a block writes (rows of at most 32 at a
// 64-byte stride) sit in the first half of each 64-byte line, at offsets below 2 KiB of the 4 KiB
// window, and the coefficients (at most 2 KiB) fill its upper half.
struct alignas(4096) TimedBlock {
  uint8_t dst[64 * 64];
  uint8_t pad[2048];
  int16_t coeffs[32 * 32];
};
TimedBlock g_timed;

// The 64x64 destination the rows add into: random pixels from seed.
std::vector<uint8_t> random_dst(uint64_t seed) {
  std::vector<uint8_t> dst(64 * 64);
  v3dtest::Rng rng(seed);
  for (uint8_t &p : dst) p = static_cast<uint8_t>(rng.below(256));
  return dst;
}

}  // namespace

uint8_t *itx_timed_dst() { return g_timed.dst; }
int16_t *itx_timed_coeffs() { return g_timed.coeffs; }

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
  const int16_t *scan = row_scan(r.size, r.type);
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
  const std::vector<uint8_t> px = random_dst(seed);
  memcpy(g_timed.dst, px.data(), sizeof g_timed.dst);
  memcpy(g_timed.coeffs, c.data(), std::min(c.size(), size_t{32 * 32}) * sizeof(int16_t));
  return ns_per_call([&] { fn(g_timed.dst, 64, g_timed.coeffs, eob); });
}

int itx_exact_eob_broken_at(const ItxRow &r, const std::vector<int16_t> &c, int eob) {
  const int n = 4 << r.size;
  const int16_t *scan = row_scan(r.size, r.type);
  for (int p = eob > 0 ? eob : 0; p < n * n; p++)
    if (c[static_cast<size_t>(scan[p])]) return p;
  return -1;
}

namespace {
// fn on in (c, or its transpose) timed as time_itx_row, after checking that its pixels are the
// add slot's on c; -1 with an error line naming entry where they are not.
double time_checked(const v3d::vp9::ItxDsp &dsp, const ItxRow &r, v3d::vp9::ItxAddFn fn,
                    const std::vector<int16_t> &c, const std::vector<int16_t> &in, int eob,
                    uint64_t seed, const char *label, const char *entry, FILE *out) {
  std::vector<uint8_t> want = random_dst(seed), got = want;
  dsp.add[r.size][r.type](want.data(), 64, c.data(), eob);
  fn(got.data(), 64, in.data(), eob);
  if (got != want) {
    fprintf(out, "error: %s: eob %d: the %s entry's pixels differ from the hint entry's; not "
            "timed\n", label, eob, entry);
    return -1;
  }
  return time_itx_row(fn, in, eob, seed);
}
}  // namespace

double time_itx_row_exact(const v3d::vp9::ItxDsp &dsp, const ItxRow &r,
                          const std::vector<int16_t> &c, int eob, uint64_t seed,
                          const char *label, FILE *out) {
  const int bad = itx_exact_eob_broken_at(r, c, eob);
  if (bad >= 0) {
    const int n = 4 << r.size, rc = row_scan(r.size, r.type)[bad];
    fprintf(out,
            "error: %s: eob %d, but scan position %d (row %d, column %d) holds %d: the "
            "exact-eob promise is broken, its exact entry is not timed\n",
            label, eob, bad, rc / n, rc % n, c[static_cast<size_t>(rc)]);
    return -1;
  }
  return time_checked(dsp, r, dsp.add_exact_eob[r.size][r.type], c, c, eob, seed, label,
                      "exact", out);
}

double time_itx_row_exact_cm(const v3d::vp9::ItxDsp &dsp, const ItxRow &r,
                             const std::vector<int16_t> &c, int eob, uint64_t seed,
                             const char *label, FILE *out) {
  if (itx_exact_eob_broken_at(r, c, eob) >= 0) return -1;  // time_itx_row_exact said so
  const int n = 4 << r.size;
  std::vector<int16_t> cm(c.size());
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      cm[static_cast<size_t>(j * n + i)] = c[static_cast<size_t>(i * n + j)];
  return time_checked(dsp, r, dsp.add_exact_eob_cm[r.size][r.type], c, cm, eob, seed, label,
                      "column-major (on the transposed block)", out);
}

double time_itx_row_decoder(const v3d::vp9::ItxDsp &dsp, const ItxRow &r,
                            const std::vector<int16_t> &c, int eob, uint64_t seed,
                            const char *label, FILE *out) {
  // A broken promise: time_itx_row_exact says so.
  if (!dsp.cm_native[r.size][r.type] || itx_exact_eob_broken_at(r, c, eob) >= 0)
    return time_itx_row_exact(dsp, r, c, eob, seed, label, out);
  return time_itx_row_exact_cm(dsp, r, c, eob, seed, label, out);
}

}  // namespace v3dbench
