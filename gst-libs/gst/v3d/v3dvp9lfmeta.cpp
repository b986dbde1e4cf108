// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dVp9LfMeta: registration, init/free/transform functions, add helper. See v3dvp9lfmeta.h.
#include "v3dvp9lfmeta.h"

#include <gst/video/video.h>

namespace {

gboolean meta_init(GstMeta *meta, gpointer params, GstBuffer *) {
  auto *m = reinterpret_cast<GstV3dVp9LfMeta *>(meta);
  GstV3dVp9LfMetaParams empty = {};
  auto *p = params ? static_cast<GstV3dVp9LfMetaParams *>(params) : &empty;
  if (p->grid_bytes)
    m->grid_bytes = p->grid_bytes;
  else
    m->grid_bytes = g_bytes_new(p->grid, p->grid ? p->n_entries * sizeof(V3dVp9LfInfo) : 0);
  gsize size = 0;
  m->grid = static_cast<const V3dVp9LfInfo *>(g_bytes_get_data(m->grid_bytes, &size));
  m->n_entries = size / sizeof(V3dVp9LfInfo);
  m->grid_stride = p->grid_stride;
  m->sharpness = p->sharpness;
  return TRUE;
}

void meta_free(GstMeta *meta, GstBuffer *) {
  auto *m = reinterpret_cast<GstV3dVp9LfMeta *>(meta);
  g_clear_pointer(&m->grid_bytes, g_bytes_unref);
  m->grid = nullptr;
  m->n_entries = 0;
}

// Whole-buffer copies share the immutable grid; partial copies skip it; other transforms fail.
gboolean meta_transform(GstBuffer *dest, GstMeta *meta, GstBuffer *buffer, GQuark type,
                        gpointer data) {
  auto *m = reinterpret_cast<GstV3dVp9LfMeta *>(meta);
  if (!GST_META_TRANSFORM_IS_COPY(type)) return FALSE;
  auto *copy = static_cast<GstMetaTransformCopy *>(data);
  if (copy->region && (copy->offset != 0 || copy->size < gst_buffer_get_size(buffer)))
    return TRUE;
  GstV3dVp9LfMetaParams p = {};
  p.grid_bytes = g_bytes_ref(m->grid_bytes);
  p.grid_stride = m->grid_stride;
  p.sharpness = m->sharpness;
  return gst_buffer_add_meta(dest, GST_V3D_VP9_LF_META_INFO, &p) != nullptr;
}

}  // namespace

GType gst_v3d_vp9_lf_meta_api_get_type(void) {
  static gsize type = 0;
  if (g_once_init_enter(&type)) {
    GType t = g_type_from_name(GST_V3D_VP9_LF_META_API_NAME);
    if (!t) {
      static const gchar *tags[] = {GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
                                    GST_META_TAG_VIDEO_ORIENTATION_STR, nullptr};
      t = gst_meta_api_type_register(GST_V3D_VP9_LF_META_API_NAME, tags);
    }
    g_once_init_leave(&type, t);
  }
  return static_cast<GType>(type);
}

const GstMetaInfo *gst_v3d_vp9_lf_meta_get_info(void) {
  static const GstMetaInfo *info = nullptr;
  if (g_once_init_enter(&info)) {
    GType api = gst_v3d_vp9_lf_meta_api_get_type();
    const GstMetaInfo *i = gst_meta_get_info(GST_V3D_VP9_LF_META_IMPL_NAME);
    if (!i)
      i = gst_meta_register(api, GST_V3D_VP9_LF_META_IMPL_NAME, sizeof(GstV3dVp9LfMeta),
                            meta_init, meta_free, meta_transform);
    g_once_init_leave(&info, i);
  }
  return info;
}

GstV3dVp9LfMeta *gst_buffer_add_v3d_vp9_lf_meta(GstBuffer *buffer, const V3dVp9LfInfo *grid,
                                                gsize n_entries, gint grid_stride,
                                                gint sharpness) {
  g_return_val_if_fail(GST_IS_BUFFER(buffer), nullptr);
  g_return_val_if_fail(gst_buffer_is_writable(buffer), nullptr);
  GstV3dVp9LfMetaParams p = {};
  p.grid = grid;
  p.n_entries = grid ? n_entries : 0;
  p.grid_stride = grid_stride;
  p.sharpness = sharpness;
  return reinterpret_cast<GstV3dVp9LfMeta *>(
      gst_buffer_add_meta(buffer, GST_V3D_VP9_LF_META_INFO, &p));
}
