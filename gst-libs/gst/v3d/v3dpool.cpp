// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dBufferPool: GstVideoBufferPool + GstV3dAllocator + padding to whole 8x8 luma blocks.
#include "v3dpool.h"

#include "v3dallocator.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_pool_debug);
#define GST_CAT_DEFAULT gst_v3d_pool_debug

struct _GstV3dBufferPool {
  GstVideoBufferPool parent;
  GstAllocator *allocator;
};

G_DEFINE_TYPE(GstV3dBufferPool, gst_v3d_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL)

// Block size the frame-level kernels round the luma plane up to (v3d.h,
// v3d_vp9_itxfm_add_frame: "whole 8x8 luma blocks").
constexpr guint kLumaBlock = 8;

static gboolean gst_v3d_buffer_pool_set_config(GstBufferPool *pool, GstStructure *config) {
  auto *self = GST_V3D_BUFFER_POOL(pool);
  GstAllocator *allocator = nullptr;
  GstAllocationParams params;
  if (!gst_buffer_pool_config_get_allocator(config, &allocator, &params))
    gst_allocation_params_init(&params);
  if (allocator != self->allocator) {
    GST_DEBUG_OBJECT(self, "using the v3d shared-memory allocator instead of %" GST_PTR_FORMAT,
                     allocator);
    gst_buffer_pool_config_set_allocator(config, self->allocator, &params);
  }

  GstCaps *caps = nullptr;
  GstVideoInfo info;
  if (gst_buffer_pool_config_get_params(config, &caps, nullptr, nullptr, nullptr) && caps &&
      gst_video_info_from_caps(&info, caps) &&
      gst_buffer_pool_config_has_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META)) {
    // Planes must hold 8*ceil(w/8) x 8*ceil(h/8) luma pixels (half that for chroma) from the
    // visible origin: pad right and bottom (keeping any larger padding asked for).
    GstVideoAlignment align;
    gst_video_alignment_reset(&align);
    if (gst_buffer_pool_config_has_option(config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT))
      gst_buffer_pool_config_get_video_alignment(config, &align);
    else
      gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
    guint w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
    guint pad_w = GST_ROUND_UP_N(w, kLumaBlock) - w, pad_h = GST_ROUND_UP_N(h, kLumaBlock) - h;
    align.padding_right = MAX(align.padding_right, pad_w);
    align.padding_bottom = MAX(align.padding_bottom, pad_h);
    gst_buffer_pool_config_set_video_alignment(config, &align);
  }
  return GST_BUFFER_POOL_CLASS(gst_v3d_buffer_pool_parent_class)->set_config(pool, config);
}

static void gst_v3d_buffer_pool_finalize(GObject *object) {
  auto *self = GST_V3D_BUFFER_POOL(object);
  gst_clear_object(&self->allocator);
  G_OBJECT_CLASS(gst_v3d_buffer_pool_parent_class)->finalize(object);
}

static void gst_v3d_buffer_pool_class_init(GstV3dBufferPoolClass *klass) {
  G_OBJECT_CLASS(klass)->finalize = gst_v3d_buffer_pool_finalize;
  GST_BUFFER_POOL_CLASS(klass)->set_config = gst_v3d_buffer_pool_set_config;
  GST_DEBUG_CATEGORY_INIT(gst_v3d_pool_debug, "v3dpool", 0, "v3d shared-memory buffer pool");
}

static void gst_v3d_buffer_pool_init(GstV3dBufferPool *) {}

GstBufferPool *gst_v3d_buffer_pool_new(V3dContext *ctx) {
  g_return_val_if_fail(ctx != nullptr, nullptr);
  auto *self = GST_V3D_BUFFER_POOL(g_object_new(GST_TYPE_V3D_BUFFER_POOL, nullptr));
  gst_object_ref_sink(self);
  self->allocator = gst_v3d_allocator_new(ctx);
  return GST_BUFFER_POOL(self);
}

GstAllocator *gst_v3d_buffer_pool_get_allocator(GstV3dBufferPool *pool) {
  return pool->allocator;
}
