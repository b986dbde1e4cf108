/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * VP9 decoder (profile 0: 8-bit 4:2:0) on the v3dkernels backends. Output equals libvpx's
 * (vpxdec --i420) frame for frame on valid streams. Data in, pictures out, in the style of
 * dav1d: v3d_vp9_decoder_send_data() takes one packet (a frame or a superframe), and
 * v3d_vp9_decoder_get_picture() returns the pictures to show, reference-counted.
 *
 * Threading: one decoder may be used by one thread at a time. Pictures may be released
 * (v3d_vp9_picture_unref) from any thread, also after the decoder is freed.
 */
#ifndef V3D_VP9_DECODER_H
#define V3D_VP9_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "v3d/common.h"
#include "v3d/context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct V3dVp9Decoder V3dVp9Decoder;

/* Where an inter frame's residuals (inverse transforms) are added. Key frames and intra-only
 * frames always add each block's residual as it is decoded: every block there predicts from the
 * reconstruction of the ones before. */
enum {
  /* The frame path when the context's backend can give transforms to the GPU (gpu, hybrid, or
   * auto with a GPU in use); else per block. The environment variable V3D_VP9_DEFER_RESIDUALS
   * overrides this default: 1 = V3D_VP9_RESIDUALS_FRAME, 0 = V3D_VP9_RESIDUALS_PER_BLOCK. */
  V3D_VP9_RESIDUALS_AUTO = 0,
  /* Each transform block added on the decoding thread as soon as its tokens are read (the
   * fastest on the CPU: the pixels are still in cache). */
  V3D_VP9_RESIDUALS_PER_BLOCK = 1,
  /* The frame's inter residuals in one v3d_vp9_itx_frame call on the decoder's context, which
   * divides them between the CPU workers and the GPU as its backend says; the intra blocks of
   * the frame are reconstructed after it. Same output. */
  V3D_VP9_RESIDUALS_FRAME = 2
};

typedef struct {
  /* Largest frame accepted, in luma samples (width * height); 0 = no limit beyond VP9's
   * 65536 x 65536. Larger frames fail with V3D_ERROR_INVALID_DATA. */
  uint64_t frame_size_limit;
  /* Pictures waiting in the output queue before send_data refuses more data with
   * V3D_ERROR_AGAIN (get_picture drains it). At least 1. */
  int max_queued_pictures;
  /* V3D_VP9_RESIDUALS_*: where inter frames' residuals are added. */
  int residuals;
} V3dVp9DecoderSettings;

/* Fills s with the defaults (no size limit, 8 queued pictures, V3D_VP9_RESIDUALS_AUTO). */
V3D_API void v3d_vp9_decoder_default_settings(V3dVp9DecoderSettings *s);

/* A new decoder running its kernels on ctx (which it references; the caller keeps its own
 * reference). settings NULL = defaults. Returns NULL with v3d_last_error() on failure
 * (V3D_ERROR_INVALID_ARGUMENT: no context, max_queued_pictures < 1, an unknown residuals
 * value). */
V3D_API V3dVp9Decoder *v3d_vp9_decoder_new(V3dContext *ctx, const V3dVp9DecoderSettings *settings);

/* Moves the decoder's work to ctx (which it references, releasing the previous context) from
 * the next packet on: e.g. to a context with a GPU once that has opened, after the first frames
 * ran on a CPU context. Decoding state, queued pictures and output are unaffected (every backend
 * gives the same pictures); frames in the previous context's kind of memory are replaced as they
 * come free. Returns 0, or V3D_ERROR_INVALID_ARGUMENT for NULL. Same threading rule as
 * send_data. */
V3D_API int v3d_vp9_decoder_set_context(V3dVp9Decoder *dec, V3dContext *ctx);

/* A decoded picture. The planes lie in v3d_shared_alloc() memory of the decoder's context, in
 * one block starting at planes[0] (Y, then U, then V), and stay valid until
 * v3d_vp9_picture_unref(). Samples beyond width x height (luma; chroma
 * (width + 1) / 2 x (height + 1) / 2) are padding. */
