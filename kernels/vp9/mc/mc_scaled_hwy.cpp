// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 scaled inter prediction on SIMD (Google Highway, dynamic dispatch): the scaled slots for
// steps up to 32 (all a valid stream produces, mc.h); larger steps call the reference.
//
// Horizontal pass: each output column has its own phase and source offset. Per call, every group
// of 8 output columns gets a base column, per tap an index vector (the byte of each lane's source
// pixel within a 32-byte window from the base) and a tap vector (each lane's tap); per source row
// the window's two 16-byte halves are gathered by byte lookups (index >= 16 from the upper half,
// the other lookup zeroed), widened and multiplied. A step <= 32 keeps 8 outputs within the
// window: ((7 * 32 + 15) >> 4) + 8 = 22 bytes. Each source row is first copied into a padded
// row buffer, so the 32-byte windows never read outside mc.h's read contract.
// Vertical pass: one phase per output row, vectorised across columns over the 16-bit
// intermediate (clipped to 0..255 as libvpx's 8-bit one).
// Arithmetic: the exact 16-bit wrapping form of mc_hwy.cpp (Round7).

#include "vp9/mc/mc.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "vp9/mc/mc_scaled_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
void InitMcScaledSimd(McDsp *) {}
#else

using D16 = hn::CappedTag<int16_t, 8>;  // 8 output columns
using D8 = hn::CappedTag<uint8_t, 8>;   // their gathered source bytes
using DWin = hn::CappedTag<uint8_t, 16>;

constexpr int kMaxStep = 32;
constexpr int kMaxRows = ((64 - 1) * kMaxStep + 15) / 16 + 8;  // intermediate rows
constexpr int kTmpStride = 64;                                   // int16 per intermediate row
constexpr int kRowBuf = ((64 - 1) * kMaxStep + 15) / 16 + 8 + 32;  // source row + window slack

// Round2(sum, 7) - 128 before clipping, exact for 16-bit wrapping sums (mc_hwy.cpp).
HWY_INLINE hn::Vec<D16> Round7(hn::Vec<D16> sum) {
  const D16 d;
  const hn::RebindToUnsigned<D16> du;
  const hn::Vec<D16> biased = hn::Add(sum, hn::Set(d, 16448));
  return hn::Sub(hn::BitCast(d, hn::ShiftRight<7>(hn::BitCast(du, biased))), hn::Set(d, 128));
}

HWY_INLINE hn::Vec<D16> Sum8(const hn::Vec<D16> *m) {
  return hn::Add(hn::Add(hn::Add(m[0], m[1]), hn::Add(m[2], m[3])),
                 hn::Add(hn::Add(m[4], m[5]), hn::Add(m[6], m[7])));
}

// The gather plan of one group of 8 output columns.
struct Group {
  int base;              // first window byte, in row-buffer bytes (column + 3)
  uint8_t lo[8][8];      // per tap: lane's byte in the lower half, or 0x80
  uint8_t hi[8][8];      // per tap: lane's byte in the upper half, or 0x80
  int16_t taps[8][8];    // per tap: lane's tap
};

void PlanGroups(Group *g, int w, const int16_t (*kernel)[8], int x0_q4, int x_step_q4) {
  for (int c0 = 0; c0 < w; c0 += 8) {
    Group &gr = g[c0 / 8];
    gr.base = (x0_q4 + c0 * x_step_q4) >> 4;
    for (int j = 0; j < 8; j++) {
      const int c = std::min(c0 + j, w - 1);  // lanes past w repeat the last column
      const int pos = x0_q4 + c * x_step_q4;
      for (int t = 0; t < 8; t++) {
        const int b = (pos >> 4) + t - gr.base;  // 0..21
        gr.lo[t][j] = static_cast<uint8_t>(b < 16 ? b : 0x80);
        gr.hi[t][j] = static_cast<uint8_t>(b >= 16 ? b - 16 : 0x80);
        gr.taps[t][j] = kernel[pos & 15][t];
      }
    }
  }
}

// Horizontal pass of rows source rows into tmp (one row of w results, clipped, per row).
void FilterRows(int16_t *tmp, const uint8_t *src, ptrdiff_t src_stride, int rows, int w,
                int cols, const Group *groups) {
  const D16 d;
  const D8 d8;
  const DWin dw;
  HWY_ALIGN uint8_t row[kRowBuf];
  memset(row + cols, 0, static_cast<size_t>(kRowBuf - cols));
  const int ngroups = (w + 7) / 8;
  for (int r = 0; r < rows; r++, src += src_stride, tmp += kTmpStride) {
    memcpy(row, src - 3, static_cast<size_t>(cols));
    for (int gi = 0; gi < ngroups; gi++) {
      const Group &g = groups[gi];
      const hn::Vec<DWin> wlo = hn::LoadU(dw, row + g.base), whi = hn::LoadU(dw, row + g.base + 16);
      hn::Vec<D16> m[8];
      for (int t = 0; t < 8; t++) {
        const hn::Vec<D8> px = hn::Or(hn::TableLookupBytesOr0(wlo, hn::LoadU(d8, g.lo[t])),
                                      hn::TableLookupBytesOr0(whi, hn::LoadU(d8, g.hi[t])));
        m[t] = hn::Mul(hn::PromoteTo(d, px), hn::LoadU(d, g.taps[t]));
      }
      const hn::Vec<D16> v = Round7(Sum8(m));
      hn::StoreU(hn::Min(hn::Max(v, hn::Zero(d)), hn::Set(d, 255)), d, tmp + gi * 8);
    }
  }
}

