// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inter prediction: scalar references (the contracts are in mc.h), the filter kernels, border
// emulation, and the family's DSP table.
#include "vp9/mc/mc.h"

#include <algorithm>
#include <cstring>

#include "runtime/dsp_table.h"

namespace v3d {
namespace vp9 {

// VP9 specification, subpel_filters (inter prediction process); rows in InterpFilter's order.
const int16_t kSubpelFilters[kNumInterpFilters][16][8] = {
    {// kFilterRegular
     {0, 0, 0, 128, 0, 0, 0, 0},
     {0, 1, -5, 126, 8, -3, 1, 0},
     {-1, 3, -10, 122, 18, -6, 2, 0},
     {-1, 4, -13, 118, 27, -9, 3, -1},
     {-1, 4, -16, 112, 37, -11, 4, -1},
     {-1, 5, -18, 105, 48, -14, 4, -1},
     {-1, 5, -19, 97, 58, -16, 5, -1},
     {-1, 6, -19, 88, 68, -18, 5, -1},
     {-1, 6, -19, 78, 78, -19, 6, -1},
     {-1, 5, -18, 68, 88, -19, 6, -1},
     {-1, 5, -16, 58, 97, -19, 5, -1},
     {-1, 4, -14, 48, 105, -18, 5, -1},
     {-1, 4, -11, 37, 112, -16, 4, -1},
     {-1, 3, -9, 27, 118, -13, 4, -1},
     {0, 2, -6, 18, 122, -10, 3, -1},
     {0, 1, -3, 8, 126, -5, 1, 0}},
    {// kFilterSmooth
     {0, 0, 0, 128, 0, 0, 0, 0},
     {-3, -1, 32, 64, 38, 1, -3, 0},
     {-2, -2, 29, 63, 41, 2, -3, 0},
     {-2, -2, 26, 63, 43, 4, -4, 0},
     {-2, -3, 24, 62, 46, 5, -4, 0},
     {-2, -3, 21, 60, 49, 7, -4, 0},
     {-1, -4, 18, 59, 51, 9, -4, 0},
     {-1, -4, 16, 57, 53, 12, -4, -1},
     {-1, -4, 14, 55, 55, 14, -4, -1},
     {-1, -4, 12, 53, 57, 16, -4, -1},
     {0, -4, 9, 51, 59, 18, -4, -1},
     {0, -4, 7, 49, 60, 21, -3, -2},
     {0, -4, 5, 46, 62, 24, -3, -2},
     {0, -4, 4, 43, 63, 26, -2, -2},
     {0, -3, 2, 41, 63, 29, -2, -2},
     {0, -3, 1, 38, 64, 32, -1, -3}},
    {// kFilterSharp
     {0, 0, 0, 128, 0, 0, 0, 0},
     {-1, 3, -7, 127, 8, -3, 1, 0},
     {-2, 5, -13, 125, 17, -6, 3, -1},
     {-3, 7, -17, 121, 27, -10, 5, -2},
     {-4, 9, -20, 115, 37, -13, 6, -2},
     {-4, 10, -23, 108, 48, -16, 8, -3},
     {-4, 10, -24, 100, 59, -19, 9, -3},
     {-4, 11, -24, 90, 70, -21, 10, -4},
     {-4, 11, -23, 80, 80, -23, 11, -4},
     {-4, 10, -21, 70, 90, -24, 11, -4},
     {-3, 9, -19, 59, 100, -24, 10, -4},
     {-3, 8, -16, 48, 108, -23, 10, -4},
     {-2, 6, -13, 37, 115, -20, 9, -4},
     {-2, 5, -10, 27, 121, -17, 7, -3},
     {-1, 3, -6, 17, 125, -13, 5, -2},
     {0, 1, -3, 8, 127, -7, 3, -1}},
    {// kFilterBilinear
     {0, 0, 0, 128, 0, 0, 0, 0},
     {0, 0, 0, 120, 8, 0, 0, 0},
     {0, 0, 0, 112, 16, 0, 0, 0},
     {0, 0, 0, 104, 24, 0, 0, 0},
     {0, 0, 0, 96, 32, 0, 0, 0},
     {0, 0, 0, 88, 40, 0, 0, 0},
     {0, 0, 0, 80, 48, 0, 0, 0},
     {0, 0, 0, 72, 56, 0, 0, 0},
     {0, 0, 0, 64, 64, 0, 0, 0},
     {0, 0, 0, 56, 72, 0, 0, 0},
     {0, 0, 0, 48, 80, 0, 0, 0},
     {0, 0, 0, 40, 88, 0, 0, 0},
     {0, 0, 0, 32, 96, 0, 0, 0},
     {0, 0, 0, 24, 104, 0, 0, 0},
     {0, 0, 0, 16, 112, 0, 0, 0},
     {0, 0, 0, 8, 120, 0, 0, 0}},
};

namespace {

// Largest step the references accept (mc.h: 1..64) and the intermediate rows it implies for a
// 64-row block: ((64 - 1) * 64 + 15) >> 4, plus the 8 taps.
constexpr int kMaxStep = 64;
constexpr int kMaxTmpRows = ((64 - 1) * kMaxStep + 15) / 16 + 8;

inline uint8_t Clip8(int v) { return static_cast<uint8_t>(std::clamp(v, 0, 255)); }

// clip8(Round2(sum over 8 taps of p[t * step] * k[t], 7)), p pointing at the tap-0 pixel.
inline uint8_t Filter8(const uint8_t *p, ptrdiff_t step, const int16_t *k) {
  int sum = 0;
  for (int t = 0; t < 8; t++) sum += p[t * step] * k[t];
  return Clip8((sum + 64) >> 7);
}

// The whole family in one function: a pass is skipped (and its neighbours not read) when its
// phase is 0 and its step 16, as the selection of vp9_scale.c does.
void Convolve(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int w,
              int h, const int16_t (*kernel)[8], int x0_q4, int x_step_q4, int y0_q4,
              int y_step_q4, bool avg) {
  const bool fx = x0_q4 != 0 || x_step_q4 != 16;
  const bool fy = y0_q4 != 0 || y_step_q4 != 16;
  // Rows of the intermediate: the rows the vertical pass reads (from -3), or the block's own.
  const int rows = fy ? (((h - 1) * y_step_q4 + y0_q4) >> 4) + 8 : h;
  const uint8_t *s = fy ? src - 3 * src_stride : src;
  uint8_t tmp[kMaxTmpRows * 64];
  for (int r = 0; r < rows; r++, s += src_stride) {
    for (int c = 0; c < w; c++) {
      const int pos = x0_q4 + c * x_step_q4;
      tmp[r * 64 + c] = fx ? Filter8(s + (pos >> 4) - 3, 1, kernel[pos & 15]) : s[c];
    }
  }
  for (int r = 0; r < h; r++) {
    uint8_t *d = dst + r * dst_stride;
    const int pos = y0_q4 + r * y_step_q4;
    for (int c = 0; c < w; c++) {
      const uint8_t v =
          fy ? Filter8(tmp + (pos >> 4) * 64 + c, 64, kernel[pos & 15]) : tmp[r * 64 + c];
      d[c] = avg ? static_cast<uint8_t>((d[c] + v + 1) >> 1) : v;
    }
  }
}

template <int kW, int kFilter, int kAvg>
void McRef(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int h,
           int mx, int my) {
  Convolve(dst, dst_stride, src, src_stride, kW, h, kSubpelFilters[kFilter], mx, 16, my, 16,
           kAvg != 0);
}

template <int kFilter, int kAvg>
void McScaledRef(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride,
                 int w, int h, int x0_q4, int x_step_q4, int y0_q4, int y_step_q4) {
  Convolve(dst, dst_stride, src, src_stride, w, h, kSubpelFilters[kFilter], x0_q4, x_step_q4,
           y0_q4, y_step_q4, kAvg != 0);
}

template <int kFilter>
void FillFilter(McDsp *dsp) {
  dsp->mc[0][kFilter][0] = McRef<4, kFilter, 0>;
  dsp->mc[0][kFilter][1] = McRef<4, kFilter, 1>;
  dsp->mc[1][kFilter][0] = McRef<8, kFilter, 0>;
  dsp->mc[1][kFilter][1] = McRef<8, kFilter, 1>;
  dsp->mc[2][kFilter][0] = McRef<16, kFilter, 0>;
  dsp->mc[2][kFilter][1] = McRef<16, kFilter, 1>;
  dsp->mc[3][kFilter][0] = McRef<32, kFilter, 0>;
  dsp->mc[3][kFilter][1] = McRef<32, kFilter, 1>;
  dsp->mc[4][kFilter][0] = McRef<64, kFilter, 0>;
  dsp->mc[4][kFilter][1] = McRef<64, kFilter, 1>;
  dsp->scaled[kFilter][0] = McScaledRef<kFilter, 0>;
  dsp->scaled[kFilter][1] = McScaledRef<kFilter, 1>;
}

}  // namespace

void mc_dsp_init_ref(McDsp *dsp) {
  FillFilter<kFilterRegular>(dsp);
  FillFilter<kFilterSmooth>(dsp);
  FillFilter<kFilterSharp>(dsp);
  FillFilter<kFilterBilinear>(dsp);
}

void mc_emu_edge(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src_plane, ptrdiff_t src_stride,
                 int plane_w, int plane_h, int x, int y, int bw, int bh) {
  // Columns [x, x + bw) split into a left run (clamped to column 0), the inside, a right run
  // (clamped to column plane_w - 1); each run may be empty, the inside also when the whole block
  // lies left or right of the plane.
  const int left = std::clamp(-x, 0, bw);
  const int right = std::clamp(x + bw - plane_w, 0, bw - left);
  const int inside = bw - left - right;
  for (int r = 0; r < bh; r++) {
    const int sy = std::clamp(y + r, 0, plane_h - 1);
    const uint8_t *row = src_plane + sy * src_stride;
    uint8_t *d = dst + r * dst_stride;
    if (left) memset(d, row[0], static_cast<size_t>(left));
    if (inside) memcpy(d + left, row + x + left, static_cast<size_t>(inside));
    if (right) memset(d + left + inside, row[plane_w - 1], static_cast<size_t>(right));
  }
}

namespace {
DspTable<McDsp> g_mc_table(mc_dsp_init_ref, mc_dsp_init_simd);
}  // namespace

const McDsp &mc_dsp() { return g_mc_table.get(); }

}  // namespace vp9
}  // namespace v3d
