// SPDX-License-Identifier: LGPL-2.1-or-later
// The edges of one macroblock and their thresholds (clause 8.7), shared by the CPU process
// (deblock_mb.cpp, which filters them) and the GPU's records (deblock_gpu.cpp, which describes
// them): which edges are filtered (filterLeftMbEdgeFlag / filterTopMbEdgeFlag, internal edges
// with transform_size_8x8_flag), at which position, with which bS and qPav, and the alpha, beta
// and tC0 row that qPav and the slice's offsets give (8.7.2.2).
#pragma once

#include <algorithm>
#include <cstdint>

#include "h264/deblock/deblock_frame.h"
#include "h264/deblock/deblock_tables.h"

namespace v3d {
namespace h264 {

// Thresholds of one edge (8.7.2.2): alpha, beta (0: nothing is filtered) and the Table 8-17 row
// of indexA, indexed by bS (-1 for bS 0 and 4).
struct EdgeParams {
  int alpha, beta;
  const int8_t *tc0;
};

inline int clip51(int v) { return std::min(std::max(v, 0), 51); }

// qPav: (qPp + qPq + 1) >> 1 of the two macroblocks' QP (luma) or QPc (chroma); the current
// slice's FilterOffsetA/B (8-461, 8-462).
inline EdgeParams edge_params(int qpav, const V3dH264SliceInfo &s) {
  const int ia = clip51(qpav + s.filter_offset_a), ib = clip51(qpav + s.filter_offset_b);
  return {kAlpha[ia], kBeta[ib], kTc0[ia]};
}

// Calls fn(dir, k, x, y, bs, qpav) for every edge of macroblock (r, c) in plane pl (0 luma,
// 1 Cb, 2 Cr) in the standard's order: the vertical edges (dir 0) left to right, then the
// horizontal ones (dir 1) top to bottom, each only if its bit is in `passes`. k: the luma edge
// whose bS the edge takes (chroma: 0 for the macroblock edge, 2 for the internal one); (x, y):
// q0 of its first line in plane samples; bs: its four segments' bS. nb: pic.edge_neighbours().
// The macroblock's slice must not have disable_deblocking_filter_idc 1 (the caller checks).
template <class Fn>
inline void for_each_mb_edge(const DeblockPicture &pic, int r, int c, int pl, unsigned passes,
                             const V3dH264MbInfo *const nb[2], Fn &&fn) {
  const V3dH264MbInfo &m = pic.mb(r, c);
  if (pl == 0) {
    const int x0 = 16 * c, y0 = 16 * r;
    const int step = m.transform_8x8 ? 2 : 1;  // internal edges 1 and 3 only with 4x4 transforms
    for (int dir = 0; dir < 2; dir++) {
      if (!(passes & (1u << dir))) continue;
      if (nb[dir]) fn(dir, 0, x0, y0, m.bs[dir][0], (m.qp + nb[dir]->qp + 1) >> 1);
      for (int k = step; k < 4; k += step)
        fn(dir, k, x0 + (dir ? 0 : 4 * k), y0 + (dir ? 4 * k : 0), m.bs[dir][k], m.qp);
    }
    return;
  }
  const V3dH264SliceInfo &s = pic.slices[m.slice];
  const int x0 = 8 * c, y0 = 8 * r;
  // QPc of each macroblock through Table 8-15 with the current slice's Cb or Cr offset.
  const int off = pl == 1 ? s.chroma_qp_index_offset : s.second_chroma_qp_index_offset;
  const int qpc = kQpc[clip51(m.qp + off)];
  for (int dir = 0; dir < 2; dir++) {
    if (!(passes & (1u << dir))) continue;
    // Chroma edge 0 (the macroblock edge) takes luma edge 0's bS, chroma edge 1 (4 samples in)
    // luma edge 2's; chroma sample i along the edge that of luma segment i / 2.
    if (nb[dir]) fn(dir, 0, x0, y0, m.bs[dir][0], (qpc + kQpc[clip51(nb[dir]->qp + off)] + 1) >> 1);
    fn(dir, 2, x0 + (dir ? 0 : 4), y0 + (dir ? 4 : 0), m.bs[dir][2], qpc);
  }
}

}  // namespace h264
}  // namespace v3d
