// SPDX-License-Identifier: LGPL-2.1-or-later
// Coefficient tokens of one transform block (spec 6.4.24 tokens, 9.3 contexts): the token tree
// with the Pareto-model probabilities below the pivot node, category extra bits, dequantisation
// (dc factor for position 0, ac after; 32x32 halves the product), the energy-class context of
// each position from its already decoded neighbours, the above/left non-zero flags, and the
// counts backward adaptation needs (libvpx's decode_coefs order of counting).
#include <cstring>

#include "vp9/dec/tile_internal.h"

namespace v3d {
namespace vp9 {
namespace {

int read_extra(BoolDecoder &r, const uint8_t *probs, int n) {
  int v = 0;
  for (int i = 0; i < n; ++i) v = (v << 1) | r.read_bool(probs[i]);
  return v;
}

// Neighbours of raster position pos whose energy classes form the context (spec get_coef_context
// / libvpx's scan neighbours): above and left, the column scan (tx_type DCT_ADST) using only the
// above one, the row scan (ADST_DCT) only the left one; on the first row / column the one
// neighbour that exists.
void coef_neighbours(int pos, int log2n, int tx_type, uint16_t out[2]) {
  const int n = 1 << log2n;
  const int i = pos >> log2n, j = pos & (n - 1);
  int a, l;
  if (i > 0 && j > 0) {
    if (tx_type == 2) {
      a = l = pos - n;
    } else if (tx_type == 1) {
      a = l = pos - 1;
    } else {
      a = pos - n;
      l = pos - 1;
    }
  } else if (i > 0) {
    a = l = pos - n;
  } else {
    a = l = pos - 1;
  }
  out[0] = uint16_t(a);
  out[1] = uint16_t(l);
}

// Per transform size and type (WHT as DCT_DCT): the context neighbours of each scan position
// (entry 0 unused: position 0 takes its context from the non-zero flags), so that the token
// loop looks them up instead of deriving them; the band of each position of 8x8 and larger; and
// the transposed scan (entry c: the column-major position, col * n + row, of the c-th
// coefficient), where a column-major block stores its tokens.
struct CoefTables {
  uint16_t nb4[4][16][2], nb8[4][64][2], nb16[4][256][2], nb32[4][1024][2];
  int16_t ts4[4][16], ts8[4][64], ts16[4][256], ts32[1024];
  uint8_t band8[1024];
  CoefTables() {
    uint16_t(*const nb[4])[2] = {nb4[0], nb8[0], nb16[0], nb32[0]};
    int16_t *const ts[4] = {ts4[0], ts8[0], ts16[0], ts32};
    for (int s = 0; s < 4; ++s) {
      const int count = 16 << (2 * s), log2n = s + 2, n = 1 << log2n;
      for (int t = 0; t < 4; ++t) {
        const int16_t *scan = scan_for(s, t);
        uint16_t(*tab)[2] = nb[s] + t * count;
        tab[0][0] = tab[0][1] = 0;
        for (int c = 1; c < count; ++c) coef_neighbours(scan[c], log2n, t, tab[c]);
        if (s == 3 && t > 0) continue;  // 32x32: one scan
        for (int c = 0; c < count; ++c)
          ts[s][t * count + c] = int16_t(((scan[c] & (n - 1)) << log2n) | (scan[c] >> log2n));
      }
    }
    for (int c = 0; c < 1024; ++c) band8[c] = uint8_t(coef_band_8x8plus(c));
  }
  const uint16_t (*neighbours(int tx_size, int tx_type) const)[2] {
    switch (tx_size) {
      case 0: return nb4[tx_type];
      case 1: return nb8[tx_type];
      case 2: return nb16[tx_type];
      default: return nb32[tx_type];
    }
  }
  const int16_t *transposed_scan(int tx_size, int tx_type) const {
    switch (tx_size) {
      case 0: return ts4[tx_type];
      case 1: return ts8[tx_type];
      case 2: return ts16[tx_type];
      default: return ts32;
    }
  }
};

const CoefTables &coef_tables() {
  static const CoefTables tables;
  return tables;
}

}  // namespace

const int16_t *coef_out_scan(int tx_size, int tx_type, bool col_major) {
  const int scan_type = tx_type == kWhtWht ? kDctDct : tx_type;
  return col_major ? coef_tables().transposed_scan(tx_size, scan_type)
                   : scan_for(tx_size, scan_type);
}

int read_coefs(Tile &t, const BlockCtx &b, int plane, int x4, int y4, int tx_size, int tx_type,
               int max_x4, int max_y4, bool col_major) {
  const int ss = plane > 0;
  const int n4 = 1 << tx_size;
  uint8_t *above = &t.above_nz[plane][((b.mi_col * 2) >> ss) + x4];
  uint8_t *left = &t.left_nz[plane][(((b.mi_row * 2) >> ss) & 15) + y4];
  int a = 0, l = 0;
  for (int k = 0; k < n4; ++k) {
    a |= above[k];
    l |= left[k];
  }
  int ctx = (a != 0) + (l != 0);

  const int ptype = plane > 0;
  const int ref = b.mi->is_inter();
  const uint8_t(*probs)[kCoefContexts][kUnconstrainedNodes] = t.fc->coef_probs[tx_size][ptype][ref];
  uint32_t(*cnt)[kCoefContexts][kUnconstrainedNodes + 1] =
      t.counts ? t.counts->coef[tx_size][ptype][ref] : nullptr;
  uint32_t(*eob_cnt)[kCoefContexts] = t.counts ? t.counts->eob_branch[tx_size][ptype][ref] : nullptr;
  const int16_t *dq = t.dequant[b.mi->segment_id][ptype];
  const int16_t *scan = scan_for(tx_size, tx_type == 4 ? 0 : tx_type);
  const CoefTables &tables = coef_tables();
  // Where each token is stored: its raster position, or its transpose. The context cache and
  // the neighbour tables stay on raster positions either way.
  const int16_t *out =
      col_major ? tables.transposed_scan(tx_size, tx_type == 4 ? 0 : tx_type) : scan;
  const uint16_t(*nb)[2] = tables.neighbours(tx_size, tx_type == 4 ? 0 : tx_type);
  const uint8_t *bands = tx_size == 0 ? kCoefBand4x4 : tables.band8;
  const int max_eob = 16 << (2 * tx_size);
  const int dq_shift = tx_size == 3;
  int16_t *coeffs = t.coef_out;
  uint8_t cache[32 * 32];
  BoolDecoder &r = t.r;

  int c = 0;
  int dqv = dq[0];
  while (c < max_eob) {
    int band = bands[c];
    const uint8_t *p = probs[band][ctx];
    if (eob_cnt) ++eob_cnt[band][ctx];
    if (!r.read_bool(p[0])) {
      if (cnt) ++cnt[band][ctx][COUNT_EOB_MODEL_TOKEN];
      break;
    }
    bool ended = false;
    while (!r.read_bool(p[1])) {
      if (cnt) ++cnt[band][ctx][COUNT_ZERO_TOKEN];
      dqv = dq[1];
      cache[scan[c]] = 0;
      ++c;
      if (c >= max_eob) {
        ended = true;
        break;
      }
      ctx = (1 + cache[nb[c][0]] + cache[nb[c][1]]) >> 1;
      band = bands[c];
      p = probs[band][ctx];
    }
    if (ended) break;
    int v;
    const int pos = scan[c];
    if (!r.read_bool(p[2])) {
      if (cnt) ++cnt[band][ctx][COUNT_ONE_TOKEN];
      cache[pos] = 1;
      v = dqv >> dq_shift;
    } else {
      if (cnt) ++cnt[band][ctx][COUNT_TWO_TOKEN];
      const uint8_t *pp = kPareto8Full[p[2] - 1];
      int val;
      if (!r.read_bool(pp[0])) {
        if (!r.read_bool(pp[1])) {
          cache[pos] = 2;
          val = 2;
        } else {
          cache[pos] = 3;
          val = 3 + r.read_bool(pp[2]);
        }
      } else if (!r.read_bool(pp[3])) {
        cache[pos] = 4;
        val = r.read_bool(pp[4]) ? 7 + read_extra(r, kCat2Prob, 2) : 5 + read_extra(r, kCat1Prob, 1);
      } else {
        cache[pos] = 5;
        if (!r.read_bool(pp[5]))
          val = r.read_bool(pp[6]) ? 19 + read_extra(r, kCat4Prob, 4) : 11 + read_extra(r, kCat3Prob, 3);
        else
          val = r.read_bool(pp[7]) ? 67 + read_extra(r, kCat6Prob, 14) : 35 + read_extra(r, kCat5Prob, 5);
      }
      v = (val * dqv) >> dq_shift;
    }
    coeffs[out[c]] = int16_t(r.read_bool(128) ? -v : v);
    ++c;
    if (c < max_eob) ctx = (1 + cache[nb[c][0]] + cache[nb[c][1]]) >> 1;
    dqv = dq[1];
  }

  // Non-zero flags: the transform's columns / rows inside the frame get eob > 0, those outside 0.
  const uint8_t nz = c > 0;
  for (int k = 0; k < n4; ++k) {
    above[k] = (x4 + k < max_x4) ? nz : 0;
    left[k] = (y4 + k < max_y4) ? nz : 0;
  }
  return c;
}

}  // namespace vp9
}  // namespace v3d
