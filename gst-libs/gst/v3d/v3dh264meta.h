/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstV3dH264DeblockMeta: what the H.264 deblocking process (clause 8.7 of ITU-T H.264) needs of
 * one decoded picture, attached by a decoder (or an application) to the picture's buffer for the
 * v3dh264deblock element, which deblocks the picture in place with v3d_h264_deblock_frame()
 * (kernels/include/v3d/v3d.h) and removes the meta. A buffer without it is deblocked as a
 * post-filter configured by the element's properties instead.
 *
 * Contents:
 * - the coded size (coded_width x coded_height luma samples): the picture the process works on,
 *   e.g. PicWidthInMbs * 16 x FrameHeightInMbs * 16 for a decoder, or any size >= 1. It must
 *   cover the buffer's caps size (a decoder cropping 1920x1088 to 1920x1080 attaches 1920x1088),
 *   and the buffer's planes must hold the coded area (rows beyond the caps height, at the
 *   planes' strides, inside the buffer): the samples there are read, and may be written, as in
 *   the decoder's own picture buffer.
 * - the macroblock grid: one V3dH264MbInfo per macroblock in raster order,
 *   ceil(coded_height/16) rows of mb_stride entries, ceil(coded_width/16) used per row
 *   (QP_Y, transform_size_8x8_flag, slice index, and the bS of every 4-sample luma edge
 *   segment in both directions: see V3dH264MbInfo in v3d.h for the layout);
 * - the slices: one V3dH264SliceInfo per slice of the picture (disable_deblocking_filter_idc,
 *   FilterOffsetA/B, the two chroma QP index offsets), indexed by the macroblocks' slice field.
 * Frame macroblocks only (no MBAFF); 8-bit 4:2:0 (I420 or NV12 buffers).
 *
 * The consumer validates the meta: too few entries for the grid or no slice, a coded size
 * smaller than the caps or larger than the planes hold, and what v3d_h264_deblock_frame refuses
 * (qp > 51, bS > 4, a slice index out of range, idc > 2, offsets outside -12..12, odd filter
 * offsets) are a stream error naming the offending macroblock or slice; the picture is then
 * not modified.
 *
 * The meta is kept by copies of the whole buffer and dropped by any other transform (scaling,
 * cropping, ...). Tags: video, size, orientation.
 *
 * The meta's code is libgstv3d-1.0 (pkg-config gstreamer-v3d-1.0), which the plugin links too.
 * Without linking it: once the plugin is loaded (e.g. after gst_element_factory_make
 * ("v3dh264deblock")), attach it with
 *   gst_buffer_add_meta (buffer, gst_meta_get_info ("GstV3dH264DeblockMeta"), &params);
 * (params: a GstV3dH264DeblockMetaParams, copied) and find it with
 *   gst_buffer_get_meta (buffer, g_type_from_name ("GstV3dH264DeblockMetaAPI")).
 * The functions below do exactly that, registering the types on first use (by name).
 */
#ifndef GST_V3D_H264_META_H
#define GST_V3D_H264_META_H

#include <gst/gst.h>
#include <gst/v3d/v3d-prelude.h>
#include <v3d/v3d.h>

G_BEGIN_DECLS

#define GST_V3D_H264_DEBLOCK_META_API_NAME "GstV3dH264DeblockMetaAPI"
#define GST_V3D_H264_DEBLOCK_META_IMPL_NAME "GstV3dH264DeblockMeta"

#define GST_V3D_H264_DEBLOCK_META_API_TYPE (gst_v3d_h264_deblock_meta_api_get_type ())
#define GST_V3D_H264_DEBLOCK_META_INFO (gst_v3d_h264_deblock_meta_get_info ())

/**
 * GstV3dH264DeblockMeta:
 * @meta: parent #GstMeta
 * @coded_width: luma width the process works on, >= the caps width
 * @coded_height: luma height the process works on, >= the caps height
 * @mbs: (array length=n_mbs): the macroblock grid, read-only
 * @n_mbs: entries in @mbs (at least mb_stride * ceil(coded_height/16) for a valid meta)
 * @mb_stride: entries from one grid row to the next, >= ceil(coded_width/16)
 * @slices: (array length=n_slices): the picture's slices, read-only
 * @n_slices: entries in @slices, >= 1
 *
 * Fields are read-only for users; the arrays stay valid as long as the meta does.
 */
typedef struct {
  GstMeta meta;

  gint coded_width;
  gint coded_height;
  const V3dH264MbInfo *mbs;
  gsize n_mbs;
  gint mb_stride;
  const V3dH264SliceInfo *slices;
  gsize n_slices;

  /*< private >*/
  GBytes *mbs_bytes;
  GBytes *slices_bytes;
} GstV3dH264DeblockMeta;

/**
 * GstV3dH264DeblockMetaParams:
 *
 * Parameters of gst_buffer_add_meta() for this meta's GstMetaInfo. mbs_bytes and slices_bytes,
 * if not NULL, are taken (the meta owns those references afterwards); else mbs/n_mbs and
 * slices/n_slices are copied.
 */
typedef struct {
  gint coded_width;
  gint coded_height;
  GBytes *mbs_bytes;           /* (transfer full) (nullable): n * sizeof (V3dH264MbInfo) bytes */
  const V3dH264MbInfo *mbs;    /* (nullable): copied when mbs_bytes is NULL */
  gsize n_mbs;
  gint mb_stride;
  GBytes *slices_bytes;        /* (transfer full) (nullable): n * sizeof (V3dH264SliceInfo) */
  const V3dH264SliceInfo *slices; /* (nullable): copied when slices_bytes is NULL */
  gsize n_slices;
} GstV3dH264DeblockMetaParams;

/* The meta's API type, registered on first call (thread-safe). */
GST_V3D_API
GType gst_v3d_h264_deblock_meta_api_get_type (void);
/* The meta's implementation, registered on first call (thread-safe). Never NULL. */
GST_V3D_API
const GstMetaInfo *gst_v3d_h264_deblock_meta_get_info (void);

/**
 * gst_buffer_add_v3d_h264_deblock_meta:
 * @buffer: a writable buffer
 * @coded_width: luma width of the coded picture
 * @coded_height: luma height of the coded picture
 * @mbs: (array length=n_mbs): the macroblock grid, COPIED
 * @n_mbs: entries in @mbs
 * @mb_stride: entries per grid row
 * @slices: (array length=n_slices): the slices, COPIED
 * @n_slices: entries in @slices
 *
 * Validity is not checked here (the consumer checks it against the frame it sees).
 * Returns: (transfer none): the meta, owned by @buffer; NULL if @buffer is not writable.
 */
GST_V3D_API
GstV3dH264DeblockMeta *gst_buffer_add_v3d_h264_deblock_meta (GstBuffer *buffer,
    gint coded_width, gint coded_height, const V3dH264MbInfo *mbs, gsize n_mbs, gint mb_stride,
    const V3dH264SliceInfo *slices, gsize n_slices);

/* Returns: (transfer none) (nullable): the buffer's H.264 deblocking meta, if any. */
#define gst_buffer_get_v3d_h264_deblock_meta(b) \
  ((GstV3dH264DeblockMeta *) gst_buffer_get_meta ((b), GST_V3D_H264_DEBLOCK_META_API_TYPE))

G_END_DECLS

#endif /* GST_V3D_H264_META_H */
