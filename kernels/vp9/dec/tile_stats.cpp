// SPDX-License-Identifier: LGPL-2.1-or-later
// Text form of the tile decoder's feature counters ('#' comment lines of v3d-vp9dec).
#include <cstdio>

#include "vp9/dec/tile_decoder.h"

namespace v3d {
namespace vp9 {

std::string format_tile_stats(const TileStats &s) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line,
                "# frames %llu key %llu intra-only %llu show-existing %llu loop-filtered %llu "
                "tiles %llu\n",
                (unsigned long long)s.frames, (unsigned long long)s.key_frames,
                (unsigned long long)s.intra_only_frames, (unsigned long long)s.show_existing,
                (unsigned long long)s.lf_frames, (unsigned long long)s.tiles);
  out += line;
  std::snprintf(line, sizeof line,
                "# frame-features error-resilient %llu frame-parallel %llu lossless %llu "
                "segmentation %llu compound %llu switchable-filter %llu tx-select %llu "
                "high-precision-mv %llu sharpness %llu lf-deltas %llu tile-rows %llu\n",
                (unsigned long long)s.error_res_frames, (unsigned long long)s.frame_parallel_frames,
                (unsigned long long)s.lossless_frames, (unsigned long long)s.seg_frames,
                (unsigned long long)s.compound_frames, (unsigned long long)s.switchable_frames,
                (unsigned long long)s.tx_select_frames, (unsigned long long)s.hp_mv_frames,
                (unsigned long long)s.sharpness_frames, (unsigned long long)s.lf_delta_frames,
                (unsigned long long)s.tile_row_frames);
  out += line;
  std::snprintf(line, sizeof line,
                "# blocks %llu intra %llu inter %llu compound %llu sub8x8 %llu skip %llu "
                "scaled-preds %llu edge-emulated-preds %llu seg-predicted %llu seg-skip %llu "
                "seg-ref %llu\n",
                (unsigned long long)s.blocks, (unsigned long long)s.intra_blocks,
                (unsigned long long)s.inter_blocks, (unsigned long long)s.compound_blocks,
                (unsigned long long)s.sub8x8_blocks, (unsigned long long)s.skip_blocks,
                (unsigned long long)s.scaled_blocks, (unsigned long long)s.emu_edge_blocks,
                (unsigned long long)s.seg_pred_blocks, (unsigned long long)s.seg_skip_blocks,
                (unsigned long long)s.seg_ref_blocks);
  out += line;
  std::snprintf(line, sizeof line,
                "# frame-path frames %llu tx %llu gpu-tx %llu deferred-intra %llu\n",
                (unsigned long long)s.frame_path_frames, (unsigned long long)s.frame_path_tx,
                (unsigned long long)s.frame_path_gpu_tx,
                (unsigned long long)s.deferred_intra_blocks);
  out += line;
  static const char *const kTx[4] = {"4x4", "8x8", "16x16", "32x32"};
  static const char *const kType[5] = {"dct_dct", "adst_dct", "dct_adst", "adst_adst", "wht"};
  out += "# tx";
  for (int t = 0; t < 4; ++t)
    for (int y = 0; y < 5; ++y)
      if (s.tx[t][y]) {
        std::snprintf(line, sizeof line, " %s_%s=%llu", kTx[t], kType[y], (unsigned long long)s.tx[t][y]);
        out += line;
      }
  static const char *const kIntra[10] = {"dc", "v", "h", "d45", "d135", "d117", "d153", "d207", "d63", "tm"};
  out += "\n# intra-modes";
  for (int m = 0; m < 10; ++m) {
    std::snprintf(line, sizeof line, " %s=%llu", kIntra[m], (unsigned long long)s.intra_modes[m]);
    out += line;
  }
  std::snprintf(line, sizeof line,
                "\n# inter-modes nearest=%llu near=%llu zero=%llu new=%llu\n"
                "# filters regular=%llu smooth=%llu sharp=%llu bilinear=%llu\n",
                (unsigned long long)s.inter_modes[0], (unsigned long long)s.inter_modes[1],
                (unsigned long long)s.inter_modes[2], (unsigned long long)s.inter_modes[3],
                (unsigned long long)s.filters[0], (unsigned long long)s.filters[1],
                (unsigned long long)s.filters[2], (unsigned long long)s.filters[3]);
  out += line;
  return out;
}

}  // namespace vp9
}  // namespace v3d
