/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/vp9_lpf.h: the VP9 loop filter ("lpf" family): one edge at a time without a context
 * (v3d_vp9_loop_filter_edge), or a whole frame on a context's backend (v3d_vp9_lpf_frame).
 */
#ifndef V3D_VP9_LPF_H
#define V3D_VP9_LPF_H

#include "v3d/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* One edge                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Filters one edge in place, with the results of libvpx's vpx_lpf_{vertical,horizontal}_
 * {4,8,16}[_dual] (one threshold set for all len pixels).
 * dst points at q0 of the edge's first line (libvpx's s). dir 0: a vertical edge (the pixels left
 * and right of dst are filtered), 1: a horizontal edge (the rows above and below). filter_width
 * 4, 8 or 16; len 8 or 16 pixels along the edge; E, I, H: the thresholds (libvpx's blimit, limit,
 * thresh), each clamped to 0..255.
 * Reads p3..q3 of each line (p7..q7 when filter_width is 16) and changes at most p2..q2
 * (p6..q6); a vertical edge may store the unchanged p3/q3 (p7/q7) back with the values read, so
 * no other thread may write those pixels meanwhile. dst and stride carry no alignment promise.
 * An invalid dir, filter_width or len, or NULL dst: does nothing.
 * Returns nothing; does not block; thread-safe (the caller owns the pixels). v3d_vp9_loop_filter_
 * edge uses the best SIMD target of this CPU (v3d/cpu.h), _ref the scalar reference. */
V3D_API void v3d_vp9_loop_filter_edge(uint8_t *dst, ptrdiff_t stride, int dir, int filter_width,
                                      int len, int E, int I, int H);
V3D_API void v3d_vp9_loop_filter_edge_ref(uint8_t *dst, ptrdiff_t stride, int dir,
                                          int filter_width, int len, int E, int I, int H);

/* ------------------------------------------------------------------------------------------ */
/* One frame                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* One entry per 8x8 luma block (libvpx's "mi" unit). */
typedef struct {
  uint8_t filter_level;  /* 0..63; 0 = this block is not filtered */
  uint8_t block_size;    /* libvpx BLOCK_SIZE: 0 = 4X4, 1 = 4X8, 2 = 8X4, 3 = 8X8, ... 12 = 64X64 */
  uint8_t tx_size;       /* luma: 0 = 4X4 ... 3 = 32X32 */
  uint8_t skip_inter;    /* 1 if the block is inter-predicted and has no residual */
} V3dVp9LfInfo;
typedef V3dVp9LfInfo V3dVp9LpfInfo;

/* Applies the VP9 loop filter to a decoded 4:2:0 frame in place, bit-exact with libvpx's decoder
 * (64x64 superblocks in raster order; in each, per plane, the vertical edges then the horizontal
 * ones).
 * grid: (height+7)/8 rows of grid_stride entries, (width+7)/8 used per row; each entry a block
 * covers carries that block's values (VP9 blocks are aligned to their size). filter_level is
 * what libvpx's get_filter_level returns (segment, reference and mode deltas applied; a frame
 * whose frame-level filter level is 0 is not filtered at all: do not call). skip_inter is
 * libvpx's mi->skip && is_inter_block(mi) after decoding (the decoder sets skip for blocks of 8x8
 * and larger without coefficients; sub-8x8 blocks keep the bitstream's flag). sharpness: the
 * frame header's, 0..7.
 * width, height: luma size. As in libvpx's decoder, the planes hold the frame rounded up to whole
 * 8x8 luma blocks (luma 8*ceil(width/8) x 8*ceil(height/8), chroma half that) and the filter
 * works in whole 8x8 blocks: samples between the visible edge and that rounded-up edge are read
 * and may be written; nothing outside that area is touched. The caller keeps owning every array;
 * none is kept after the call.
 * Returns V3D_OK, or on invalid input, with the frame untouched and the message naming the
 * offending grid entry:
 *   V3D_ERROR_INVALID_ARGUMENT   NULL ctx, planes, strides, a plane or grid; width or height
 *                                outside 1..65536; sharpness outside 0..7; grid_stride <
 *                                (width+7)/8; a stride below its plane's width;
 *   V3D_ERROR_INVALID_DATA       filter_level > 63 or block_size > 12;
 *   V3D_ERROR_BAD_TRANSFORM      tx_size larger than its block_size allows;
 *   V3D_ERROR_BAD_PARTITION      an entry that differs from the top-left entry of its block, or
 *                                a rectangular block whose other half has another size;
 * and after a GPU failure:
 *   V3D_ERROR_GPU                the GPU failed while filtering planes in place (planes in the
 *                                GPU's memory, v3d_shared_alloc): they may be partly filtered.
 *                                Planes the GPU filtered in a copy are redone on the CPU instead
 *                                (same result, a warning, V3D_OK).
 * Blocks until the frame is done. Thread-safe; calls on one context run one at a time.
 * Runs on the context's backend (v3d/context.h); "hybrid" and "auto" give the GPU none, some
 * (chroma or luma) or all of the frame's planes and filter the others on the CPU workers
 * meanwhile. */