typedef struct {
  uint8_t *planes[3]; /* Y, U, V */
  ptrdiff_t strides[3];
  int width, height;               /* frame size */
  int render_width, render_height; /* intended display size (render_size()) */
  int color_space;                 /* VP9 color_space (0 unknown, 1 BT.601, 2 BT.709, ...) */
  int color_range;                 /* 0 studio swing, 1 full swing */
  int64_t pts;                     /* pts of the packet that produced it */
  uint32_t frame_index;            /* decode-order index of the frame (counting hidden frames) */
  void *ref;                       /* owned by the library */
} V3dVp9Picture;

/* Decodes one packet: a frame, or a superframe (Annex B) of several. Blocks until decoded.
 * A packet yields at most one picture, its last frame's when that frame is shown (as libvpx,
 * whose vpxdec MD5s this matches). data is not used after the call returns.
 * Returns 0; V3D_ERROR_AGAIN when the output queue is full (nothing consumed: get pictures
 * first); V3D_ERROR_INVALID_DATA for corrupt data (the message names the frame index and the
 * problem; the decoder then waits for a key frame or intra-only frame); V3D_ERROR_UNSUPPORTED
 * for profiles other than 0 (message names profile and bit depth); V3D_ERROR_NO_MEMORY. */
V3D_API int v3d_vp9_decoder_send_data(V3dVp9Decoder *dec, const uint8_t *data, size_t size,
                                      int64_t pts);

/* Takes the next picture in output order into *pic (the caller owns that reference). Returns 0,
 * or V3D_ERROR_AGAIN when no picture is waiting. */
V3D_API int v3d_vp9_decoder_get_picture(V3dVp9Decoder *dec, V3dVp9Picture *pic);

/* Releases a picture's reference and clears *pic. NULL or an empty picture is allowed.
 * Thread-safe. */
V3D_API void v3d_vp9_picture_unref(V3dVp9Picture *pic);

/* Drops queued pictures and all decoding state (references, probabilities): the next packet
 * must start with a key frame. */
V3D_API void v3d_vp9_decoder_flush(V3dVp9Decoder *dec);

/* Frees the decoder (NULL allowed). Pictures the caller holds stay valid. */
V3D_API void v3d_vp9_decoder_free(V3dVp9Decoder *dec);

/* Feature counters: which parts of the decoder the frames decoded so far reached, accumulated
 * since v3d_vp9_decoder_new (v3d_vp9_decoder_flush keeps them). A frame that fails to decode may
 * count in the frame counters, never in the tile and block counters. The names in quotes are
 * those of v3d_vp9_decoder_stats()'s text.
 *
 * Forward compatibility: the caller sets size to sizeof(V3dVp9DecoderCounters) as it was
 * compiled; fields are only ever appended, so a library and a program of different versions
 * agree on the fields both know (see v3d_vp9_decoder_get_counters). */
