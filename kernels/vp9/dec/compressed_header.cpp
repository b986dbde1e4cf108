// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 compressed header (spec 6.3 syntax, 7.3 semantics, 9.2 decode_term_subexp).
#include "vp9/dec/compressed_header.h"

namespace v3d::vp9 {
namespace {

constexpr int kDiffUpdateProb = 252;
constexpr int kMvUpdateProb = 252;

// Spec inv_map_table: maps decode_term_subexp() values to recentered deltas.
constexpr uint8_t kInvMapTable[255] = {
    7,   20,  33,  46,  59,  72,  85,  98,  111, 124, 137, 150, 163, 176, 189, 202, 215, 228, 241,
    254, 1,   2,   3,   4,   5,   6,   8,   9,   10,  11,  12,  13,  14,  15,  16,  17,  18,  19,
    21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  34,  35,  36,  37,  38,  39,  40,
    41,  42,  43,  44,  45,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  60,  61,
    62,  63,  64,  65,  66,  67,  68,  69,  70,  71,  73,  74,  75,  76,  77,  78,  79,  80,  81,
    82,  83,  84,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,  96,  97,  99,  100, 101, 102,
    103, 104, 105, 106, 107, 108, 109, 110, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122,
    123, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 138, 139, 140, 141, 142, 143,
    144, 145, 146, 147, 148, 149, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 177, 178, 179, 180, 181, 182, 183, 184,
    185, 186, 187, 188, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 203, 204, 205,
    206, 207, 208, 209, 210, 211, 212, 213, 214, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225,
    226, 227, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 242, 243, 244, 245, 246,
    247, 248, 249, 250, 251, 252, 253, 253};

int inv_recenter_nonneg(int v, int m) {
  if (v > 2 * m) return v;
  return (v & 1) ? m - ((v + 1) >> 1) : m + (v >> 1);
}

int decode_uniform(BoolDecoder &bd) {
  constexpr int kBits = 8;
  constexpr int kM = (1 << kBits) - 191;
  const int v = static_cast<int>(bd.read_literal(kBits - 1));
  return v < kM ? v : (v << 1) - kM + bd.read_bit();
}

int decode_term_subexp(BoolDecoder &bd) {
  if (!bd.read_bit()) return static_cast<int>(bd.read_literal(4));
  if (!bd.read_bit()) return static_cast<int>(bd.read_literal(4)) + 16;
  if (!bd.read_bit()) return static_cast<int>(bd.read_literal(5)) + 32;
  return decode_uniform(bd) + 64;
}

template <size_t N>
void diff_update_all(BoolDecoder &bd, uint8_t (&p)[N]) {
  for (uint8_t &v : p) diff_update_prob(bd, &v);
}

TxMode read_tx_mode(BoolDecoder &bd) {
  int tx_mode = static_cast<int>(bd.read_literal(2));
  if (tx_mode == ALLOW_32X32) tx_mode += bd.read_bit();
  return static_cast<TxMode>(tx_mode);
}

void read_tx_mode_probs(BoolDecoder &bd, FrameContext &fc) {
  for (auto &p : fc.tx_probs_8x8) diff_update_all(bd, p);
  for (auto &p : fc.tx_probs_16x16) diff_update_all(bd, p);
  for (auto &p : fc.tx_probs_32x32) diff_update_all(bd, p);
}

// read_coef_probs(): per transform size up to the largest tx_mode allows, an update flag and
// then every coded node (band 0 has 3 contexts).
void read_coef_probs(BoolDecoder &bd, TxMode tx_mode, FrameContext &fc) {
  static constexpr TxSize kMaxTx[5] = {kTx4x4, kTx8x8, kTx16x16, kTx32x32, kTx32x32};
  for (int t = kTx4x4; t <= kMaxTx[tx_mode]; ++t) {
    if (!bd.read_bit()) continue;
    for (auto &plane : fc.coef_probs[t])
      for (auto &ref : plane)
        for (int band = 0; band < kCoefBands; ++band)
          for (int ctx = 0; ctx < (band == 0 ? 3 : kCoefContexts); ++ctx)
            diff_update_all(bd, ref[band][ctx]);
  }
}

// Spec setup_compound_reference_mode(): the reference whose sign bias differs is fixed.
void setup_compound_reference_mode(FrameHeader &fh) {
  const bool *bias = fh.ref_frame_sign_bias;
  if (bias[LAST_FRAME] == bias[GOLDEN_FRAME]) {
    fh.comp_fixed_ref = ALTREF_FRAME;
    fh.comp_var_ref[0] = LAST_FRAME;
    fh.comp_var_ref[1] = GOLDEN_FRAME;
  } else if (bias[LAST_FRAME] == bias[ALTREF_FRAME]) {
    fh.comp_fixed_ref = GOLDEN_FRAME;
    fh.comp_var_ref[0] = LAST_FRAME;
    fh.comp_var_ref[1] = ALTREF_FRAME;
  } else {
    fh.comp_fixed_ref = LAST_FRAME;
    fh.comp_var_ref[0] = GOLDEN_FRAME;
    fh.comp_var_ref[1] = ALTREF_FRAME;
  }
}

void read_frame_reference_mode(BoolDecoder &bd, FrameHeader &fh, FrameContext &fc) {
  // Compound prediction needs two references on different sides (sign biases).
  bool compound_allowed = false;
  for (int i = GOLDEN_FRAME; i <= ALTREF_FRAME; ++i)
    compound_allowed |= fh.ref_frame_sign_bias[i] != fh.ref_frame_sign_bias[LAST_FRAME];
  fh.reference_mode = SINGLE_REFERENCE;
  if (compound_allowed && bd.read_bit())
    fh.reference_mode = bd.read_bit() ? REFERENCE_MODE_SELECT : COMPOUND_REFERENCE;
  if (fh.reference_mode != SINGLE_REFERENCE) setup_compound_reference_mode(fh);
  if (fh.reference_mode == REFERENCE_MODE_SELECT) diff_update_all(bd, fc.comp_mode_prob);
  if (fh.reference_mode != COMPOUND_REFERENCE)
    for (auto &p : fc.single_ref_prob) diff_update_all(bd, p);
  if (fh.reference_mode != SINGLE_REFERENCE) diff_update_all(bd, fc.comp_ref_prob);
}

// update_mv_prob(): a flag at 252, then a 7-bit value v giving the odd probability 2v + 1.
void update_mv_probs(BoolDecoder &bd, uint8_t *p, int n) {
  for (int i = 0; i < n; ++i)
    if (bd.read_bool(kMvUpdateProb)) p[i] = static_cast<uint8_t>((bd.read_literal(7) << 1) | 1);
}

void read_mv_probs(BoolDecoder &bd, bool allow_hp, MvProbs &mv) {
  update_mv_probs(bd, mv.joints, kMvJoints - 1);
  for (MvComponentProbs &c : mv.comps) {
    update_mv_probs(bd, &c.sign, 1);
    update_mv_probs(bd, c.classes, kMvClasses - 1);
    update_mv_probs(bd, c.class0_bit, kClass0Size - 1);
    update_mv_probs(bd, c.bits, kMvOffsetBits);
  }
  for (MvComponentProbs &c : mv.comps) {
    for (auto &fr : c.class0_fr) update_mv_probs(bd, fr, kMvFpSize - 1);
    update_mv_probs(bd, c.fr, kMvFpSize - 1);
  }
  if (!allow_hp) return;
  for (MvComponentProbs &c : mv.comps) {
    update_mv_probs(bd, &c.class0_hp, 1);
    update_mv_probs(bd, &c.hp, 1);
  }
}

}  // namespace

int inv_remap_prob(int delta, int prob) {
  const int v = kInvMapTable[delta];
  const int m = prob - 1;
  if ((m << 1) <= 255) return 1 + inv_recenter_nonneg(v, m);
  return 255 - inv_recenter_nonneg(v, 255 - 1 - m);
}

void diff_update_prob(BoolDecoder &bd, uint8_t *p) {
  if (bd.read_bool(kDiffUpdateProb))
    *p = static_cast<uint8_t>(inv_remap_prob(decode_term_subexp(bd), *p));
}

bool parse_compressed_header(const uint8_t *data, size_t size, FrameHeader &fh, FrameContext &fc,
                             std::string &error) {
  BoolDecoder bd;
  if (!bd.init(data, size)) {
    error = "compressed header: marker bit set or empty";
    return false;
  }
  fh.tx_mode = fh.quant.lossless ? ONLY_4X4 : read_tx_mode(bd);
  if (fh.tx_mode == TX_MODE_SELECT) read_tx_mode_probs(bd, fc);
  read_coef_probs(bd, fh.tx_mode, fc);
  diff_update_all(bd, fc.skip_prob);
  fh.reference_mode = SINGLE_REFERENCE;
  if (!fh.frame_is_intra) {
    for (auto &p : fc.inter_mode_probs) diff_update_all(bd, p);
    if (fh.is_filter_switchable)
      for (auto &p : fc.interp_filter_probs) diff_update_all(bd, p);
    diff_update_all(bd, fc.is_inter_prob);
    read_frame_reference_mode(bd, fh, fc);
    for (auto &p : fc.y_mode_probs) diff_update_all(bd, p);
    for (auto &p : fc.partition_probs) diff_update_all(bd, p);
    read_mv_probs(bd, fh.allow_high_precision_mv, fc.mv);
  }
  if (bd.has_error()) {
    error = "compressed header is corrupted (read past its end)";
    return false;
  }
  return true;
}

}  // namespace v3d::vp9
