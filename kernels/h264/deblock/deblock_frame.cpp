// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking of one picture: validation, setup, the sequential and wavefront orders, and
// the public entry point v3d_h264_deblock_frame.
#include "h264/deblock/deblock_frame.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "sched/context.h"
#include "sched/frame_call.h"
#include "runtime/log.h"
#include "threads/wavefront.h"
#include "h264/deblock/deblock_backend.h"

namespace v3d {
namespace h264 {
namespace {

inline int mb_count(int size) { return (size - 1) / 16 + 1; }  // no overflow near INT_MAX

// Whether any of the 32 bS bytes exceeds 4, eight at a time: (b & 0x7f) + 0x7b has bit 7 set
// exactly when b & 0x7f > 4 (no carry leaves a byte: at most 127 + 123), and b >= 128 has it set.
bool bs_over_4(const V3dH264MbInfo &m) {
  uint64_t any = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t v;
    memcpy(&v, &m.bs[0][0][0] + 8 * i, 8);
    any |= ((v & 0x7f7f7f7f7f7f7f7full) + 0x7b7b7b7b7b7b7b7bull) | v;
  }
  return (any & 0x8080808080808080ull) != 0;
}

bool offset_ok(int v, bool even) { return v >= -12 && v <= 12 && (!even || (v & 1) == 0); }

}  // namespace

int deblock_validate(int width, int height, const V3dH264MbInfo *mbs, int mb_stride,
                     const V3dH264SliceInfo *slices, int n_slices) {
  if (width <= 0 || height <= 0)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "invalid picture size %dx%d", width, height);
  if (!mbs) return set_error(V3D_ERROR_INVALID_ARGUMENT, "mbs is NULL");
  if (!slices) return set_error(V3D_ERROR_INVALID_ARGUMENT, "slices is NULL");
  if (n_slices <= 0) return set_error(V3D_ERROR_INVALID_ARGUMENT, "n_slices %d < 1", n_slices);
  const int mb_rows = mb_count(height), mb_cols = mb_count(width);
  if (mb_stride < mb_cols)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "mb_stride %d below %d macroblocks per row",
                     mb_stride, mb_cols);
  for (int i = 0; i < n_slices; i++) {
    const V3dH264SliceInfo &s = slices[i];
    if (s.disable_deblocking_filter_idc < 0 || s.disable_deblocking_filter_idc > 2)
      return set_error(V3D_ERROR_INVALID_DATA,
                       "slice %d: disable_deblocking_filter_idc %d outside 0..2", i,
                       s.disable_deblocking_filter_idc);
    if (!offset_ok(s.filter_offset_a, true) || !offset_ok(s.filter_offset_b, true))
      return set_error(V3D_ERROR_INVALID_DATA,
                       "slice %d: filter offsets A %d, B %d (each must be even, -12..12)", i,
                       s.filter_offset_a, s.filter_offset_b);
    if (!offset_ok(s.chroma_qp_index_offset, false) ||
        !offset_ok(s.second_chroma_qp_index_offset, false))
      return set_error(V3D_ERROR_INVALID_DATA,
                       "slice %d: chroma_qp_index_offset %d, second_chroma_qp_index_offset %d "
                       "(each must be -12..12)",
                       i, s.chroma_qp_index_offset, s.second_chroma_qp_index_offset);
  }
  for (int r = 0; r < mb_rows; r++) {
    for (int c = 0; c < mb_cols; c++) {
      const V3dH264MbInfo &m = mbs[static_cast<ptrdiff_t>(r) * mb_stride + c];
      if (m.qp > 51)
        return set_error(V3D_ERROR_INVALID_DATA,
                         "macroblock (row %d, col %d; luma x %d, y %d): qp %u > 51", r, c, 16 * c,
                         16 * r, m.qp);
      if (m.slice >= n_slices)
        return set_error(V3D_ERROR_INVALID_DATA,
                         "macroblock (row %d, col %d; luma x %d, y %d): slice %u >= n_slices %d",
                         r, c, 16 * c, 16 * r, m.slice, n_slices);
      if (bs_over_4(m)) {
        for (int d = 0; d < 2; d++)
          for (int e = 0; e < 4; e++)
            for (int s = 0; s < 4; s++)
              if (m.bs[d][e][s] > 4)
                return set_error(V3D_ERROR_INVALID_DATA,
                                 "macroblock (row %d, col %d; luma x %d, y %d): bS %u > 4 "
                                 "(bs[%d][%d][%d])",
                                 r, c, 16 * c, 16 * r, m.bs[d][e][s], d, e, s);
      }
    }
  }
  return V3D_OK;
}

void deblock_picture_setup(uint8_t *const planes[3], const ptrdiff_t strides[3], int width,
                           int height, const V3dH264MbInfo *mbs, int mb_stride,
                           const V3dH264SliceInfo *slices, DeblockPicture *pic) {
  for (int p = 0; p < 3; p++) {
    pic->data[p] = planes[p];
    pic->stride[p] = strides[p];
    pic->width[p] = p ? width / 2 + (width & 1) : width;
    pic->height[p] = p ? height / 2 + (height & 1) : height;
  }
  pic->mbs = mbs;
  pic->mb_stride = mb_stride;
  pic->mb_rows = mb_count(height);
  pic->mb_cols = mb_count(width);
  pic->slices = slices;
}

