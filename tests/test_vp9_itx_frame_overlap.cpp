// SPDX-License-Identifier: LGPL-2.1-or-later
// Part of test_vp9_itx_frame: the validation of long block lists on several threads.
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_itx_blocks.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;

// Validation of long lists on several threads (each marks its blocks in its own bitmaps, then the
// bitmaps are checked against each other): random tilings of a 1920x1088 frame in random order,
// valid ones accepted, and one overlapping block anywhere in the list — of any size, on or off
// the 4-pixel grid — refused, the message naming two blocks that do share a pixel (checked here
// by rectangle intersection, the independent reference).
void test_overlap_threads(uint64_t seed) {
  const int W = 1920, H = 1088;
  // 4 threads unless V3D_TEST_THREADS says otherwise (2 under qemu).
  V3dContext *ctx = v3d_context_new("simd", v3dtest::test_threads(4));
  std::vector<uint8_t> y(W * H), u(W * H / 4), v(W * H / 4);
  uint8_t *pl[3] = {y.data(), u.data(), v.data()};
  ptrdiff_t st[3] = {W, W / 2, W / 2};
  const int rounds = v3dtest::scaled(12);
  for (int round = 0; round < rounds; round++) {
    Rng rng(seed + 7919u * round);
    // A random tiling in random order (chunks span the whole frame), every block with eob 0.
    v3dtest::vp9::BlockSpec spec;
    spec.shuffle = true;
    v3dtest::vp9::Blocks bl = v3dtest::vp9::make_blocks(
        rng, W, H, spec, [](Rng &, const V3dVp9TxBlock &, int16_t *) { return 0u; });
    std::vector<V3dVp9TxBlock> &list = bl.blocks;
    const std::vector<int16_t> &coeffs = bl.coeffs;
    int rc = v3d_vp9_itxfm_add_frame(ctx, pl, st, W, H, list.data(), list.size(), coeffs.data(),
                                     coeffs.size());
    check(rc == 0, "round %d (seed 0x%llx): valid tiling of %zu blocks refused: %s", round,
          static_cast<unsigned long long>(seed), list.size(), v3d_last_error());
    // One extra block overlapping the tiling, at a random place in the list.
    V3dVp9TxBlock extra{};
    extra.plane = static_cast<uint8_t>(rng.range(0, 2));
    extra.tx_size = static_cast<uint8_t>(rng.range(0, 3));
    const int pw = extra.plane ? W / 2 : W, ph = extra.plane ? H / 2 : H;
    const bool off_grid = rng.range(0, 3) == 0;
    extra.x = static_cast<uint16_t>(off_grid ? rng.range(0, pw - 1) : 4 * rng.range(0, pw / 4 - 1));
    extra.y = static_cast<uint16_t>(off_grid ? rng.range(0, ph - 1) : 4 * rng.range(0, ph / 4 - 1));
    const size_t at = rng.u32() % (list.size() + 1);
    list.insert(list.begin() + static_cast<long>(at), extra);
    rc = v3d_vp9_itxfm_add_frame(ctx, pl, st, W, H, list.data(), list.size(), coeffs.data(),
                                 coeffs.size());
    size_t i = 0;
    long j = -1;
    const char *msg = v3d_last_error();
    const char *p = strstr(msg, "block ");
    const bool parsed = p && sscanf(p, "block %zu", &i) == 1 && strstr(msg, "overlaps block ") &&
                        sscanf(strstr(msg, "overlaps block ") + 15, "%ld", &j) == 1;
    bool share = false;
    if (parsed && i < list.size() && j >= 0 && static_cast<size_t>(j) < list.size()) {
      const V3dVp9TxBlock &a = list[i], &b = list[j];
      const int na = 4 << a.tx_size, nb = 4 << b.tx_size;
      share = i != static_cast<size_t>(j) && a.plane == b.plane && a.x < b.x + nb &&
              b.x < a.x + na && a.y < b.y + nb && b.y < a.y + na;
    }
    check(rc == V3D_ERROR_BLOCK_OVERLAP && share,
          "round %d (seed 0x%llx): extra block at %zu (plane %d, %d,%d, %dx%d%s) gave %d: %s",
          round, static_cast<unsigned long long>(seed), at, extra.plane, extra.x, extra.y,
          4 << extra.tx_size, 4 << extra.tx_size, off_grid ? ", off grid" : "", rc, msg);
  }
  v3d_context_free(ctx);
}

