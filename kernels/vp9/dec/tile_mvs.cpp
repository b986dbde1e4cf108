// SPDX-License-Identifier: LGPL-2.1-or-later
// Inter block mode info: inter modes, interpolation filter, motion vector prediction (spec
// 6.4.20-6.4.22 and the candidate search of libvpx's decoder: spatial neighbours, the previous
// frame's motion, sign inversion for references of opposite sign bias) and motion vector reading.
#include <cstdlib>

#include "vp9/dec/tile_internal.h"
#include "vp9/dec/trees.h"

namespace v3d {
namespace vp9 {

void read_ref_frames(Tile &t, BlockCtx &b);  // tile_refs.cpp

namespace {

constexpr int kMvBorder = 16 << 3;  // candidates may point 16 pixels outside the frame

bool use_mv_hp(Mv m) { return std::abs(m.row) < 64 && std::abs(m.col) < 64; }

void lower_precision(Mv *m, bool allow_hp) {
  if (allow_hp && use_mv_hp(*m)) return;
  if (m->row & 1) m->row += m->row > 0 ? -1 : 1;
  if (m->col & 1) m->col += m->col > 0 ? -1 : 1;
}

int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void clamp_mv_ref(Mv *m, const BlockCtx &b) {
  m->col = int16_t(clampi(m->col, b.to_left - kMvBorder, b.to_right + kMvBorder));
  m->row = int16_t(clampi(m->row, b.to_top - kMvBorder, b.to_bottom + kMvBorder));
}

Mv invert_if(Mv m, bool invert) {
  if (invert) {
    m.row = int16_t(-m.row);
    m.col = int16_t(-m.col);
  }
  return m;
}

// The candidate list under construction (libvpx's ADD_MV_REF_LIST_EB): returns true when the
// search is complete.
struct MvList {
  Mv mv[2];
  int count = 0;
  bool early_break = false;
  bool add(Mv m) {
    if (count) {
      if (m != mv[0]) {
        mv[count++] = m;
        return true;
      }
      return false;
    }
    mv[count++] = m;
    return early_break;
  }
};

const ModeInfo *candidate(const Tile &t, const BlockCtx &b, MvRefPos p) {
  const int r = b.mi_row + p.row, c = b.mi_col + p.col;
  if (r < 0 || r >= t.mi_rows || c < t.tile_col_start || c >= t.tile_col_end) return nullptr;
  return t.grid[size_t(r) * t.mi_cols + c];
}

// Candidate search (libvpx dec_find_mv_refs). block >= 0: a sub-8x8 block's index, whose two
// nearest candidates contribute their sub-block vectors. Returns the number of entries the caller
// uses (1, or 2 for NEARMV), clamped.
int find_mv_refs(const Tile &t, const BlockCtx &b, int mode, int ref_frame, Mv out[2], int block) {
  const FrameHeader &h = *t.hdr;
  const MvRefPos *pos = kMvRefBlocks[b.bsize];
  MvList list;
  list.early_break = mode != NEARMV;
  bool different_ref_found = false;
  const MvRef *prev =
      t.in.prev_mvs ? &t.in.prev_mvs[size_t(b.mi_row) * t.mi_cols + b.mi_col] : nullptr;
  int i = 0;
  bool done = false;
  if (block >= 0) {
    for (; i < 2 && !done; ++i) {
      const ModeInfo *c = candidate(t, b, pos[i]);
      if (!c) continue;
      different_ref_found = true;
      for (int w = 0; w < 2; ++w) {
        if (c->ref_frame[w] != ref_frame) continue;
        Mv m = c->mv[w];
        if (c->sb_type < kBlock8x8) m = c->bmv[kIdxNColumnToSubblock[block][pos[i].col == 0]][w];
        done = list.add(m);
        break;
      }
    }
    i = 2;
  }
  for (; i < 8 && !done; ++i) {
    const ModeInfo *c = candidate(t, b, pos[i]);
    if (!c) continue;
    different_ref_found = true;
    if (c->ref_frame[0] == ref_frame)
      done = list.add(c->mv[0]);
    else if (c->ref_frame[1] == ref_frame)
      done = list.add(c->mv[1]);
  }
  auto prev_mv = [&](int w) { return Mv{prev->mv[w][0], prev->mv[w][1]}; };
  if (!done && prev) {
    if (prev->ref_frame[0] == ref_frame)
      done = list.add(prev_mv(0));
    else if (prev->ref_frame[1] == ref_frame)
      done = list.add(prev_mv(1));
  }
  if (!done && different_ref_found) {
    for (i = 0; i < 8 && !done; ++i) {
      const ModeInfo *c = candidate(t, b, pos[i]);
      if (!c || !c->is_inter()) continue;
      if (c->ref_frame[0] != ref_frame)
        done = list.add(invert_if(c->mv[0], h.ref_frame_sign_bias[c->ref_frame[0]] !=
                                                h.ref_frame_sign_bias[ref_frame]));
      if (!done && c->has_second_ref() && c->ref_frame[1] != ref_frame && c->mv[1] != c->mv[0])
        done = list.add(invert_if(c->mv[1], h.ref_frame_sign_bias[c->ref_frame[1]] !=
                                                h.ref_frame_sign_bias[ref_frame]));
    }
  }
  if (!done && prev) {
    if (prev->ref_frame[0] != ref_frame && prev->ref_frame[0] > INTRA_FRAME)
      done = list.add(invert_if(prev_mv(0), h.ref_frame_sign_bias[prev->ref_frame[0]] !=
                                                h.ref_frame_sign_bias[ref_frame]));
    if (!done && prev->ref_frame[1] > INTRA_FRAME && prev->ref_frame[1] != ref_frame &&
        prev_mv(1) != prev_mv(0))
      done = list.add(invert_if(prev_mv(1), h.ref_frame_sign_bias[prev->ref_frame[1]] !=
                                                h.ref_frame_sign_bias[ref_frame]));
  }
  int n = list.count;
  if (!done) {
    n = mode == NEARMV ? 2 : 1;
    for (int k = list.count; k < 2; ++k) list.mv[k] = Mv{};
  }
  for (int k = 0; k < n; ++k) clamp_mv_ref(&list.mv[k], b);
  out[0] = list.mv[0];
  out[1] = list.mv[1];
  return n;
}

// Nearest / near vector of sub-8x8 block `block` (libvpx append_sub8x8_mvs_for_idx).
Mv sub8x8_mv(const Tile &t, const BlockCtx &b, int mode, int block, int ref) {
  const ModeInfo *mi = b.mi;
  const int rf = mi->ref_frame[ref];
  Mv list[2];
  if (block == 0) {
    const int n = find_mv_refs(t, b, mode, rf, list, block);
    return list[n - 1];
  }
  if (block == 1 || block == 2) {
    if (mode == NEARESTMV) return mi->bmv[0][ref];
    find_mv_refs(t, b, mode, rf, list, block);
    for (int k = 0; k < 2; ++k)
      if (mi->bmv[0][ref] != list[k]) return list[k];
    return Mv{};
  }
  if (mode == NEARESTMV) return mi->bmv[2][ref];
  if (mi->bmv[2][ref] != mi->bmv[1][ref]) return mi->bmv[1][ref];
  if (mi->bmv[2][ref] != mi->bmv[0][ref]) return mi->bmv[0][ref];
  find_mv_refs(t, b, mode, rf, list, block);
  for (int k = 0; k < 2; ++k)
    if (mi->bmv[2][ref] != list[k]) return list[k];
  return Mv{};
}

int read_mv_component(Tile &t, int comp, bool usehp) {
  const MvComponentProbs &p = t.fc->mv.comps[comp];
  MvComponentCounts *c = t.counts ? &t.counts->mv_comps[comp] : nullptr;
  const int sign = t.r.read_bool(p.sign);
  const int cls = t.r.read_tree(kMvClassTree, p.classes);
  int d, mag, fr, hp;
  if (cls == 0) {
    d = t.r.read_bool(p.class0_bit[0]);
    fr = t.r.read_tree(kMvFrTree, p.class0_fr[d]);
    hp = usehp ? t.r.read_bool(p.class0_hp) : 1;
    mag = 0;
    if (c) {
      ++c->class0[d];
      ++c->class0_fp[d][fr];
      ++c->class0_hp[hp];  // counted also when not coded (hp = 1), as libvpx's vp9_inc_mv
    }
  } else {
    const int n = cls;  // integer bits beyond class 0 (CLASS0_BITS - 1 + cls)
    d = 0;
    for (int i = 0; i < n; ++i) d |= t.r.read_bool(p.bits[i]) << i;
    fr = t.r.read_tree(kMvFrTree, p.fr);
    hp = usehp ? t.r.read_bool(p.hp) : 1;
    mag = kClass0Size << (cls + 2);
    if (c) {
      for (int i = 0; i < n; ++i) ++c->bits[i][(d >> i) & 1];
      ++c->fp[fr];
      ++c->hp[hp];
    }
  }
  if (c) {
    ++c->sign[sign];
    ++c->classes[cls];
  }
  mag += ((d << 3) | (fr << 1) | hp) + 1;
  return sign ? -mag : mag;
}

// libvpx's is_mv_valid: a read vector must stay inside +-(1 << 14) 1/8 pel, else the tile is
// corrupt.
void check_mv(Tile &t, Mv m) {
  constexpr int kLimit = 1 << 14;
  if (m.row <= -kLimit || m.row >= kLimit || m.col <= -kLimit || m.col >= kLimit) {
    if (t.block_error.empty()) t.block_error = "motion vector out of range";
  }
}

Mv read_mv(Tile &t, Mv ref) {
  const int joint = t.r.read_tree(kMvJointTree, t.fc->mv.joints);
  if (t.counts) ++t.counts->mv_joints[joint];
  const bool usehp = t.hdr->allow_high_precision_mv && use_mv_hp(ref);
  Mv diff;
  if (joint == MV_JOINT_HZVNZ || joint == MV_JOINT_HNZVNZ) diff.row = int16_t(read_mv_component(t, 0, usehp));
  if (joint == MV_JOINT_HNZVZ || joint == MV_JOINT_HNZVNZ) diff.col = int16_t(read_mv_component(t, 1, usehp));
  const Mv m{int16_t(ref.row + diff.row), int16_t(ref.col + diff.col)};
  check_mv(t, m);  // on the 16-bit sum, as libvpx stores it
  return m;
}

int read_inter_mode(Tile &t, int ctx) {
  const int m = t.r.read_tree(kInterModeTree, t.fc->inter_mode_probs[ctx]);
  if (t.counts) ++t.counts->inter_mode[ctx][m];
  return NEARESTMV + m;
}

int mode_context(const Tile &t, const BlockCtx &b) {
  int counter = 0;
  for (int i = 0; i < 2; ++i) {
    const ModeInfo *c = candidate(t, b, kMvRefBlocks[b.bsize][i]);
    if (c) counter += kMode2Counter[c->mode];
  }
  return kCounterToContext[counter];
}

int interp_filter_ctx(const BlockCtx &b) {
  const int l = b.left ? b.left->interp_filter : kSwitchableFilters;
  const int a = b.above ? b.above->interp_filter : kSwitchableFilters;
  if (l == a) return l;
  if (l == kSwitchableFilters) return a;
  if (a == kSwitchableFilters) return l;
  return kSwitchableFilters;
}

}  // namespace

void read_inter_block_mode_info(Tile &t, BlockCtx &b) {
  const FrameHeader &h = *t.hdr;
  ModeInfo *mi = b.mi;
  const bool allow_hp = h.allow_high_precision_mv;
  read_ref_frames(t, b);
  const bool compound = mi->has_second_ref();
  const int ctx = mode_context(t, b);
  if (h.seg.feature_active(mi->segment_id, SEG_LVL_SKIP)) {
    mi->mode = ZEROMV;
    if (b.bsize < kBlock8x8) {  // libvpx refuses the skip feature on sub-8x8 blocks
      if (t.block_error.empty()) t.block_error = "segment skip feature on a sub-8x8 block";
      return;
    }
  } else if (b.bsize >= kBlock8x8) {
    mi->mode = uint8_t(read_inter_mode(t, ctx));
  }
  if (h.is_filter_switchable) {
    const int fctx = interp_filter_ctx(b);
    mi->interp_filter = uint8_t(t.r.read_tree(kInterpFilterTree, t.fc->interp_filter_probs[fctx]));
    if (t.counts) ++t.counts->interp_filter[fctx][mi->interp_filter];
  } else {
    mi->interp_filter = h.interp_filter;
  }
  ++t.stats.filters[mi->interp_filter & 3];

  Mv best[2];
  if (b.bsize < kBlock8x8) {
    const int n4w = b.bsize == kBlock4x8 || b.bsize == kBlock4x4 ? 1 : 2;  // sub-blocks' width
    const int n4h = b.bsize == kBlock8x4 || b.bsize == kBlock4x4 ? 1 : 2;
    bool got_new_refs = false;
    int bmode = ZEROMV;
    for (int y = 0; y < 2; y += n4h) {
      for (int x = 0; x < 2; x += n4w) {
        const int j = y * 2 + x;
        bmode = read_inter_mode(t, ctx);
        ++t.stats.inter_modes[bmode - NEARESTMV];
        Mv mv[2];
        if (bmode == NEARESTMV || bmode == NEARMV) {
          for (int ref = 0; ref < 1 + compound; ++ref) mv[ref] = sub8x8_mv(t, b, bmode, j, ref);
        } else if (bmode == NEWMV) {
          if (!got_new_refs) {
            for (int ref = 0; ref < 1 + compound; ++ref) {
              Mv list[2];
              find_mv_refs(t, b, NEWMV, mi->ref_frame[ref], list, -1);
              lower_precision(&list[0], allow_hp);
              best[ref] = list[0];
            }
            got_new_refs = true;
          }
          for (int ref = 0; ref < 1 + compound; ++ref) mv[ref] = read_mv(t, best[ref]);
        }
        mi->bmode[j] = uint8_t(bmode);
        mi->bmv[j][0] = mv[0];
        mi->bmv[j][1] = mv[1];
        if (n4h == 2) {
          mi->bmode[j + 2] = mi->bmode[j];
          mi->bmv[j + 2][0] = mv[0];
          mi->bmv[j + 2][1] = mv[1];
        }
        if (n4w == 2) {
          mi->bmode[j + 1] = mi->bmode[j];
          mi->bmv[j + 1][0] = mv[0];
          mi->bmv[j + 1][1] = mv[1];
        }
      }
    }
    mi->mode = uint8_t(bmode);
    mi->mv[0] = mi->bmv[3][0];
    mi->mv[1] = mi->bmv[3][1];
    return;
  }
  ++t.stats.inter_modes[mi->mode - NEARESTMV];
  if (mi->mode != ZEROMV) {
    for (int ref = 0; ref < 1 + compound; ++ref) {
      Mv list[2];
      const int n = find_mv_refs(t, b, mi->mode, mi->ref_frame[ref], list, -1);
      best[ref] = list[n - 1];
      lower_precision(&best[ref], allow_hp);
    }
  }
  for (int ref = 0; ref < 1 + compound; ++ref) {
    if (mi->mode == NEWMV)
      mi->mv[ref] = read_mv(t, best[ref]);
    else if (mi->mode == ZEROMV)
      mi->mv[ref] = Mv{};
    else
      mi->mv[ref] = best[ref];
  }
}

}  // namespace vp9
}  // namespace v3d
