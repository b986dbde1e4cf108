// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's frame loop: tile sizes and boundaries (spec 6.4 decode_tiles), the
// superblock walk and partition tree (spec 6.4.3 decode_partition with its contexts), each
// block's decoding and reconstruction (or, on the frame path, its recording: tile_defer.cpp),
// the loop-filter grid, and the loop filter itself (after every residual is in the frame).
#include <algorithm>
#include <atomic>
#include <cstring>

#include "sched/context.h"
#include "threads/thread_pool.h"
#include "vp9/dec/coef_layout.h"
#include "vp9/dec/quant.h"
#include "vp9/dec/tile_internal.h"
#include "vp9/dec/trees.h"
#include "vp9/lpf/lpf_api.h"

namespace v3d {
namespace vp9 {
namespace {

// Spec get_tile_offset: first 8x8 column (or row) of tile idx of 1 << log2 tiles.
int tile_offset(int idx, int mis, int log2) {
  const int sbs = (mis + 7) >> 3;
  const int off = ((idx * sbs) >> log2) << 3;
  return std::min(off, mis);
}

std::string where(int tile_row, int tile_col) {
  return "tile (" + std::to_string(tile_row) + ", " + std::to_string(tile_col) + ")";
}

std::atomic<CoefLayout> g_coef_layout{CoefLayout::kPerSlot};

// The coefficient layout of each transform slot (TileWorker::coef_cm) for the table in force.
void choose_coef_layout(TileWorker &w) {
  const CoefLayout layout = g_coef_layout.load(std::memory_order_relaxed);
  for (int tx = 0; tx < kNumTxSizes; ++tx)
    for (int type = 0; type < kNumTxTypes; ++type)
      w.coef_cm[tx][type] = valid_tx(tx, type) &&
                            (layout == CoefLayout::kPerSlot ? w.itx->cm_native[tx][type]
                                                            : layout == CoefLayout::kColMajor);
}

}  // namespace

void set_coef_layout_for_testing(CoefLayout layout) {
  g_coef_layout.store(layout, std::memory_order_relaxed);
}

void Tile::decode_block(int mi_row, int mi_col, BlockSize bsize, int bwl, int bhl) {
  const int bw8 = 1 << (bwl - 1), bh8 = 1 << (bhl - 1);
  BlockCtx b;
  b.mi_row = mi_row;
  b.mi_col = mi_col;
  b.bsize = bsize;
  b.bwl = bwl;
  b.bhl = bhl;
  b.x_mis = std::min(bw8, mi_cols - mi_col);
  b.y_mis = std::min(bh8, mi_rows - mi_row);
  ModeInfo *mi = mi_next++;
  *mi = ModeInfo{};
  mi->sb_type = bsize;
  for (int y = 0; y < b.y_mis; ++y)
    for (int x = 0; x < b.x_mis; ++x) grid[size_t(mi_row + y) * mi_cols + mi_col + x] = mi;
  b.mi = mi;
  b.above = mi_row > 0 ? grid[size_t(mi_row - 1) * mi_cols + mi_col] : nullptr;
  b.left = mi_col > tile_col_start ? grid[size_t(mi_row) * mi_cols + mi_col - 1] : nullptr;
  b.to_left = -((mi_col * 8) * 8);
  b.to_right = ((mi_cols - bw8 - mi_col) * 8) * 8;
  b.to_top = -((mi_row * 8) * 8);
  b.to_bottom = ((mi_rows - bh8 - mi_row) * 8) * 8;

  read_mode_info(*this, b);
  if (!block_error.empty()) return;  // reported by decode_tile after the superblock row

  if (mi->skip) {
    // Skipped blocks clear the non-zero flags over their whole extent.
    for (int p = 0; p < 3; ++p) {
      const int ss = p > 0;
      const int n4w = (bw8 * 2) >> ss, n4h = (bh8 * 2) >> ss;
      std::memset(&above_nz[p][(mi_col * 2) >> ss], 0, n4w);
      std::memset(&left_nz[p][((mi_row * 2) >> ss) & 15], 0, n4h);
    }
  }
  ++stats.blocks;
  if (bsize < kBlock8x8) ++stats.sub8x8_blocks;
  if (!mi->is_inter()) {
    ++stats.intra_blocks;
    if (defer.on)
      record_intra(*this, b);
    else
      reconstruct_intra(*this, b);
  } else {
    ++stats.inter_blocks;
    if (mi->has_second_ref()) ++stats.compound_blocks;
    for (int k = 0; k < 1 + mi->has_second_ref(); ++k) {
      if (!scale[mi->ref_frame[k] - LAST_FRAME].valid && block_error.empty())
        block_error = "block at 8x8 (" + std::to_string(mi_row) + ", " + std::to_string(mi_col) +
                      ") predicts from reference " + std::to_string(mi->ref_frame[k]) +
                      ", whose size is invalid for this frame";
    }
    if (!block_error.empty()) return;
    predict_inter(*this, b);
    if (!mi->skip) {
      const int eobs = reconstruct_inter_residual(*this, b);
      if (bsize >= kBlock8x8 && eobs == 0) mi->skip = 1;
    }
  }
  if (mi->skip) ++stats.skip_blocks;

  // Loop filter grid (libvpx get_filter_level: level by segment, reference and mode class).
  const int mode_class = mi->is_inter() && mi->mode != ZEROMV;
  V3dVp9LfInfo info;
  info.filter_level = lf_level[mi->segment_id][std::max<int>(mi->ref_frame[0], 0)][mode_class];
  info.block_size = bsize;
  info.tx_size = mi->tx_size;
  info.skip_inter = mi->skip && mi->is_inter();
  for (int y = 0; y < b.y_mis; ++y)
    for (int x = 0; x < b.x_mis; ++x) lf_grid[size_t(mi_row + y) * mi_cols + mi_col + x] = info;
}

void Tile::decode_partition(int mi_row, int mi_col, BlockSize bsize) {
  if (mi_row >= mi_rows || mi_col >= mi_cols || !block_error.empty()) return;
  const int n8 = kNum8x8W[bsize];
  const int hbs = n8 >> 1;
  const int bsl = kBwl[bsize] - 1;  // 0 for 8x8 .. 3 for 64x64
  const bool has_rows = (mi_row + hbs) < mi_rows;
  const bool has_cols = (mi_col + hbs) < mi_cols;
  const int above = (above_part[mi_col] >> bsl) & 1;
  const int left = (left_part[mi_row & 7] >> bsl) & 1;
  const int ctx = left * 2 + above + bsl * 4;
  // Intra frames use the fixed key-frame partition probabilities (libvpx vp9_kf_partition_probs).
  const uint8_t *p = hdr->frame_is_intra ? kKfPartitionProbs[ctx] : fc->partition_probs[ctx];
  int part;
  if (has_rows && has_cols)
    part = r.read_tree(kPartitionTree, p);
  else if (!has_rows && has_cols)
    part = r.read_bool(p[1]) ? PARTITION_SPLIT : PARTITION_HORZ;
  else if (has_rows && !has_cols)
    part = r.read_bool(p[2]) ? PARTITION_SPLIT : PARTITION_VERT;
  else
    part = PARTITION_SPLIT;
  if (counts) ++counts->partition[ctx][part];

  const BlockSize sub = subsize_of(bsize, part);
  const int n4l = kBwl[bsize];  // log2 of the block's size in 4x4 units
  if (hbs == 0) {
    decode_block(mi_row, mi_col, sub, 1, 1);
  } else {
    switch (part) {
      case PARTITION_NONE: decode_block(mi_row, mi_col, sub, n4l, n4l); break;
      case PARTITION_HORZ:
        decode_block(mi_row, mi_col, sub, n4l, n4l - 1);
        if (has_rows) decode_block(mi_row + hbs, mi_col, sub, n4l, n4l - 1);
        break;
      case PARTITION_VERT:
        decode_block(mi_row, mi_col, sub, n4l - 1, n4l);
        if (has_cols) decode_block(mi_row, mi_col + hbs, sub, n4l - 1, n4l);
        break;
      default:
        decode_partition(mi_row, mi_col, sub);
        decode_partition(mi_row, mi_col + hbs, sub);
        decode_partition(mi_row + hbs, mi_col, sub);
        decode_partition(mi_row + hbs, mi_col + hbs, sub);
    }
  }
  if (bsize == kBlock8x8 || part != PARTITION_SPLIT) {
    // Partition context: bit k set where the block is narrower / shorter than 8 << k pixels.
    std::memset(&above_part[mi_col], (15 << kBwl[sub]) & 15, n8);
    std::memset(&left_part[mi_row & 7], (15 << kBhl[sub]) & 15, n8);
  }
}

bool Tile::begin_tile(int tile_row, int tile_col, const uint8_t *data, size_t size,
                      std::string *err) {
  tile_col_start = tile_offset(tile_col, mi_cols, hdr->tile_cols_log2);
  tile_col_end = tile_offset(tile_col + 1, mi_cols, hdr->tile_cols_log2);
  // This column's share of mi_pool: its blocks cover disjoint cells of its columns, at least one
  // each, so mi_rows * width slots hold them; consecutive blocks get consecutive slots.
  if (tile_row == 0) mi_next = mi_pool + size_t(mi_rows) * tile_col_start;
  if (!r.init(data, size)) {
    if (err) *err = where(tile_row, tile_col) + ": empty tile or invalid marker bit";
    return false;
  }
  ++stats.tiles;
  return true;
}

bool Tile::decode_sb_row(int tile_row, int tile_col, int mi_row, std::string *err) {
  std::memset(left_nz, 0, sizeof(left_nz));
  std::memset(left_part, 0, sizeof(left_part));
  for (int mi_col = tile_col_start; mi_col < tile_col_end; mi_col += 8)
    decode_partition(mi_row, mi_col, kBlock64x64);
  if (!block_error.empty()) {
    if (err) *err = where(tile_row, tile_col) + ": " + block_error;
    return false;
  }
  if (r.has_error()) {
    if (err)
      *err = where(tile_row, tile_col) + ": tile data ends before superblock row " +
             std::to_string(mi_row / 8);
    return false;
  }
  return true;
}

TileDecoder::TileDecoder() : impl_(new Impl) {}
TileDecoder::~TileDecoder() = default;
const uint8_t *TileDecoder::data_end() const {
  // The last tile (last row, last column) was decoded by the last column's worker.
  const Impl &d = *impl_;
  return d.last_worker < d.workers.size() ? d.workers[d.last_worker]->r.find_end() : nullptr;
}
const TileStats &TileDecoder::stats() const { return impl_->stats; }
TileStats &TileDecoder::stats() { return impl_->stats; }

namespace {

// Frame-level state every worker reads: the header's derived values and the decoder's arrays.
void setup_worker(TileWorker &w, TileDecoder::Impl &d, const TileFrameInput &in) {
  const FrameHeader &h = *in.hdr;
  w.in = in;
  w.hdr = in.hdr;
  w.fc = in.probs;
  w.mi_rows = h.mi_rows;
  w.mi_cols = h.mi_cols;
  w.aligned_w = h.mi_cols * 8;
  w.aligned_h = h.mi_rows * 8;
  w.lossless = h.quant.lossless;
  w.block_error.clear();
  w.mi_pool = d.mi_pool.data();
  w.grid = d.grid.data();
  for (int p = 0; p < 3; ++p) w.above_nz[p] = d.above_nz[p].data();
  w.above_part = d.above_part.data();
  w.lf_grid = d.lf_grid.data();
  w.itx = &itx_dsp();
  choose_coef_layout(w);
  w.ipred = &ipred_dsp();
  w.mc = &mc_dsp();
  w.stats = TileStats{};
  w.counts = nullptr;
  if (in.counts) {
    std::memset(&w.own_counts, 0, sizeof(w.own_counts));
    w.counts = &w.own_counts;
  }
  for (int seg = 0; seg < kMaxSegments; ++seg) {
    const SegmentDequant q = segment_dequant(h, seg);
    w.dequant[seg][0][0] = q.y_dc;
    w.dequant[seg][0][1] = q.y_ac;
    w.dequant[seg][1][0] = q.uv_dc;
    w.dequant[seg][1][1] = q.uv_ac;
  }
  LoopFilterLevels levels;
  loop_filter_levels(h, levels);
  std::memcpy(w.lf_level, levels.level, sizeof(w.lf_level));
  for (int i = 0; i < 3; ++i) {
    w.scale[i] = RefScale{};
    if (h.frame_is_intra) continue;
    // A reference of unusable size is an error only when a block predicts from it (libvpx).
    setup_scale(&w.scale[i], in.refs[i].width, in.refs[i].height, h.frame_width, h.frame_height);
    if (!in.refs[i].planes[0]) w.scale[i].valid = false;
  }
}

void add_stats(TileStats &d, const TileStats &s) {
  static_assert(sizeof(TileStats) % sizeof(uint64_t) == 0, "TileStats is all uint64_t");
  auto *dp = reinterpret_cast<uint64_t *>(&d);
  const auto *sp = reinterpret_cast<const uint64_t *>(&s);
  for (size_t i = 0; i < sizeof(TileStats) / sizeof(uint64_t); ++i) dp[i] += sp[i];
}

}  // namespace

bool TileDecoder::decode_frame(const TileFrameInput &in, std::string *error) {
  Impl &d = *impl_;
  const FrameHeader &h = *in.hdr;
  const size_t cells = size_t(h.mi_rows) * h.mi_cols;
  // Every block clears its ModeInfo and writes its cells of grid and lf_grid before anything
  // reads them (neighbours come from blocks decoded earlier in the frame), so the arrays are only
  // cleared when the frame size changes: a stale grid entry then still points into mi_pool.
  if (d.mi_pool.size() != cells) {
    d.mi_pool.assign(cells, ModeInfo{});
    d.grid.assign(cells, nullptr);
    d.lf_grid.assign(cells, V3dVp9LfInfo{});
  }
  const int sb_cols = (h.mi_cols + 7) >> 3;
  for (int p = 0; p < 3; ++p) d.above_nz[p].assign(size_t(sb_cols) * (p ? 8 : 16), 0);
  d.above_part.assign(size_t(sb_cols) * 8, 0);
  ++d.stats.frames;
  if (h.frame_type == KEY_FRAME) ++d.stats.key_frames;
  if (h.intra_only) ++d.stats.intra_only_frames;
  TileStats &st = d.stats;
  st.error_res_frames += h.error_resilient_mode;
  st.frame_parallel_frames += h.frame_parallel_decoding_mode;
  st.lossless_frames += h.quant.lossless;
  st.seg_frames += h.seg.enabled;
  st.compound_frames += !h.frame_is_intra && h.reference_mode != SINGLE_REFERENCE;
  st.switchable_frames += !h.frame_is_intra && h.is_filter_switchable;
  st.tx_select_frames += h.tx_mode == TX_MODE_SELECT;
  st.hp_mv_frames += !h.frame_is_intra && h.allow_high_precision_mv;
  st.sharpness_frames += h.lf.sharpness_level > 0;
  st.lf_delta_frames += h.lf.delta_enabled;
  st.tile_row_frames += h.tile_rows_log2 > 0;

  // Tile sizes (spec 6.4: every tile but the last starts with its size, 4 bytes big-endian).
  const int tile_cols = 1 << h.tile_cols_log2, tile_rows = 1 << h.tile_rows_log2;
  std::vector<TileData> tiles(size_t(tile_cols) * tile_rows);
  const uint8_t *p = in.data;
  const uint8_t *end = in.data + in.size;
  for (int tr = 0; tr < tile_rows; ++tr) {
    for (int tc = 0; tc < tile_cols; ++tc) {
      size_t size;
      if (tr == tile_rows - 1 && tc == tile_cols - 1) {
        size = size_t(end - p);
      } else {
        if (end - p < 4) {
          if (error) *error = where(tr, tc) + ": truncated tile size";
          return false;
        }
        size = (size_t(p[0]) << 24) | (size_t(p[1]) << 16) | (size_t(p[2]) << 8) | p[3];
        p += 4;
        if (size > size_t(end - p)) {
          if (error) *error = where(tr, tc) + ": tile size exceeds the frame's data";
          return false;
        }
      }
      tiles[size_t(tr) * tile_cols + tc] = TileData{p, size};
      p += size;
    }
  }

  while (d.workers.size() < size_t(tile_cols)) d.workers.emplace_back(new TileWorker);
  d.last_worker = size_t(tile_cols - 1);
  const bool frame_path = frame_path_wanted(in.lf_context, in.residuals, h);
  for (int tc = 0; tc < tile_cols; ++tc) {
    setup_worker(*d.workers[tc], d, in);
    d.workers[tc]->defer.clear();
    d.workers[tc]->defer.on = frame_path;
  }

  // The CPU backend filters in the loop, behind the decoding; the others filter the whole frame
  // afterwards (the GPU's share needs the whole frame).
  ThreadPool *pool = in.lf_context ? in.lf_context->pool.get() : nullptr;
  // The frame path writes pixels anywhere in the frame until run_frame_path returns (inter
  // residuals, then intra blocks), so the loop filter waits for it: in-loop filtering is for the
  // per-block path only.
  const bool in_loop_filter = h.lf.filter_level > 0 && in.lf_context &&
                              in.lf_context->backend == Backend::kSimd && !frame_path;
  if (!decode_tiles(d, in, tiles, pool, in_loop_filter, error)) return false;
  // The frame path's transform pass and intra blocks (they add to the workers' counters).
  if (frame_path && !run_frame_path(d, in, tile_cols, error)) return false;
  for (int tc = 0; tc < tile_cols; ++tc) {
    add_stats(d.stats, d.workers[tc]->stats);
    if (in.counts) add_counts(*in.counts, d.workers[tc]->own_counts);
  }

  if (h.lf.filter_level > 0) ++d.stats.lf_frames;
  if (h.lf.filter_level > 0 && !in_loop_filter) {
    // The grid is a partition of valid entries by construction (decode_block fills every cell
    // of each block with its entry; levels clamped to 0..63, transform sizes the block allows):
    // the trusted entry point skips the public call's per-entry checks.
    const int rc = lpf_filter_frame_trusted(in.lf_context, in.cur.planes, in.cur.strides,
                                            h.frame_width, h.frame_height, d.lf_grid.data(),
                                            h.mi_cols, h.lf.sharpness_level);
    if (rc != 0) {
      if (error) *error = std::string("loop filter failed: ") + v3d_last_error();
      return false;
    }
  }
  return true;
}

}  // namespace vp9
}  // namespace v3d
