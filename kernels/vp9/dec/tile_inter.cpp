// SPDX-License-Identifier: LGPL-2.1-or-later
// Inter prediction of one block (libvpx's decoder, dec_build_inter_predictors): per reference,
// per plane, the whole block (sub-8x8 blocks: each 4x4 with its own vector; chroma with the
// rounded average of the sub-blocks' vectors), compound blocks averaging the second prediction
// into the first. References are edge-extended without limit: a prediction whose filter taps
// reach outside the reference's visible area reads from a copy with replicated edges.
// Scaled references follow libvpx's position arithmetic (14-bit fixed-point scale factors,
// the block's 1/16-pel start scaled separately from its vector, the chroma offset taken from the
// luma position) and its choice of the edge-extended area.
#include <algorithm>
#include <cstring>

#include "vp9/dec/tile_internal.h"

namespace v3d {
namespace vp9 {
namespace {

constexpr int kRefScaleShift = 14;

int scaled_x(int v, const RefScale &s) { return int((int64_t)v * s.x_scale_fp >> kRefScaleShift); }
int scaled_y(int v, const RefScale &s) { return int((int64_t)v * s.y_scale_fp >> kRefScaleShift); }

int round_q4(int v) { return (v < 0 ? v - 2 : v + 2) / 4; }

int ilog2(int v) {
  int l = 0;
  while ((1 << l) < v) ++l;
  return l;
}

void emu_edge(uint8_t *dst, const uint8_t *src, ptrdiff_t stride, int pw, int ph, int x, int y,
              int bw, int bh) {
  mc_emu_edge(dst, bw, src, stride, pw, ph, x, y, bw, bh);
}

struct PredTarget {
  uint8_t *dst;
  ptrdiff_t stride;
};

// One prediction of a w x h area at (x, y) inside the plane block (plane pixel offsets), block
// plane size bw x bh, vector mv in 1/8 luma pel.
void predict_one(Tile &t, const BlockCtx &b, int plane, int ref, const PictureView &rp,
                 const RefScale &sf, int bw, int bh, int x, int y, int w, int h, Mv mv,
                 PredTarget out) {
  const int ss = plane > 0;
  const uint8_t *ref_plane = rp.planes[plane];
  const ptrdiff_t rstride = rp.strides[plane];
  const int fw = ss ? (rp.width + 1) >> 1 : rp.width;
  const int fh = ss ? (rp.height + 1) >> 1 : rp.height;
  const int filter = b.mi->interp_filter;
  const int avg = ref;
  const int x_start = (-b.to_left) >> (3 + ss);
  const int y_start = (-b.to_top) >> (3 + ss);

  if (!sf.scaled) {
    const int mvx = mv.col * (1 << (1 - ss)), mvy = mv.row * (1 << (1 - ss));
    const int sx = mvx & 15, sy = mvy & 15;
    const int x0 = x_start + x + (mvx >> 4), y0 = y_start + y + (mvy >> 4);
    const int lx = sx ? 3 : 0, rx = sx ? 4 : 0, ty = sy ? 3 : 0, by = sy ? 4 : 0;
    const uint8_t *src = ref_plane + y0 * rstride + x0;
    ptrdiff_t sstride = rstride;
    if (x0 - lx < 0 || y0 - ty < 0 || x0 + w - 1 + rx > fw - 1 || y0 + h - 1 + by > fh - 1) {
      const int ew = w + lx + rx, eh = h + ty + by;
      emu_edge(t.emu_buf, ref_plane, rstride, fw, fh, x0 - lx, y0 - ty, ew, eh);
      src = t.emu_buf + ty * ew + lx;
      sstride = ew;
      ++t.stats.emu_edge_blocks;
    }
    t.mc->mc[ilog2(w) - 2][filter][avg](out.dst, out.stride, src, sstride, h, sx, sy);
    return;
  }

  // Scaled reference (libvpx dec_build_inter_predictors, is_scaled branch).
  const int spel_left = (4 + bw) << 4, spel_right = spel_left - 16;
  const int spel_top = (4 + bh) << 4, spel_bottom = spel_top - 16;
  const int mvq4_col = std::clamp(mv.col * (1 << (1 - ss)), b.to_left * (1 << (1 - ss)) - spel_left,
                                  b.to_right * (1 << (1 - ss)) + spel_right);
  const int mvq4_row = std::clamp(mv.row * (1 << (1 - ss)), b.to_top * (1 << (1 - ss)) - spel_top,
                                  b.to_bottom * (1 << (1 - ss)) + spel_bottom);
  int x0_16 = scaled_x((x_start + x) << 4, sf);
  int y0_16 = scaled_y((y_start + y) << 4, sf);
  int x0 = scaled_x(x_start + x, sf);
  int y0 = scaled_y(y_start + y, sf);
  const int mi_x = b.mi_col * 8, mi_y = b.mi_row * 8;
  const int smv_col = scaled_x(mvq4_col, sf) + (scaled_x((mi_x + x) << 4, sf) & 15);
  const int smv_row = scaled_y(mvq4_row, sf) + (scaled_y((mi_y + y) << 4, sf) & 15);
  const int xs = sf.x_step_q4, ys = sf.y_step_q4;
  const int sx = smv_col & 15, sy = smv_row & 15;
  x0 += smv_col >> 4;
  y0 += smv_row >> 4;
  x0_16 += smv_col;
  y0_16 += smv_row;
  const uint8_t *src = ref_plane + y0 * rstride + x0;
  ptrdiff_t sstride = rstride;
  int ex0 = x0, ey0 = y0;
  int x1 = ((x0_16 + (w - 1) * xs) >> 4) + 1;
  int y1 = ((y0_16 + (h - 1) * ys) >> 4) + 1;
  int xpad = 0, ypad = 0;
  if (sx || xs != 16) {
    ex0 -= 3;
    x1 += 4;
    xpad = 1;
  }
  if (sy || ys != 16) {
    ey0 -= 3;
    y1 += 4;
    ypad = 1;
  }
  ++t.stats.scaled_blocks;
  if (ex0 < 0 || ex0 > fw - 1 || x1 < 0 || x1 > fw - 1 || ey0 < 0 || ey0 > fh - 1 || y1 < 0 ||
      y1 > fh - 1) {
    const int ew = x1 - ex0 + 1, eh = y1 - ey0 + 1;
    emu_edge(t.emu_buf, ref_plane, rstride, fw, fh, ex0, ey0, ew, eh);
    src = t.emu_buf + ypad * 3 * ew + xpad * 3;
    sstride = ew;
    ++t.stats.emu_edge_blocks;
  } else {
    // libvpx reads the reference directly here; its taps may still pass the visible edge, where
    // libvpx's border holds replicated samples.
    const int rx1 = x0 + ((sx + (w - 1) * xs) >> 4) + 4, ry1 = y0 + ((sy + (h - 1) * ys) >> 4) + 4;
    if (rx1 > fw - 1 || ry1 > fh - 1) {
      const int ew = rx1 - (x0 - 3) + 1, eh = ry1 - (y0 - 3) + 1;
      emu_edge(t.emu_buf, ref_plane, rstride, fw, fh, x0 - 3, y0 - 3, ew, eh);
      src = t.emu_buf + 3 * ew + 3;
      sstride = ew;
    }
  }
  t.mc->scaled[filter][avg](out.dst, out.stride, src, sstride, w, h, sx, xs, sy, ys);
}

}  // namespace

void setup_scale(RefScale *s, int ref_w, int ref_h, int cur_w, int cur_h) {
  s->valid = 2 * cur_w >= ref_w && 2 * cur_h >= ref_h && cur_w <= 16 * ref_w && cur_h <= 16 * ref_h;
  if (!s->valid) return;
  s->x_scale_fp = (ref_w << kRefScaleShift) / cur_w;
  s->y_scale_fp = (ref_h << kRefScaleShift) / cur_h;
  s->x_step_q4 = int((int64_t)16 * s->x_scale_fp >> kRefScaleShift);
  s->y_step_q4 = int((int64_t)16 * s->y_scale_fp >> kRefScaleShift);
  s->scaled = s->x_scale_fp != (1 << kRefScaleShift) || s->y_scale_fp != (1 << kRefScaleShift);
}

void predict_inter(Tile &t, const BlockCtx &b) {
  const ModeInfo *mi = b.mi;
  const bool compound = mi->has_second_ref();
  const int bw8 = 1 << (b.bwl - 1), bh8 = 1 << (b.bhl - 1);
  for (int ref = 0; ref < 1 + compound; ++ref) {
    const int rf = mi->ref_frame[ref] - LAST_FRAME;
    const PictureView &rp = t.in.refs[rf];
    const RefScale &sf = t.scale[rf];
    for (int plane = 0; plane < 3; ++plane) {
      const int ss = plane > 0;
      const int n4w = (bw8 * 2) >> ss, n4h = (bh8 * 2) >> ss;
      const int pw = 4 * n4w, ph = 4 * n4h;
      const ptrdiff_t stride = t.in.cur.strides[plane];
      const int px = (b.mi_col * 8) >> ss, py = (b.mi_row * 8) >> ss;
      uint8_t *dst = t.in.cur.planes[plane] + py * stride + px;
      // Blocks reaching past the decoded area are predicted whole into a scratch block and
      // the part inside copied (libvpx writes into its frame border there).
      const int vis_w = std::min(pw, (t.aligned_w >> ss) - px);
      const int vis_h = std::min(ph, (t.aligned_h >> ss) - py);
      const bool clip = vis_w < pw || vis_h < ph;
      PredTarget out{clip ? t.pred_tmp : dst, clip ? 64 : stride};
      if (clip && ref == 1) {
        for (int r = 0; r < vis_h; ++r) std::memcpy(t.pred_tmp + r * 64, dst + r * stride, vis_w);
      }
      if (b.bsize < kBlock8x8) {
        int i = 0;
        for (int y = 0; y < n4h; ++y)
          for (int x = 0; x < n4w; ++x, ++i) {
            Mv mv;
            if (ss) {
              const int sr = mi->bmv[0][ref].row + mi->bmv[1][ref].row + mi->bmv[2][ref].row + mi->bmv[3][ref].row;
              const int sc = mi->bmv[0][ref].col + mi->bmv[1][ref].col + mi->bmv[2][ref].col + mi->bmv[3][ref].col;
              mv = Mv{int16_t(round_q4(sr)), int16_t(round_q4(sc))};
            } else {
              mv = mi->bmv[i][ref];
            }
            predict_one(t, b, plane, ref, rp, sf, pw, ph, 4 * x, 4 * y, 4, 4, mv,
                        PredTarget{out.dst + 4 * y * out.stride + 4 * x, out.stride});
          }
      } else {
        predict_one(t, b, plane, ref, rp, sf, pw, ph, 0, 0, pw, ph, mi->mv[ref], out);
      }
      if (clip) {
        for (int r = 0; r < vis_h; ++r) std::memcpy(dst + r * stride, t.pred_tmp + r * 64, vis_w);
      }
    }
  }
}

}  // namespace vp9
}  // namespace v3d
