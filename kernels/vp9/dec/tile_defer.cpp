// SPDX-License-Identifier: LGPL-2.1-or-later
// An inter frame's residuals through the transform family's frame path (v3d_vp9_itx_frame), so
// that the scheduler splits them between the CPU workers and the GPU as the context's backend
// says. The tile decoder then runs a frame in passes:
//   1. tile decode (tile columns in parallel): every symbol; inter blocks are predicted and their
//      transform blocks appended to the worker's list (TileDefer) instead of being added;
//      intra blocks only have their tokens recorded (their edges may be inter pixels whose
//      residual is not there yet);
//   2. the whole frame's inter transform blocks in one v3d_vp9_itx_frame call;
//   3. each tile column's recorded intra blocks, predicted and reconstructed in decode order
//      (tile columns in parallel: an intra block reads pixels of its own tile column only, since
//      libvpx and the spec take the left edge as missing at a tile column's first 8x8 column, and
//      the above row, above-right included, never reaches past the block's own columns);
//   4. the loop filter (tile_decoder.cpp).
// Key frames and intra-only frames keep adding each block's residual as it is decoded: there
// every block predicts from the reconstruction of the ones before.
#include <cstdint>
#include <cstring>
#include <string>

#include "sched/context.h"
#include "sched/frame_sched.h"
#include "threads/thread_pool.h"
#include "v3d/vp9_itx.h"
#include "vp9/dec/tile_internal.h"

