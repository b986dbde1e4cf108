/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/h264_deblock.h: H.264 deblocking ("deblock" family, clause 8.7 of ITU-T H.264): one edge at
 * a time without a context (v3d_h264_loop_filter_*), or a whole picture on a context's backend
 * (v3d_h264_deblock_frame).
 */
#ifndef V3D_H264_DEBLOCK_H
#define V3D_H264_DEBLOCK_H

#include "v3d/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* One edge (clause 8.7.2; FFmpeg h264dsp semantics)                                           */
/* ------------------------------------------------------------------------------------------ */

/* Filters one edge in place. pix points at q0 of the edge's first line. dir 0: a vertical edge
 * (p samples to the left of pix), 1: a horizontal edge (p samples above).
 * Luma: 16 pixels along the edge, tc0[i] for pixels 4i..4i+3; chroma (4:2:0): 8 pixels, tc0[i]
 * for pixels 2i..2i+1. tc0 is always the standard's tC0 (the Table 8-17 value); tc0[i] < 0
 * leaves those pixels unchanged. The chroma filter uses tC = tC0 + 1 itself (unlike FFmpeg's
 * chroma function, whose caller passes tC0 + 1). alpha and beta are clamped to 0..255; 0 (or
 * negative) leaves every pixel unchanged. The _intra forms are the bS = 4 filters.
 * Luma reads p3..q3 and changes at most p2..q2 (a SIMD vertical edge may store p3/q3 back with
 * the values read: no other thread may write them meanwhile); chroma reads p1..q1 and changes
 * p0/q0. pix and stride carry no alignment promise. dir other than 0/1, NULL pix, or NULL tc0:
 * does nothing.
 * Return nothing; do not block; thread-safe (the caller owns the pixels). The plain names use
 * the best SIMD target of this CPU (v3d/cpu.h), the _ref names the scalar references. */
