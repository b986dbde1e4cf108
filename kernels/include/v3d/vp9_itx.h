/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/vp9_itx.h: VP9 inverse transforms ("itx" family): one block at a time without a context
 * (v3d_vp9_itxfm_add), or a whole frame's blocks on a context's backend (v3d_vp9_itx_frame).
 */
#ifndef V3D_VP9_ITX_H
#define V3D_VP9_ITX_H

#include "v3d/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* One block                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Adds the inverse transform of coeffs into dst, clamping each pixel to 0..255.
 * tx_size 0..3 = 4x4, 8x8, 16x16, 32x32 (n = 4 << tx_size). tx_type: 0 DCT_DCT, 1 ADST_DCT (ADST
 * applied vertically, on columns; DCT on rows), 2 DCT_ADST, 3 ADST_ADST, 4 WHT_WHT (4x4 only).
 * coeffs: n*n int16 in raster order, only read. eob: 1 + the scan position of the last non-zero
 * coefficient (n*n is always valid); it only lets the kernel skip work that is provably zero:
 * for any eob > 0 the result is the full inverse transform of coeffs.
 * Reads coeffs[0..n*n) and dst rows 0..n-1, columns 0..n-1, and writes only those pixels. dst,
 * stride and coeffs carry no alignment promise. eob <= 0, an invalid (tx_size, tx_type) pair, or
 * NULL dst or coeffs: does nothing.
 * Bit-exact with the VP9 specification (and libvpx) for the coefficients a conformant stream can
 * carry; for any other input every backend (scalar, SIMD, GPU) computes each butterfly step in
 * 32-bit two's-complement wrapping arithmetic, so the output is still defined and identical.
 * Returns nothing; does not block; thread-safe (the caller owns dst and must not let other
 * threads touch those pixels meanwhile). v3d_vp9_itxfm_add uses the best SIMD target of this
 * CPU (v3d/cpu.h), v3d_vp9_itxfm_add_ref the scalar reference. */
V3D_API void v3d_vp9_itxfm_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int tx_size,
                               int tx_type, int eob);
V3D_API void v3d_vp9_itxfm_add_ref(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                   int tx_size, int tx_type, int eob);

/* As v3d_vp9_itxfm_add, for a caller whose eob is exact, as a decoder's is: every coefficient at
 * a scan position >= eob is zero, in the VP9 specification's scan for (tx_size, tx_type)
 * (section 10.5: the default scan for DCT_DCT, ADST_ADST and every 32x32 block, the row scan for
 * ADST_DCT, the column scan for DCT_ADST). eob = 1 + the scan position of the last non-zero
 * coefficient, or any larger value; the position after the last token decoded is one. The
 * function may then find the non-zero coefficients from eob alone instead of reading them (a
 * DC-only block reads coeffs[0] only; a block whose coefficients lie in a top-left corner is
 * not searched), as FFmpeg's and libvpx's transforms do. For such blocks the result is
 * v3d_vp9_itxfm_add's, bit for bit. A block that breaks the promise gets unspecified pixel
 * values, but the function still reads nothing outside coeffs[0..n*n) and writes nothing outside
 * the n x n pixels at dst. eob <= 0, an invalid pair, NULL dst or coeffs: does nothing. */
V3D_API void v3d_vp9_itxfm_add_exact_eob(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                         int tx_size, int tx_type, int eob);

/* As v3d_vp9_itxfm_add_exact_eob, with coeffs in column-major order: coeffs[j*n + i] is the
 * coefficient of row i, column j (the transpose of the raster order above; the layout FFmpeg's
 * VP9 decoder writes). eob keeps its meaning for the block as a raster-order caller would pass
 * it: every coefficient whose (row, column) lies at a scan position >= eob is zero. A decoder
 * writes this layout by storing each token at the transpose of its scan position. The result
 * is v3d_vp9_itxfm_add_exact_eob's on the transposed block, bit for bit; kernels that load this
 * layout themselves skip the transpose a raster-order block needs before its row pass, and the
 * others transpose it into a buffer first. Every other contract is
 * v3d_vp9_itxfm_add_exact_eob's. */
V3D_API void v3d_vp9_itxfm_add_exact_eob_colmajor(uint8_t *dst, ptrdiff_t stride,
                                                  const int16_t *coeffs, int tx_size, int tx_type,
                                                  int eob);

/* ------------------------------------------------------------------------------------------ */
/* One frame                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* One transform block of a frame. x, y: pixel position of its top-left corner in its plane
 * (plane 0 = Y, 1 = U, 2 = V, 4:2:0); tx_size, tx_type, eob as for v3d_vp9_itxfm_add;
 * coeff_offset: index in the frame's coeffs of its first coefficient (n*n consecutive values,
 * raster order). reserved: ignored. */
