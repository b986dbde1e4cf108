// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/lpf/lpf_frame.h"

#include <algorithm>
#include <cstring>

#include "sched/context.h"
#include "sched/frame_call.h"
#include "runtime/log.h"
#include "threads/wavefront.h"

namespace v3d {
namespace vp9 {
namespace {

struct Plane {
  uint8_t *data;
  ptrdiff_t stride;
  int w, h;
};

// Filters one edge: dir 0 vertical (lines go down), 1 horizontal (pixels go right); (x, y) is
// q0 of the first line; len 8 or 16 lines. Lines past the plane's edge (only a half-size last
// chroma row or column reaches there) are not filtered: libvpx filters them in its frame border,
// which our planes do not have; every line is filtered independently of the others, so the lines
// inside are unaffected. Those edges go through a copy.
inline void edge(const LpfDsp &dsp, const Plane &p, int dir, int width, int x, int y, int len,
                 int level, const LpfThresholds &t) {
  const LpfEdgeFn fn = dsp.edge[dir][width][len == 16];
  uint8_t *dst = p.data + y * p.stride + x;
  const int lines = std::min(len, dir == 0 ? p.h - y : p.w - x);
  if (lines >= len) {
    fn(dst, p.stride, t.E[level], t.I[level], t.H[level]);
    return;
  }
  if (lines <= 0) return;
  const int taps = width == kLpf16 ? 8 : 4;  // pixels read on each side of the edge
  uint8_t tmp[16 * 16] = {0};                // q0 of line l at tmp[l * 16 + 8] (vertical)
  if (dir == 0) {
    for (int l = 0; l < lines; l++)
      memcpy(tmp + l * 16 + 8 - taps, dst + l * p.stride - taps, 2 * taps);
    fn(tmp + 8, 16, t.E[level], t.I[level], t.H[level]);
    for (int l = 0; l < lines; l++)
      memcpy(dst + l * p.stride - taps, tmp + l * 16 + 8 - taps, 2 * taps);
  } else {
    for (int k = -taps; k < taps; k++) memcpy(tmp + (8 + k) * 16, dst + k * p.stride, lines);
    fn(tmp + 8 * 16, 16, t.E[level], t.I[level], t.H[level]);
    for (int k = -taps; k < taps; k++) memcpy(dst + k * p.stride, tmp + (8 + k) * 16, lines);
  }
}

inline bool bit(uint64_t m, int r, int c, int n) { return (m >> (r * n + c)) & 1; }

// Vertical edges of one plane of a superblock: n x n cells of 8x8 pixels at (x0, y0). libvpx
// takes the cell rows two at a time (filter_selectively_vert_row2), columns left to right, at
// each column the block edge then the internal 4x4 edge 4 pixels right. Only the order along
// each pixel row matters (a vertical edge mixes pixels of one row), so this is that order.
// libvpx's one quirk kept here: two 16-wide edges of a row pair are filtered as one 16-line edge
// with the upper row's thresholds.
void vertical_pass(const LpfDsp &dsp, const Plane &p, const LpfThresholds &t, int x0, int y0, int n,
                   const uint64_t left[kNumLpfWidths], uint64_t int4, const uint8_t *lvl) {
  for (int r = 0; r < n; r += 2) {
    const int ya = y0 + 8 * r, yb = ya + 8;
    for (int c = 0; c < n; c++) {
      const int x = x0 + 8 * c;
      const int la = lvl[r * n + c], lb = lvl[(r + 1) * n + c];
      for (int k = kLpf16; k >= 0; k--) {
        const bool a = bit(left[k], r, c, n), b = bit(left[k], r + 1, c, n);
        if (a && b && (k == kLpf16 || la == lb)) {
          edge(dsp, p, 0, k, x, ya, 16, la, t);
        } else {
          if (a) edge(dsp, p, 0, k, x, ya, 8, la, t);
          if (b) edge(dsp, p, 0, k, x, yb, 8, lb, t);
        }
      }
      const bool a = bit(int4, r, c, n), b = bit(int4, r + 1, c, n);
      if (a && b && la == lb) {
        edge(dsp, p, 0, kLpf4, x + 4, ya, 16, la, t);
      } else {
        if (a) edge(dsp, p, 0, kLpf4, x + 4, ya, 8, la, t);
        if (b) edge(dsp, p, 0, kLpf4, x + 4, yb, 8, lb, t);
      }
    }
  }
}

// Horizontal edges of one plane of a superblock, cell rows top to bottom, in each the block edge
// then the internal 4x4 edge 4 rows lower. Columns are independent (a horizontal edge mixes
// pixels of one column); libvpx scans them left to right (filter_selectively_horiz) and filters
// two adjacent 16-wide edges as one 16-pixel edge with the left one's thresholds: that pairing
// is reproduced. top_row: the superblock touches the picture's top (no edge at its row 0).
// no_int_row: a cell row whose internal edges are dropped (-1 none).
void horizontal_pass(const LpfDsp &dsp, const Plane &p, const LpfThresholds &t, int x0, int y0,
                     int n, const uint64_t above[kNumLpfWidths], uint64_t int4, const uint8_t *lvl,
                     bool top_row, int no_int_row) {
  const unsigned row_mask = (1u << n) - 1;
  for (int r = 0; r < n; r++) {
    const int y = y0 + 8 * r;
    unsigned m[kNumLpfWidths];
    for (int k = 0; k < kNumLpfWidths; k++)
      m[k] = top_row && r == 0 ? 0 : static_cast<unsigned>(above[k] >> (r * n)) & row_mask;
    const unsigned mi = r == no_int_row ? 0 : static_cast<unsigned>(int4 >> (r * n)) & row_mask;
    const uint8_t *l = lvl + r * n;
    for (int c = 0; c < n;) {
      const unsigned b = 1u << c;
      const int x = x0 + 8 * c;
      if ((m[kLpf16] & b) && c + 1 < n && (m[kLpf16] & (b << 1))) {
        edge(dsp, p, 1, kLpf16, x, y, 16, l[c], t);
        c += 2;
        continue;
      }
      int k = (m[kLpf16] & b) ? kLpf16 : (m[kLpf8] & b) ? kLpf8 : (m[kLpf4] & b) ? kLpf4 : -1;
      // Pair with the next column when it has the same filter and level (one 16-pixel call).
      const bool pair = k >= 0 && k != kLpf16 && c + 1 < n && (m[k] & (b << 1)) && l[c] == l[c + 1];
      if (pair) {
        edge(dsp, p, 1, k, x, y, 16, l[c], t);
        if ((mi & b) && (mi & (b << 1))) {
          edge(dsp, p, 1, kLpf4, x, y + 4, 16, l[c], t);
        } else {
          if (mi & b) edge(dsp, p, 1, kLpf4, x, y + 4, 8, l[c], t);
          if (mi & (b << 1)) edge(dsp, p, 1, kLpf4, x + 8, y + 4, 8, l[c + 1], t);
        }
        c += 2;
        continue;
      }
      if (k >= 0) edge(dsp, p, 1, k, x, y, 8, l[c], t);
      if (mi & b) edge(dsp, p, 1, kLpf4, x, y + 4, 8, l[c], t);
      c++;
    }
  }
}

enum Pass { kVertical = 1, kHorizontal = 2 };

void filter_sb_passes(const LpfFrame &f, const LpfDsp &dsp, int sb_row, int sb_col, int passes) {
  LpfSbMask m;
  lpf_build_sb_mask(f.grid, sb_row, sb_col, &m);
  const int mi_row = sb_row * 8;
  const bool top = sb_row == 0;
  // Luma.
  if (f.plane_mask & 1) {
    const Plane p{f.data[0], f.stride[0], f.width[0], f.height[0]};
    const int x0 = sb_col * 64, y0 = sb_row * 64;
    if (passes & kVertical) vertical_pass(dsp, p, f.thr, x0, y0, 8, m.left_y, m.int_y, m.lvl_y);
    if (passes & kHorizontal)
      horizontal_pass(dsp, p, f.thr, x0, y0, 8, m.above_y, m.int_y, m.lvl_y, top, -1);
  }
  // Chroma: a last chroma row only 4 pixels high (odd number of 8x8 luma rows) has no internal
  // horizontal 4x4 edge.
  const int rows = std::min(8, f.grid.mi_rows - mi_row);
  const int no_int_row = (rows & 1) ? rows >> 1 : -1;
  uint64_t left_uv[kNumLpfWidths], above_uv[kNumLpfWidths];
  for (int k = 0; k < kNumLpfWidths; k++) {
    left_uv[k] = m.left_uv[k];
    above_uv[k] = m.above_uv[k];
  }
  for (int pl = 1; pl < 3; pl++) {
    if (!(f.plane_mask & (1 << pl))) continue;
    const Plane p{f.data[pl], f.stride[pl], f.width[pl], f.height[pl]};
    const int x0 = sb_col * 32, y0 = sb_row * 32;
    if (passes & kVertical) vertical_pass(dsp, p, f.thr, x0, y0, 4, left_uv, m.int_uv, m.lvl_uv);
    if (passes & kHorizontal)
      horizontal_pass(dsp, p, f.thr, x0, y0, 4, above_uv, m.int_uv, m.lvl_uv, top, no_int_row);
  }
}

}  // namespace

void lpf_thresholds(int sharpness, LpfThresholds *t) {
  // VP9 specification, filter level and sharpness (libvpx update_sharpness): the inner limit is
  // the level shifted right by 1 for sharpness > 0 and by 1 more for sharpness > 4, at most
  // 9 - sharpness (sharpness > 0), at least 1; E = 2 * (level + 2) + limit; H = level >> 4.
  for (int lvl = 0; lvl < 64; lvl++) {
    int limit = lvl >> ((sharpness > 0) + (sharpness > 4));
    if (sharpness > 0) limit = std::min(limit, 9 - sharpness);
    limit = std::max(limit, 1);
    t->I[lvl] = static_cast<uint8_t>(limit);
    t->E[lvl] = static_cast<uint8_t>(2 * (lvl + 2) + limit);
    t->H[lvl] = static_cast<uint8_t>(lvl >> 4);
  }
}

int lpf_validate_header(int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                        int sharpness) {
  if (!frame_size_ok(width, height))
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "invalid frame size %dx%d", width, height);
  if (sharpness < 0 || sharpness > 7)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "sharpness %d outside 0..7", sharpness);
  if (!grid) return set_error(V3D_ERROR_INVALID_ARGUMENT, "grid is NULL");
  const int mi_cols = (width + 7) / 8;
  if (grid_stride < mi_cols)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "grid_stride %d below %d entries per row",
                     grid_stride, mi_cols);
  return V3D_OK;
}

