// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's feature counters as the public V3dVp9DecoderCounters, and that struct as the
// '#' comment lines of v3d_vp9_decoder_stats() (v3d-vp9dec --framemd5 prints them).
#include <cstddef>
#include <cstdio>

#include "vp9/dec/tile_decoder.h"

namespace v3d {
namespace vp9 {
namespace {

// Names in the text, in the order of V3dVp9DecoderCounters' arrays.
constexpr const char *kCounterTxSizeNames[4] = {"4x4", "8x8", "16x16", "32x32"};
constexpr const char *kCounterTxTypeNames[5] = {"dct_dct", "adst_dct", "dct_adst", "adst_adst",
                                                "wht"};
constexpr const char *kCounterIntraModeNames[10] = {"dc",   "v",    "h",    "d45", "d135",
                                                    "d117", "d153", "d207", "d63", "tm"};
constexpr const char *kCounterInterModeNames[4] = {"nearest", "near", "zero", "new"};
constexpr const char *kCounterFilterNames[4] = {"regular", "smooth", "sharp", "bilinear"};

// get_counters copies whole uint64_t fields after the 8-byte header.
static_assert(offsetof(V3dVp9DecoderCounters, frames) == 8, "counters header is 8 bytes");
static_assert(sizeof(V3dVp9DecoderCounters) % sizeof(uint64_t) == 0, "counters are uint64_t");

}  // namespace

void tile_stats_to_counters(const TileStats &s, V3dVp9DecoderCounters *c) {
  *c = V3dVp9DecoderCounters{};
  c->size = sizeof(V3dVp9DecoderCounters);
  c->frames = s.frames;
  c->key_frames = s.key_frames;
  c->intra_only_frames = s.intra_only_frames;
  c->show_existing_frames = s.show_existing;
  c->loop_filtered_frames = s.lf_frames;
  c->tiles = s.tiles;
  c->error_resilient_frames = s.error_res_frames;
  c->frame_parallel_frames = s.frame_parallel_frames;
  c->lossless_frames = s.lossless_frames;
  c->segmentation_frames = s.seg_frames;
  c->compound_frames = s.compound_frames;
  c->switchable_filter_frames = s.switchable_frames;
  c->tx_select_frames = s.tx_select_frames;
  c->high_precision_mv_frames = s.hp_mv_frames;
  c->sharpness_frames = s.sharpness_frames;
  c->lf_delta_frames = s.lf_delta_frames;
  c->tile_row_frames = s.tile_row_frames;
  c->blocks = s.blocks;
  c->intra_blocks = s.intra_blocks;
  c->inter_blocks = s.inter_blocks;
  c->compound_blocks = s.compound_blocks;
  c->sub8x8_blocks = s.sub8x8_blocks;
  c->skip_blocks = s.skip_blocks;
  c->scaled_predictions = s.scaled_blocks;
  c->edge_emulated_predictions = s.emu_edge_blocks;
  c->seg_predicted_blocks = s.seg_pred_blocks;
  c->seg_skip_blocks = s.seg_skip_blocks;
  c->seg_ref_blocks = s.seg_ref_blocks;
  for (int t = 0; t < 4; ++t)
    for (int y = 0; y < 5; ++y) c->transforms[t][y] = s.tx[t][y];
  for (int m = 0; m < 10; ++m) c->intra_modes[m] = s.intra_modes[m];
  for (int m = 0; m < 4; ++m) c->inter_modes[m] = s.inter_modes[m];
  for (int f = 0; f < 4; ++f) c->interp_filters[f] = s.filters[f];
  c->frame_path_frames = s.frame_path_frames;
  c->frame_path_transforms = s.frame_path_tx;
  c->frame_path_gpu_transforms = s.frame_path_gpu_tx;
  c->deferred_intra_blocks = s.deferred_intra_blocks;
}

std::string format_counters(const V3dVp9DecoderCounters &c) {
  using ull = unsigned long long;
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line,
                "# frames %llu key %llu intra-only %llu show-existing %llu loop-filtered %llu "
                "tiles %llu\n",
                ull(c.frames), ull(c.key_frames), ull(c.intra_only_frames),
                ull(c.show_existing_frames), ull(c.loop_filtered_frames), ull(c.tiles));
  out += line;
  std::snprintf(line, sizeof line,
                "# frame-features error-resilient %llu frame-parallel %llu lossless %llu "
                "segmentation %llu compound %llu switchable-filter %llu tx-select %llu "
                "high-precision-mv %llu sharpness %llu lf-deltas %llu tile-rows %llu\n",
                ull(c.error_resilient_frames), ull(c.frame_parallel_frames),
                ull(c.lossless_frames), ull(c.segmentation_frames), ull(c.compound_frames),
                ull(c.switchable_filter_frames), ull(c.tx_select_frames),
                ull(c.high_precision_mv_frames), ull(c.sharpness_frames), ull(c.lf_delta_frames),
                ull(c.tile_row_frames));
  out += line;
  std::snprintf(line, sizeof line,
                "# blocks %llu intra %llu inter %llu compound %llu sub8x8 %llu skip %llu "
                "scaled-preds %llu edge-emulated-preds %llu seg-predicted %llu seg-skip %llu "
                "seg-ref %llu\n",
                ull(c.blocks), ull(c.intra_blocks), ull(c.inter_blocks), ull(c.compound_blocks),
                ull(c.sub8x8_blocks), ull(c.skip_blocks), ull(c.scaled_predictions),
                ull(c.edge_emulated_predictions), ull(c.seg_predicted_blocks),
                ull(c.seg_skip_blocks), ull(c.seg_ref_blocks));
  out += line;
  std::snprintf(line, sizeof line,
                "# frame-path-frames %llu frame-path-tx %llu frame-path-gpu-tx %llu "
                "deferred-intra %llu\n",
                ull(c.frame_path_frames), ull(c.frame_path_transforms),
                ull(c.frame_path_gpu_transforms), ull(c.deferred_intra_blocks));
  out += line;
  out += "# tx";
  for (int t = 0; t < 4; ++t)
    for (int y = 0; y < 5; ++y)
      if (c.transforms[t][y]) {
        std::snprintf(line, sizeof line, " %s_%s=%llu", kCounterTxSizeNames[t],
                      kCounterTxTypeNames[y], ull(c.transforms[t][y]));
        out += line;
      }
  out += "\n# intra-modes";
  for (int m = 0; m < 10; ++m) {
    std::snprintf(line, sizeof line, " %s=%llu", kCounterIntraModeNames[m], ull(c.intra_modes[m]));
    out += line;
  }
  out += "\n# inter-modes";
  for (int m = 0; m < 4; ++m) {
    std::snprintf(line, sizeof line, " %s=%llu", kCounterInterModeNames[m], ull(c.inter_modes[m]));
    out += line;
  }
  out += "\n# filters";
  for (int f = 0; f < 4; ++f) {
    std::snprintf(line, sizeof line, " %s=%llu", kCounterFilterNames[f], ull(c.interp_filters[f]));
    out += line;
  }
  out += "\n";
  return out;
}

}  // namespace vp9
}  // namespace v3d