typedef struct {
  uint16_t x, y;
  uint8_t plane, tx_size, tx_type, reserved;
  uint32_t eob;
  uint32_t coeff_offset;
} V3dVp9TxBlock;

/* Adds every block's inverse transform into a frame, with the result of v3d_vp9_itxfm_add_ref
 * applied to each block (clipped to the frame, below). width, height: luma size. As in a decoder,
 * the planes hold the frame rounded up to whole 8x8 luma blocks (luma 8*ceil(width/8) x
 * 8*ceil(height/8), each chroma plane half that each way); nothing outside that area is read or
 * written, and a block reaching past it is clipped to it. Blocks may come in any order (they
 * must not overlap, so the order does not matter); blocks with eob 0 are checked but not
 * applied. The caller keeps owning every array; none is kept after the call.
 * Returns V3D_OK, or on invalid input, with the frame untouched and the message naming the
 * first offending block:
 *   V3D_ERROR_INVALID_ARGUMENT   NULL ctx, planes, strides or blocks (with n_blocks > 0) or
 *                                coeffs (with n_coeffs > 0); width or height outside 1..65536; a
 *                                NULL plane;
 *                                a stride below its plane's width;
 *   V3D_ERROR_BAD_PLANE          a block's plane > 2;
 *   V3D_ERROR_BLOCK_OUTSIDE      a block starting outside its plane;
 *   V3D_ERROR_BLOCK_OVERLAP      two blocks of one plane sharing a pixel;
 *   V3D_ERROR_BAD_TRANSFORM      an invalid (tx_size, tx_type) pair;
 *   V3D_ERROR_BAD_EOB            eob > n*n;
 *   V3D_ERROR_COEFFS_OUT_OF_RANGE  coeff_offset + n*n > n_coeffs.
 * A GPU failure is not an error: the GPU's blocks are redone on the CPU (same result).
 * Blocks until the frame is done. Thread-safe; calls on one context run one at a time.
 * Runs on the context's backend (v3d/context.h): "hybrid" and "auto" give the GPU a share of
 * the blocks and the CPU workers the rest. */
V3D_API int v3d_vp9_itx_frame(V3dContext *ctx, uint8_t *const planes[3],
                              const ptrdiff_t strides[3], int width, int height,
                              const V3dVp9TxBlock *blocks, size_t n_blocks,
                              const int16_t *coeffs, size_t n_coeffs);

/* One frame of a batch: the arguments of v3d_vp9_itx_frame. */
typedef struct {
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  int width, height;
  const V3dVp9TxBlock *blocks;
  size_t n_blocks;
  const int16_t *coeffs;
  size_t n_coeffs;
} V3dVp9ItxFrame;

/* Processes n_frames frames, with the result of n_frames calls of v3d_vp9_itx_frame; the frames
 * must not share pixels. Every frame is checked before any is touched: on invalid input returns
 * the first offending frame's code (as v3d_vp9_itx_frame; also V3D_ERROR_INVALID_ARGUMENT for
 * NULL ctx, or NULL frames with n_frames > 0), the message naming it ("frame i: ..."), and no
 * frame is modified. n_frames 0 does nothing. A batch lets the GPU overlap its frames' fixed
 * costs (several jobs in flight). Blocks until all are done. Thread-safe; calls on one context
 * run one at a time. */
V3D_API int v3d_vp9_itx_frames(V3dContext *ctx, const V3dVp9ItxFrame *frames, size_t n_frames);

/* Checks a frame's blocks as v3d_vp9_itx_frame does, without a frame or context. Returns V3D_OK
 * or the code v3d_vp9_itx_frame would return for them (V3D_ERROR_INVALID_ARGUMENT only for a
 * size outside 1..65536, or NULL blocks with n_blocks > 0), the message naming the first
 * offending block. Touches nothing; blocks until done; thread-safe. */
V3D_API int v3d_vp9_itx_validate(int width, int height, const V3dVp9TxBlock *blocks,
                                 size_t n_blocks, size_t n_coeffs);

/* The older names of the three calls above: the same functions. */
V3D_API int v3d_vp9_itxfm_add_frame(V3dContext *ctx, uint8_t *const planes[3],
                                    const ptrdiff_t strides[3], int width, int height,
                                    const V3dVp9TxBlock *blocks, size_t n_blocks,
                                    const int16_t *coeffs, size_t n_coeffs);
V3D_API int v3d_vp9_itxfm_add_frames(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                                     size_t n_frames);
V3D_API int v3d_vp9_itxfm_validate(int width, int height, const V3dVp9TxBlock *blocks,
                                   size_t n_blocks, size_t n_coeffs);

#ifdef __cplusplus
}
#endif

#endif /* V3D_VP9_ITX_H */