V3D_API int v3d_vp9_lpf_frame(V3dContext *ctx, uint8_t *const planes[3],
                              const ptrdiff_t strides[3], int width, int height,
                              const V3dVp9LfInfo *grid, int grid_stride, int sharpness);

/* Copy and filter: the result in planes is that of copying src's processed area (the frame
 * rounded up to whole 8x8 luma blocks, as above) into planes and then calling
 * v3d_vp9_lpf_frame on planes, but the CPU copies each superblock row just before filtering it,
 * while it stays in cache (a filter after a decoder that keeps its reference frames must not
 * write into them). src is only read; src and planes must not overlap. Returns the codes of
 * v3d_vp9_lpf_frame, and V3D_ERROR_INVALID_ARGUMENT for NULL src, src_strides or source plane,
 * or src_strides[p] below its plane's width, with nothing written. Blocks until done.
 * Thread-safe; calls on one context run one at a time. */
V3D_API int v3d_vp9_lpf_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                   const ptrdiff_t src_strides[3], uint8_t *const planes[3],
                                   const ptrdiff_t strides[3], int width, int height,
                                   const V3dVp9LfInfo *grid, int grid_stride, int sharpness);

/* One frame of a batch: the arguments of v3d_vp9_lpf_frame. */
typedef struct {
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  int width, height;
  const V3dVp9LfInfo *grid;
  int grid_stride;
  int sharpness;
} V3dVp9LfFrame;
typedef V3dVp9LfFrame V3dVp9LpfFrame;

/* Filters n_frames frames, with the result of n_frames calls of v3d_vp9_lpf_frame; the frames
 * must not share pixels. Every frame is checked before any is touched: on invalid input returns
 * the first offending frame's code (as v3d_vp9_lpf_frame; also V3D_ERROR_INVALID_ARGUMENT for
 * NULL ctx, or NULL frames with n_frames > 0), the message naming it ("frame i: ..."), and no
 * frame is modified. V3D_ERROR_GPU as for v3d_vp9_lpf_frame (the other frames are done).
 * n_frames 0 does nothing. On the CPU the frames' wavefronts share the workers (threads one
 * frame cannot keep busy work on the next); on the GPU one job serves several frames; "hybrid"
 * and "auto" give the GPU the first frames (and planes of the next) in proportion to measured
 * throughputs. Blocks until all are done. Thread-safe; calls on one context run one at a
 * time. */
V3D_API int v3d_vp9_lpf_frames(V3dContext *ctx, const V3dVp9LfFrame *frames, size_t n_frames);

/* The older names of the three calls above: the same functions. */
V3D_API int v3d_vp9_loop_filter_frame(V3dContext *ctx, uint8_t *const planes[3],
                                      const ptrdiff_t strides[3], int width, int height,
                                      const V3dVp9LfInfo *grid, int grid_stride, int sharpness);
V3D_API int v3d_vp9_loop_filter_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                           const ptrdiff_t src_strides[3],
                                           uint8_t *const planes[3], const ptrdiff_t strides[3],
                                           int width, int height, const V3dVp9LfInfo *grid,
                                           int grid_stride, int sharpness);
V3D_API int v3d_vp9_loop_filter_frames(V3dContext *ctx, const V3dVp9LfFrame *frames,
                                       size_t n_frames);

#ifdef __cplusplus
}
#endif

#endif /* V3D_VP9_LPF_H */