// Stores the 8-bit form of the lanes of v (Round7 values, or intermediates) to the n <= 8
// pixels at p, averaged with them when avg.
HWY_INLINE void StoreN(hn::Vec<D16> v, uint8_t *p, int n, bool avg) {
  const D8 d8;
  hn::Vec<D8> px = hn::DemoteTo(d8, v);
  if (n == 8) {
    if (avg) px = hn::AverageRound(px, hn::LoadU(d8, p));
    hn::StoreU(px, d8, p);
    return;
  }
  HWY_ALIGN uint8_t buf[8];
  memcpy(buf, p, static_cast<size_t>(n));
  if (avg) px = hn::AverageRound(px, hn::Load(d8, buf));
  hn::Store(px, d8, buf);
  memcpy(p, buf, static_cast<size_t>(n));
}

template <int kFilter, int kAvg>
void McScaled(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int w,
              int h, int x0_q4, int x_step_q4, int y0_q4, int y_step_q4) {
  if (x_step_q4 > kMaxStep || y_step_q4 > kMaxStep) {
    McDsp ref;  // steps no valid stream produces
    mc_dsp_init_ref(&ref);
    return ref.scaled[kFilter][kAvg](dst, dst_stride, src, src_stride, w, h, x0_q4, x_step_q4,
                                     y0_q4, y_step_q4);
  }
  const int16_t(*kernel)[8] = kSubpelFilters[kFilter];
  const D16 d;
  const D8 d8;
  const bool fx = x0_q4 != 0 || x_step_q4 != 16, fy = y0_q4 != 0 || y_step_q4 != 16;
  const int rows = fy ? (((h - 1) * y_step_q4 + y0_q4) >> 4) + 8 : h;
  const uint8_t *s = fy ? src - 3 * src_stride : src;
  HWY_ALIGN int16_t tmp[kMaxRows * kTmpStride + 8];
  if (fx) {
    Group groups[8];
    PlanGroups(groups, w, kernel, x0_q4, x_step_q4);
    const int cols = ((x0_q4 + (w - 1) * x_step_q4) >> 4) + 8;  // columns -3 .. xl + 4
    FilterRows(tmp, s, src_stride, rows, w, cols, groups);
  } else {
    // Lanes past w (up to the vector's end) are stored nowhere; zeros keep them defined.
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < (w + 7) / 8 * 8; c++)
        tmp[r * kTmpStride + c] = c < w ? s[r * src_stride + c] : 0;
  }
  for (int r = 0; r < h; r++, dst += dst_stride) {
    const int pos = y0_q4 + r * y_step_q4;
    const int16_t *t0 = tmp + (fy ? pos >> 4 : r) * kTmpStride;
    hn::Vec<D16> k[8];
    if (fy)
      for (int t = 0; t < 8; t++) k[t] = hn::Set(d, kernel[pos & 15][t]);
    for (int x = 0; x < w; x += 8) {
      hn::Vec<D16> v;
      if (fy) {
        hn::Vec<D16> m[8];
        for (int t = 0; t < 8; t++) m[t] = hn::Mul(hn::LoadU(d, t0 + t * kTmpStride + x), k[t]);
        v = Round7(Sum8(m));
      } else {
        v = hn::LoadU(d, t0 + x);
      }
      StoreN(v, dst + x, std::min(8, w - x), kAvg != 0);
    }
  }
  (void)d8;
}

template <int kFilter>
void FillFilter(McDsp *dsp) {
  dsp->scaled[kFilter][0] = &McScaled<kFilter, 0>;
  dsp->scaled[kFilter][1] = &McScaled<kFilter, 1>;
}

void InitMcScaledSimd(McDsp *dsp) {
  FillFilter<kFilterRegular>(dsp);
  FillFilter<kFilterSmooth>(dsp);
  FillFilter<kFilterSharp>(dsp);
  FillFilter<kFilterBilinear>(dsp);
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace vp9 {

HWY_EXPORT(InitMcScaledSimd);

void mc_dsp_init_scaled_simd(McDsp *dsp) { HWY_DYNAMIC_DISPATCH(InitMcScaledSimd)(dsp); }

}  // namespace vp9
}  // namespace v3d
#endif  // HWY_ONCE