int lpf_validate_rows(int width, int height, const V3dVp9LfInfo *grid, int grid_stride,
                      int row_begin, int row_end) {
  const int mi_rows = (height + 7) / 8, mi_cols = (width + 7) / 8;
  const LpfGrid g{grid, grid_stride, mi_rows, mi_cols};
  for (int r = std::max(0, row_begin); r < std::min(row_end, mi_rows); r++) {
    for (int c = 0; c < mi_cols; c++) {
      const V3dVp9LfInfo &b = g.at(r, c);
      if (b.filter_level > 63)
        return set_error(V3D_ERROR_INVALID_DATA,
                         "grid entry (row %d, col %d; luma x %d, y %d): filter_level %u > 63", r, c,
                         c * 8, r * 8, b.filter_level);
      if (b.block_size > 12)
        return set_error(V3D_ERROR_INVALID_DATA,
                         "grid entry (row %d, col %d; luma x %d, y %d): block_size %u > 12", r, c,
                         c * 8, r * 8, b.block_size);
      if (b.tx_size > lpf_max_tx_size(b.block_size))
        return set_error(V3D_ERROR_BAD_TRANSFORM,
                         "grid entry (row %d, col %d; luma x %d, y %d): tx_size %u larger than "
                         "block_size %u allows",
                         r, c, c * 8, r * 8, b.tx_size, b.block_size);
      // Partition: the entry repeats its block's top-left entry (blocks are aligned to size).
      const int wl = kBlockWidthLog2[b.block_size], hl = kBlockHeightLog2[b.block_size];
      const int w = wl > 3 ? 1 << (wl - 3) : 1, h = hl > 3 ? 1 << (hl - 3) : 1;
      const int r0 = r & ~(h - 1), c0 = c & ~(w - 1);
      if (memcmp(&b, &g.at(r0, c0), sizeof(b)) != 0)
        return set_error(V3D_ERROR_BAD_PARTITION,
                         "grid entry (row %d, col %d; luma x %d, y %d) differs from the top-left "
                         "entry (row %d, col %d) of its %dx%d block",
                         r, c, c * 8, r * 8, r0, c0, 4 << (wl - 2), 4 << (hl - 2));
      // A rectangular block (8x16 and larger) is half of a square split in two: the other half,
      // where inside the picture, has the same size.
      if (w != h && r == r0 && c == c0) {
        const int rs = w > h ? r0 ^ h : r0, cs = w < h ? c0 ^ w : c0;
        if (rs < mi_rows && cs < mi_cols && g.at(rs, cs).block_size != b.block_size)
          return set_error(V3D_ERROR_BAD_PARTITION,
                           "grid entry (row %d, col %d; luma x %d, y %d): block_size %u whose "
                           "other half (row %d, col %d) has block_size %u",
                           r, c, c * 8, r * 8, b.block_size, rs, cs, g.at(rs, cs).block_size);
      }
    }
  }
  return V3D_OK;
}

