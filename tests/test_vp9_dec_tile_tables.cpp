// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's constant tables (kernels/vp9/dec/tile_tables.h) against independent facts:
// the 4x4 scans and the first entries of the larger ones as the VP9 specification lists them,
// every scan a permutation whose context neighbours are decoded before each position (the token
// contexts read them), the partition subsizes and chroma transform sizes worked out by hand, and
// the inter mode context table derived again from its definition. No randomness.
#include <cstring>
#include <vector>

#include "common/test_util.h"
#include "vp9/dec/tile_tables.h"
#include "vp9/itx/itx_eob_hint.h"

using v3dtest::check;
using namespace v3d::vp9;

namespace {

void test_scans() {
  // Spec section 10.5 (default_scan_4x4, col_scan_4x4, row_scan_4x4).
  static const int16_t def4[16] = {0, 4, 1, 5, 8, 2, 12, 9, 3, 6, 13, 10, 7, 14, 11, 15};
  static const int16_t col4[16] = {0, 4, 8, 1, 12, 5, 9, 2, 13, 6, 10, 3, 7, 14, 11, 15};
  static const int16_t row4[16] = {0, 1, 4, 2, 5, 3, 6, 8, 9, 7, 12, 10, 13, 11, 14, 15};
  check(std::memcmp(kDefaultScan4x4, def4, sizeof def4) == 0, "default_scan_4x4 differs");
  check(std::memcmp(kColScan4x4, col4, sizeof col4) == 0, "col_scan_4x4 differs");
  check(std::memcmp(kRowScan4x4, row4, sizeof row4) == 0, "row_scan_4x4 differs");
  static const int16_t def8[8] = {0, 8, 1, 16, 9, 2, 17, 24};
  static const int16_t def32[8] = {0, 32, 1, 64, 33, 2, 96, 65};
  check(std::memcmp(kDefaultScan8x8, def8, sizeof def8) == 0, "default_scan_8x8 starts wrong");
  check(std::memcmp(kDefaultScan32x32, def32, sizeof def32) == 0, "default_scan_32x32 starts wrong");

  for (int tx = 0; tx < 4; ++tx) {
    const int n = 4 << tx;
    for (int type = 0; type < 4; ++type) {
      const int16_t *scan = scan_for(tx, type);
      std::vector<int> order(n * n, -1);
      bool perm = true;
      for (int c = 0; c < n * n; ++c) {
        if (scan[c] < 0 || scan[c] >= n * n || order[scan[c]] >= 0) perm = false;
        else order[scan[c]] = c;
      }
      check(perm, "scan tx %d type %d is not a permutation", tx, type);
      if (!perm) continue;
      // The neighbours the contexts use (above and left; the column scan, tx_type 2, only above;
      // the row scan, tx_type 1, only left) come earlier in the scan.
      int late = 0;
      const int eff = tx == 3 ? 0 : type;
      for (int pos = 1; pos < n * n; ++pos) {
        const int i = pos / n, j = pos % n;
        const bool use_above = i > 0 && (eff != 1 || j == 0);
        const bool use_left = j > 0 && (eff != 2 || i == 0);
        if (use_above && order[pos - n] > order[pos]) ++late;
        if (use_left && order[pos - 1] > order[pos]) ++late;
      }
      check(late == 0, "scan tx %d type %d: %d context neighbours come after their position", tx,
            type, late);
    }
  }
}

// kScan<n>First<s>Out (itx_eob_hint.h): the first position of the n x n default scan outside the
// top-left s x s square, computed here from the scan.
void test_first_out(const int16_t *scan, int n, int side, int first_out) {
  int first = 0;
  while (first < n * n && scan[first] % n < side && scan[first] / n < side) ++first;
  check(first == first_out, "first %dx%d scan position outside %dx%d: %d, table says %d", n, n,
        side, side, first, first_out);
}

// The first kScan32First20Out positions of default_scan_32x32 are exactly the (r, c) with
// r / 4 + c / 4 <= 4 (test_vp9_itx's in_scan32_prefix20, which makes blocks for that eob).
void test_prefix20() {
  int wrong = 0;
  for (int p = 0; p < 1024; ++p) {
    const int r = kDefaultScan32x32[p] / 32, c = kDefaultScan32x32[p] % 32;
    if ((p < kScan32First20Out) != (r / 4 + c / 4 <= 4)) ++wrong;
  }
  check(wrong == 0, "default_scan_32x32: %d positions disagree with the 20x20 prefix's shape",
        wrong);
}

// The 32x32 transforms' eob hints (itx_eob_hint.h) against the default scan, for the top-left
// 24x24 and 16x16 squares: the first position outside the square, the mask of such positions
// after it, and the hint itself (eob - 1 is the last position read; eob > 512 counts as outside).
void test_eob_hint32(int side, int first_out, const uint64_t *mask, int mask_words,
                     bool (*hint)(int)) {
  auto outside = [side](int p) {
    return kDefaultScan32x32[p] % 32 >= side || kDefaultScan32x32[p] / 32 >= side;
  };
  test_first_out(kDefaultScan32x32, 32, side, first_out);
  int wrong = 0;
  for (int k = 0; k < 64 * mask_words && first_out + k < 1024; ++k) {
    if ((((mask[k >> 6] >> (k & 63)) & 1) != 0) != outside(first_out + k)) ++wrong;
  }
  check(wrong == 0, "%dx%d outside mask: %d positions wrong", side, side, wrong);
  int bad = 0;
  for (int eob = 1; eob <= 1024; ++eob) {
    if (hint(eob) != (eob > 512 || outside(eob - 1))) ++bad;
  }
  check(bad == 0, "the %dx%d eob hint is wrong for %d eob values", side, side, bad);
}

// The 16x16 DCT_DCT eob hint (itx_eob_hint.h) against the default 16x16 scan and the 8x8 square:
// exact from position 86 on, where the scan's last position inside the square but one lies.
void test_eob_hint16() {
  int bad = 0, last_inside = 0;
  for (int eob = 1; eob <= 256; ++eob) {
    const int pos = kDefaultScan16x16[eob - 1];
    const bool outside = pos % 16 >= 8 || pos / 16 >= 8;
    if (!outside && eob - 1 != 95) last_inside = eob - 1;
    if (Eob16PastSquare8(eob) != (eob - 1 >= 86 && outside)) ++bad;
  }
  check(last_inside == 85, "16x16 scan: last position inside 8x8 before 95: %d", last_inside);
  check(bad == 0, "the 16x16 eob hint is wrong for %d eob values", bad);
}

void test_block_tables() {
  check(subsize_of(kBlock64x64, PARTITION_HORZ) == kBlock64x32, "64x64 horz");
  check(subsize_of(kBlock32x32, PARTITION_VERT) == kBlock16x32, "32x32 vert");
  check(subsize_of(kBlock16x16, PARTITION_SPLIT) == kBlock8x8, "16x16 split");
  check(subsize_of(kBlock8x8, PARTITION_SPLIT) == kBlock4x4, "8x8 split");
  check(subsize_of(kBlock8x8, PARTITION_HORZ) == kBlock8x4, "8x8 horz");
  check(subsize_of(kBlock8x8, PARTITION_NONE) == kBlock8x8, "8x8 none");
  // 4:2:0 chroma transform: the luma size, capped by the chroma block's smaller side.
  struct { BlockSize b; int tx, want; } uv[] = {
      {kBlock64x64, 3, 3}, {kBlock64x32, 3, 2}, {kBlock32x32, 3, 2}, {kBlock32x32, 1, 1},
      {kBlock16x16, 2, 1}, {kBlock16x8, 1, 0},  {kBlock8x8, 1, 0},   {kBlock4x8, 0, 0}};
  for (const auto &u : uv)
    check(uv_tx_size(u.b, u.tx) == u.want, "uv tx of block %d tx %d: %d, want %d", u.b, u.tx,
          uv_tx_size(u.b, u.tx), u.want);
  for (int b = 0; b < kNumBlockSizes; ++b) {
    if (b >= kBlock8x8)
      check((1 << (kBwl[b] - 1)) == kNum8x8W[b] && (1 << (kBhl[b] - 1)) == kNum8x8H[b],
            "size tables of block %d disagree", b);
  }
}

// counter_to_context from its definition: the two nearest neighbours each add 9 if intra, 3 if
// ZEROMV, 1 if NEWMV, 0 otherwise; the context names the pair.
void test_mode_context() {
  // Contexts: 0 both zero, 1 zero + predicted, 2 both predicted, 3 new + non-intra, 4 both new,
  // 5 intra + non-intra, 6 both intra.
  const int kinds[4] = {0, 3, 1, 9};  // predicted, zero, new, intra
  for (int a = 0; a < 4; ++a)
    for (int b = a; b < 4; ++b) {
      const int ka = kinds[a], kb = kinds[b];
      int want;
      if (ka == 9 && kb == 9) want = 6;
      else if (ka == 9 || kb == 9) want = 5;
      else if (ka == 1 && kb == 1) want = 4;
      else if (ka == 1 || kb == 1) want = 3;
      else if (ka == 3 && kb == 3) want = 0;
      else if (ka == 3 || kb == 3) want = 1;
      else want = 2;
      check(kCounterToContext[ka + kb] == want, "mode context of counter %d: %d, want %d",
            ka + kb, kCounterToContext[ka + kb], want);
    }
  // One neighbour only (the other outside the tile) counts alone.
  check(kCounterToContext[9] == 5 && kCounterToContext[0] == 2, "single-neighbour contexts");
  check(kMode2Counter[NEARESTMV] == 0 && kMode2Counter[NEARMV] == 0 &&
            kMode2Counter[ZEROMV] == 3 && kMode2Counter[NEWMV] == 1 && kMode2Counter[TM_PRED] == 9,
        "mode_2_counter");
}

}  // namespace

