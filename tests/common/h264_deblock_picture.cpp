// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/h264_deblock_picture.h"

#include <algorithm>
#include <cstring>

namespace v3dtest {
namespace h264 {
namespace {

int mb_count(int size) { return (size + 15) / 16; }

void set_edge(V3dH264MbInfo &m, int dir, int e, int v) {
  for (int s = 0; s < 4; s++) m.bs[dir][e][s] = static_cast<uint8_t>(v);
}

}  // namespace

Picture::Picture(int width, int height, int extra_stride)
    : GuardedPlanes(Dims420(width, height).w, Dims420(width, height).h, kGuard, extra_stride) {}

void Picture::fill(Rng &rng) {
  // Per 4x4 block of each plane: a smooth ramp plus a step from a mixture (mostly below alpha,
  // so edges filter; some large, so some do not), plus noise of 0..noise (within beta mostly).
  const int noise = rng.range(0, 3);
  for (int p = 0; p < 3; p++) {
    const int bw = (w[p] + 3) / 4, bh = (h[p] + 3) / 4;
    std::vector<int> step(static_cast<size_t>(bw) * bh);
    for (int &s : step) {
      const int k = rng.range(0, 99);
      const int mag = k < 45 ? rng.range(0, 4) : k < 85 ? rng.range(5, 24) : rng.range(25, 80);
      s = rng.range(0, 1) ? mag : -mag;
    }
    const int base = rng.range(60, 190), gx = rng.range(-2, 2), gy = rng.range(-2, 2);
    for (int y = 0; y < h[p]; y++)
      for (int x = 0; x < w[p]; x++) {
        int v = base + (gx * x) / 8 + (gy * y) / 8 + step[(y / 4) * bw + x / 4];
        if (noise) v += rng.range(0, noise);
        data[p][y * stride[p] + x] = static_cast<uint8_t>(std::clamp(v, 0, 255));
      }
  }
}

Grid make_grid(Rng &rng, int width, int height, const GridParams &gp) {
  Grid g;
  g.mb_rows = mb_count(height);
  g.mb_cols = mb_count(width);
  g.mb_stride = g.mb_cols + rng.range(0, 3);
  const int n_mbs = g.mb_rows * g.mb_cols;
  const int n_slices = rng.range(1, std::min(gp.n_slices_max, n_mbs));
  for (int i = 0; i < n_slices; i++) {
    V3dH264SliceInfo s{};
    const int k = rng.range(0, 9);
    s.disable_deblocking_filter_idc = static_cast<int8_t>(k < 6 ? 0 : k < 8 ? 2 : 1);
    s.filter_offset_a = static_cast<int8_t>(2 * rng.range(-6, 6));
    s.filter_offset_b = static_cast<int8_t>(2 * rng.range(-6, 6));
    s.chroma_qp_index_offset = static_cast<int8_t>(rng.range(-12, 12));
    s.second_chroma_qp_index_offset =
        rng.range(0, 1) ? s.chroma_qp_index_offset : static_cast<int8_t>(rng.range(-12, 12));
    g.slices.push_back(s);
  }
  // Slice starts in raster order (slice 0 at macroblock 0), or per macroblock at random.
  std::vector<int> starts{0};
  for (int i = 1; i < n_slices; i++) starts.push_back(rng.range(1, n_mbs - 1));
  std::sort(starts.begin(), starts.end());
  g.mbs.resize(static_cast<size_t>(g.mb_rows) * g.mb_stride);
  for (auto &m : g.mbs) {  // junk in unused entries (overwritten for the used ones)
    m.qp = static_cast<uint8_t>(rng.range(0, 255));
    m.slice = static_cast<uint16_t>(rng.range(0, 65535));
    for (int d = 0; d < 2; d++)
      for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++) m.bs[d][e][s] = static_cast<uint8_t>(rng.range(0, 255));
  }
  const int qp_lo = rng.range(0, 40), qp_hi = rng.range(qp_lo, 51);
  for (int r = 0; r < g.mb_rows; r++)
    for (int c = 0; c < g.mb_cols; c++) {
      V3dH264MbInfo &m = g.at(r, c);
      const int addr = r * g.mb_cols + c;
      int sl = 0;
      if (gp.per_mb_slices) sl = rng.range(0, n_slices - 1);
      else
        while (sl + 1 < n_slices && starts[sl + 1] <= addr) sl++;
      m.slice = static_cast<uint16_t>(sl);
      m.qp = static_cast<uint8_t>(rng.range(0, 9) ? rng.range(qp_lo, qp_hi) : rng.range(0, 51));
      m.transform_8x8 = rng.range(0, 99) < gp.t8x8_pct;
      const int kind = rng.range(0, 99);
      for (int d = 0; d < 2; d++)
        for (int e = 0; e < 4; e++)
          for (int s = 0; s < 4; s++) {
            int v;
            if (kind < gp.intra_pct) v = e == 0 ? 4 : 3;
            else if (kind < gp.intra_pct + gp.inter_pct) v = rng.range(0, 2);
            else v = rng.range(0, 4);
            m.bs[d][e][s] = static_cast<uint8_t>(v);
          }
      // Inter macroblocks: often one value per whole edge, as real streams mostly have.
      if (kind >= gp.intra_pct && kind < gp.intra_pct + gp.inter_pct && rng.range(0, 1))
        for (int d = 0; d < 2; d++)
          for (int e = 0; e < 4; e++) set_edge(m, d, e, m.bs[d][e][0]);
    }
  return g;
}

Grid make_uniform_grid(int width, int height, int qp, int chroma_qp_offset, int offset_a,
                       int offset_b, bool intra, int inter_bs, bool transform_8x8) {
  Grid g;
  g.mb_rows = mb_count(height);
  g.mb_cols = mb_count(width);
  g.mb_stride = g.mb_cols;
  V3dH264SliceInfo s{};
  s.filter_offset_a = static_cast<int8_t>(offset_a);
  s.filter_offset_b = static_cast<int8_t>(offset_b);
  s.chroma_qp_index_offset = s.second_chroma_qp_index_offset =
      static_cast<int8_t>(chroma_qp_offset);
  g.slices.push_back(s);
  V3dH264MbInfo m{};
  m.qp = static_cast<uint8_t>(qp);
  m.transform_8x8 = transform_8x8;
  for (int d = 0; d < 2; d++)
    for (int e = 0; e < 4; e++) set_edge(m, d, e, intra ? (e == 0 ? 4 : 3) : inter_bs);
  g.mbs.assign(static_cast<size_t>(g.mb_rows) * g.mb_stride, m);
  return g;
}

Grid make_inter_grid(Rng &rng, int width, int height) {
  GridParams gp;
  gp.n_slices_max = 1;
  gp.intra_pct = 10;
  gp.inter_pct = 90;
  gp.t8x8_pct = 50;
  Grid g = make_grid(rng, width, height, gp);
  g.slices[0] = V3dH264SliceInfo{};
  for (int r = 0; r < g.mb_rows; r++)
    for (int c = 0; c < g.mb_cols; c++) {
      V3dH264MbInfo &m = g.at(r, c);
      m.qp = static_cast<uint8_t>(rng.range(26, 34));
      if (m.bs[0][1][0] == 3) continue;  // intra
      for (int d = 0; d < 2; d++) {  // macroblock edges: 2 (coefficients) or 1 (motion)
        const uint8_t v = static_cast<uint8_t>(rng.range(1, 2));
        for (int s = 0; s < 4; s++) m.bs[d][0][s] = v;
      }
    }
  return g;
}

}  // namespace h264
}  // namespace v3dtest
