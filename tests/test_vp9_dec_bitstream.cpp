// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 decoder bitstream helpers against hand-checked values: backward adaptation (merge_prob,
// the tree merge, one coefficient position, hp probabilities only with allow_hp), quantiser
// lookup and segment qindex, loop filter levels (spec 8.8.1), the superframe index (hand-built
// packets, every size width and frame count, refusals), the IVF reader's truncation errors, and
// the compressed header's probability deltas through a header written with the test's encoder.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "vp9/dec/adapt.h"
#include "vp9/dec/compressed_header.h"
#include "vp9/dec/default_probs.h"
#include "vp9/dec/ivf.h"
#include "vp9/dec/quant.h"
#include "vp9/dec/superframe.h"
#include "vp9_bool_encoder.h"

using namespace v3d::vp9;
using v3dtest::check;

namespace {

void test_merge_prob() {
  // prob = (10 * 256 + 5) / 10 = 256 -> 255; factor = 112 * 10 / 24 = 46;
  // (128 * 210 + 255 * 46 + 128) >> 8 = 151.
  check(merge_prob(128, 10, 0, 24, 112) == 151, "merge_prob(128, 10/0) = %d, want 151",
        merge_prob(128, 10, 0, 24, 112));
  check(merge_prob(77, 0, 0, 24, 112) == 77, "merge_prob without counts changed the probability");
  // den 10, factor 128 * 10 / 20 = 64, prob 773 / 10 = 77; (200 * 192 + 77 * 64 + 128) >> 8 = 169.
  check(merge_prob_mode_mv(200, 3, 7) == 169, "merge_prob_mode_mv(200, 3/7) = %d, want 169",
        merge_prob_mode_mv(200, 3, 7));
  // Saturated: den 100 counts as 20 (factor 128); prob (0 + 50) / 100 = 0 -> 1;
  // (90 * 128 + 1 * 128 + 128) >> 8 = 46.
  check(merge_prob_mode_mv(90, 0, 100) == 46, "merge_prob_mode_mv(90, 0/100) = %d, want 46",
        merge_prob_mode_mv(90, 0, 100));
  check(merge_prob_mode_mv(90, 0, 0) == 90, "merge_prob_mode_mv without counts changed it");
}

void test_adapt_modes() {
  FrameContext pre, fc;
  load_default_probs(pre);
  fc = pre;
  Counts counts;
  std::memset(&counts, 0, sizeof(counts));
  // Interp filter tree, context 0, counts regular 5, smooth 3, sharp 2, pre {100, 50}:
  // node 0 (5 vs 5): prob 128, factor 64 -> (100 * 192 + 128 * 64 + 128) >> 8 = 107;
  // node 1 (3 vs 2): prob 770 / 5 = 154, factor 32 -> (50 * 224 + 154 * 32 + 128) >> 8 = 63.
  pre.interp_filter_probs[0][0] = 100;
  pre.interp_filter_probs[0][1] = 50;
  counts.interp_filter[0][kFilterRegular] = 5;
  counts.interp_filter[0][kFilterSmooth] = 3;
  counts.interp_filter[0][kFilterSharp] = 2;
  counts.skip[1][0] = 3;
  counts.skip[1][1] = 7;
  pre.skip_prob[1] = 200;
  adapt_mode_probs(pre, counts, true, ONLY_4X4, fc);
  check(fc.interp_filter_probs[0][0] == 107 && fc.interp_filter_probs[0][1] == 63,
        "interp filter tree merge gave {%d, %d}, want {107, 63}", fc.interp_filter_probs[0][0],
        fc.interp_filter_probs[0][1]);
  check(fc.skip_prob[1] == 169, "skip prob %d, want 169", fc.skip_prob[1]);
  check(fc.skip_prob[0] == pre.skip_prob[0], "skip prob without counts changed");
  // Not switchable: the filter probabilities stay as the frame had them.
  FrameContext fc2 = pre;
  fc2.interp_filter_probs[0][0] = 33;
  adapt_mode_probs(pre, counts, false, ONLY_4X4, fc2);
  check(fc2.interp_filter_probs[0][0] == 33, "interp filter adapted on a non-switchable frame");
  // tx: only with TX_MODE_SELECT. 32x32 counts {1, 0, 0, 9}: node 0 (1 vs 9), default 3:
  // prob (256 + 5) / 10 = 26, factor 64 -> (3 * 192 + 26 * 64 + 128) >> 8 = 9.
  counts.tx_32x32[0][0] = 1;
  counts.tx_32x32[0][3] = 9;
  FrameContext fc3 = pre;
  adapt_mode_probs(pre, counts, false, ALLOW_32X32, fc3);
  check(fc3.tx_probs_32x32[0][0] == pre.tx_probs_32x32[0][0], "tx adapted without TX_MODE_SELECT");
  adapt_mode_probs(pre, counts, false, TX_MODE_SELECT, fc3);
  check(fc3.tx_probs_32x32[0][0] == 9, "tx 32x32 node 0 = %d, want 9", fc3.tx_probs_32x32[0][0]);
}

void test_adapt_mv_hp() {
  FrameContext pre, fc;
  load_default_probs(pre);
  pre.mv.comps[0].hp = 200;
  fc = pre;
  fc.mv.comps[0].hp = 99;  // the frame's value (after its deltas)
  Counts counts;
  std::memset(&counts, 0, sizeof(counts));
  counts.mv_comps[0].hp[0] = 3;
  counts.mv_comps[0].hp[1] = 7;
  adapt_mv_probs(pre, counts, false, fc);
  check(fc.mv.comps[0].hp == 99, "hp adapted without allow_high_precision_mv");
  adapt_mv_probs(pre, counts, true, fc);
  check(fc.mv.comps[0].hp == 169, "hp prob %d, want 169", fc.mv.comps[0].hp);
}

void test_adapt_coef() {
  FrameContext pre, fc;
  load_default_probs(pre);
  fc = pre;
  Counts counts;
  std::memset(&counts, 0, sizeof(counts));
  // 4x4, Y, intra, band 1, ctx 0 (defaults {31, 107, 169}): ZERO 4, ONE 2, TWO 1, EOB_MODEL 5,
  // eob_branch 9. Update factor 112 (key frame):
  //  node 0 (5 vs 4): prob 1284 / 9 = 142, factor 112 * 9 / 24 = 42 -> 49
  //  node 1 (4 vs 3): prob 1027 / 7 = 146, factor 32 -> 112
  //  node 2 (2 vs 1): prob 513 / 3 = 171, factor 14 -> 169
  uint32_t *c = counts.coef[kTx4x4][0][0][1][0];
  c[COUNT_ZERO_TOKEN] = 4;
  c[COUNT_ONE_TOKEN] = 2;
  c[COUNT_TWO_TOKEN] = 1;
  c[COUNT_EOB_MODEL_TOKEN] = 5;
  counts.eob_branch[kTx4x4][0][0][1][0] = 9;
  adapt_coef_probs(pre, counts, true, false, fc);
  const uint8_t *p = fc.coef_probs[kTx4x4][0][0][1][0];
  check(p[0] == 49 && p[1] == 112 && p[2] == 169,
        "coef adaptation {%d, %d, %d}, want {49, 112, 169}", p[0], p[1], p[2]);
  check(std::memcmp(fc.coef_probs[kTx8x8], pre.coef_probs[kTx8x8], sizeof(fc.coef_probs[0])) == 0,
        "coef positions without counts changed");
  // The frame after a key frame: factor 128 * 9 / 24 = 48 -> (31 * 208 + 142 * 48 + 128) >> 8 = 52.
  adapt_coef_probs(pre, counts, false, true, fc);
  check(p[0] == 52, "after-key coef adaptation %d, want 52", p[0]);
  // A key frame after a key frame still uses 112.
  adapt_coef_probs(pre, counts, true, true, fc);
  check(p[0] == 49, "key frame after key frame: %d, want 49", p[0]);
}

void test_quant_and_lf() {
  FrameHeader fh;
  check(dc_q(0, 0) == 4 && ac_q(0, 0) == 4, "q lookup at 0: %d %d", dc_q(0, 0), ac_q(0, 0));
  check(dc_q(255, 0) == 1336 && ac_q(255, 0) == 1828, "q lookup at 255: %d %d", dc_q(255, 0),
        ac_q(255, 0));
  check(dc_q(250, 10) == 1336 && ac_q(3, -10) == 4, "q lookup clamps qindex + delta");
  fh.quant.base_q_idx = 100;
  fh.seg.enabled = true;
  fh.seg.feature_enabled[2][SEG_LVL_ALT_Q] = true;
  fh.seg.feature_data[2][SEG_LVL_ALT_Q] = -120;
  fh.seg.feature_enabled[3][SEG_LVL_ALT_Q] = true;
  fh.seg.feature_data[3][SEG_LVL_ALT_Q] = 30;
  check(get_qindex(fh, 0) == 100 && get_qindex(fh, 2) == 0 && get_qindex(fh, 3) == 130,
        "segment qindex (delta): %d %d %d", get_qindex(fh, 0), get_qindex(fh, 2),
        get_qindex(fh, 3));
  fh.seg.abs_or_delta_update = true;
  check(get_qindex(fh, 3) == 30, "segment qindex (absolute): %d", get_qindex(fh, 3));
  fh.seg.enabled = false;
  check(get_qindex(fh, 3) == 100, "segment qindex with segmentation off: %d", get_qindex(fh, 3));

  // Loop filter: level 40 (deltas doubled), ref deltas {1, 0, -1, -1}, mode deltas {0, 3}.
  fh = FrameHeader();
  fh.lf.filter_level = 40;
  fh.lf.delta_enabled = true;
  fh.lf.mode_deltas[1] = 3;
  LoopFilterLevels lv;
  loop_filter_levels(fh, lv);
  check(lv.level[0][INTRA_FRAME][0] == 42 && lv.level[0][LAST_FRAME][0] == 40 &&
            lv.level[0][LAST_FRAME][1] == 46 && lv.level[0][GOLDEN_FRAME][0] == 38 &&
            lv.level[0][ALTREF_FRAME][1] == 44,
        "lf levels %d %d %d %d %d, want 42 40 46 38 44", lv.level[0][0][0], lv.level[0][1][0],
        lv.level[0][1][1], lv.level[0][2][0], lv.level[0][3][1]);
  // Level 20 (deltas single), segment 5 with ALT_L +50 (clamped to 63, deltas doubled there).
  fh.lf.filter_level = 20;
  fh.seg.enabled = true;
  fh.seg.feature_enabled[5][SEG_LVL_ALT_L] = true;
  fh.seg.feature_data[5][SEG_LVL_ALT_L] = 50;
  loop_filter_levels(fh, lv);
  check(lv.level[0][INTRA_FRAME][0] == 21 && lv.level[0][GOLDEN_FRAME][1] == 22 &&
            lv.level[5][INTRA_FRAME][0] == 63 && lv.level[5][GOLDEN_FRAME][0] == 61,
        "lf levels with segment: %d %d %d %d, want 21 22 63 61", lv.level[0][0][0],
        lv.level[0][2][1], lv.level[5][0][0], lv.level[5][2][0]);
  fh.lf.delta_enabled = false;
  loop_filter_levels(fh, lv);
  check(lv.level[0][ALTREF_FRAME][1] == 20 && lv.level[5][LAST_FRAME][0] == 63,
        "lf levels without deltas: %d %d", lv.level[0][3][1], lv.level[5][1][0]);
}

// A packet of `frames` frames of random sizes with an index of `mag` bytes per size.
std::vector<uint8_t> superframe(v3dtest::Rng &rng, int frames, int mag,
                                std::vector<uint32_t> &sizes) {
  std::vector<uint8_t> pkt;
  const uint32_t max = mag == 1 ? 255 : 2000;
  for (int i = 0; i < frames; ++i) {
    sizes.push_back(static_cast<uint32_t>(rng.range(1, int(max))));
    for (uint32_t j = 0; j < sizes.back(); ++j)
      pkt.push_back(static_cast<uint8_t>(rng.u32() & 0x3f));
  }
  const uint8_t marker = static_cast<uint8_t>(0xc0 | (mag - 1) << 3 | (frames - 1));
  pkt.push_back(marker);
  for (uint32_t s : sizes)
    for (int j = 0; j < mag; ++j) pkt.push_back(static_cast<uint8_t>(s >> (8 * j)));
  pkt.push_back(marker);
  return pkt;
}

void test_superframe(uint64_t seed) {
  v3dtest::Rng rng(seed);
  for (int frames = 1; frames <= 8; ++frames) {
    for (int mag = 1; mag <= 4; ++mag) {
      std::vector<uint32_t> sizes;
      std::vector<uint8_t> pkt = superframe(rng, frames, mag, sizes);
      SuperframeIndex idx;
      std::string err;
      bool ok = parse_superframe_index(pkt.data(), pkt.size(), idx, err);
      bool same = ok && idx.count == frames && idx.index_size == size_t(2 + mag * frames);
      for (int i = 0; same && i < frames; ++i) same = idx.sizes[i] == sizes[i];
      check(same, "superframe %d frames, %d-byte sizes: ok %d count %d", frames, mag, ok,
            idx.count);
      // Sizes exceeding the packet: refused.
      pkt[pkt.size() - 1 - mag * frames + mag - 1] = 0xff;
      if (mag == 4) pkt[pkt.size() - 1 - mag * frames + 3] = 0x7f;
      check(!parse_superframe_index(pkt.data(), pkt.size(), idx, err),
            "superframe with oversized frame %d/%d accepted", frames, mag);
      // The first marker byte differs: not an index, one frame.
      pkt = superframe(rng, frames, mag, sizes);
      pkt[pkt.size() - 2 - mag * frames] ^= 1;
      check(parse_superframe_index(pkt.data(), pkt.size(), idx, err) && idx.count == 0,
            "mismatched superframe markers taken as an index");
    }
  }
  const uint8_t plain[3] = {0x82, 0x49, 0x83};
  SuperframeIndex idx;
  std::string err;
  check(parse_superframe_index(plain, 3, idx, err) && idx.count == 0, "plain frame taken as index");
  const uint8_t only_marker[1] = {0xc0};
  check(parse_superframe_index(only_marker, 1, idx, err) && idx.count == 0,
        "a lone marker byte taken as an index");
}

void test_ivf() {
  std::vector<uint8_t> f(32, 0);
  std::memcpy(f.data(), "DKIF", 4);
  f[6] = 32;
  std::memcpy(f.data() + 8, "VP90", 4);
  f[12] = 64;
  f[14] = 48;
  const uint8_t frame_hdr[12] = {5, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0};
  f.insert(f.end(), frame_hdr, frame_hdr + 12);
  for (int i = 0; i < 5; ++i) f.push_back(uint8_t(i));
  IvfReader r;
  IvfHeader h;
  std::string err;
  check(r.open(f.data(), f.size(), h, err) && h.width == 64 && h.height == 48 &&
            std::string(h.fourcc) == "VP90",
        "IVF header: %s", err.c_str());
  const uint8_t *frame;
  size_t size;
  uint64_t pts;
  check(r.next(frame, size, pts, err) == 1 && size == 5 && pts == 7 && frame[4] == 4, "IVF frame");
  check(r.next(frame, size, pts, err) == 0, "IVF end");
  for (size_t cut = 33; cut < f.size(); ++cut) {
    IvfReader t;
    t.open(f.data(), cut, h, err);
    check(t.next(frame, size, pts, err) == -1, "IVF truncated at %zu not reported", cut);
  }
  check(!r.open(f.data(), 20, h, err), "short IVF header accepted");
}

// A compressed header written with the test's encoder: intra frame, tx_mode ALLOW_16X16, the
// first 4x4 coefficient probability updated by a delta coded with decode_term_subexp's first
// form (4-bit literal v: probability moved by inv_map_table[v]), the second skip probability
// updated with the third form. Expected values from the spec's inv_remap_prob worked by hand.
void test_compressed_header() {
  v3dtest::BoolEncoder enc;
  enc.put(0, 128);        // marker
  enc.put_literal(2, 2);  // tx_mode ALLOW_16X16
  enc.put(1, 128);        // update 4x4 coefficient probabilities
  enc.put(1, 252);        // first node: update
  enc.put(0, 128);        // term_subexp: 4-bit form
  enc.put_literal(1, 4);  // v = 1 -> inv_map_table[1] = 20
  for (int i = 1; i < 2 * 2 * (3 + 5 * 6) * 3; ++i) enc.put(0, 252);
  enc.put(0, 128);                                    // no 8x8 updates
  enc.put(0, 128);                                    // no 16x16 updates
  enc.put(0, 252);                                    // skip[0] unchanged
  enc.put(1, 252);                                    // skip[1] updated
  enc.put(1, 128), enc.put(1, 128), enc.put(0, 128);  // third form: 5 bits + 32
  enc.put_literal(3, 5);                              // v = 35 -> inv_map_table[35] = 17
  enc.put(0, 252);                                    // skip[2] unchanged
  const std::vector<uint8_t> data = enc.finish();
  FrameHeader fh;
  fh.frame_is_intra = true;
  FrameContext fc;
  load_default_probs(fc);
  std::string err;
  const bool ok = parse_compressed_header(data.data(), data.size(), fh, fc, err);
  check(ok && fh.tx_mode == ALLOW_16X16, "compressed header: %s, tx_mode %d", err.c_str(),
        fh.tx_mode);
  // Default 195: m = 194, 2m > 255: 255 - inv_recenter_nonneg(20, 60) = 255 - 70 = 185.
  check(fc.coef_probs[kTx4x4][0][0][0][0][0] == 185, "coef prob after delta %d, want 185",
        fc.coef_probs[kTx4x4][0][0][0][0][0]);
  check(fc.coef_probs[kTx4x4][0][0][0][0][1] == 29, "coef prob without update changed");
  // Default 128: m = 127, 2m <= 255: 1 + inv_recenter_nonneg(17, 127) = 1 + 127 - 9 = 119.
  check(fc.skip_prob[1] == 119 && fc.skip_prob[0] == 192, "skip probs %d %d, want 192 119",
        fc.skip_prob[0], fc.skip_prob[1]);
  // Lossless frames have no tx_mode: the same bytes then read the marker's next bit as the
  // update flag, so only check that tx_mode is forced.
  FrameHeader lossless;
  lossless.frame_is_intra = true;
  lossless.quant.lossless = true;
  load_default_probs(fc);
  parse_compressed_header(data.data(), data.size(), lossless, fc, err);
  check(lossless.tx_mode == ONLY_4X4, "lossless tx_mode %d", lossless.tx_mode);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  test_merge_prob();
  test_adapt_modes();
  test_adapt_mv_hp();
  test_adapt_coef();
  test_quant_and_lf();
  test_superframe(seed);
  test_ivf();
  test_compressed_header();
  return v3dtest::finish();
}
