// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking, scalar references written from clause 8.7.2.3 (bS < 4: equations 8-460 to
// 8-475) and 8.7.2.4 (bS == 4: equations 8-476 to 8-486) of ITU-T H.264, and the public entry
// points (argument checks and the alpha/beta clamp shared by every backend).
#include "h264/deblock/deblock.h"
#include "runtime/dsp_table.h"

#include <algorithm>
#include <cstdlib>

#include "v3d/v3d.h"

namespace v3d {
namespace h264 {
namespace {

int clip3(int lo, int hi, int v) { return v < lo ? lo : v > hi ? hi : v; }
uint8_t clip1(int v) { return static_cast<uint8_t>(clip3(0, 255, v)); }

// Sample i (p: -1 - i ... q: i) of line l of an edge: across = step across the edge.
struct Line {
  uint8_t *q0;
  ptrdiff_t across;
  uint8_t &p(int i) const { return q0[-(i + 1) * across]; }
  uint8_t &q(int i) const { return q0[i * across]; }
};

Line line_of(uint8_t *pix, ptrdiff_t stride, int dir, int l) {
  return dir == 0 ? Line{pix + l * stride, 1} : Line{pix + l, stride};
}

// filterSamplesFlag (8-460): |p0 - q0| < alpha, |p1 - p0| < beta, |q1 - q0| < beta.
bool samples_flag(const Line &s, int alpha, int beta) {
  return std::abs(s.p(0) - s.q(0)) < alpha && std::abs(s.p(1) - s.p(0)) < beta &&
         std::abs(s.q(1) - s.q(0)) < beta;
}

template <int kDir>
void luma_ref(uint8_t *pix, ptrdiff_t stride, int alpha, int beta, const int8_t tc0[4]) {
  for (int l = 0; l < 16; l++) {
    const int t0 = tc0[l >> 2];
    const Line s = line_of(pix, stride, kDir, l);
    if (t0 < 0 || !samples_flag(s, alpha, beta)) continue;
    const int p0 = s.p(0), p1 = s.p(1), p2 = s.p(2), q0 = s.q(0), q1 = s.q(1), q2 = s.q(2);
    const bool ap = std::abs(p2 - p0) < beta, aq = std::abs(q2 - q0) < beta;
    const int tc = t0 + ap + aq;                                           // 8-464
    const int delta = clip3(-tc, tc, ((((q0 - p0) * 4) + (p1 - q1) + 4) >> 3));  // 8-467
    s.p(0) = clip1(p0 + delta);
    s.q(0) = clip1(q0 - delta);
    if (ap) s.p(1) = static_cast<uint8_t>(p1 + clip3(-t0, t0, (p2 + ((p0 + q0 + 1) >> 1) - (p1 << 1)) >> 1));
    if (aq) s.q(1) = static_cast<uint8_t>(q1 + clip3(-t0, t0, (q2 + ((p0 + q0 + 1) >> 1) - (q1 << 1)) >> 1));
  }
}

template <int kDir>
void luma_intra_ref(uint8_t *pix, ptrdiff_t stride, int alpha, int beta) {
  for (int l = 0; l < 16; l++) {
    const Line s = line_of(pix, stride, kDir, l);
    if (!samples_flag(s, alpha, beta)) continue;
    const int p0 = s.p(0), p1 = s.p(1), p2 = s.p(2), p3 = s.p(3);
    const int q0 = s.q(0), q1 = s.q(1), q2 = s.q(2), q3 = s.q(3);
    const bool strong = std::abs(p0 - q0) < ((alpha >> 2) + 2);
    if (std::abs(p2 - p0) < beta && strong) {  // 8-479..8-481
      s.p(0) = static_cast<uint8_t>((p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + 4) >> 3);
      s.p(1) = static_cast<uint8_t>((p2 + p1 + p0 + q0 + 2) >> 2);
      s.p(2) = static_cast<uint8_t>((2 * p3 + 3 * p2 + p1 + p0 + q0 + 4) >> 3);
    } else {  // 8-482
      s.p(0) = static_cast<uint8_t>((2 * p1 + p0 + q1 + 2) >> 2);
    }
    if (std::abs(q2 - q0) < beta && strong) {  // 8-486..8-488
      s.q(0) = static_cast<uint8_t>((p1 + 2 * p0 + 2 * q0 + 2 * q1 + q2 + 4) >> 3);
      s.q(1) = static_cast<uint8_t>((p0 + q0 + q1 + q2 + 2) >> 2);
      s.q(2) = static_cast<uint8_t>((2 * q3 + 3 * q2 + q1 + q0 + p0 + 4) >> 3);
    } else {  // 8-489
      s.q(0) = static_cast<uint8_t>((2 * q1 + q0 + p1 + 2) >> 2);
    }
  }
}

template <int kDir>
void chroma_ref(uint8_t *pix, ptrdiff_t stride, int alpha, int beta, const int8_t tc0[4]) {
  for (int l = 0; l < 8; l++) {
    const int t0 = tc0[l >> 1];
    const Line s = line_of(pix, stride, kDir, l);
    if (t0 < 0 || !samples_flag(s, alpha, beta)) continue;
    const int p0 = s.p(0), p1 = s.p(1), q0 = s.q(0), q1 = s.q(1);
    const int tc = t0 + 1;  // 8-465 (chromaStyleFilteringFlag)
    const int delta = clip3(-tc, tc, ((((q0 - p0) * 4) + (p1 - q1) + 4) >> 3));
    s.p(0) = clip1(p0 + delta);
    s.q(0) = clip1(q0 - delta);
  }
}

template <int kDir>
void chroma_intra_ref(uint8_t *pix, ptrdiff_t stride, int alpha, int beta) {
  for (int l = 0; l < 8; l++) {
    const Line s = line_of(pix, stride, kDir, l);
    if (!samples_flag(s, alpha, beta)) continue;
    const int p0 = s.p(0), p1 = s.p(1), q0 = s.q(0), q1 = s.q(1);
    s.p(0) = static_cast<uint8_t>((2 * p1 + p0 + q1 + 2) >> 2);
    s.q(0) = static_cast<uint8_t>((2 * q1 + q0 + p1 + 2) >> 2);
  }
}

const DeblockDsp &ref_table() {
  static const DeblockDsp t = [] {
    DeblockDsp d;
    deblock_dsp_init_ref(&d);
    return d;
  }();
  return t;
}

DspTable<DeblockDsp> g_deblock_table(deblock_dsp_init_ref, deblock_dsp_init_simd);

// The public functions' path when the table needs a fill (first use, a new target): kept out of
// line so that their common path has no call before the tail call (runtime/dsp_table.h).
template <auto kSlot, class... A>
[[gnu::noinline, gnu::cold]] void call_refill(int dir, A... a) {
  (g_deblock_table.get().*kSlot)[dir](a...);
}

// Calls slot kSlot[dir] of the table in force (filled for the target in force first if needed).
template <auto kSlot, class... A>
inline void call_slot(int dir, A... a) {
  const DeblockDsp *t = g_deblock_table.current();
  if (!t) return call_refill<kSlot>(dir, a...);
  (t->*kSlot)[dir](a...);
}

// Argument check and clamp shared by every entry point: false means "do nothing".
bool args_ok(const uint8_t *pix, int dir, int *alpha, int *beta) {
  if (!pix || (dir != 0 && dir != 1)) return false;
  *alpha = std::clamp(*alpha, 0, 255);
  *beta = std::clamp(*beta, 0, 255);
  return *alpha > 0 && *beta > 0;
}

}  // namespace

void deblock_dsp_init_ref(DeblockDsp *dsp) {
  dsp->luma[0] = &luma_ref<0>;
  dsp->luma[1] = &luma_ref<1>;
  dsp->luma_intra[0] = &luma_intra_ref<0>;
  dsp->luma_intra[1] = &luma_intra_ref<1>;
  dsp->chroma[0] = &chroma_ref<0>;
  dsp->chroma[1] = &chroma_ref<1>;
  dsp->chroma_intra[0] = &chroma_intra_ref<0>;
  dsp->chroma_intra[1] = &chroma_intra_ref<1>;
}

}  // namespace h264
}  // namespace v3d

