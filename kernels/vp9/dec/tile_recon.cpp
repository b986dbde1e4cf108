// SPDX-License-Identifier: LGPL-2.1-or-later
// Reconstruction of a block's transform blocks: intra prediction with libvpx's edge rules, then
// the residual (tokens + inverse transform) for intra blocks; the residual alone for inter blocks.
// On an inter frame's frame path (tile_defer.cpp) the tokens are read here in decode order but
// the transforms wait: the inter blocks' go to the frame's list, and intra blocks are recorded
// and reconstructed (predicted, then their residual added) after the frame's transform pass.
//
// Intra edges (libvpx build_intra_predictors, which the bitstream's encoder mirrors): the frame
// edge is the 8-aligned decoded width / height (pixels between the visible edge and it are real
// decoded pixels); a missing above row reads 127 (its top-left too), a missing left column 129
// (and the top-left 129 when only the left is missing); above-right pixels are real only for 4x4
// transforms that are not in their block's last column, otherwise the last above pixel repeats;
// rows below the frame edge repeat the last left pixel.
#include <cstring>

#include "vp9/dec/tile_internal.h"

namespace v3d {
namespace vp9 {
namespace {

enum { kNeedLeft = 2, kNeedAbove = 4, kNeedAboveRight = 8 };
// Edges each intra mode reads (libvpx extend_modes).
constexpr uint8_t kExtendModes[10] = {
    kNeedAbove | kNeedLeft, kNeedAbove, kNeedLeft, kNeedAboveRight, kNeedLeft | kNeedAbove,
    kNeedLeft | kNeedAbove, kNeedLeft | kNeedAbove, kNeedLeft, kNeedAboveRight, kNeedLeft | kNeedAbove};

struct PlaneGeom {
  int ss;              // 0 luma, 1 chroma (4:2:0)
  int n4w, n4h;        // block size in 4x4 units
  int max_w, max_h;    // 4x4 columns / rows inside the frame
  int frame_w, frame_h;  // 8-aligned decoded size of the plane
  uint8_t *dst;        // block's top-left pixel
  ptrdiff_t stride;
};

PlaneGeom plane_geom(const Tile &t, const BlockCtx &b, int plane) {
  PlaneGeom g;
  g.ss = plane > 0;
  const int bw8 = 1 << (b.bwl - 1), bh8 = 1 << (b.bhl - 1);
  g.n4w = (bw8 * 2) >> g.ss;
  g.n4h = (bh8 * 2) >> g.ss;
  g.max_w = g.n4w + (b.to_right >= 0 ? 0 : b.to_right >> (5 + g.ss));
  g.max_h = g.n4h + (b.to_bottom >= 0 ? 0 : b.to_bottom >> (5 + g.ss));
  g.frame_w = t.aligned_w >> g.ss;
  g.frame_h = t.aligned_h >> g.ss;
  g.stride = t.in.cur.strides[plane];
  g.dst = t.in.cur.planes[plane] + ((b.mi_row * 8) >> g.ss) * g.stride + ((b.mi_col * 8) >> g.ss);
  return g;
}

void predict_intra(const Tile &t, const BlockCtx &b, const PlaneGeom &g, int tx, int mode,
                   int col, int row, int n4wl) {
  const int bs = 4 << tx;
  const bool have_top = row > 0 || b.above != nullptr;
  const bool have_left = col > 0 || b.left != nullptr;
  const bool have_right = (col + (1 << tx)) < (1 << n4wl);
  const int x0 = ((b.mi_col * 8) >> g.ss) + 4 * col;
  const int y0 = ((b.mi_row * 8) >> g.ss) + 4 * row;
  uint8_t *dst = g.dst + 4 * row * g.stride + 4 * col;
  alignas(16) uint8_t left_col[32];
  alignas(16) uint8_t above_data[64 + 16];
  uint8_t *above = above_data + 16;
  const uint8_t need = kExtendModes[mode];

  if (need & kNeedLeft) {
    if (have_left) {
      const int rows = (b.to_bottom < 0 && y0 + bs > g.frame_h) ? g.frame_h - y0 : bs;
      for (int i = 0; i < rows; ++i) left_col[i] = dst[i * g.stride - 1];
      for (int i = rows; i < bs; ++i) left_col[i] = dst[(rows - 1) * g.stride - 1];
    } else {
      std::memset(left_col, 129, bs);
    }
  }
  if (need & (kNeedAbove | kNeedAboveRight)) {
    const int want = (need & kNeedAboveRight) ? 2 * bs : bs;
    if (have_top) {
      const uint8_t *ref = dst - g.stride;
      // Real pixels available: up to the frame edge, and beyond bs only for 4x4 with a right
      // neighbour inside the block.
      int avail = (need & kNeedAboveRight) && bs == 4 && have_right ? 2 * bs : bs;
      if (b.to_right < 0 && x0 + avail > g.frame_w) avail = g.frame_w - x0;
      std::memcpy(above, ref, avail);
      std::memset(above + avail, above[avail - 1], want - avail);
      above[-1] = have_left ? ref[-1] : 129;
    } else {
      std::memset(above - 1, 127, want + 1);
    }
  }
  int slot = mode;
  if (mode == DC_PRED) slot = have_left ? (have_top ? kIpredDc : kIpredDcLeft) : (have_top ? kIpredDcTop : kIpredDc128);
  t.ipred->pred[tx][slot](dst, g.stride, above, left_col);
}

// Largest eob per transform size for which add_residual clears t.coeffs position by position
// along the scan rather than whole: a scattered store costs about the same at every size, the
// whole block's clear grows with n * n, and 32x32's 2 KiB is where glibc's memset turns to
// rep stosb, slow to start on some CPUs. Past these eobs the whole clear is not slower.
constexpr int kClearByScanMaxEob[4] = {4, 4, 8, 48};

// The transform slot of a block (WHT_WHT for every block of a lossless frame) and whether its
// coefficients are written column-major (TileWorker::coef_cm).
int itx_type_of(const Tile &t, int tx_type) { return t.lossless ? kWhtWht : tx_type; }
bool col_major(const Tile &t, int tx, int tx_type) {
  return t.coef_cm[tx][itx_type_of(t, tx_type)];
}

// The slot for the layout col_major(t, tx, tx_type) says read_coefs wrote.
ItxAddFn exact_slot(const Tile &t, int tx, int tx_type) {
  const int itx_type = itx_type_of(t, tx_type);
  return t.coef_cm[tx][itx_type] ? t.itx->add_exact_eob_cm[tx][itx_type]
                                 : t.itx->add_exact_eob[tx][itx_type];
}

// Adds the residual of the block whose tokens read_coefs just wrote into t.coeffs (scan of
// tx_size and tx_type, in the layout col_major(t, tx, tx_type); eob its return value), then
// zeroes t.coeffs again for the next block.
//
// Exact eob: read_coefs writes coefficients only at the positions of scan indices below the
// eob it returns (index c is written only while c < the final c, which is the eob), and t.coeffs
// holds zeros on entry to read_coefs (zero-initialised in TileWorker, cleared below after every
// block with eob > 0; a block with eob 0 writes nothing). So every scan position >= eob is zero
// here, in either layout: the promise of ItxDsp::add_exact_eob (and add_exact_eob_cm for the
// transposed block), whose slots then need not look for the zeros. The same fact makes
// clearing the positions of indices < eob (coef_out_scan, as read_coefs stored them) enough to
// restore the zeros.
void add_residual(Tile &t, uint8_t *dst, ptrdiff_t stride, int tx, int tx_type, int eob) {
  exact_slot(t, tx, tx_type)(dst, stride, t.coeffs, eob);
  ++t.stats.tx[tx][itx_type_of(t, tx_type)];
  if (eob <= kClearByScanMaxEob[tx]) {
    const int16_t *out = coef_out_scan(tx, tx_type, col_major(t, tx, tx_type));
    for (int c = 0; c < eob; ++c) t.coeffs[out[c]] = 0;
  } else {
    const int n = 4 << tx;
    std::memset(t.coeffs, 0, sizeof(int16_t) * n * n);
  }
}

// Calls fn(plane geometry, tx_size, mode, tx_type, col, row, n4wl) for each transform block of
// an intra block, in reconstruction order (plane, rows, columns: each one's prediction reads the
// ones before).
template <typename Fn>
void for_each_intra_tx(const Tile &t, const BlockCtx &b, Fn &&fn) {
  const ModeInfo *mi = b.mi;
  for (int plane = 0; plane < 3; ++plane) {
    const PlaneGeom g = plane_geom(t, b, plane);
    const int tx = plane ? uv_tx_size(b.bsize, mi->tx_size) : mi->tx_size;
    const int step = 1 << tx;
    const int n4wl = (b.bwl) - g.ss;
    for (int row = 0; row < g.max_h; row += step) {
      for (int col = 0; col < g.max_w; col += step) {
        int mode = plane ? mi->uv_mode : mi->mode;
        if (plane == 0 && b.bsize < kBlock8x8) mode = mi->bmode[(row << 1) + col];
        const int tx_type = (plane || t.lossless || tx == 3) ? 0 : kModeToTxType[mode];
        fn(plane, g, tx, mode, tx_type, col, row, n4wl);
      }
    }
  }
}

// Frame path: an inter transform block's tokens into the worker's list for the frame's
// transform pass (its pixels are added there; raster, as v3d_vp9_itx_frame takes them);
// returns eob.
int defer_inter_tx(Tile &t, const BlockCtx &b, const PlaneGeom &g, int plane, int col, int row,
                   int tx) {
  TileDefer &d = t.defer;
  uint32_t offset;
  const int eob =
      read_coefs_into(t, d.coeffs, b, plane, col, row, tx, kDctDct, g.max_w, g.max_h, false,
                      &offset);
  if (eob == 0) return 0;
  V3dVp9TxBlock blk;
  blk.x = static_cast<uint16_t>(((b.mi_col * 8) >> g.ss) + 4 * col);
  blk.y = static_cast<uint16_t>(((b.mi_row * 8) >> g.ss) + 4 * row);
  blk.plane = static_cast<uint8_t>(plane);
  blk.tx_size = static_cast<uint8_t>(tx);
  blk.tx_type = t.lossless ? kWhtWht : kDctDct;
  blk.reserved = 0;
  blk.eob = static_cast<uint32_t>(eob);
  blk.coeff_offset = offset;
  d.blocks.push_back(blk);
  ++t.stats.tx[tx][blk.tx_type];
  return eob;
}

}  // namespace

void reconstruct_intra(Tile &t, const BlockCtx &b) {
  const bool skip = b.mi->skip;
  for_each_intra_tx(t, b, [&](int plane, const PlaneGeom &g, int tx, int mode, int tx_type,
                              int col, int row, int n4wl) {
    if (plane == 0) ++t.stats.intra_modes[mode];
    predict_intra(t, b, g, tx, mode, col, row, n4wl);
    if (skip) return;
    const int eob = read_coefs(t, b, plane, col, row, tx, tx_type, g.max_w, g.max_h,
                               col_major(t, tx, tx_type));
    if (eob > 0) add_residual(t, g.dst + 4 * row * g.stride + 4 * col, g.stride, tx, tx_type, eob);
  });
}

void record_intra(Tile &t, const BlockCtx &b) {
  TileDefer &d = t.defer;
  d.intra.push_back(DeferredIntra{b, static_cast<uint32_t>(d.intra_tx.size())});
  if (b.mi->skip) return;
  for_each_intra_tx(t, b, [&](int plane, const PlaneGeom &g, int tx, int, int tx_type, int col,
                              int row, int) {
    DeferredIntraTx rec;
    rec.eob = static_cast<uint32_t>(read_coefs_into(t, d.intra_coeffs, b, plane, col, row, tx,
                                                    tx_type, g.max_w, g.max_h,
                                                    col_major(t, tx, tx_type), &rec.coeff_offset));
    d.intra_tx.push_back(rec);
  });
}

void replay_intra(Tile &t, const DeferredIntra &rec) {
  const BlockCtx &b = rec.b;
  const bool skip = b.mi->skip;
  const DeferredIntraTx *tx_rec = t.defer.intra_tx.data() + rec.first_tx;
  for_each_intra_tx(t, b, [&](int plane, const PlaneGeom &g, int tx, int mode, int tx_type,
                              int col, int row, int n4wl) {
    if (plane == 0) ++t.stats.intra_modes[mode];
    predict_intra(t, b, g, tx, mode, col, row, n4wl);
    if (skip) return;
    const DeferredIntraTx r = *tx_rec++;
    if (r.eob == 0) return;
    // Exact eob: record_intra's read_coefs_into gave this block fresh zeroed space in
    // intra_coeffs (appended by resize, which value-initialises) and read_coefs wrote only the
    // positions of scan indices below the eob it returned (the scan of tx and tx_type, in the
    // layout col_major gives, as here: coef_cm is set once per frame), so every scan position
    // >= r.eob is zero, as ItxDsp::add_exact_eob (add_exact_eob_cm) requires.
    exact_slot(t, tx, tx_type)(g.dst + 4 * row * g.stride + 4 * col, g.stride,
                               t.defer.intra_coeffs.data() + r.coeff_offset, int(r.eob));
    ++t.stats.tx[tx][itx_type_of(t, tx_type)];
  });
}

int reconstruct_inter_residual(Tile &t, const BlockCtx &b) {
  const ModeInfo *mi = b.mi;
  int total = 0;
  for (int plane = 0; plane < 3; ++plane) {
    const PlaneGeom g = plane_geom(t, b, plane);
    const int tx = plane ? uv_tx_size(b.bsize, mi->tx_size) : mi->tx_size;
    const int step = 1 << tx;
    for (int row = 0; row < g.max_h; row += step) {
      for (int col = 0; col < g.max_w; col += step) {
        if (t.defer.on) {
          total += defer_inter_tx(t, b, g, plane, col, row, tx);
          continue;
        }
        const int eob =
            read_coefs(t, b, plane, col, row, tx, 0, g.max_w, g.max_h, col_major(t, tx, 0));
        if (eob > 0) add_residual(t, g.dst + 4 * row * g.stride + 4 * col, g.stride, tx, 0, eob);
        total += eob;
      }
    }
  }
  return total;
}

}  // namespace vp9
}  // namespace v3d
