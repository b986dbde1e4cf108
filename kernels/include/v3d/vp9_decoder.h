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

/* A decoded picture. The planes lie in v3d_shared_alloc() memory of the decoder's context and
 * stay valid until v3d_vp9_picture_unref(). Samples beyond width x height (luma; chroma
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

/* Feature counters of the frames decoded so far, as '#' comment lines ("# name=count ...").
 * Valid until the next call on this decoder. */
V3D_API const char *v3d_vp9_decoder_stats(V3dVp9Decoder *dec);

#ifdef __cplusplus
}
#endif

#endif /* V3D_VP9_DECODER_H */
