// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_vp9_itxfm_add_exact_eob and, on the same block transposed, its column-major form
// v3d_vp9_itxfm_add_exact_eob_colmajor against the scalar reference on every CPU target: blocks whose
// non-zero coefficients lie in a prefix of the VP9 scan of their size and type (the decoder's
// own scan tables, vp9/dec/tile_tables.h), with eob exact or any larger value, so that eob alone
// picks every path it can (DC only, the 8x8 2x2 and 4x4 corners, the 16x16 and 32x32 squares:
// eob values on both sides of each square's first scan position outside it are drawn often),
// and values on both sides of the corner and per-pass bounds (so the paths' value checks, still
// made, are crossed too). A guard border around the block must stay untouched, also when the
// same block is given an eob below its exact one (a broken promise: its pixels unspecified);
// the seed of a failing case is printed.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <strings.h>
#include <vector>

#include "common/rng.h"
#include "common/test_util.h"
#include "v3d/v3d.h"
#include "vp9/dec/tile_tables.h"
#include "vp9/itx/itx_eob_hint.h"

using v3dtest::check;
using v3dtest::Rng;
using namespace v3d::vp9;

namespace {

constexpr int kGuard = 8;

// eob values worth drawing for an n x n block: each square's first position outside it (the
// last exact eob inside) and its neighbours, DC only, and the whole block.
std::vector<int> edge_eobs(int n) {
  std::vector<int> firsts;
  if (n == 8) firsts = {kScan8First2Out, kScan8First4Out};
  if (n == 16) firsts = {kScan16First2Out, kScan16First4Out, kScan16First8Out};
  if (n == 32)
    firsts = {kScan32First8Out, kScan32First12Out, kScan32First16Out, kScan32First20Out,
              kScan32First24Out};
  std::vector<int> eobs = {1, 2, n * n};
  for (int f : firsts)
    for (int e = f - 1; e <= f + 1; e++) eobs.push_back(e);
  return eobs;
}

// A coefficient value of class k: 0 small (inside every bound), 1 as a transformed real
// residual (large at the start of the scan, decaying), 2 around the 8x8 corner bounds, 3 any
// int16 (far beyond valid streams: the 32-bit paths).
int16_t draw_value(Rng &rng, int k, int pos) {
  switch (k) {
    case 0: return static_cast<int16_t>(rng.range(-48, 48));
    case 1: {
      const int amp = 4000 / (1 + pos / 4);
      return static_cast<int16_t>(rng.range(-amp - 8, amp + 8));
    }
    case 2: return static_cast<int16_t>(rng.range(0, 1) ? rng.range(-3000, 3000)
                                                         : rng.range(-12000, 12000));
    default: return static_cast<int16_t>(rng.range(-32768, 32767));
  }
}

// One drawn or built block: coefficients (raster), the exact eob (last), the eob given, an eob
// below the exact one (a broken promise; 0: none), the destination's stride and pixels.
struct Block {
  int tx_size, tx_type, kind;
  std::vector<int16_t> coeffs;
  int last, eob, short_eob, stride;
  std::vector<uint8_t> init;
};

// The raster entry on b's coefficients, then the column-major one on their transpose, against
// the reference; with b.short_eob, nothing outside the block may change.
bool check_block(const char *target, const Block &b, uint64_t seed) {
  const int n = 4 << b.tx_size, nn = n * n, stride = b.stride;
  const ptrdiff_t off = kGuard * stride + kGuard + 1;
  std::vector<int16_t> cm(nn);  // the block in column-major order
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) cm[j * n + i] = b.coeffs[i * n + j];
  std::vector<uint8_t> want = b.init;
  v3d_vp9_itxfm_add_ref(want.data() + off, stride, b.coeffs.data(), b.tx_size, b.tx_type, nn);
  for (int colmajor = 0; colmajor < 2; colmajor++) {
    const auto add = colmajor ? v3d_vp9_itxfm_add_exact_eob_colmajor : v3d_vp9_itxfm_add_exact_eob;
    const int16_t *c = colmajor ? cm.data() : b.coeffs.data();
    const char *entry = colmajor ? "column-major" : "raster";
    std::vector<uint8_t> got = b.init;
    add(got.data() + off, stride, c, b.tx_size, b.tx_type, b.eob);
    size_t bad = 0;
    while (bad < got.size() && got[bad] == want[bad]) bad++;
    if (bad != got.size()) {
      const long y = static_cast<long>(bad / stride) - kGuard;
      const long x = static_cast<long>(bad % stride) - kGuard - 1;
      check(false,
            "%s %s %dx%d type %d, value class %d, eob %d (exact %d): pixel (%ld, %ld) = %d, "
            "reference %d (case seed 0x%" PRIx64 ")",
            target, entry, n, n, b.tx_type, b.kind, b.eob, b.last, y, x, got[bad], want[bad],
            seed);
      return false;
    }
    // A broken promise (eob below the exact one) leaves the block's pixels unspecified, but
    // nothing outside the block may change (and ASan sees any read past the coefficients).
    if (b.short_eob == 0) continue;
    std::vector<uint8_t> broken = b.init;
    add(broken.data() + off, stride, c, b.tx_size, b.tx_type, b.short_eob);
    for (size_t i = 0; i < broken.size(); i++) {
      const long y = static_cast<long>(i / stride) - kGuard;
      const long x = static_cast<long>(i % stride) - kGuard - 1;
      if ((y >= 0 && y < n && x >= 0 && x < n) || broken[i] == b.init[i]) continue;
      check(false, "%s %s %dx%d type %d, eob %d below the exact %d: pixel (%ld, %ld) OUTSIDE "
            "the block changed (case seed 0x%" PRIx64 ")", target, entry, n, n, b.tx_type,
            b.short_eob, b.last, y, x, seed);
      return false;
    }
  }
  return true;
}

