// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/vp9_itx_blocks.h"

#include <utility>

namespace v3dtest {
namespace vp9 {

Blocks make_blocks(Rng &rng, int width, int height, int max_tx, bool raw) {
  Blocks out;
  int pw = (width + 7) & ~7, ph = (height + 7) & ~7;
  for (int plane = 0; plane < 3; plane++) {
    int w = plane ? pw / 2 : pw, h = plane ? ph / 2 : ph;
    // Walk 32x32 cells; split each into blocks of one random size.
    for (int cy = 0; cy < h; cy += 32)
      for (int cx = 0; cx < w; cx += 32) {
        int tx = rng.range(0, max_tx);
        int n = 4 << tx;
        for (int y = cy; y < cy + 32 && y < h; y += n)
          for (int x = cx; x < cx + 32 && x < w; x += n) {
            if (rng.range(0, 9) == 0) continue;  // uncoded
            V3dVp9TxBlock b{};
            b.x = static_cast<uint16_t>(x);
            b.y = static_cast<uint16_t>(y);
            b.plane = static_cast<uint8_t>(plane);
            b.tx_size = static_cast<uint8_t>(tx);
            b.tx_type = static_cast<uint8_t>(tx == 3 ? 0 : rng.range(0, 3));
            if (tx == 0 && rng.range(0, 7) == 0) b.tx_type = 4;
            b.coeff_offset = static_cast<uint32_t>(out.coeffs.size());
            out.coeffs.resize(out.coeffs.size() + n * n, 0);
            int16_t *c = &out.coeffs[b.coeff_offset];
            int kind = rng.range(0, 9);
            if (raw && kind == 0) {
              for (int k = 0; k < n * n; k++) c[k] = static_cast<int16_t>(rng.u32());
            } else if (kind == 1) {
              c[0] = static_cast<int16_t>(rng.range(-2000, 2000));  // DC only
            } else {
              int m = rng.range(1, n);
              for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++)
                  if (rng.range(0, 2) == 0)
                    c[i * n + j] = static_cast<int16_t>(rng.range(-400, 400) / (1 + i + j));
            }
            int last = 0;
            for (int k = 0; k < n * n; k++)
              if (c[k]) last = k + 1;
            b.eob = rng.range(0, 15) == 0 ? 0 : (last ? static_cast<uint32_t>(n * n) : 0);
            if (b.eob && rng.range(0, 1)) b.eob = static_cast<uint32_t>(rng.range(1, n * n));
            out.blocks.push_back(b);
          }
      }
  }
  // Any order is valid.
  for (size_t i = out.blocks.size(); i > 1; i--) std::swap(out.blocks[i - 1], out.blocks[rng.u32() % i]);
  return out;
}

}  // namespace vp9
}  // namespace v3dtest
