// SPDX-License-Identifier: LGPL-2.1-or-later
// One macroblock of the H.264 deblocking process (clause 8.7): which edges are filtered
// (8.7, filterLeftMbEdgeFlag / filterTopMbEdgeFlag / filterInternalEdgesFlag and
// transform_size_8x8_flag), with which thresholds (8.7.2.2: qPav, indexA, indexB, alpha, beta,
// tC0), through the edge kernels of a DeblockDsp table.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "h264/deblock/deblock_edges.h"
#include "h264/deblock/deblock_frame.h"

namespace v3d {
namespace h264 {
namespace {

struct Plane {
  uint8_t *d;
  ptrdiff_t s;
  int w, h;
};

inline uint32_t load4(const uint8_t *b) {
  uint32_t v;
  memcpy(&v, b, 4);
  return v;
}
// bS values are 0..4 (validated), so a byte is 4 exactly when its bit 2 is set, and 1..3 exactly
// when one of its bits 0, 1 is.
constexpr uint32_t kAll4 = 0x04040404u;

template <bool kChroma>
struct Kind {
  static constexpr int kLen = kChroma ? 16 / 2 : 16;  // samples along the edge
  static constexpr int kTaps = kChroma ? 2 : 4;       // samples read on each side
  static constexpr int kSegShift = kChroma ? 1 : 2;   // sample along the edge -> bS segment
  static DeblockFn normal(const DeblockDsp &d, int dir) { return kChroma ? d.chroma[dir] : d.luma[dir]; }
  static DeblockIntraFn strong(const DeblockDsp &d, int dir) {
    return kChroma ? d.chroma_intra[dir] : d.luma_intra[dir];
  }
};

// Any edge: partial (lines or taps outside the plane) or with bS 4 on some segments and not on
// others. The edge's lines inside the plane are copied into a scratch block, one line per 8
// bytes (q0 at offset 4), filtered there with the vertical-edge kernels (twice: the bS < 4
// kernel and the bS 4 kernel, each on its own copy), and the lines written back from the copy of
// their segment's bS. Every line of an edge is filtered independently of the others, so this is
// exact. An edge whose reads across it leave the plane is not filtered (the public contract).
template <bool kChroma>
void edge_general(const DeblockDsp &dsp, const Plane &p, int dir, int x, int y, const uint8_t bs[4],
                  const EdgeParams &e) {
  using K = Kind<kChroma>;
  if (dir == 0 ? x + K::kTaps > p.w : y + K::kTaps > p.h) return;
  const int lines = std::min(K::kLen, dir == 0 ? p.h - y : p.w - x);
  if (lines <= 0) return;
  const ptrdiff_t along = dir == 0 ? p.s : 1, across = dir == 0 ? 1 : p.s;
  uint8_t *q0 = p.d + y * p.s + x;
  uint8_t a[K::kLen * 8] = {0}, b[K::kLen * 8];
  for (int l = 0; l < lines; l++)
    for (int k = -K::kTaps; k < K::kTaps; k++) a[8 * l + 4 + k] = q0[l * along + k * across];
  memcpy(b, a, sizeof a);
  const int8_t tc[4] = {e.tc0[bs[0]], e.tc0[bs[1]], e.tc0[bs[2]], e.tc0[bs[3]]};
  const uint32_t b4 = load4(bs);
  if (b4 & 0x03030303u) K::normal(dsp, 0)(a + 4, 8, e.alpha, e.beta, tc);  // a bS 1..3
  if (b4 & kAll4) K::strong(dsp, 0)(b + 4, 8, e.alpha, e.beta);
  for (int l = 0; l < lines; l++) {
    const int s = bs[l >> K::kSegShift];
    if (!s) continue;
    const uint8_t *src = s == 4 ? b : a;
    for (int k = -K::kTaps; k < K::kTaps; k++) q0[l * along + k * across] = src[8 * l + 4 + k];
  }
}

// One edge at (x, y) of plane p (q0 of its first line), its thresholds from qPav and the current
// slice (computed only for an edge with some bS > 0). kFull: the macroblock's edges and the
// samples they read all lie inside the plane; otherwise each edge is checked (in the last
// macroblock row or column of a picture whose size is not a multiple of 16, most edges still
// are whole).
template <bool kChroma, bool kFull>
inline void edge(const DeblockDsp &dsp, const Plane &p, int dir, int x, int y, const uint8_t bs[4],
                 int qpav, const V3dH264SliceInfo &s) {
  using K = Kind<kChroma>;
  const uint32_t b4 = load4(bs);
  if (!b4) return;
  const EdgeParams e = edge_params(qpav, s);
  if (!e.alpha || !e.beta) return;  // alpha' / beta' 0 (index < 16): nothing changes
  uint8_t *pix = p.d + y * p.s + x;
  const bool whole = kFull || (dir == 0 ? x + K::kTaps <= p.w && y + K::kLen <= p.h
                                        : y + K::kTaps <= p.h && x + K::kLen <= p.w);
  if (whole && b4 == kAll4) {
    K::strong(dsp, dir)(pix, p.s, e.alpha, e.beta);
  } else if (whole && !(b4 & kAll4)) {
    const int8_t tc[4] = {e.tc0[bs[0]], e.tc0[bs[1]], e.tc0[bs[2]], e.tc0[bs[3]]};
    K::normal(dsp, dir)(pix, p.s, e.alpha, e.beta, tc);
  } else {
    edge_general<kChroma>(dsp, p, dir, x, y, bs, e);
  }
}

// Whether every bS of the macroblock is 0 (nothing to filter: frequent in P pictures).
inline bool all_bs_zero(const V3dH264MbInfo &m) {
  uint64_t v[4];
  memcpy(v, &m.bs[0][0][0], sizeof v);
  return (v[0] | v[1] | v[2] | v[3]) == 0;
}

template <bool kFull>
void mb_impl(const DeblockPicture &pic, const DeblockDsp &dsp, int r, int c, unsigned planes,
             unsigned passes) {
  const V3dH264MbInfo &m = pic.mb(r, c);
  const V3dH264SliceInfo &s = pic.slices[m.slice];
  if (s.disable_deblocking_filter_idc == 1 || all_bs_zero(m)) return;
  const V3dH264MbInfo *nb[2];  // across the left (dir 0) and top (dir 1) macroblock edges
  pic.edge_neighbours(r, c, nb);
  for (int pl = 0; pl < 3; pl++) {
    if (!(planes & (1u << pl))) continue;
    const Plane p{pic.data[pl], pic.stride[pl], pic.width[pl], pic.height[pl]};
    auto filter = [&](auto chroma) {  // the plane kind as a compile-time constant
      for_each_mb_edge(pic, r, c, pl, passes, nb,
                       [&](int dir, int, int x, int y, const uint8_t *bs, int qpav) {
                         edge<decltype(chroma)::value, kFull>(dsp, p, dir, x, y, bs, qpav, s);
                       });
    };
    if (pl == 0) filter(std::false_type());
    else filter(std::true_type());
  }
}

}  // namespace

void deblock_mb(const DeblockPicture &pic, const DeblockDsp &dsp, int r, int c, unsigned planes,
                unsigned passes) {
  // Every luma edge of a macroblock inside the picture has all its samples inside; then so do
  // the chroma edges (8c + 8 <= width / 2 <= (width + 1) / 2).
  if (16 * c + 16 <= pic.width[0] && 16 * r + 16 <= pic.height[0])
    mb_impl<true>(pic, dsp, r, c, planes, passes);
  else
    mb_impl<false>(pic, dsp, r, c, planes, passes);
}

}  // namespace h264
}  // namespace v3d