// A destination of n x n pixels inside the guard border, of a drawn stride and pixels.
void draw_destination(Rng &rng, int n, Block *b) {
  b->stride = n + 2 * kGuard + 2 * rng.range(0, 4) + 1;
  b->init.resize((n + 2 * kGuard) * b->stride);
  for (auto &v : b->init) v = static_cast<uint8_t>(rng.u32() >> 24);
}

// b's eob (any from the exact one up is a kept promise), destination and broken-promise eob
// drawn, then check_block.
bool check_drawn(const char *target, Block *b, Rng &rng, uint64_t seed) {
  const int n = 4 << b->tx_size;
  b->eob = rng.range(0, 3) ? b->last : rng.range(b->last, n * n);
  draw_destination(rng, n, b);
  b->short_eob = b->last > 1 ? rng.range(1, b->last - 1) : 0;
  return check_block(target, *b, seed);
}

bool run_case(const char *target, int tx_size, int tx_type, uint64_t seed) {
  Rng rng(seed);
  const int n = 4 << tx_size, nn = n * n;
  // WHT_WHT (lossless 4x4) reads the default scan, as DCT_DCT does.
  const int16_t *scan = scan_for(tx_size, tx_type == kWhtWht ? kDctDct : tx_type);
  const std::vector<int> edges = edge_eobs(n);
  // The exact eob: an edge value half the time, else anywhere (mostly small).
  int last = rng.range(0, 1) ? edges[rng.range(0, static_cast<int>(edges.size()) - 1)]
                             : (rng.range(0, 1) ? rng.range(1, nn) : rng.range(1, 40));
  if (last > nn) last = nn;
  Block b{tx_size, tx_type, rng.range(0, 3), std::vector<int16_t>(nn, 0), last, 0, 0, 0, {}};
  auto &coeffs = b.coeffs;  // exactly n*n: ASan sees any read past them
  for (int p = 0; p < last; p++) {
    if (b.kind != 3 && p > 0 && rng.range(0, 2) == 0) continue;  // some zeros inside the prefix
    coeffs[scan[p]] = draw_value(rng, b.kind, p);
  }
  if (coeffs[scan[last - 1]] == 0 && rng.range(0, 1)) coeffs[scan[last - 1]] = 1;
  return check_drawn(target, &b, rng, seed);
}