void lpf_frame_setup(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                     const V3dVp9LfInfo *grid, int grid_stride, int sharpness, LpfFrame *f) {
  const int mi_rows = (height + 7) / 8, mi_cols = (width + 7) / 8;
  for (int p = 0; p < 3; p++) {
    f->data[p] = planes[p];
    f->stride[p] = strides[p];
    f->width[p] = p ? mi_cols * 4 : mi_cols * 8;
    f->height[p] = p ? mi_rows * 4 : mi_rows * 8;
  }
  f->grid = LpfGrid{grid, grid_stride, mi_rows, mi_cols};
  lpf_thresholds(sharpness, &f->thr);
  f->sharpness = sharpness;
  f->plane_mask = 7;
}

void lpf_filter_sb(const LpfFrame &f, const LpfDsp &dsp, int sb_row, int sb_col) {
  filter_sb_passes(f, dsp, sb_row, sb_col, kVertical | kHorizontal);
}

void lpf_copy_sb_row(const LpfFrame &f, int sb_row) {
  if (!f.src[0]) return;
  for (int p = 0; p < 3; p++) {
    if (!(f.plane_mask & (1 << p))) continue;
    const int rows = p ? 32 : 64;
    const int end = std::min(f.height[p], (sb_row + 1) * rows);
    for (int y = sb_row * rows; y < end; y++)
      memcpy(f.data[p] + y * f.stride[p], f.src[p] + y * f.src_stride[p], f.width[p]);
  }
}

