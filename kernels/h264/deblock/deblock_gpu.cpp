// SPDX-License-Identifier: LGPL-2.1-or-later
#include "h264/deblock/deblock_gpu.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "h264/deblock/deblock_edges.h"
#include "h264_deblock_layout.h"

namespace v3d {
namespace h264 {
namespace {

// Edge words A, B (h264_deblock_layout.h) of one edge at (x, y) of a plane of size w x h, or
// A = 0 when nothing is filtered: as deblock_mb.cpp's edge(): no bS > 0, alpha or beta 0, or the
// taps across the edge leave the plane (taps: 4 luma, 2 chroma).
void edge_words(const uint8_t bs[4], int qpav, const V3dH264SliceInfo &s, int dir, int x, int y,
                int w, int h, int taps, uint32_t *out) {
  out[0] = out[1] = 0;
  if (!(bs[0] | bs[1] | bs[2] | bs[3])) return;
  if (dir == 0 ? x + taps > w : y + taps > h) return;
  const EdgeParams p = edge_params(qpav, s);
  if (!p.alpha || !p.beta) return;
  uint32_t a = static_cast<uint32_t>(p.alpha) | static_cast<uint32_t>(p.beta) << 8, b = 0;
  for (int i = 0; i < 4; i++) {
    a |= static_cast<uint32_t>(bs[i]) << (16 + 3 * i);
    if (bs[i] >= 1 && bs[i] <= 3) b |= static_cast<uint32_t>(p.tc0[bs[i]]) << (8 * i);
  }
  out[0] = a;
  out[1] = b;
}

// The 16 edge words of macroblock (r, c), plane pl, into e[]. False when nothing is filtered.
bool mb_words(const DeblockPicture &pic, int r, int c, int pl, uint32_t *e) {
  memset(e, 0, 16 * sizeof(uint32_t));
  const V3dH264MbInfo &m = pic.mb(r, c);
  const V3dH264SliceInfo &s = pic.slices[m.slice];
  if (s.disable_deblocking_filter_idc == 1) return false;
  const V3dH264MbInfo *nb[2];
  pic.edge_neighbours(r, c, nb);
  const int w = pic.width[pl], h = pic.height[pl], taps = pl ? 2 : 4;
  for_each_mb_edge(pic, r, c, pl, kPassesAll, nb,
                   [&](int dir, int k, int x, int y, const uint8_t *bs, int qpav) {
                     edge_words(bs, qpav, s, dir, x, y, w, h, taps, e + 2 * (dir * 4 + k));
                   });
  bool any = false;
  for (int i = 0; i < 16; i += 2) any |= e[i] != 0;
  return any;
}

}  // namespace

uint64_t deblock_gpu_records(const DeblockPicture &pic, unsigned planes,
                             std::vector<uint32_t> *records, std::vector<uint32_t> *step_counts) {
  const char *hook = getenv("V3D_TEST_H264_GPU_ORDER");
  const bool wrong = hook && strcmp(hook, "wrong") == 0;
  const int lag = wrong ? 1 : 2;
  const int steps = pic.mb_cols + lag * (pic.mb_rows - 1);
  records->clear();
  step_counts->assign(static_cast<size_t>(steps), 0);
  uint64_t edges = 0;
  uint32_t e[16];
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < pic.mb_rows; i++) {
      const int r = wrong ? pic.mb_rows - 1 - i : i;
      const int c = t - lag * r;
      if (c < 0 || c >= pic.mb_cols) continue;
      for (int pl = 0; pl < 3; pl++) {
        if (!(planes & (1u << pl)) || !mb_words(pic, r, c, pl, e)) continue;
        records->push_back(static_cast<uint32_t>(c) | static_cast<uint32_t>(r) << 16);
        records->push_back(static_cast<uint32_t>(pl));
        records->insert(records->end(), e, e + 16);
        for (int k = 0; k < 16; k += 2) edges += e[k] != 0;
        (*step_counts)[t]++;
      }
    }
  }
  return edges;
}

}  // namespace h264
}  // namespace v3d
