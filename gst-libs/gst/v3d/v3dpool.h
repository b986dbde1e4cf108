/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstV3dBufferPool: a GstVideoBufferPool whose memory comes from a GstV3dAllocator (host-visible
 * memory shared by the CPU workers and the GPU of one V3dContext), so frames reach the GPU
 * without copies.
 *
 * Like GstVideoBufferPool it supports GST_BUFFER_POOL_OPTION_VIDEO_META and
 * GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT. When the config enables video meta, the pool adds
 * right/bottom padding so that every plane holds the frame rounded up to whole 8x8 luma blocks
 * (what v3d_vp9_itxfm_add_frame processes), so the element never needs a padded copy. Any
 * allocator in the config is replaced by the pool's own.
 *
 * Ownership: the pool references its allocator, which references the V3dContext.
 */
#ifndef GST_V3D_POOL_H
#define GST_V3D_POOL_H

#include <gst/video/video.h>
#include <gst/v3d/v3d-prelude.h>
#include <v3d/v3d.h>

G_BEGIN_DECLS

#define GST_TYPE_V3D_BUFFER_POOL (gst_v3d_buffer_pool_get_type ())
GST_V3D_API
GType gst_v3d_buffer_pool_get_type (void);
G_DECLARE_FINAL_TYPE (GstV3dBufferPool, gst_v3d_buffer_pool, GST, V3D_BUFFER_POOL,
    GstVideoBufferPool)

/* Returns: (transfer full): a new pool allocating from ctx (referenced). */
GST_V3D_API
GstBufferPool *gst_v3d_buffer_pool_new (V3dContext *ctx);

/* Returns: (transfer none): the pool's allocator. */
GST_V3D_API
GstAllocator *gst_v3d_buffer_pool_get_allocator (GstV3dBufferPool *pool);

G_END_DECLS

#endif /* GST_V3D_POOL_H */
