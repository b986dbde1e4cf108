// SPDX-License-Identifier: LGPL-2.1-or-later
// Reference frame selection of an inter block (spec 6.4.17 read_ref_frames) and its contexts
// (spec 9.3.1: comp_mode, comp_ref, single_ref_p1, single_ref_p2), counted for adaptation.
#include "vp9/dec/tile_internal.h"

namespace v3d {
namespace vp9 {
namespace {

int comp_mode_ctx(const Tile &t, const BlockCtx &b) {
  const int fixed = t.hdr->comp_fixed_ref;
  const ModeInfo *a = b.above, *l = b.left;
  if (a && l) {
    if (!a->has_second_ref() && !l->has_second_ref())
      return (a->ref_frame[0] == fixed) ^ (l->ref_frame[0] == fixed);
    if (!a->has_second_ref()) return 2 + (a->ref_frame[0] == fixed || !a->is_inter());
    if (!l->has_second_ref()) return 2 + (l->ref_frame[0] == fixed || !l->is_inter());
    return 4;
  }
  if (a || l) {
    const ModeInfo *e = a ? a : l;
    return e->has_second_ref() ? 3 : e->ref_frame[0] == fixed;
  }
  return 1;
}

int comp_ref_ctx(const Tile &t, const BlockCtx &b) {
  const FrameHeader &h = *t.hdr;
  const int fix_idx = h.ref_frame_sign_bias[h.comp_fixed_ref];
  const int var_idx = !fix_idx;
  const int var0 = h.comp_var_ref[0], var1 = h.comp_var_ref[1];
  const ModeInfo *a = b.above, *l = b.left;
  if (a && l) {
    const bool ai = !a->is_inter(), li = !l->is_inter();
    if (ai && li) return 2;
    if (ai || li) {
      const ModeInfo *e = ai ? l : a;
      if (!e->has_second_ref()) return 1 + 2 * (e->ref_frame[0] != var1);
      return 1 + 2 * (e->ref_frame[var_idx] != var1);
    }
    const bool l_sg = !l->has_second_ref(), a_sg = !a->has_second_ref();
    const int vrfa = a_sg ? a->ref_frame[0] : a->ref_frame[var_idx];
    const int vrfl = l_sg ? l->ref_frame[0] : l->ref_frame[var_idx];
    if (vrfa == vrfl && var1 == vrfa) return 0;
    if (l_sg && a_sg) {
      if ((vrfa == h.comp_fixed_ref && vrfl == var0) || (vrfl == h.comp_fixed_ref && vrfa == var0))
        return 4;
      return vrfa == vrfl ? 3 : 1;
    }
    if (l_sg || a_sg) {
      const int vrfc = l_sg ? vrfa : vrfl;
      const int rfs = a_sg ? vrfa : vrfl;
      if (vrfc == var1 && rfs != var1) return 1;
      if (rfs == var1 && vrfc != var1) return 2;
      return 4;
    }
    return vrfa == vrfl ? 4 : 2;
  }
  if (a || l) {
    const ModeInfo *e = a ? a : l;
    if (!e->is_inter()) return 2;
    if (e->has_second_ref()) return 4 * (e->ref_frame[var_idx] != var1);
    return 3 * (e->ref_frame[0] != var1);
  }
  return 2;
}

bool uses(const ModeInfo *m, int ref) { return m->ref_frame[0] == ref || m->ref_frame[1] == ref; }

int single_ref_p1_ctx(const BlockCtx &b) {
  const ModeInfo *a = b.above, *l = b.left;
  if (a && l) {
    const bool ai = !a->is_inter(), li = !l->is_inter();
    if (ai && li) return 2;
    if (ai || li) {
      const ModeInfo *e = ai ? l : a;
      if (!e->has_second_ref()) return 4 * (e->ref_frame[0] == LAST_FRAME);
      return 1 + uses(e, LAST_FRAME);
    }
    const bool a2 = a->has_second_ref(), l2 = l->has_second_ref();
    if (a2 && l2) return 1 + (uses(a, LAST_FRAME) || uses(l, LAST_FRAME));
    if (a2 || l2) {
      const int rfs = !a2 ? a->ref_frame[0] : l->ref_frame[0];
      const ModeInfo *c = a2 ? a : l;
      if (rfs == LAST_FRAME) return 3 + uses(c, LAST_FRAME);
      return uses(c, LAST_FRAME);
    }
    return 2 * (a->ref_frame[0] == LAST_FRAME) + 2 * (l->ref_frame[0] == LAST_FRAME);
  }
  if (a || l) {
    const ModeInfo *e = a ? a : l;
    if (!e->is_inter()) return 2;
    if (!e->has_second_ref()) return 4 * (e->ref_frame[0] == LAST_FRAME);
    return 1 + uses(e, LAST_FRAME);
  }
  return 2;
}

int single_ref_p2_ctx(const BlockCtx &b) {
  const ModeInfo *a = b.above, *l = b.left;
  if (a && l) {
    const bool ai = !a->is_inter(), li = !l->is_inter();
    if (ai && li) return 2;
    if (ai || li) {
      const ModeInfo *e = ai ? l : a;
      if (!e->has_second_ref()) {
        if (e->ref_frame[0] == LAST_FRAME) return 3;
        return 4 * (e->ref_frame[0] == GOLDEN_FRAME);
      }
      return 1 + 2 * uses(e, GOLDEN_FRAME);
    }
    const bool a2 = a->has_second_ref(), l2 = l->has_second_ref();
    const int a0 = a->ref_frame[0], a1 = a->ref_frame[1], l0 = l->ref_frame[0], l1 = l->ref_frame[1];
    if (a2 && l2) {
      if (a0 == l0 && a1 == l1) return 3 * (uses(a, GOLDEN_FRAME) || uses(l, GOLDEN_FRAME));
      return 2;
    }
    if (a2 || l2) {
      const int rfs = !a2 ? a0 : l0;
      const ModeInfo *c = a2 ? a : l;
      if (rfs == GOLDEN_FRAME) return 3 + uses(c, GOLDEN_FRAME);
      if (rfs == ALTREF_FRAME) return uses(c, GOLDEN_FRAME);
      return 1 + 2 * uses(c, GOLDEN_FRAME);
    }
    if (a0 == LAST_FRAME && l0 == LAST_FRAME) return 3;
    if (a0 == LAST_FRAME || l0 == LAST_FRAME) {
      const int edge = a0 == LAST_FRAME ? l0 : a0;
      return 4 * (edge == GOLDEN_FRAME);
    }
    return 2 * (a0 == GOLDEN_FRAME) + 2 * (l0 == GOLDEN_FRAME);
  }
  if (a || l) {
    const ModeInfo *e = a ? a : l;
    if (!e->is_inter() || (e->ref_frame[0] == LAST_FRAME && !e->has_second_ref())) return 2;
    if (!e->has_second_ref()) return 4 * (e->ref_frame[0] == GOLDEN_FRAME);
    return 3 * uses(e, GOLDEN_FRAME);
  }
  return 2;
}

}  // namespace

// Spec read_ref_frames: a segment's fixed reference, else compound or single choice.
void read_ref_frames(Tile &t, BlockCtx &b) {
  const FrameHeader &h = *t.hdr;
  ModeInfo *mi = b.mi;
  if (h.seg.feature_active(mi->segment_id, SEG_LVL_REF_FRAME)) {
    mi->ref_frame[0] = int8_t(h.seg.feature_data[mi->segment_id][SEG_LVL_REF_FRAME]);
    mi->ref_frame[1] = -1;
    return;
  }
  int comp = h.reference_mode == COMPOUND_REFERENCE;
  if (h.reference_mode == REFERENCE_MODE_SELECT) {
    const int ctx = comp_mode_ctx(t, b);
    comp = t.r.read_bool(t.fc->comp_mode_prob[ctx]);
    if (t.counts) ++t.counts->comp_mode[ctx][comp];
  }
  if (comp) {
    const int idx = h.ref_frame_sign_bias[h.comp_fixed_ref];
    const int ctx = comp_ref_ctx(t, b);
    const int bit = t.r.read_bool(t.fc->comp_ref_prob[ctx]);
    if (t.counts) ++t.counts->comp_ref[ctx][bit];
    mi->ref_frame[idx] = int8_t(h.comp_fixed_ref);
    mi->ref_frame[!idx] = int8_t(h.comp_var_ref[bit]);
  } else {
    const int ctx0 = single_ref_p1_ctx(b);
    const int bit0 = t.r.read_bool(t.fc->single_ref_prob[ctx0][0]);
    if (t.counts) ++t.counts->single_ref[ctx0][0][bit0];
    if (bit0) {
      const int ctx1 = single_ref_p2_ctx(b);
      const int bit1 = t.r.read_bool(t.fc->single_ref_prob[ctx1][1]);
      if (t.counts) ++t.counts->single_ref[ctx1][1][bit1];
      mi->ref_frame[0] = int8_t(bit1 ? ALTREF_FRAME : GOLDEN_FRAME);
    } else {
      mi->ref_frame[0] = LAST_FRAME;
    }
    mi->ref_frame[1] = -1;
  }
}

}  // namespace vp9
}  // namespace v3d