V3D_API void v3d_h264_loop_filter_luma(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                       int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_luma_intra(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                             int beta);
V3D_API void v3d_h264_loop_filter_chroma(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                         int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_chroma_intra(uint8_t *pix, ptrdiff_t stride, int dir,
                                               int alpha, int beta);
V3D_API void v3d_h264_loop_filter_luma_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                           int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_luma_intra_ref(uint8_t *pix, ptrdiff_t stride, int dir,
                                                 int alpha, int beta);
V3D_API void v3d_h264_loop_filter_chroma_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha,
                                             int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_chroma_intra_ref(uint8_t *pix, ptrdiff_t stride, int dir,
                                                   int alpha, int beta);

/* ------------------------------------------------------------------------------------------ */
/* One picture (clause 8.7)                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* One macroblock's deblocking input. Frame macroblocks only (no MBAFF; a field picture is
 * deblocked as a picture of its own, each field's planes addressed with twice the stride). */
typedef struct {
  uint8_t qp;            /* QP_Y of the macroblock, 0..51 (0 for I_PCM macroblocks) */
  uint8_t transform_8x8; /* transform_size_8x8_flag: luma internal edges only at 8 (edges 1, 3
                            of each direction are not filtered); chroma (4:2:0) unaffected */
  uint16_t slice;        /* index into the picture's slices array */
  /* bS (0..4) of each 4-sample segment of the macroblock's luma edges: bs[dir][edge][segment].
   * dir 0: vertical edges, edge e at x = 4e (e = 0: the left macroblock edge), segment s = rows
   * 4s..4s+3; dir 1: horizontal edges, edge e at y = 4e (0: the top edge), segment s = columns
   * 4s..4s+3. Chroma (4:2:0) edges use the bS of luma edges 0 and 2, chroma sample i along the
   * edge that of luma segment i/2 (the standard's rule). bS of edges on the picture's border,
   * of internal edges 1 and 3 when transform_8x8, and of macroblocks in a slice with
   * disable_deblocking_filter_idc 1 are ignored. */
  uint8_t bs[2][4][4];
} V3dH264MbInfo;

/* Per slice: what the slice header (and its picture parameter set) says. The values of the slice
 * holding macroblock q (the current one) apply to each edge, as in the standard. */
typedef struct {
  int8_t disable_deblocking_filter_idc; /* 0, 1 (not filtered), 2 (no filtering across slice
                                           boundaries) */
  int8_t filter_offset_a;               /* FilterOffsetA = slice_alpha_c0_offset_div2 * 2,
                                           -12..12 */
  int8_t filter_offset_b;               /* FilterOffsetB = slice_beta_offset_div2 * 2, -12..12 */
  int8_t chroma_qp_index_offset;        /* Cb, -12..12 */
  int8_t second_chroma_qp_index_offset; /* Cr, -12..12 (= chroma_qp_index_offset when the PPS
                                           has none) */
  int8_t reserved[3];                   /* ignored */
} V3dH264SliceInfo;

/* Deblocks one decoded 4:2:0 8-bit picture in place, bit-exact with the standard's sequential
 * process (macroblocks in raster order; in each, luma vertical edges left to right, then
 * horizontal edges top to bottom, then chroma likewise).
 * planes: Y, Cb, Cr; width, height: luma size in pixels, any size >= 1 (chroma (width+1)/2 x
 * (height+1)/2). mbs: ceil(height/16) rows of mb_stride entries, ceil(width/16) used per row;
 * slices: n_slices entries. For pictures whose size is not a multiple of 16, only samples inside
 * the picture are read or written: an edge segment is filtered on the lines along it that lie
 * inside the picture, and only where every sample the filter reads across it (4 each side for
 * luma, 2 for chroma) lies inside too. The caller keeps owning every array; none is kept after
 * the call.
 * Returns V3D_OK, or on invalid input, with the picture untouched and the message naming the
 * offending macroblock or slice:
 *   V3D_ERROR_INVALID_ARGUMENT   NULL ctx, planes, strides, a plane, mbs or slices; width or
 *                                height < 1; n_slices < 1; mb_stride < ceil(width/16); a stride
 *                                below its plane's width;
 *   V3D_ERROR_INVALID_DATA       qp > 51, a bS > 4, slice >= n_slices, an idc outside 0..2,
 *                                offsets outside -12..12, an odd filter offset.
 * A GPU failure is not an error: the GPU's planes are redone on the CPU (same result, one warning
 * per context). Blocks until the picture is done. Thread-safe; calls on one context run one at a
 * time. Runs on the context's backend (v3d/context.h); "hybrid" and "auto" give the GPU none,
 * some (the chroma planes or luma) or all of the planes and deblock the others on the CPU
 * workers meanwhile. */
V3D_API int v3d_h264_deblock_frame(V3dContext *ctx, uint8_t *const planes[3],
                                   const ptrdiff_t strides[3], int width, int height,
                                   const V3dH264MbInfo *mbs, int mb_stride,
                                   const V3dH264SliceInfo *slices, int n_slices);

/* Copy and deblock: the result in planes is that of copying src's picture (width x height luma,
 * (width+1)/2 x (height+1)/2 chroma) into planes and then calling v3d_h264_deblock_frame on
 * planes, but the CPU copies each macroblock row just before deblocking it, while it stays in
 * cache (a filter after a decoder that keeps its reference frames must not write into them);
 * planes given to the GPU go from src into its staging memory. Same backends as
 * v3d_h264_deblock_frame. src is only read; src and planes must not overlap. Returns the codes of
 * v3d_h264_deblock_frame, and V3D_ERROR_INVALID_ARGUMENT for NULL src, src_strides or source
 * plane, or src_strides[p] below its plane's width, with nothing written. Blocks until done.
 * Thread-safe; calls on one context run one at a time. */
V3D_API int v3d_h264_deblock_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                        const ptrdiff_t src_strides[3], uint8_t *const planes[3],
                                        const ptrdiff_t strides[3], int width, int height,
                                        const V3dH264MbInfo *mbs, int mb_stride,
                                        const V3dH264SliceInfo *slices, int n_slices);

/* One picture of a batch: the arguments of v3d_h264_deblock_frame. */
typedef struct {
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  int width, height;
  const V3dH264MbInfo *mbs;
  int mb_stride;
  const V3dH264SliceInfo *slices;
  int n_slices;
} V3dH264Frame;
typedef V3dH264Frame V3dH264DeblockFrame;

/* Deblocks n_frames pictures, with the result of n_frames calls of v3d_h264_deblock_frame; the
 * pictures must not share samples. Every picture is checked before any is touched: on invalid
 * input returns the first offending picture's code (as v3d_h264_deblock_frame; also
 * V3D_ERROR_INVALID_ARGUMENT for NULL ctx, or NULL frames with n_frames > 0), the message naming
 * it ("frame i: ..."), and no picture is modified. n_frames 0 does nothing. On the CPU the
 * pictures' wavefronts share the workers; "gpu" deblocks the pictures on the GPU one after
 * another; "hybrid" and "auto" give the GPU the first whole pictures in proportion to measured
 * throughputs while the workers deblock the rest. A picture the GPU could not deblock is
 * deblocked on the CPU (same result). Blocks until all are done. Thread-safe; calls on one
 * context run one at a time. */
V3D_API int v3d_h264_deblock_frames(V3dContext *ctx, const V3dH264Frame *frames, size_t n_frames);

#ifdef __cplusplus
}
#endif

#endif /* V3D_H264_DEBLOCK_H */
