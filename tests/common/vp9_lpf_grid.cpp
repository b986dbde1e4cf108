// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/vp9_lpf_grid.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace v3dtest {
namespace vp9 {
namespace {


// Block sizes (libvpx BLOCK_SIZE) of a square of size 8 << lvl (lvl 0 = 8x8 .. 3 = 64x64) split
// NONE, HORZ, VERT; and the largest transform of each block size.
const int kNone[4] = {3, 6, 9, 12}, kHorz[4] = {2, 5, 8, 11}, kVert[4] = {1, 4, 7, 10};
const int kMaxTx[13] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3};
const int kW8[13] = {1, 1, 1, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8};  // width in 8x8 units
const int kH8[13] = {1, 1, 1, 1, 2, 1, 2, 4, 2, 4, 8, 4, 8};

struct GridGen {
  Rng &rng;
  const LfGridParams &p;
  int mi_rows, mi_cols, stride;
  std::vector<V3dVp9LfInfo> &g;

  void block(int r, int c, int bs) {
    V3dVp9LfInfo b{};
    b.block_size = static_cast<uint8_t>(bs);
    b.tx_size = static_cast<uint8_t>(rng.range(0, kMaxTx[bs]));
    b.filter_level =
        rng.range(0, 99) < p.level_zero_pct ? 0 : static_cast<uint8_t>(rng.range(1, p.max_level));
    b.skip_inter = rng.range(0, 99) < p.skip_pct ? 1 : 0;
    for (int i = 0; i < kH8[bs] && r + i < mi_rows; i++)
      for (int j = 0; j < kW8[bs] && c + j < mi_cols; j++) g[(r + i) * stride + c + j] = b;
  }
  // Square of 8 << lvl pixels at (r, c) (in 8x8 units), as the decoder's partition reading:
  // halves entirely outside the picture force HORZ/VERT/SPLIT.
  void partition(int r, int c, int lvl) {
    if (r >= mi_rows || c >= mi_cols) return;
    const int half = lvl ? 1 << (lvl - 1) : 0;
    const bool has_rows = lvl == 0 || r + half < mi_rows, has_cols = lvl == 0 || c + half < mi_cols;
    int kind;  // 0 NONE, 1 HORZ, 2 VERT, 3 SPLIT
    if (has_rows && has_cols) {
      kind = rng.range(0, 99) < p.split_pct ? 3 : rng.range(0, 2);
    } else if (has_cols) {
      kind = rng.range(0, 1) ? 3 : 1;
    } else if (has_rows) {
      kind = rng.range(0, 1) ? 3 : 2;
    } else {
      kind = 3;
    }
    if (lvl == 0) {  // 8x8: NONE, 8x4, 4x8, 4x4 all lie in one entry
      block(r, c, kind == 0 ? 3 : kind == 1 ? 2 : kind == 2 ? 1 : 0);
      return;
    }
    switch (kind) {
      case 0:
        block(r, c, kNone[lvl]);
        break;
      case 1:
        block(r, c, kHorz[lvl]);
        if (r + half < mi_rows) block(r + half, c, kHorz[lvl]);
        break;
      case 2:
        block(r, c, kVert[lvl]);
        if (c + half < mi_cols) block(r, c + half, kVert[lvl]);
        break;
      default:
        for (int i = 0; i < 4; i++) partition(r + (i >> 1) * half, c + (i & 1) * half, lvl - 1);
    }
  }
};

}  // namespace

LfCase make_lf_case(Rng &rng, int width, int height) {
  LfGridParams gp;
  gp.skip_pct = rng.range(0, 60);
  gp.level_zero_pct = rng.range(0, 25);
  gp.split_pct = rng.range(20, 85);
  LfCase c;
  c.grid_stride = (width + 7) / 8 + rng.range(0, 3);
  c.sharpness = rng.range(0, 7);
  c.grid = make_lf_grid(rng, width, height, c.grid_stride, gp);
  return c;
}

std::vector<V3dVp9LfInfo> make_lf_grid(Rng &rng, int width, int height, int stride,
                                       const LfGridParams &params) {
  const int mi_rows = (height + 7) / 8, mi_cols = (width + 7) / 8;
  if (stride < mi_cols) {  // the contract (vp9_lpf_grid.h): rows would overlap and overflow
    fprintf(stderr, "make_lf_grid: stride %d below the grid width %d\n", stride, mi_cols);
    abort();
  }
  std::vector<V3dVp9LfInfo> g(static_cast<size_t>(mi_rows) * stride);
  for (auto &e : g) e = V3dVp9LfInfo{0xEE, 0xEE, 0xEE, 0xEE};  // junk past mi_cols
  GridGen gen{rng, params, mi_rows, mi_cols, stride, g};
  for (int r = 0; r < mi_rows; r += 8)
    for (int c = 0; c < mi_cols; c += 8) gen.partition(r, c, 3);
  return g;
}

std::vector<V3dVp9LfInfo> make_uniform_lf_grid(int height, int stride, V3dVp9LfInfo entry) {
  return std::vector<V3dVp9LfInfo>(static_cast<size_t>(stride) * ((height + 7) / 8), entry);
}

LfFrame::LfFrame(int width, int height)
    : GuardedPlanes(Dims420(width, height, true).w, Dims420(width, height, true).h, kGuard, 8) {}

void LfFrame::fill_smooth(Rng &rng) {
  for (int p = 0; p < 3; p++) {
    // A base level per 4x4 cell: a random walk with mostly small steps (the filters' regime),
    // some larger ones (masks fail, high edge variance), some cells with noise or a gradient.
    const int cw = (w[p] + 3) / 4, ch = (h[p] + 3) / 4;
    std::vector<int> base(cw * ch), kind(cw * ch);
    int v = rng.range(40, 215);
    for (int i = 0; i < ch; i++)
      for (int j = 0; j < cw; j++) {
        const int left = j ? base[i * cw + j - 1] : v, up = i ? base[(i - 1) * cw + j] : left;
        const int from = rng.range(0, 1) ? left : up;
        const int roll = rng.range(0, 99);
        const int step = roll < 40   ? 0
                         : roll < 80 ? rng.range(-2, 2)
                         : roll < 93 ? rng.range(-8, 8)
                                     : rng.range(-40, 40);
        base[i * cw + j] = std::clamp(from + step, 8, 247);
        const int k = rng.range(0, 99);
        kind[i * cw + j] = k < 60 ? 0 : k < 80 ? 1 : k < 93 ? 2 : 3;
      }
    for (int y = 0; y < h[p]; y++)
      for (int x = 0; x < w[p]; x++) {
        const int cell = (y / 4) * cw + x / 4;
        int s = base[cell];
        switch (kind[cell]) {
          case 1:
            s += rng.range(0, 1);
            break;  // stays flat (within 1)
          case 2:
            s += (x & 3) - (y & 3);
            break;  // gentle gradient
          case 3:
            s += rng.range(-6, 6);
            break;  // texture
          default:
            break;  // flat
        }
        data[p][y * stride[p] + x] = static_cast<uint8_t>(std::clamp(s, 0, 255));
      }
  }
}

}  // namespace vp9
}  // namespace v3dtest
