// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 backward adaptation (spec 8.4.2 merge_prob / merge_probs, 8.4.3 coefficients, 8.4.4
// modes and motion vectors).
#include "vp9/dec/adapt.h"

#include <algorithm>

#include "vp9/dec/trees.h"

namespace v3d::vp9 {
namespace {

constexpr uint32_t kCoefCountSat = 24;
constexpr uint32_t kCoefMaxUpdateFactor = 112;
constexpr uint32_t kCoefMaxUpdateFactorAfterKey = 128;
constexpr uint32_t kModeMvCountSat = 20;
constexpr uint32_t kModeMvMaxUpdateFactor = 128;

// Probability of a 0 from counts, rounded, kept in 1..255.
uint8_t binary_prob(uint32_t n0, uint32_t den) {
  const int p = static_cast<int>((static_cast<uint64_t>(n0) * 256 + (den >> 1)) / den);
  return static_cast<uint8_t>(std::clamp(p, 1, 255));
}

uint8_t weighted(int pre, int prob, int factor) {
  return static_cast<uint8_t>((pre * (256 - factor) + prob * factor + 128) >> 8);
}

// Spec merge_probs(): merges every node of a tree bottom-up; returns the count under node i.
uint32_t merge_tree(const TreeIndex *tree, int i, const uint8_t *pre, const uint32_t *counts,
                    uint8_t *probs) {
  const int l = tree[i], r = tree[i + 1];
  const uint32_t left = l <= 0 ? counts[-l] : merge_tree(tree, l, pre, counts, probs);
  const uint32_t right = r <= 0 ? counts[-r] : merge_tree(tree, r, pre, counts, probs);
  probs[i >> 1] = merge_prob_mode_mv(pre[i >> 1], left, right);
  return left + right;
}

void merge_tree(const TreeIndex *tree, const uint8_t *pre, const uint32_t *counts, uint8_t *probs) {
  merge_tree(tree, 0, pre, counts, probs);
}

}  // namespace

uint8_t merge_prob(uint8_t pre_prob, uint32_t ct0, uint32_t ct1, uint32_t count_sat,
                   uint32_t max_update_factor) {
  const uint32_t den = ct0 + ct1;
  const uint8_t prob = den == 0 ? 128 : binary_prob(ct0, den);
  const uint32_t count = std::min(den, count_sat);
  const uint32_t factor = max_update_factor * count / count_sat;
  return weighted(pre_prob, prob, static_cast<int>(factor));
}

uint8_t merge_prob_mode_mv(uint8_t pre_prob, uint32_t ct0, uint32_t ct1) {
  const uint32_t den = ct0 + ct1;
  if (den == 0) return pre_prob;
  const uint32_t count = std::min(den, kModeMvCountSat);
  const uint32_t factor = kModeMvMaxUpdateFactor * count / kModeMvCountSat;
  return weighted(pre_prob, binary_prob(ct0, den), static_cast<int>(factor));
}

void adapt_coef_probs(const FrameContext &pre, const Counts &counts, bool frame_is_intra,
                      bool last_frame_was_key, FrameContext &fc) {
  const uint32_t update_factor =
      !frame_is_intra && last_frame_was_key ? kCoefMaxUpdateFactorAfterKey : kCoefMaxUpdateFactor;
  for (int t = 0; t < kTxSizes; ++t)
    for (int i = 0; i < kPlaneTypes; ++i)
      for (int j = 0; j < kRefTypes; ++j)
        for (int k = 0; k < kCoefBands; ++k)
          for (int l = 0; l < (k == 0 ? 3 : kCoefContexts); ++l) {
            const uint32_t *c = counts.coef[t][i][j][k][l];
            const uint32_t n0 = c[COUNT_ZERO_TOKEN], n1 = c[COUNT_ONE_TOKEN];
            const uint32_t n2 = c[COUNT_TWO_TOKEN], neob = c[COUNT_EOB_MODEL_TOKEN];
            const uint32_t eob = counts.eob_branch[t][i][j][k][l];
            // Node 0: "more coefficients" vs EOB; 1: ZERO vs non-zero; 2: ONE vs larger.
            const uint32_t branch[3][2] = {{neob, eob - neob}, {n0, n1 + n2}, {n1, n2}};
            const uint8_t *p = pre.coef_probs[t][i][j][k][l];
            uint8_t *out = fc.coef_probs[t][i][j][k][l];
            for (int m = 0; m < kUnconstrainedNodes; ++m)
              out[m] = merge_prob(p[m], branch[m][0], branch[m][1], kCoefCountSat, update_factor);
          }
}

void adapt_mode_probs(const FrameContext &pre, const Counts &counts, bool is_filter_switchable,
                      TxMode tx_mode, FrameContext &fc) {
  for (int i = 0; i < kIsInterContexts; ++i)
    fc.is_inter_prob[i] =
        merge_prob_mode_mv(pre.is_inter_prob[i], counts.is_inter[i][0], counts.is_inter[i][1]);
  for (int i = 0; i < kCompInterContexts; ++i)
    fc.comp_mode_prob[i] =
        merge_prob_mode_mv(pre.comp_mode_prob[i], counts.comp_mode[i][0], counts.comp_mode[i][1]);
  for (int i = 0; i < kRefContexts; ++i)
    fc.comp_ref_prob[i] =
        merge_prob_mode_mv(pre.comp_ref_prob[i], counts.comp_ref[i][0], counts.comp_ref[i][1]);
  for (int i = 0; i < kRefContexts; ++i)
    for (int j = 0; j < 2; ++j)
      fc.single_ref_prob[i][j] = merge_prob_mode_mv(
          pre.single_ref_prob[i][j], counts.single_ref[i][j][0], counts.single_ref[i][j][1]);
  for (int i = 0; i < kInterModeContexts; ++i)
    merge_tree(kInterModeTree, pre.inter_mode_probs[i], counts.inter_mode[i],
               fc.inter_mode_probs[i]);
  for (int i = 0; i < kBlockSizeGroups; ++i)
    merge_tree(kIntraModeTree, pre.y_mode_probs[i], counts.y_mode[i], fc.y_mode_probs[i]);
  for (int i = 0; i < kIntraModes; ++i)
    merge_tree(kIntraModeTree, pre.uv_mode_probs[i], counts.uv_mode[i], fc.uv_mode_probs[i]);
  for (int i = 0; i < kPartitionContexts; ++i)
    merge_tree(kPartitionTree, pre.partition_probs[i], counts.partition[i], fc.partition_probs[i]);
  if (is_filter_switchable)
    for (int i = 0; i < kInterpFilterContexts; ++i)
      merge_tree(kInterpFilterTree, pre.interp_filter_probs[i], counts.interp_filter[i],
                 fc.interp_filter_probs[i]);
  if (tx_mode == TX_MODE_SELECT) {
    // Each node separates the smallest remaining size from all larger ones.
    for (int i = 0; i < kTxSizeContexts; ++i) {
      const uint32_t *c8 = counts.tx_8x8[i];
      fc.tx_probs_8x8[i][0] = merge_prob_mode_mv(pre.tx_probs_8x8[i][0], c8[0], c8[1]);
      const uint32_t *c16 = counts.tx_16x16[i];
      fc.tx_probs_16x16[i][0] =
          merge_prob_mode_mv(pre.tx_probs_16x16[i][0], c16[0], c16[1] + c16[2]);
      fc.tx_probs_16x16[i][1] = merge_prob_mode_mv(pre.tx_probs_16x16[i][1], c16[1], c16[2]);
      const uint32_t *c32 = counts.tx_32x32[i];
      fc.tx_probs_32x32[i][0] =
          merge_prob_mode_mv(pre.tx_probs_32x32[i][0], c32[0], c32[1] + c32[2] + c32[3]);
      fc.tx_probs_32x32[i][1] =
          merge_prob_mode_mv(pre.tx_probs_32x32[i][1], c32[1], c32[2] + c32[3]);
      fc.tx_probs_32x32[i][2] = merge_prob_mode_mv(pre.tx_probs_32x32[i][2], c32[2], c32[3]);
    }
  }
  for (int i = 0; i < kSkipContexts; ++i)
    fc.skip_prob[i] = merge_prob_mode_mv(pre.skip_prob[i], counts.skip[i][0], counts.skip[i][1]);
}

void adapt_mv_probs(const FrameContext &pre, const Counts &counts, bool allow_high_precision_mv,
                    FrameContext &fc) {
  merge_tree(kMvJointTree, pre.mv.joints, counts.mv_joints, fc.mv.joints);
  for (int i = 0; i < 2; ++i) {
    const MvComponentProbs &p = pre.mv.comps[i];
    const MvComponentCounts &c = counts.mv_comps[i];
    MvComponentProbs &o = fc.mv.comps[i];
    o.sign = merge_prob_mode_mv(p.sign, c.sign[0], c.sign[1]);
    merge_tree(kMvClassTree, p.classes, c.classes, o.classes);
    merge_tree(kMvClass0Tree, p.class0_bit, c.class0, o.class0_bit);
    for (int j = 0; j < kMvOffsetBits; ++j)
      o.bits[j] = merge_prob_mode_mv(p.bits[j], c.bits[j][0], c.bits[j][1]);
    for (int j = 0; j < kClass0Size; ++j)
      merge_tree(kMvFrTree, p.class0_fr[j], c.class0_fp[j], o.class0_fr[j]);
    merge_tree(kMvFrTree, p.fr, c.fp, o.fr);
    if (allow_high_precision_mv) {
      o.class0_hp = merge_prob_mode_mv(p.class0_hp, c.class0_hp[0], c.class0_hp[1]);
      o.hp = merge_prob_mode_mv(p.hp, c.hp[0], c.hp[1]);
    }
  }
}

}  // namespace v3d::vp9