typedef struct V3dVp9DecoderCounters {
  uint32_t size;     /* in: the caller's sizeof; out: the bytes the library filled */
  uint32_t reserved; /* 0 */
  /* Frames (one per frame of a superframe; hidden frames included, show_existing_frame
   * excluded): "frames", "key", "intra-only" */
  uint64_t frames, key_frames, intra_only_frames;
  /* Frames shown by show_existing_frame (not counted in frames): "show-existing" */
  uint64_t show_existing_frames;
  /* Frames with a non-zero loop filter level, tiles decoded: "loop-filtered", "tiles" */
  uint64_t loop_filtered_frames, tiles;
  /* Frames by header feature ("# frame-features"): error-resilient, frame-parallel, lossless,
   * segmentation, compound (inter frames whose reference_mode is not single), switchable-filter
   * (inter frames), tx-select, high-precision-mv (inter frames), sharpness (> 0), lf-deltas
   * (delta_enabled), tile-rows (more than one tile row) */
  uint64_t error_resilient_frames, frame_parallel_frames, lossless_frames, segmentation_frames,
      compound_frames, switchable_filter_frames, tx_select_frames, high_precision_mv_frames,
      sharpness_frames, lf_delta_frames, tile_row_frames;
  /* Blocks ("# blocks"): all, intra, inter, compound, sub8x8 (4x4, 4x8, 8x4), skip (no residual,
   * as the loop filter sees it) */
  uint64_t blocks, intra_blocks, inter_blocks, compound_blocks, sub8x8_blocks, skip_blocks;
  /* Predictions from a reference of another size ("scaled-preds"), predictions reading outside
   * their reference ("edge-emulated-preds"), one per block, plane, reference and (sub-8x8)
   * sub-block */
  uint64_t scaled_predictions, edge_emulated_predictions;
  /* Blocks whose segment id came from the temporal prediction ("seg-predicted"), whose skip
   * ("seg-skip") or reference ("seg-ref") the segment's feature fixed */
  uint64_t seg_predicted_blocks, seg_skip_blocks, seg_ref_blocks;
  /* Inverse transforms with at least one coefficient ("# tx"), [size: 4x4, 8x8, 16x16,
   * 32x32][type: dct_dct, adst_dct, dct_adst, adst_adst, wht]; the WHT is 4x4 only and 32x32
   * DCT_DCT only, the other entries stay 0 */
  uint64_t transforms[4][5];
  /* Luma intra predictions per mode ("# intra-modes": dc, v, h, d45, d135, d117, d153, d207,
   * d63, tm), one per transform block */
  uint64_t intra_modes[10];
  /* Inter modes ("# inter-modes": nearest, near, zero, new), one per block or sub-8x8
   * sub-block */
  uint64_t inter_modes[4];
  /* Inter blocks per interpolation filter ("# filters": regular, smooth, sharp, bilinear) */
  uint64_t interp_filters[4];
  /* The frame path of residuals ("# frame-path", V3dVp9DecoderSettings.residuals): inter frames
   * whose residuals went through the transform family's frame entry, their transform blocks,
   * how many of those the GPU ran (the context's GPU count for the family over those calls),
   * and the intra blocks of those frames reconstructed after the residuals. */
  uint64_t frame_path_frames, frame_path_transforms, frame_path_gpu_transforms;
  uint64_t deferred_intra_blocks;
} V3dVp9DecoderCounters;

/* Fills *counters with the decoder's feature counters. counters->size must be set by the caller
 * (at least 8, the size and reserved fields): the library writes the fields that lie wholly
 * within min(counters->size, its own sizeof(V3dVp9DecoderCounters)) bytes, leaves anything past
 * them untouched, and sets counters->size to the bytes it filled, so that a caller compiled
 * against a newer header can tell which fields an older library filled.
 * Returns 0, or V3D_ERROR_INVALID_ARGUMENT for NULL dec or counters or a size below 8.
 * Does not block; one thread at a time with the decoder's other calls. */
V3D_API int v3d_vp9_decoder_get_counters(V3dVp9Decoder *dec, V3dVp9DecoderCounters *counters);

/* The counters of v3d_vp9_decoder_get_counters as '#' comment lines, one topic per line:
 *   # frames N key N intra-only N show-existing N loop-filtered N tiles N
 *   # frame-features error-resilient N frame-parallel N lossless N ... tile-rows N
 *   # blocks N intra N inter N compound N sub8x8 N skip N scaled-preds N ... seg-ref N
 *   # tx 4x4_dct_dct=N ...        (only the non-zero entries)
 *   # intra-modes dc=N ... tm=N
 *   # inter-modes nearest=N near=N zero=N new=N
 *   # filters regular=N smooth=N sharp=N bilinear=N
 * The decoder owns the text; it stays valid until the next call on this decoder. NULL dec gives
 * "". Does not block; one thread at a time with the decoder's other calls. */
V3D_API const char *v3d_vp9_decoder_stats(V3dVp9Decoder *dec);

#ifdef __cplusplus
}
#endif

#endif /* V3D_VP9_DECODER_H */
