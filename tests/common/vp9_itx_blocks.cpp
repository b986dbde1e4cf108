// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/vp9_itx_blocks.h"

#include <utility>

namespace v3dtest {
namespace vp9 {
namespace {

class Builder {
 public:
  Builder(Rng &rng, const BlockSpec &spec, const CoeffFn &fill)
      : rng_(rng), spec_(spec), fill_(fill) {}

  // kCells: the plane's 32x32 cells, each tiled with blocks of one size.
  void cells(int plane, int w, int h) {
    for (int cy = 0; cy < h; cy += 32)
      for (int cx = 0; cx < w; cx += 32) {
        const int tx = spec_.tx_size >= 0 ? spec_.tx_size : rng_.range(0, spec_.max_tx);
        int cell_type = spec_.tx_type;
        if (spec_.type_per_cell && cell_type < 0) cell_type = tx == 3 ? 0 : rng_.range(0, 3);
        const int n = 4 << tx;
        for (int y = cy; y < cy + 32 && y < h; y += n)
          for (int x = cx; x < cx + 32 && x < w; x += n) block(plane, x, y, tx, cell_type);
      }
  }

  // kQuadtree: superblocks of 64x64 (luma) or 32x32 (chroma), split recursively.
  void quadtree(int plane, int w, int h) {
    const int top = plane ? 32 : 64;
    for (int y = 0; y < h; y += top)
      for (int x = 0; x < w; x += top) split(plane, w, h, x, y, top);
  }

  Blocks out;

 private:
  void split(int plane, int w, int h, int x, int y, int size) {
    if (x >= w || y >= h) return;
    bool leaf;
    if (size > 32) leaf = false;  // no 64x64 transform in VP9
    else if (spec_.tx_size >= 0) leaf = size <= (4 << spec_.tx_size);
    else leaf = size == 4 || rng_.uniform() >= spec_.split;
    if (!leaf) {
      const int half = size / 2;
      for (int k = 0; k < 4; k++) split(plane, w, h, x + (k & 1) * half, y + (k >> 1) * half, half);
      return;
    }
    const int tx = size == 4 ? 0 : size == 8 ? 1 : size == 16 ? 2 : 3;
    block(plane, x, y, tx, spec_.tx_type);
  }

  void block(int plane, int x, int y, int tx, int type) {
    if (spec_.coded < 1.0 && rng_.uniform() >= spec_.coded) return;
    if (type < 0) {
      type = tx == 3 ? 0 : rng_.range(0, 3);
      if (tx == 0 && spec_.wht_one_in > 0 && rng_.range(0, spec_.wht_one_in - 1) == 0) type = 4;
    }
    const int n = 4 << tx;
    V3dVp9TxBlock b{};
    b.x = static_cast<uint16_t>(x);
    b.y = static_cast<uint16_t>(y);
    b.plane = static_cast<uint8_t>(plane);
    b.tx_size = static_cast<uint8_t>(tx);
    b.tx_type = static_cast<uint8_t>(type);
    b.coeff_offset = static_cast<uint32_t>(out.coeffs.size());
    out.coeffs.resize(out.coeffs.size() + n * n, 0);
    b.eob = fill_(rng_, b, &out.coeffs[b.coeff_offset]);
    out.blocks.push_back(b);
  }

  Rng &rng_;
  const BlockSpec &spec_;
  const CoeffFn &fill_;
};

}  // namespace

Blocks make_blocks(Rng &rng, int width, int height, const BlockSpec &spec, const CoeffFn &fill) {
  Builder builder(rng, spec, fill);
  const int pw = (width + 7) & ~7, ph = (height + 7) & ~7;
  for (int plane = 0; plane < 3; plane++) {
    const int w = plane ? pw / 2 : pw, h = plane ? ph / 2 : ph;
    if (spec.layout == Layout::kQuadtree) builder.quadtree(plane, w, h);
    else builder.cells(plane, w, h);
  }
  Blocks out = std::move(builder.out);
  if (spec.shuffle)
    for (size_t i = out.blocks.size(); i > 1; i--)
      std::swap(out.blocks[i - 1], out.blocks[rng.u32() % i]);
  return out;
}

Blocks make_blocks(Rng &rng, int width, int height, int max_tx, bool raw) {
  BlockSpec spec;
  spec.max_tx = max_tx;
  spec.wht_one_in = 8;
  spec.coded = 0.9;
  spec.shuffle = true;
  return make_blocks(rng, width, height, spec,
                     [raw](Rng &r, const V3dVp9TxBlock &b, int16_t *c) {
                       return small_coeffs(r, b, c, raw);
                     });
}

uint32_t small_coeffs(Rng &rng, const V3dVp9TxBlock &b, int16_t *c, bool raw) {
  const int n = 4 << b.tx_size;
  const int kind = rng.range(0, 9);
  if (raw && kind == 0) {
    for (int k = 0; k < n * n; k++) c[k] = static_cast<int16_t>(rng.u32());
  } else if (kind == 1) {
    c[0] = static_cast<int16_t>(rng.range(-2000, 2000));  // DC only
  } else {
    const int m = rng.range(1, n);
    for (int i = 0; i < m; i++)
      for (int j = 0; j < m; j++)
        if (rng.range(0, 2) == 0)
          c[i * n + j] = static_cast<int16_t>(rng.range(-400, 400) / (1 + i + j));
  }
  int last = 0;
  for (int k = 0; k < n * n; k++)
    if (c[k]) last = k + 1;
  uint32_t eob = rng.range(0, 15) == 0 ? 0 : (last ? static_cast<uint32_t>(n * n) : 0);
  if (eob && rng.range(0, 1)) eob = static_cast<uint32_t>(rng.range(1, n * n));
  return eob;
}

uint32_t sparse_coeffs(Rng &rng, const V3dVp9TxBlock &b, int16_t *c, int max_dc) {
  const int n = 4 << b.tx_size;
  int dc = rng.range(-max_dc, max_dc);
  if (dc == 0) dc = 1;  // every coded block non-trivial
  c[0] = static_cast<int16_t>(dc);
  if (rng.range(0, 2) == 0) return 1;
  const int k = b.tx_size == 3 ? 8 : 4;
  for (int i = 0; i < k && i < n; i++)
    for (int j = 0; j < k && j < n; j++) {
      if (i + j == 0 || rng.range(0, i + j) != 0) continue;
      const int lim = max_dc / (1 + i + j);
      c[i * n + j] = static_cast<int16_t>(rng.range(-lim, lim));
    }
  return static_cast<uint32_t>(n * n);
}

}  // namespace vp9
}  // namespace v3dtest
