/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstV3dVp9ResidualMeta: one frame's VP9 transform blocks and their dequantized coefficients,
 * attached to the frame (the prediction) they are to be added to. Consumed by the v3dvp9idct
 * element, which adds every block's inverse transform to the frame and removes the meta.
 *
 * Public API for decoders and applications.
 *
 * Layout of the data (see V3dVp9TxBlock in <v3d/v3d.h>): blocks[i] places an n x n transform
 * (n = 4 << tx_size) at pixel (x, y) of plane 0 (Y), 1 (U) or 2 (V) of an I420 frame; its n*n
 * coefficients are coeffs[coeff_offset .. coeff_offset + n*n), raster order. Blocks of one plane
 * must not overlap and must start inside the plane rounded up to whole 8x8 luma blocks; the
 * element checks this (v3d_vp9_itxfm_validate) and posts an error for invalid metas.
 *
 * Memory: the block and coefficient arrays are immutable once attached and held in GBytes, so a
 * buffer copy (gst_buffer_copy(), gst_buffer_make_writable()) shares them instead of copying
 * megabytes of coefficients. The meta is kept by plain copies of the whole buffer, and dropped
 * by any transform that changes the frame's size or geometry (scaling, cropping, partial
 * copies): its tags are "video", "size" and "orientation".
 *
 * The meta's code is libgstv3d-1.0 (pkg-config gstreamer-v3d-1.0), which the plugin links too.
 * Without linking it: once the plugin is loaded (e.g. after gst_element_factory_make
 * ("v3dvp9idct")), an application can attach the meta with
 *   gst_buffer_add_meta (buffer, gst_meta_get_info ("GstV3dVp9ResidualMeta"), &params);
 * where params is a GstV3dVp9ResidualMetaParams (copied, see below), and find it with
 *   gst_buffer_get_meta (buffer, g_type_from_name ("GstV3dVp9ResidualMetaAPI")).
 * The functions below do exactly that, registering the types on first use (by name).
 */
#ifndef GST_V3D_VP9_META_H
#define GST_V3D_VP9_META_H

#include <gst/gst.h>
#include <gst/v3d/v3d-prelude.h>
#include <v3d/v3d.h>

G_BEGIN_DECLS

/* Name of the meta's API type and of its implementation (GstMetaInfo). */
#define GST_V3D_VP9_RESIDUAL_META_API_NAME "GstV3dVp9ResidualMetaAPI"
#define GST_V3D_VP9_RESIDUAL_META_IMPL_NAME "GstV3dVp9ResidualMeta"

#define GST_V3D_VP9_RESIDUAL_META_API_TYPE (gst_v3d_vp9_residual_meta_api_get_type ())
#define GST_V3D_VP9_RESIDUAL_META_INFO (gst_v3d_vp9_residual_meta_get_info ())

/**
 * GstV3dVp9ResidualMeta:
 * @meta: parent #GstMeta
 * @blocks: (array length=n_blocks): the frame's transform blocks, read-only
 * @n_blocks: number of blocks (may be 0)
 * @coeffs: (array length=n_coeffs): dequantized coefficients the blocks point into, read-only
 * @n_coeffs: number of coefficients
 *
 * Fields are read-only for users; the arrays stay valid as long as the meta does.
 */
typedef struct {
  GstMeta meta;

  const V3dVp9TxBlock *blocks;
  gsize n_blocks;
  const gint16 *coeffs;
  gsize n_coeffs;

  /*< private >*/
  GBytes *blocks_bytes;
  GBytes *coeffs_bytes;
} GstV3dVp9ResidualMeta;

/**
 * GstV3dVp9ResidualMetaParams:
 *
 * Parameters of gst_buffer_add_meta() for this meta's GstMetaInfo. Either bytes (taken: the meta
 * owns the references afterwards, the caller must not unref them) or arrays (copied) per field;
 * a NULL GBytes field means "copy the array field". All NULL/0 gives an empty meta.
 */
typedef struct {
  GBytes *blocks_bytes;        /* (transfer full) (nullable): n_blocks * sizeof (V3dVp9TxBlock) */
  GBytes *coeffs_bytes;        /* (transfer full) (nullable): n_coeffs * sizeof (gint16) */
  const V3dVp9TxBlock *blocks; /* (nullable): copied when blocks_bytes is NULL */
  gsize n_blocks;
  const gint16 *coeffs;        /* (nullable): copied when coeffs_bytes is NULL */
  gsize n_coeffs;
} GstV3dVp9ResidualMetaParams;

/* The meta's API type, registered on first call (thread-safe). */
GST_V3D_API
GType gst_v3d_vp9_residual_meta_api_get_type (void);
/* The meta's implementation, registered on first call (thread-safe). Never NULL. */
GST_V3D_API
const GstMetaInfo *gst_v3d_vp9_residual_meta_get_info (void);

/**
 * gst_buffer_add_v3d_vp9_residual_meta:
 * @buffer: a writable buffer
 * @blocks: (array length=n_blocks) (nullable): blocks, COPIED
 * @n_blocks: number of blocks
 * @coeffs: (array length=n_coeffs) (nullable): coefficients, COPIED
 * @n_coeffs: number of coefficients
 *
 * Attaches a copy of one frame's blocks and coefficients. Validity is not checked here (the
 * consumer checks it against the frame size it sees). Returns: (transfer none): the meta, owned
 * by @buffer; NULL if @buffer is not writable.
 */
GST_V3D_API
GstV3dVp9ResidualMeta *gst_buffer_add_v3d_vp9_residual_meta (GstBuffer *buffer,
    const V3dVp9TxBlock *blocks, gsize n_blocks, const gint16 *coeffs, gsize n_coeffs);

/**
 * gst_buffer_add_v3d_vp9_residual_meta_take:
 * @buffer: a writable buffer
 * @blocks: (transfer full): n * sizeof (V3dVp9TxBlock) bytes of blocks
 * @coeffs: (transfer full): n * sizeof (gint16) bytes of coefficients
 *
 * Zero-copy variant: the meta TAKES the caller's references to @blocks and @coeffs (whose sizes
 * must be multiples of the element sizes; trailing bytes are ignored). The data must be suitably
 * aligned for V3dVp9TxBlock / gint16 (any GBytes from g_bytes_new*() of malloc'd memory is).
 * Returns: (transfer none): the meta, or NULL if @buffer is not writable (the references are
 * released then).
 */
GST_V3D_API
GstV3dVp9ResidualMeta *gst_buffer_add_v3d_vp9_residual_meta_take (GstBuffer *buffer,
    GBytes *blocks, GBytes *coeffs);

/* Returns: (transfer none) (nullable): the buffer's residual meta, if any. */
#define gst_buffer_get_v3d_vp9_residual_meta(b) \
  ((GstV3dVp9ResidualMeta *) gst_buffer_get_meta ((b), GST_V3D_VP9_RESIDUAL_META_API_TYPE))

G_END_DECLS

#endif /* GST_V3D_VP9_META_H */