int main() {
  test_scans();
  test_block_tables();
  test_eob_hint32(24, kScan32First24Out, kScan32Outside24, 3,
                  [](int eob) { return Eob32PastSquare24(eob); });
  test_eob_hint32(16, kScan32First16Out, kScan32Outside16, 6,
                  [](int eob) { return Eob32PastSquare16(eob); });
  test_eob_hint16();
  test_first_out(kDefaultScan8x8, 8, 2, kScan8First2Out);
  test_first_out(kDefaultScan8x8, 8, 4, kScan8First4Out);
  test_first_out(kDefaultScan16x16, 16, 2, kScan16First2Out);
  test_first_out(kDefaultScan16x16, 16, 4, kScan16First4Out);
  test_first_out(kDefaultScan16x16, 16, 8, kScan16First8Out);
  test_first_out(kDefaultScan32x32, 32, 8, kScan32First8Out);
  test_first_out(kDefaultScan32x32, 32, 12, kScan32First12Out);
  test_first_out(kDefaultScan32x32, 32, 20, kScan32First20Out);
  // The column-major slots' squares (itx_cm.h), per transform type's scan.
  for (int type = 0; type < 4; ++type) {
    test_first_out(scan_for(1, type), 8, 4, kScan8FirstOutSquare[type][0]);
    for (int k = 0; k < 3; ++k)
      test_first_out(scan_for(2, type), 16, 4 * (k + 1), kScan16FirstOutSquare[type][k]);
  }
  for (int k = 0; k < 7; ++k)
    test_first_out(kDefaultScan32x32, 32, 4 * (k + 1), kScan32FirstOutSquare[k]);
  test_prefix20();
  test_mode_context();
  return v3dtest::finish();
}