void deblock_copy_mb_row(const DeblockPicture &pic, int r, unsigned planes) {
  if (!pic.src[0]) return;
  for (int p = 0; p < 3; p++) {
    if (!(planes & (1u << p))) continue;
    const int rows = p ? 8 : 16;
    const int end = std::min(pic.height[p], (r + 1) * rows);
    for (int y = r * rows; y < end; y++)
      memcpy(pic.data[p] + y * pic.stride[p], pic.src[p] + y * pic.src_stride[p], pic.width[p]);
  }
}

void deblock_sequential(const DeblockPicture &pic, const DeblockDsp &dsp, unsigned planes,
                        DeblockOrder order) {
  if (order == DeblockOrder::kMacroblocks) {
    for (int r = 0; r < pic.mb_rows; r++) {
      deblock_copy_mb_row(pic, r, planes);
      for (int c = 0; c < pic.mb_cols; c++) deblock_mb(pic, dsp, r, c, planes, kPassesAll);
    }
    return;
  }
  for (int r = 0; r < pic.mb_rows; r++) deblock_copy_mb_row(pic, r, planes);
  for (unsigned pass : {kPassV, kPassH})
    for (int r = 0; r < pic.mb_rows; r++)
      for (int c = 0; c < pic.mb_cols; c++) deblock_mb(pic, dsp, r, c, planes, pass);
}

// Wavefront over macroblock rows. Macroblock (r, c) reads and writes, per plane, only samples of
// its own area, 4 (chroma 2) samples left of it in its own rows (the left edge: p3..p0, which a
// SIMD kernel may store back unchanged) and 4 (chroma 2) samples above it in its own columns (the
// top edge). In luma: rows 16r-4 .. 16r+15 x columns 16c .. 16c+15, plus rows 16r .. 16r+15 x
// columns 16c-4 .. 16c-1; chroma the same with 8 and 2. The decisions read only the macroblock
// input, never samples of another macroblock's result, so two macroblocks whose sample sets are
// disjoint commute. Against the macroblocks before (r, c) in raster order the sets intersect
// only for:
//  * (r, c-1): its own area holds (r, c)'s left taps; same row, run before on the same thread;
//  * (r-1, c): its own area holds (r, c)'s top taps;
//  * (r-1, c+1): its left-edge taps (columns 16c+12 .. 16c+15 of rows 16r-16 .. 16r-1) meet
//    (r, c)'s top-edge taps in rows 16r-4 .. 16r-1: the top edge of (r, c) must see them done;
//  * (r-1, c-1): its area ends at column 16c-1, which (r, c) touches only in its own rows
//    (left-edge taps), not in rows < 16r: disjoint; (r-1, c+2) starts at column 16c+28;
//    row r-2 ends at row 16r-17: disjoint.
// So (r, c) may run once row r-1 has finished column min(c+1, last) (lag 1), and every
// macroblock after (r, c) that it meets waits for it ((r+1, c-1) waits for (r, c) by the same
// rule, (r, c+1) runs after it on the same thread). Each sample thus sees its operations in the
// sequential order, so the picture is the same.
//
// Strips: a thread takes h macroblock rows at a time and walks them as a wavefront of its own,
// step t doing (r0 + i, t - 2i) for i = 0 .. h-1 — (r0+i+1, c) comes at step c + 2i + 2, after
// (r0+i, c+1) at step c + 2i + 1, so the rule above holds inside the strip. The strip's first
// row needs the strip above's last row at column c+1, done at that strip's step c + 1 + 2(h-1):
// the wavefront's lag over steps is 2h - 1. Why strips: a row's top edges read and write the
// four sample rows just above it, which the thread of the row above wrote a moment earlier, so
// with one row per task every macroblock pulled cache lines from another core; where a
// core-to-core transfer costs as much as a macroblock (~250 ns on the 2-core development VM)
// two threads were slower than one. A strip keeps h-1 of its h row boundaries on one core.
int deblock_strip_rows(int mb_rows, int threads) {
  if (threads <= 1) return 1;
  return std::max(1, std::min(kMaxStripRows, mb_rows / (2 * threads)));
}

void deblock_wavefront(const DeblockPicture &pic, const DeblockDsp &dsp, ThreadPool &pool,
                       unsigned planes, int strip_rows) {
  deblock_wavefronts({&pic}, dsp, pool, planes, strip_rows);
}