namespace v3d {
namespace vp9 {

int read_coefs_into(Tile &t, std::vector<int16_t> &dst, const BlockCtx &b, int plane, int x4,
                    int y4, int tx_size, int tx_type, int max_x4, int max_y4, bool col_major,
                    uint32_t *offset) {
  const size_t n = size_t{16} << (2 * tx_size);
  const size_t off = dst.size();
  dst.resize(off + n);  // zeroed: read_coefs writes the non-zero coefficients only
  t.coef_out = dst.data() + off;
  const int eob = read_coefs(t, b, plane, x4, y4, tx_size, tx_type, max_x4, max_y4, col_major);
  t.coef_out = t.coeffs;
  if (eob == 0) dst.resize(off);
  *offset = static_cast<uint32_t>(off);
  return eob;
}

bool frame_path_wanted(V3dContext *ctx, int residuals, const FrameHeader &h) {
  if (h.frame_is_intra || residuals == V3D_VP9_RESIDUALS_PER_BLOCK) return false;
  // V3dVp9TxBlock's 32-bit coeff_offset bounds a frame's coefficients (4:2:0: 1.5 per pixel).
  const uint64_t most = uint64_t(h.mi_cols) * 8 * h.mi_rows * 8 * 3 / 2;
  if (most > UINT32_MAX) return false;
  if (residuals == V3D_VP9_RESIDUALS_FRAME) return true;
  return ctx && family_gpu_usable(ctx, V3D_KERNEL_VP9_ITX, nullptr, "");
}

namespace {

// The workers' lists as one frame's: a single tile column's are used as they are; several are
// concatenated (coefficient offsets moved) into the decoder's arrays, each worker's part copied
// by a task of the pool.
void gather(TileDecoder::Impl &d, int tile_cols, ThreadPool *pool, const V3dVp9TxBlock **blocks,
            size_t *n_blocks, const int16_t **coeffs, size_t *n_coeffs) {
  if (tile_cols == 1) {
    const TileDefer &w = d.workers[0]->defer;
    *blocks = w.blocks.data();
    *n_blocks = w.blocks.size();
    *coeffs = w.coeffs.data();
    *n_coeffs = w.coeffs.size();
    return;
  }
  std::vector<size_t> &first_block = d.defer_first_block, &first_coeff = d.defer_first_coeff;
  first_block.assign(size_t(tile_cols) + 1, 0);
  first_coeff.assign(size_t(tile_cols) + 1, 0);
  for (int tc = 0; tc < tile_cols; ++tc) {
    const TileDefer &w = d.workers[tc]->defer;
    first_block[tc + 1] = first_block[tc] + w.blocks.size();
    first_coeff[tc + 1] = first_coeff[tc] + w.coeffs.size();
  }
  d.defer_blocks.resize(first_block[tile_cols]);
  d.defer_coeffs.resize(first_coeff[tile_cols]);
  auto copy = [&](int tc, int) {
    const TileDefer &w = d.workers[tc]->defer;
    const uint32_t shift = static_cast<uint32_t>(first_coeff[tc]);
    V3dVp9TxBlock *out = d.defer_blocks.data() + first_block[tc];
    for (size_t i = 0; i < w.blocks.size(); ++i) {
      out[i] = w.blocks[i];
      out[i].coeff_offset += shift;
    }
    if (!w.coeffs.empty())
      std::memcpy(d.defer_coeffs.data() + first_coeff[tc], w.coeffs.data(),
                  w.coeffs.size() * sizeof(int16_t));
  };
  if (pool && pool->size() > 1)
    pool->run(tile_cols, copy);
  else
    for (int tc = 0; tc < tile_cols; ++tc) copy(tc, 0);
  *blocks = d.defer_blocks.data();
  *n_blocks = d.defer_blocks.size();
  *coeffs = d.defer_coeffs.data();
  *n_coeffs = d.defer_coeffs.size();
}

}  // namespace

bool run_frame_path(TileDecoder::Impl &d, const TileFrameInput &in, int tile_cols,
                    std::string *error) {
  const FrameHeader &h = *in.hdr;
  V3dContext *ctx = in.lf_context;
  ThreadPool *pool = ctx ? ctx->pool.get() : nullptr;
  const V3dVp9TxBlock *blocks;
  const int16_t *coeffs;
  size_t n_blocks, n_coeffs;
  gather(d, tile_cols, pool, &blocks, &n_blocks, &coeffs, &n_coeffs);

  // Pass 2: the inter residuals, on the context's backend. Both branches keep the hint entries
  // (eob a hint, the zeros checked) although this list keeps the exact-eob promise: the public
  // v3d_vp9_itx_frame takes V3dVp9TxBlock.eob as a hint by contract and has no way to be told
  // more, and the loop without a context is never run by the public decoder (which requires a
  // context), so no test would show a broken promise there.
  ++d.stats.frame_path_frames;
  d.stats.frame_path_tx += n_blocks;
  if (n_blocks > 0) {
    if (ctx) {
      V3dKernelStats before{}, after{};
      v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_ITX, &before);
      const int rc = v3d_vp9_itx_frame(ctx, in.cur.planes, in.cur.strides, h.frame_width,
                                       h.frame_height, blocks, n_blocks, coeffs, n_coeffs);
      if (rc != 0) {
        // The decoder built the list itself: a refusal is a bug here, not a stream's fault.
        if (error) *error = std::string("residual transform pass failed: ") + v3d_last_error();
        return false;
      }
      // The context's count (calls on one context run one at a time, so the difference is this
      // call's unless another user of the context ran transforms meanwhile).
      v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_ITX, &after);
      d.stats.frame_path_gpu_tx += after.units_gpu - before.units_gpu;
    } else {
      // No context: the worker's DSP table on this thread (blocks stay inside the decoded
      // area, which the current frame's planes hold whole).
      const ItxDsp &itx = *d.workers[0]->itx;
      for (size_t i = 0; i < n_blocks; ++i) {
        const V3dVp9TxBlock &b = blocks[i];
        itx.add[b.tx_size][b.tx_type](
            in.cur.planes[b.plane] + ptrdiff_t(b.y) * in.cur.strides[b.plane] + b.x,
            in.cur.strides[b.plane], coeffs + b.coeff_offset, int(b.eob));
      }
    }
  }

  // Pass 3: each tile column's intra blocks, in decode order.
  size_t n_intra = 0;
  for (int tc = 0; tc < tile_cols; ++tc) n_intra += d.workers[tc]->defer.intra.size();
  d.stats.deferred_intra_blocks += n_intra;
  if (n_intra == 0) return true;
  auto replay = [&](int tc, int) {
    Tile &w = *d.workers[tc];
    for (const DeferredIntra &rec : w.defer.intra) replay_intra(w, rec);
  };
  if (pool && tile_cols > 1 && pool->size() > 1)
    pool->run(tile_cols, replay);
  else
    for (int tc = 0; tc < tile_cols; ++tc) replay(tc, 0);
  return true;
}

}  // namespace vp9
}  // namespace v3d