// 16x16 ADST types, whose paths go by the non-zero square and the values: every coefficient of
// the top-left k x k square non-zero (k = 1: the DC with an eob above 1, which the DC-only
// check leaves to the square's path; 4, 8, 16), in classes 10: small (both passes in 16 bits);
// 11, 12: every row at the row transform's L1 bound, all of one sign or in a checkerboard of
// signs (row results beyond the column check, some saturating: the 32-bit columns); 13: any
// int16 (rows beyond their check: the 32-bit rows).
bool run_square_cases(const char *target, int tx_type, uint64_t seed) {
  Rng rng(seed);
  const int n = 16;
  const int16_t *scan = scan_for(kTx16x16, tx_type);
  bool ok = true;
  for (int k : {1, 4, 8, 16})
    for (int kind = 10; kind < 14; kind++) {
      Block b{kTx16x16, tx_type, kind, std::vector<int16_t>(n * n, 0), 0, 0, 0, 0, {}};
      const int at_bound = 23000 / k;
      for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
          const int sign = kind == 12 && (i + j) % 2 ? -1 : 1;
          const int v = kind == 10   ? rng.range(-48, 48)
                        : kind == 13 ? rng.range(-32768, 32767)
                                     : sign * at_bound;
          b.coeffs[i * n + j] = static_cast<int16_t>(v ? v : 1);
        }
      b.last = k == 1 ? 2 : 1;
      for (int p = 0; p < n * n; p++)
        if (b.coeffs[scan[p]] && p + 1 > b.last) b.last = p + 1;
      ok = check_drawn(target, &b, rng, seed) && ok;
    }
  return ok;
}

// 16x16 blocks with ADST rows (DCT_ADST, ADST_ADST) against the row check of the
// column-major slot, which runs on the ADST's input pairs (LoadRowsAdstCm,
// itx_hwy_16x16_zmm_adst.h: register j holds columns 2j and 15 - 2j of every row): for each j,
// in the full block one row holds 32767 in both columns of pair j (the pair's first-stage sum
// leaves int16), in the 8x8 square 32767 in the one of them inside it and 2800 in the row's
// other columns (within the bound without it); the other coefficients are small. Only the
// check keeps that row off the 16-bit rows: one that skips a register lets it through.
bool run_adst_row_checks(const char *target, int tx_type, uint64_t seed) {
  Rng rng(seed);
  const int16_t *scan = scan_for(kTx16x16, tx_type);
  bool ok = true;
  for (int k : {8, 16})
    for (int j = 0; j < 8; j++) {
      Block b{kTx16x16, tx_type, 20 + j, std::vector<int16_t>(256, 0), 0, 0, 0, 0, {}};
      const int r = (5 * j + k / 8) % k;
      for (int i = 0; i < k; i++)
        for (int c = 0; c < k; c++) {
          const bool big = i == r && (c == 2 * j || c == 15 - 2 * j);
          const int v = big ? 32767 : i == r && k == 8 ? 2800 : rng.range(-48, 48);
          b.coeffs[i * 16 + c] = static_cast<int16_t>(v ? v : 1);
        }
      for (int p = 0; p < 256; p++)
        if (b.coeffs[scan[p]] != 0) b.last = p + 1;
      b.eob = b.last;
      draw_destination(rng, 16, &b);
      ok = check_block(target, b, seed ^ static_cast<uint64_t>(k * 8 + j)) && ok;
    }
  return ok;
}

