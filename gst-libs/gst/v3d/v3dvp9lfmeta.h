/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstV3dVp9LfMeta: what the VP9 loop filter needs of one decoded frame, attached by a decoder (or
 * an application) to the frame's buffer for the v3dvp9lpf element, which filters the frame in
 * place with v3d_vp9_loop_filter_frame() (kernels/include/v3d/v3d.h) and removes the meta.
 *
 * Contents: the frame's mode-info grid, one V3dVp9LfInfo per 8x8 luma block ("mi" unit) in
 * raster order, (height+7)/8 rows of grid_stride entries ((width+7)/8 used per row; width and
 * height are the buffer's caps), and the frame's sharpness (0..7). Entries carry libvpx's
 * per-block filter level (deltas applied), BLOCK_SIZE, luma TX_SIZE and skip && inter, see the
 * comments of V3dVp9LfInfo and v3d_vp9_loop_filter_frame in v3d.h. A frame whose frame-level
 * filter level is 0 should carry no meta. The consumer validates the grid: an invalid one
 * (level > 63, block_size > 12, a transform larger than its block, not a VP9 partition, too few
 * rows) is a stream error naming the offending block.
 *
 * The meta is kept by copies of the whole buffer and dropped by any other transform (scaling,
 * cropping, ...). Tags: video, size, orientation.
 *
 * The meta's code is libgstv3d-1.0 (pkg-config gstreamer-v3d-1.0), which the plugin links too.
 * Without linking it: once the plugin is loaded (e.g. after gst_element_factory_make
 * ("v3dvp9lpf")), attach it with
 *   gst_buffer_add_meta (buffer, gst_meta_get_info ("GstV3dVp9LfMeta"), &params);
 * (params: a GstV3dVp9LfMetaParams, copied) and find it with
 *   gst_buffer_get_meta (buffer, g_type_from_name ("GstV3dVp9LfMetaAPI")).
 * The functions below do exactly that, registering the types on first use (by name).
 */
#ifndef GST_V3D_VP9_LF_META_H
#define GST_V3D_VP9_LF_META_H

#include <gst/gst.h>
#include <gst/v3d/v3d-prelude.h>
#include <v3d/v3d.h>

G_BEGIN_DECLS

#define GST_V3D_VP9_LF_META_API_NAME "GstV3dVp9LfMetaAPI"
#define GST_V3D_VP9_LF_META_IMPL_NAME "GstV3dVp9LfMeta"

#define GST_V3D_VP9_LF_META_API_TYPE (gst_v3d_vp9_lf_meta_api_get_type ())
#define GST_V3D_VP9_LF_META_INFO (gst_v3d_vp9_lf_meta_get_info ())

/**
 * GstV3dVp9LfMeta:
 * @meta: parent #GstMeta
 * @grid: (array length=n_entries): the mode-info grid, read-only
 * @n_entries: entries in @grid (at least grid_stride * ((height+7)/8) for a valid meta)
 * @grid_stride: entries from one grid row to the next
 * @sharpness: the frame header's sharpness level, 0..7
 *
 * Fields are read-only for users; @grid stays valid as long as the meta does.
 */
typedef struct {
  GstMeta meta;

  const V3dVp9LfInfo *grid;
  gsize n_entries;
  gint grid_stride;
  gint sharpness;

  /*< private >*/
  GBytes *grid_bytes;
} GstV3dVp9LfMeta;

/**
 * GstV3dVp9LfMetaParams:
 *
 * Parameters of gst_buffer_add_meta() for this meta's GstMetaInfo. grid_bytes, if not NULL, is
 * taken (the meta owns that reference afterwards); else grid/n_entries are copied.
 */
typedef struct {
  GBytes *grid_bytes;       /* (transfer full) (nullable): n * sizeof (V3dVp9LfInfo) bytes */
  const V3dVp9LfInfo *grid; /* (nullable): copied when grid_bytes is NULL */
  gsize n_entries;
  gint grid_stride;
  gint sharpness;
} GstV3dVp9LfMetaParams;

/* The meta's API type, registered on first call (thread-safe). */
GST_V3D_API
GType gst_v3d_vp9_lf_meta_api_get_type (void);
/* The meta's implementation, registered on first call (thread-safe). Never NULL. */
GST_V3D_API
const GstMetaInfo *gst_v3d_vp9_lf_meta_get_info (void);

/**
 * gst_buffer_add_v3d_vp9_lf_meta:
 * @buffer: a writable buffer
 * @grid: (array length=n_entries): the grid, COPIED
 * @n_entries: entries in @grid
 * @grid_stride: entries per grid row
 * @sharpness: 0..7
 *
 * Validity is not checked here (the consumer checks it against the frame it sees).
 * Returns: (transfer none): the meta, owned by @buffer; NULL if @buffer is not writable.
 */
GST_V3D_API
GstV3dVp9LfMeta *gst_buffer_add_v3d_vp9_lf_meta (GstBuffer *buffer, const V3dVp9LfInfo *grid,
    gsize n_entries, gint grid_stride, gint sharpness);

/* Returns: (transfer none) (nullable): the buffer's loop filter meta, if any. */
#define gst_buffer_get_v3d_vp9_lf_meta(b) \
  ((GstV3dVp9LfMeta *) gst_buffer_get_meta ((b), GST_V3D_VP9_LF_META_API_TYPE))

G_END_DECLS

#endif /* GST_V3D_VP9_LF_META_H */