using v3d::h264::args_ok;
using v3d::h264::call_slot;
using v3d::h264::DeblockDsp;
using v3d::h264::ref_table;

extern "C" {

void v3d_h264_loop_filter_luma(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta,
                               const int8_t tc0[4]) {
  if (tc0 && args_ok(pix, dir, &alpha, &beta))
    call_slot<&DeblockDsp::luma>(dir, pix, stride, alpha, beta, tc0);
}
void v3d_h264_loop_filter_luma_intra(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta) {
  if (args_ok(pix, dir, &alpha, &beta)) call_slot<&DeblockDsp::luma_intra>(dir, pix, stride, alpha, beta);
}
void v3d_h264_loop_filter_chroma(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta,
                                 const int8_t tc0[4]) {
  if (tc0 && args_ok(pix, dir, &alpha, &beta))
    call_slot<&DeblockDsp::chroma>(dir, pix, stride, alpha, beta, tc0);
}
void v3d_h264_loop_filter_chroma_intra(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta) {
  if (args_ok(pix, dir, &alpha, &beta)) call_slot<&DeblockDsp::chroma_intra>(dir, pix, stride, alpha, beta);
}

void v3d_h264_loop_filter_luma_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta,
                                   const int8_t tc0[4]) {
  if (tc0 && args_ok(pix, dir, &alpha, &beta)) ref_table().luma[dir](pix, stride, alpha, beta, tc0);
}
void v3d_h264_loop_filter_luma_intra_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                         int beta) {
  if (args_ok(pix, dir, &alpha, &beta)) ref_table().luma_intra[dir](pix, stride, alpha, beta);
}
void v3d_h264_loop_filter_chroma_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta,
                                     const int8_t tc0[4]) {
  if (tc0 && args_ok(pix, dir, &alpha, &beta)) ref_table().chroma[dir](pix, stride, alpha, beta, tc0);
}
void v3d_h264_loop_filter_chroma_intra_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                           int beta) {
  if (args_ok(pix, dir, &alpha, &beta)) ref_table().chroma_intra[dir](pix, stride, alpha, beta);
}

}  // extern "C"

namespace v3d {
namespace h264 {

const DeblockDsp &deblock_dsp() { return g_deblock_table.get(); }

}  // namespace h264
}  // namespace v3d