// 16x16 DCT_DCT blocks built to reach each outcome of the 16-bit paths' checks, which drawn
// blocks reach too rarely at small test scales: one coefficient v per row, in column 0, rows
// 0..k-1 (k = 8: the 8x8 square by the eob; 16: the full block), every row inside the row
// bound; their row results are alike in every column, so v = 23000 fails the columns' checks
// and saturates (the 32-bit columns) while v = 300 passes them. Then the same rows with a
// second coefficient making row 0 fail its bound (the 32-bit path), and a 4x4 corner past the
// corner bound.
bool run_paths16(const char *target, uint64_t seed) {
  Rng rng(seed);
  const int16_t *scan = scan_for(kTx16x16, kDctDct);
  int failed = 0;
  for (int form = 0; form < 10; form++) {
    const int k = form % 2 ? 16 : 8;
    Block b{kTx16x16, kDctDct, -1 - form, std::vector<int16_t>(256, 0), 0, 0, 0, 0, {}};
    if (form < 6) {
      const int v = form < 2 ? 23000 : form < 4 ? 300 : 23000;
      for (int i = 0; i < k; i++) b.coeffs[i * 16] = static_cast<int16_t>(i % 3 ? v : -v);
      if (form >= 4) b.coeffs[1] = 20000;
    } else {
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
          b.coeffs[i * 16 + j] = static_cast<int16_t>(rng.range(-3000, 3000) | 1);
    }
    for (int p = 0; p < 256; p++)
      if (b.coeffs[scan[p]] != 0) b.last = p + 1;
    b.eob = b.last;
    draw_destination(rng, 16, &b);
    failed += !check_block(target, b, seed ^ static_cast<uint64_t>(form));
  }
  return failed == 0;
}

}  // namespace

int main() {
  const char *names[32];
  const int nt = v3d_cpu_targets(names, 32);
  const uint64_t base = v3dtest::base_seed();
  for (int t = 0; t < nt && t < 32; t++) {
    if (!check(v3d_cpu_force_target(names[t]) == 0, "v3d_cpu_force_target(%s)", names[t]))
      continue;
    int failed = 0;
    for (int tx_size = 0; tx_size < 4; tx_size++)
      for (int tx_type = 0; tx_type < 5; tx_type++) {
        if (tx_type == 4 ? tx_size != 0 : tx_size == 3 && tx_type != 0) continue;
        const int iters = v3dtest::scaled(tx_type == 0 ? 600 : 100);
        for (int it = 0; it < iters && failed < 5; it++) {
          const uint64_t seed = base ^ (static_cast<uint64_t>(tx_size * 8 + tx_type) << 40) ^
                                (static_cast<uint64_t>(t) << 56) ^ static_cast<uint64_t>(it);
          if (run_case(names[t], tx_size, tx_type, seed)) v3dtest::counter().passed++;
          else failed++;
        }
      }
    if (run_paths16(names[t], base ^ (static_cast<uint64_t>(t) << 56) ^ (1ull << 48)))
      v3dtest::counter().passed++;
    else failed++;
    for (int tx_type = 1; tx_type < 4; tx_type++) {
      const uint64_t seed = base ^ (static_cast<uint64_t>(t) << 56) ^ (0x5a5aull << 32) ^
                            static_cast<uint64_t>(tx_type);
      if (run_square_cases(names[t], tx_type, seed)) v3dtest::counter().passed++;
      else failed++;
    }
    for (int tx_type : {kDctAdst, kAdstAdst}) {
      const uint64_t seed = base ^ (static_cast<uint64_t>(t) << 56) ^ (0xad57ull << 32) ^
                            static_cast<uint64_t>(tx_type);
      if (run_adst_row_checks(names[t], tx_type, seed)) v3dtest::counter().passed++;
      else failed++;
    }
    printf("%s: %d failed\n", names[t], failed);
  }
  v3d_cpu_force_target(nullptr);
  return v3dtest::finish();
}
