// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 tile decoding and frame reconstruction: the entry point the frame driver (decoder.cpp)
// calls once per frame after parsing the uncompressed and compressed headers. It decodes every
// tile of the frame (partitions, mode info, motion vectors, coefficient tokens), reconstructs
// the frame (intra prediction, inter prediction, inverse transforms; an inter frame's residuals
// either block by block or through the transform family's frame path, tile_defer.cpp) and
// applies the loop filter. The tile columns of a tile row run on lf_context's CPU threads (tiles
// are independent until the loop filter). Not thread-safe per TileDecoder; separate TileDecoders are independent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "v3d/vp9_decoder.h"

namespace v3d {
namespace vp9 {

struct FrameHeader;
struct FrameContext;
struct Counts;

// An 8-bit 4:2:0 picture. planes[0] luma, [1] U, [2] V. width/height: the frame's luma size.
// The current frame's planes must hold the frame rounded up to whole 8x8 luma blocks (luma
// 8*ceil(w/8) x 8*ceil(h/8), chroma half of that, rounded up): reconstruction writes there.
// References are only read, and only inside width x height (chroma (w+1)/2 x (h+1)/2): samples
// outside are taken as the nearest edge sample, as libvpx's border extension makes them.
struct PictureView {
  uint8_t *planes[3] = {nullptr, nullptr, nullptr};
  ptrdiff_t strides[3] = {0, 0, 0};
  int width = 0, height = 0;
};

// Motion information kept per 8x8 block for the next frame's motion vector prediction
// (libvpx's MV_REF). mv in 1/8 pel; ref_frame -1 none, 0 intra, 1..3 last/golden/altref.
struct MvRef {
  int16_t mv[2][2];  // [which][0 = row, 1 = col]
  int8_t ref_frame[2];
};

// Feature counters: which parts of the decoder a stream reaches (accumulated over frames).
struct TileStats {
  uint64_t frames = 0, intra_only_frames = 0, key_frames = 0, show_existing = 0;
  uint64_t blocks = 0, intra_blocks = 0, inter_blocks = 0, compound_blocks = 0,
           scaled_blocks = 0, sub8x8_blocks = 0, skip_blocks = 0, emu_edge_blocks = 0;
  uint64_t tx[4][5] = {};          // transforms with eob > 0, [tx_size][tx_type] (4 = WHT)
  uint64_t intra_modes[10] = {};   // luma intra predictions, per mode
  uint64_t inter_modes[4] = {};    // NEARESTMV, NEARMV, ZEROMV, NEWMV (per block or sub-block)
  uint64_t filters[4] = {};        // inter blocks per interpolation filter
  uint64_t seg_pred_blocks = 0;    // segment ids taken from the temporal prediction
  uint64_t seg_skip_blocks = 0;    // skip implied by the segment's skip feature
  uint64_t seg_ref_blocks = 0;     // reference (or intra) fixed by the segment's feature
  uint64_t lf_frames = 0, tiles = 0;
  // The frame-level residual path (tile_defer.cpp): inter frames that took it, their transform
  // blocks given to v3d_vp9_itx_frame, how many of those the GPU ran (the transform family's
  // count), and the intra blocks reconstructed after that pass.
  uint64_t frame_path_frames = 0, frame_path_tx = 0, frame_path_gpu_tx = 0,
           deferred_intra_blocks = 0;
  // Frames by header feature.
  uint64_t error_res_frames = 0, frame_parallel_frames = 0, lossless_frames = 0, seg_frames = 0,
           compound_frames = 0, switchable_frames = 0, tx_select_frames = 0, hp_mv_frames = 0,
           sharpness_frames = 0, lf_delta_frames = 0, tile_row_frames = 0;
};

// Everything one frame's tile decoding needs. The frame driver owns all buffers.
struct TileFrameInput {
  const FrameHeader *hdr = nullptr;   // parsed uncompressed + compressed header
  const FrameContext *probs = nullptr; // the frame's probabilities (after the compressed header)
  Counts *counts = nullptr;           // symbol counts to fill for backward adaptation (zeroed
                                      // by the caller); may be null when not adapting
  const uint8_t *data = nullptr;      // the tile data: from after the compressed header to the
  size_t size = 0;                    // end of the frame
  PictureView cur;                    // the frame being decoded
  // References for LAST, GOLDEN, ALTREF (hdr's ref_frame_idx slots); unused on intra frames.
  PictureView refs[3];
  // The previous frame's motion (mi_rows x mi_cols, row-major) when libvpx's use_prev_frame_mvs
  // holds (same size, not error resilient, previous frame shown, not intra-only, not a key
  // frame); nullptr otherwise.
  const MvRef *prev_mvs = nullptr;
  MvRef *cur_mvs = nullptr;           // written for inter frames (mi_rows x mi_cols)
  // Segmentation maps, mi_rows x mi_cols: the previous one (nullptr = all zeros) and the one this
  // frame writes (when segmentation is enabled).
  const uint8_t *prev_seg_map = nullptr;
  uint8_t *cur_seg_map = nullptr;
  // Context for v3d_vp9_loop_filter_frame and v3d_vp9_itx_frame, whose thread pool also runs
  // the tile columns.
  V3dContext *lf_context = nullptr;
  // Where inter frames' residuals are added: V3D_VP9_RESIDUALS_* (v3d/vp9_decoder.h).
  int residuals = 0;
};

// The counters as the public struct (all of it: size is sizeof(V3dVp9DecoderCounters)), and
// that struct as v3d_vp9_decoder_stats()'s '#' comment lines (the text's one source).
void tile_stats_to_counters(const TileStats &s, V3dVp9DecoderCounters *c);
std::string format_counters(const V3dVp9DecoderCounters &c);

class TileDecoder {
 public:
  TileDecoder();
  ~TileDecoder();
  TileDecoder(const TileDecoder &) = delete;
  TileDecoder &operator=(const TileDecoder &) = delete;

  // Decodes and reconstructs the frame into in.cur, including the loop filter (when the frame's
  // filter level is non-zero). Returns true, or false with *error naming the tile and block
  // (truncated tile data, invalid tile sizes, invalid reference scaling). Blocks until done.
  bool decode_frame(const TileFrameInput &in, std::string *error);

  // Where the last tile's data ends as far as its bool decoder read it (libvpx's
  // vpx_reader_find_end), after decode_frame() succeeded: libvpx looks for another frame from
  // there in packets without a superframe index.
  const uint8_t *data_end() const;

  const TileStats &stats() const;
  TileStats &stats();

  struct Impl;  // tile_internal.h

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace vp9
}  // namespace v3d
