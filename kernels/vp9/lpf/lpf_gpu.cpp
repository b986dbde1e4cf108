// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/lpf/lpf_gpu.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "vp9_lpf_layout.h"
#include "gpu/gpu.h"
#include "vp9/lpf/lpf_vk.h"

namespace v3d {
namespace vp9 {
namespace {

static_assert(kLpfCellWords == V3D_LPF_CELLS, "cell words as in vp9_lpf_layout.h");

inline bool bit(uint64_t m, int r, int c, int n) { return (m >> (r * n + c)) & 1; }
// Width code of the layout: 1, 2, 3 = filter width 4, 8, 16 (kLpf4 .. kLpf16 + 1).
inline uint32_t code_of(int k) { return static_cast<uint32_t>(k + 1); }

// The cells of one plane (n x n): the decisions of lpf_frame.cpp's vertical_pass and
// horizontal_pass, edge by edge, with the same pairings (a pair filtered as one 16-pixel edge
// uses the first cell's level for both).
void plane_cells(int n, const uint64_t left[kNumLpfWidths], const uint64_t above[kNumLpfWidths],
                 uint64_t int4, const uint8_t *lvl, bool top_row, int no_int_row, uint32_t *out,
                 uint64_t *edges) {
  uint32_t v[64] = {}, h[64] = {}, iv[64] = {}, ih[64] = {};
  // Vertical edges, cell rows two at a time (vertical_pass).
  for (int r = 0; r < n; r += 2)
    for (int c = 0; c < n; c++) {
      const int a_i = r * n + c, b_i = (r + 1) * n + c;
      const int la = lvl[a_i], lb = lvl[b_i];
      for (int k = kLpf16; k >= 0; k--) {
        const bool a = bit(left[k], r, c, n), b = bit(left[k], r + 1, c, n);
        if (a && !v[a_i]) v[a_i] = V3D_LPF_CELL_V(code_of(k), static_cast<uint32_t>(la));
        if (b && !v[b_i])
          v[b_i] = V3D_LPF_CELL_V(code_of(k), static_cast<uint32_t>(a && k == kLpf16 ? la : lb));
      }
      if (bit(int4, r, c, n)) iv[a_i] = 1;
      if (bit(int4, r + 1, c, n)) iv[b_i] = 1;
    }
  // Horizontal edges, cell rows top to bottom, columns scanned left to right (horizontal_pass).
  const unsigned row_mask = (1u << n) - 1;
  for (int r = 0; r < n; r++) {
    unsigned m[kNumLpfWidths];
    for (int k = 0; k < kNumLpfWidths; k++)
      m[k] = top_row && r == 0 ? 0 : static_cast<unsigned>(above[k] >> (r * n)) & row_mask;
    const unsigned mi = r == no_int_row ? 0 : static_cast<unsigned>(int4 >> (r * n)) & row_mask;
    const uint8_t *l = lvl + r * n;
    uint32_t *hr = h + r * n, *ir = ih + r * n;
    for (int c = 0; c < n;) {
      const unsigned b = 1u << c;
      if ((m[kLpf16] & b) && c + 1 < n && (m[kLpf16] & (b << 1))) {
        hr[c] = hr[c + 1] = V3D_LPF_CELL_H(code_of(kLpf16), static_cast<uint32_t>(l[c]));
        c += 2;  // no internal edges here (as lpf_frame.cpp)
        continue;
      }
      const int k = (m[kLpf16] & b) ? kLpf16 : (m[kLpf8] & b) ? kLpf8 : (m[kLpf4] & b) ? kLpf4 : -1;
      const bool pair = k >= 0 && k != kLpf16 && c + 1 < n && (m[k] & (b << 1)) && l[c] == l[c + 1];
      if (pair) {
        hr[c] = hr[c + 1] = V3D_LPF_CELL_H(code_of(k), static_cast<uint32_t>(l[c]));
        if (mi & b) ir[c] = 1;
        if (mi & (b << 1)) ir[c + 1] = 1;
        c += 2;
        continue;
      }
      if (k >= 0) hr[c] = V3D_LPF_CELL_H(code_of(k), static_cast<uint32_t>(l[c]));
      if (mi & b) ir[c] = 1;
      c++;
    }
  }
  for (int i = 0; i < n * n; i++) {
    out[i] = v[i] | h[i] | V3D_LPF_CELL_INT(static_cast<uint32_t>(lvl[i]), iv[i], ih[i]);
    *edges += (v[i] != 0) + (h[i] != 0) + iv[i] + ih[i];
  }
}

}  // namespace

void lpf_gpu_cells(const LpfFrame &f, int sb_row, int sb_col, uint32_t *cells, uint64_t edges[3]) {
  LpfSbMask m;
  lpf_build_sb_mask(f.grid, sb_row, sb_col, &m);
  uint64_t e[2] = {0, 0};
  plane_cells(8, m.left_y, m.above_y, m.int_y, m.lvl_y, sb_row == 0, -1, cells, &e[0]);
  const int rows = std::min(8, f.grid.mi_rows - sb_row * 8);
  const int no_int_row = (rows & 1) ? rows >> 1 : -1;
  uint64_t left_uv[kNumLpfWidths], above_uv[kNumLpfWidths];
  for (int k = 0; k < kNumLpfWidths; k++) {
    left_uv[k] = m.left_uv[k];
    above_uv[k] = m.above_uv[k];
  }
  plane_cells(4, left_uv, above_uv, m.int_uv, m.lvl_uv, sb_row == 0, no_int_row, cells + 64, &e[1]);
  if (edges) {
    edges[0] += e[0];
    edges[1] += e[1];
    edges[2] += e[1];
  }
}

void lpf_gpu_frame_cells(const LpfFrame &f, ThreadPool &pool, std::vector<uint32_t> *cells,
                         uint64_t edges[3]) {
  const int rows = lpf_sb_rows(f), cols = lpf_sb_cols(f);
  cells->resize(static_cast<size_t>(rows) * cols * kLpfCellWords);
  std::vector<uint64_t> row_edges(static_cast<size_t>(rows) * 3, 0);
  pool.run(rows, [&](int r, int) {
    for (int c = 0; c < cols; c++)
      lpf_gpu_cells(f, r, c, cells->data() + (static_cast<size_t>(r) * cols + c) * kLpfCellWords,
                    &row_edges[static_cast<size_t>(r) * 3]);
  });
  for (int p = 0; p < 3; p++) edges[p] = 0;
  for (int r = 0; r < rows; r++)
    for (int p = 0; p < 3; p++) edges[p] += row_edges[static_cast<size_t>(r) * 3 + p];
}

}  // namespace vp9
}  // namespace v3d
