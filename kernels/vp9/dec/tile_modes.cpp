// SPDX-License-Identifier: LGPL-2.1-or-later
// Mode info of one block: segment id (with temporal prediction), skip, transform size, intra
// modes, intra/inter choice and reference frames (spec 6.4.5-6.4.20 and the contexts of 9.3),
// counted for backward adaptation as libvpx's decoder counts them.
#include <algorithm>

#include "vp9/dec/tile_internal.h"
#include "vp9/dec/trees.h"

namespace v3d {
namespace vp9 {
namespace {

// Minimum of the previous segmentation map over the block's cells (spec get_segment_id).
int predicted_segment_id(const Tile &t, const BlockCtx &b) {
  const uint8_t *map = t.in.prev_seg_map;
  if (!map) return 0;
  int id = 7;
  for (int y = 0; y < b.y_mis; ++y)
    for (int x = 0; x < b.x_mis; ++x)
      id = std::min<int>(id, map[(b.mi_row + y) * t.mi_cols + b.mi_col + x]);
  return id;
}

void write_segment_map(Tile &t, const BlockCtx &b, bool copy_prev, int id) {
  uint8_t *map = t.in.cur_seg_map;
  if (!map) return;
  for (int y = 0; y < b.y_mis; ++y)
    for (int x = 0; x < b.x_mis; ++x) {
      const int o = (b.mi_row + y) * t.mi_cols + b.mi_col + x;
      map[o] = copy_prev ? (t.in.prev_seg_map ? t.in.prev_seg_map[o] : 0) : uint8_t(id);
    }
}

int read_intra_segment_id(Tile &t, const BlockCtx &b) {
  const SegmentationParams &seg = t.hdr->seg;
  if (!seg.enabled) return 0;
  if (!seg.update_map) {
    write_segment_map(t, b, true, 0);
    return 0;
  }
  const int id = t.r.read_tree(kSegmentTree, seg.tree_probs);
  write_segment_map(t, b, false, id);
  return id;
}

int read_inter_segment_id(Tile &t, BlockCtx &b) {
  const SegmentationParams &seg = t.hdr->seg;
  if (!seg.enabled) return 0;
  const int pred = predicted_segment_id(t, b);
  if (!seg.update_map) {
    write_segment_map(t, b, true, 0);
    return pred;
  }
  int id;
  if (seg.temporal_update) {
    const int ctx = (b.above ? b.above->seg_id_predicted : 0) + (b.left ? b.left->seg_id_predicted : 0);
    b.mi->seg_id_predicted = uint8_t(t.r.read_bool(seg.pred_probs[ctx]));
    if (b.mi->seg_id_predicted) ++t.stats.seg_pred_blocks;
    id = b.mi->seg_id_predicted ? pred : t.r.read_tree(kSegmentTree, seg.tree_probs);
  } else {
    id = t.r.read_tree(kSegmentTree, seg.tree_probs);
  }
  write_segment_map(t, b, false, id);
  return id;
}

int read_skip(Tile &t, const BlockCtx &b) {
  if (t.hdr->seg.feature_active(b.mi->segment_id, SEG_LVL_SKIP)) {
    ++t.stats.seg_skip_blocks;
    return 1;
  }
  const int ctx = (b.above ? b.above->skip : 0) + (b.left ? b.left->skip : 0);
  const int skip = t.r.read_bool(t.fc->skip_prob[ctx]);
  if (t.counts) ++t.counts->skip[ctx][skip];
  return skip;
}

// Spec 9.3.1 tx_size context: neighbours' sizes, a skipped or missing neighbour counting as the
// largest size.
int read_tx_size(Tile &t, const BlockCtx &b, bool allow_select) {
  const int max_tx = kMaxTxSize[b.bsize];
  if (!(allow_select && t.hdr->tx_mode == TX_MODE_SELECT && b.bsize >= kBlock8x8))
    return std::min<int>(max_tx, kTxModeToBiggestTx[t.hdr->tx_mode]);
  int above = (b.above && !b.above->skip) ? b.above->tx_size : max_tx;
  int left = (b.left && !b.left->skip) ? b.left->tx_size : max_tx;
  if (!b.left) left = above;
  if (!b.above) above = left;
  const int ctx = (above + left) > max_tx;
  const uint8_t *p = max_tx == kTx8x8 ? t.fc->tx_probs_8x8[ctx]
                     : max_tx == kTx16x16 ? t.fc->tx_probs_16x16[ctx]
                                          : t.fc->tx_probs_32x32[ctx];
  int tx = t.r.read_bool(p[0]);
  if (tx != kTx4x4 && max_tx >= kTx16x16) {
    tx += t.r.read_bool(p[1]);
    if (tx != kTx8x8 && max_tx >= kTx32x32) tx += t.r.read_bool(p[2]);
  }
  if (t.counts) {
    if (max_tx == kTx8x8) ++t.counts->tx_8x8[ctx][tx];
    else if (max_tx == kTx16x16) ++t.counts->tx_16x16[ctx][tx];
    else ++t.counts->tx_32x32[ctx][tx];
  }
  return tx;
}

// Mode of the neighbouring 4x4 sub-block used as key-frame mode context (spec 9.3.1
// default_intra_mode: left / above neighbours, DC_PRED when missing or inter).
int y_mode_of(const ModeInfo *m, int sub) {
  return m->sb_type < kBlock8x8 ? m->bmode[sub] : m->mode;
}
int above_mode(const BlockCtx &b, int sub) {
  if (sub >= 2) return b.mi->bmode[sub - 2];
  if (!b.above || b.above->is_inter()) return DC_PRED;
  return y_mode_of(b.above, sub + 2);
}
int left_mode(const BlockCtx &b, int sub) {
  if (sub & 1) return b.mi->bmode[sub - 1];
  if (!b.left || b.left->is_inter()) return DC_PRED;
  return y_mode_of(b.left, sub + 1);
}

int read_kf_mode(Tile &t, const BlockCtx &b, int sub) {
  return t.r.read_tree(kIntraModeTree, kKfYModeProbs[above_mode(b, sub)][left_mode(b, sub)]);
}

void read_intra_frame_mode_info(Tile &t, BlockCtx &b) {
  ModeInfo *mi = b.mi;
  mi->segment_id = uint8_t(read_intra_segment_id(t, b));
  mi->skip = uint8_t(read_skip(t, b));
  mi->tx_size = uint8_t(read_tx_size(t, b, true));
  mi->ref_frame[0] = INTRA_FRAME;
  mi->ref_frame[1] = -1;
  switch (b.bsize) {
    case kBlock4x4:
      for (int i = 0; i < 4; ++i) mi->bmode[i] = uint8_t(read_kf_mode(t, b, i));
      mi->mode = mi->bmode[3];
      break;
    case kBlock4x8:
      mi->bmode[0] = mi->bmode[2] = uint8_t(read_kf_mode(t, b, 0));
      mi->bmode[1] = mi->bmode[3] = mi->mode = uint8_t(read_kf_mode(t, b, 1));
      break;
    case kBlock8x4:
      mi->bmode[0] = mi->bmode[1] = uint8_t(read_kf_mode(t, b, 0));
      mi->bmode[2] = mi->bmode[3] = mi->mode = uint8_t(read_kf_mode(t, b, 2));
      break;
    default: mi->mode = uint8_t(read_kf_mode(t, b, 0));
  }
  mi->uv_mode = uint8_t(t.r.read_tree(kIntraModeTree, kKfUvModeProbs[mi->mode]));
}

int read_y_mode(Tile &t, int group) {
  const int m = t.r.read_tree(kIntraModeTree, t.fc->y_mode_probs[group]);
  if (t.counts) ++t.counts->y_mode[group][m];
  return m;
}

void read_intra_block_mode_info(Tile &t, BlockCtx &b) {
  ModeInfo *mi = b.mi;
  switch (b.bsize) {
    case kBlock4x4:
      for (int i = 0; i < 4; ++i) mi->bmode[i] = uint8_t(read_y_mode(t, 0));
      mi->mode = mi->bmode[3];
      break;
    case kBlock4x8:
      mi->bmode[0] = mi->bmode[2] = uint8_t(read_y_mode(t, 0));
      mi->bmode[1] = mi->bmode[3] = mi->mode = uint8_t(read_y_mode(t, 0));
      break;
    case kBlock8x4:
      mi->bmode[0] = mi->bmode[1] = uint8_t(read_y_mode(t, 0));
      mi->bmode[2] = mi->bmode[3] = mi->mode = uint8_t(read_y_mode(t, 0));
      break;
    default: mi->mode = uint8_t(read_y_mode(t, kSizeGroup[b.bsize]));
  }
  mi->uv_mode = uint8_t(t.r.read_tree(kIntraModeTree, t.fc->uv_mode_probs[mi->mode]));
  if (t.counts) ++t.counts->uv_mode[mi->mode][mi->uv_mode];
  mi->interp_filter = kSwitchableFilters;
  mi->ref_frame[0] = INTRA_FRAME;
  mi->ref_frame[1] = -1;
}

int intra_inter_ctx(const BlockCtx &b) {
  if (b.above && b.left) {
    const bool ai = !b.above->is_inter(), li = !b.left->is_inter();
    return ai && li ? 3 : (ai || li) ? 1 : 0;
  }
  if (b.above || b.left) return 2 * !(b.above ? b.above : b.left)->is_inter();
  return 0;
}

bool read_is_inter(Tile &t, const BlockCtx &b) {
  const SegmentationParams &seg = t.hdr->seg;
  if (seg.feature_active(b.mi->segment_id, SEG_LVL_REF_FRAME)) {
    ++t.stats.seg_ref_blocks;
    return seg.feature_data[b.mi->segment_id][SEG_LVL_REF_FRAME] != INTRA_FRAME;
  }
  const int ctx = intra_inter_ctx(b);
  const int v = t.r.read_bool(t.fc->is_inter_prob[ctx]);
  if (t.counts) ++t.counts->is_inter[ctx][v];
  return v != 0;
}

}  // namespace

void read_mode_info(Tile &t, BlockCtx &b) {
  if (t.hdr->frame_is_intra) {
    read_intra_frame_mode_info(t, b);
    return;
  }
  ModeInfo *mi = b.mi;
  mi->segment_id = uint8_t(read_inter_segment_id(t, b));
  mi->skip = uint8_t(read_skip(t, b));
  const bool inter = read_is_inter(t, b);
  mi->tx_size = uint8_t(read_tx_size(t, b, !mi->skip || !inter));
  if (inter)
    read_inter_block_mode_info(t, b);
  else
    read_intra_block_mode_info(t, b);

  // The motion kept for the next frame (libvpx copies it for every cell inside the frame).
  if (t.in.cur_mvs) {
    MvRef v;
    for (int k = 0; k < 2; ++k) {
      v.ref_frame[k] = mi->ref_frame[k];
      v.mv[k][0] = mi->mv[k].row;
      v.mv[k][1] = mi->mv[k].col;
    }
    for (int y = 0; y < b.y_mis; ++y)
      for (int x = 0; x < b.x_mis; ++x) t.in.cur_mvs[(b.mi_row + y) * t.mi_cols + b.mi_col + x] = v;
  }
}

}  // namespace vp9
}  // namespace v3d