void lpf_frame_sequential(const LpfFrame &f, const LpfDsp &dsp, LpfOrder order) {
  const int sb_rows = (f.grid.mi_rows + 7) / 8, sb_cols = (f.grid.mi_cols + 7) / 8;
  if (order == LpfOrder::kSuperblocks) {
    for (int r = 0; r < sb_rows; r++) {
      lpf_copy_sb_row(f, r);
      for (int c = 0; c < sb_cols; c++) filter_sb_passes(f, dsp, r, c, kVertical | kHorizontal);
    }
    return;
  }
  for (int r = 0; r < sb_rows; r++) lpf_copy_sb_row(f, r);
  for (int pass : {kVertical, kHorizontal})
    for (int r = 0; r < sb_rows; r++)
      for (int c = 0; c < sb_cols; c++) filter_sb_passes(f, dsp, r, c, pass);
}

// Wavefront. Superblock (r, c) (both passes, all planes) reads and writes, per plane, only
// pixels of the rectangle from 8 pixels left of and 8 above its own area to its own right and
// bottom ends (luma: rows 64r-8 .. 64r+63, columns 64c-8 .. 64c+63; chroma the same with 32).
// Two superblocks whose rectangles are disjoint commute. Against an earlier superblock (r', c')
// (r' < r, or r' == r and c' < c) the rectangles intersect only for:
//  * (r, c-1): same row, earlier: runs before on the same thread;
//  * (r-1, c-1), (r-1, c), (r-1, c+1): the row above up to column c+1 ((r-1, c+1) reaches
//    columns down to 64(c+1)-8, inside (r, c)'s columns, in rows 64r-8 .. 64r-1, which (r, c)'s
//    horizontal edges at row 64r read and write);
//  * nothing else: (r-1, c+2) starts at column 64c+120 > 64c+63, and row r-2 ends at row 64r-65
//    < 64r-8.
// So (r, c) may run once row r-1 has finished column min(c+1, last): every superblock it
// overlaps that comes earlier in the sequential order is then done, and every one that comes
// later waits for it (row r+1 waits for (r, c) before (r+1, c-1)), so each pixel sees the
// sequential order of operations. Rows are pool tasks taken in increasing order, so the row a
// task waits for was taken earlier by a running thread: no deadlock, even with one thread.
// Rows are run by run_wavefronts (threads/wavefront.h) with a lag of one superblock: (r, c) waits
// for row r-1 to finish column min(c + 1, last).
void lpf_frame_wavefront(const LpfFrame &f, const LpfDsp &dsp, ThreadPool &pool) {
  lpf_frames_wavefront({&f}, dsp, pool);
}

// Each frame's rows wait only for the row above in the same frame (the frames share no pixels),
// so this is the order above within every frame. With one thread, or one superblock row,
// run_wavefronts runs a frame in raster order: lpf_frame_sequential's.
void lpf_frames_wavefront(const std::vector<const LpfFrame *> &frames, const LpfDsp &dsp,
                          ThreadPool &pool) {
  std::vector<WaveGrid> grids;
  grids.reserve(frames.size());
  for (const LpfFrame *f : frames)
    grids.push_back({(f->grid.mi_rows + 7) / 8, (f->grid.mi_cols + 7) / 8});
  run_wavefronts(pool, grids, 1, [&](int k, int r, int c) {
    const LpfFrame &f = *frames[k];
    // Row r's pixels are touched by nobody before row r starts (row r-1 reaches only its own
    // rows and the 8 above): copy them now, then filter them while they are in cache.
    if (c == 0) lpf_copy_sb_row(f, r);
    filter_sb_passes(f, dsp, r, c, kVertical | kHorizontal);
  });
}

}  // namespace vp9
}  // namespace v3d