void deblock_wavefronts(const std::vector<const DeblockPicture *> &pics, const DeblockDsp &dsp,
                        ThreadPool &pool, unsigned planes, int strip_rows) {
  if (pics.empty()) return;
  int min_rows = pics[0]->mb_rows;
  for (const DeblockPicture *p : pics) min_rows = std::min(min_rows, p->mb_rows);
  const int h = strip_rows > 0 ? std::min(strip_rows, kMaxStripRows)
                               : deblock_strip_rows(min_rows, pool.size());
  std::vector<WaveGrid> grids;
  for (const DeblockPicture *p : pics)
    grids.push_back({(p->mb_rows + h - 1) / h, p->mb_cols + 2 * (h - 1)});
  run_wavefronts(pool, grids, 2 * h - 1, [&](int k, int s, int t) {
    const DeblockPicture &pic = *pics[k];
    for (int i = 0; i < h; i++) {
      const int r = s * h + i, c = t - 2 * i;
      if (r >= pic.mb_rows || c < 0) break;  // rows further down start later still
      if (c >= pic.mb_cols) continue;
      if (c == 0) deblock_copy_mb_row(pic, r, planes);  // row r is nobody else's before now
      deblock_mb(pic, dsp, r, c, planes, kPassesAll);
    }
  });
}

}  // namespace h264
}  // namespace v3d

// ---- Public entry point ----------------------------------------------------------------------

namespace {

// The checks of one picture after the context and the plane and stride arrays: its input
// (deblock_validate), then each plane and stride; describes it in *pic.
int check_picture(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                  const V3dH264MbInfo *mbs, int mb_stride, const V3dH264SliceInfo *slices,
                  int n_slices, v3d::h264::DeblockPicture *pic) {
  using namespace v3d;
  int rc = h264::deblock_validate(width, height, mbs, mb_stride, slices, n_slices);
  if (rc) return rc;
  h264::deblock_picture_setup(planes, strides, width, height, mbs, mb_stride, slices, pic);
  return check_plane_strides(planes, strides, pic->width);
}

// Both entry points: checks, then the process on the context's backend (deblock_backend.cpp).
// With src (copy and deblock) each macroblock row of a CPU plane is copied from src just before
// it is deblocked; GPU planes go from src into the GPU's staging buffer.
int deblock_call(V3dContext *ctx, const uint8_t *const src[3], const ptrdiff_t src_strides[3],
                 bool from, uint8_t *const planes[3], const ptrdiff_t strides[3], int width,
                 int height, const V3dH264MbInfo *mbs, int mb_stride,
                 const V3dH264SliceInfo *slices, int n_slices) {
  using namespace v3d;
  clear_error();
  int rc = check_frame_pointers(ctx, planes, strides);
  if (!rc && from && (!src || !src_strides))
    rc = set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !src ? "src" : "src_strides");
  h264::DeblockPicture pic;
  if (!rc) rc = check_picture(planes, strides, width, height, mbs, mb_stride, slices, n_slices, &pic);
  for (int p = 0; p < 3 && from && !rc; p++) {
    if (!src[p]) {
      rc = set_error(V3D_ERROR_INVALID_ARGUMENT, "source plane %d is NULL", p);
    } else if (src_strides[p] < pic.width[p]) {
      rc = set_error(V3D_ERROR_INVALID_ARGUMENT,
                     "stride %td of source plane %d is below its width %d", src_strides[p], p,
                     pic.width[p]);
    } else {
      pic.src[p] = src[p];
      pic.src_stride[p] = src_strides[p];
    }
  }
  if (rc) return rc;

  FrameScope scope(ctx);
  h264::deblock_run(ctx, pic);
  return V3D_OK;
}

}  // namespace

extern "C" int v3d_h264_deblock_frame(V3dContext *ctx, uint8_t *const planes[3],
                                      const ptrdiff_t strides[3], int width, int height,
                                      const V3dH264MbInfo *mbs, int mb_stride,
                                      const V3dH264SliceInfo *slices, int n_slices) {
  return deblock_call(ctx, nullptr, nullptr, false, planes, strides, width, height, mbs,
                      mb_stride, slices, n_slices);
}

extern "C" int v3d_h264_deblock_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                           const ptrdiff_t src_strides[3],
                                           uint8_t *const planes[3], const ptrdiff_t strides[3],
                                           int width, int height, const V3dH264MbInfo *mbs,
                                           int mb_stride, const V3dH264SliceInfo *slices,
                                           int n_slices) {
  return deblock_call(ctx, src, src_strides, true, planes, strides, width, height, mbs,
                      mb_stride, slices, n_slices);
}

extern "C" int v3d_h264_deblock_frames(V3dContext *ctx, const V3dH264Frame *frames,
                                       size_t n_frames) {
  using namespace v3d;
  clear_error();
  if (const int rc = check_batch_pointers(ctx, frames, n_frames)) return rc;
  std::vector<h264::DeblockPicture> pics(n_frames);
  for (size_t i = 0; i < n_frames; i++) {
    const V3dH264Frame &f = frames[i];
    int rc = check_frame_pointers(ctx, f.planes, f.strides);
    if (!rc)
      rc = check_picture(f.planes, f.strides, f.width, f.height, f.mbs, f.mb_stride, f.slices,
                         f.n_slices, &pics[i]);
    if (rc) {
      const std::string msg = v3d_last_error();
      return set_error(rc, "frame %zu: %s", i, msg.c_str());
    }
  }
  if (!n_frames) return V3D_OK;
  FrameScope scope(ctx);
  h264::deblock_run_batch(ctx, pics);
  return V3D_OK;
}
