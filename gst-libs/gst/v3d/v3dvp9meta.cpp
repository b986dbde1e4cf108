// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dVp9ResidualMeta: registration, init/free/transform functions, add helpers.
// See v3dvp9meta.h for the contract.
#include "v3dvp9meta.h"

#include <gst/video/video.h>

namespace {

GBytes *bytes_or_copy(GBytes *taken, const void *data, gsize size) {
  if (taken) return taken;
  return g_bytes_new(size ? data : nullptr, data ? size : 0);
}

gboolean meta_init(GstMeta *meta, gpointer params, GstBuffer *) {
  auto *m = reinterpret_cast<GstV3dVp9ResidualMeta *>(meta);
  GstV3dVp9ResidualMetaParams empty = {};
  auto *p = params ? static_cast<GstV3dVp9ResidualMetaParams *>(params) : &empty;
  m->blocks_bytes = bytes_or_copy(p->blocks_bytes, p->blocks, p->n_blocks * sizeof(V3dVp9TxBlock));
  m->coeffs_bytes = bytes_or_copy(p->coeffs_bytes, p->coeffs, p->n_coeffs * sizeof(gint16));
  gsize size = 0;
  m->blocks = static_cast<const V3dVp9TxBlock *>(g_bytes_get_data(m->blocks_bytes, &size));
  m->n_blocks = size / sizeof(V3dVp9TxBlock);
  m->coeffs = static_cast<const gint16 *>(g_bytes_get_data(m->coeffs_bytes, &size));
  m->n_coeffs = size / sizeof(gint16);
  return TRUE;
}

void meta_free(GstMeta *meta, GstBuffer *) {
  auto *m = reinterpret_cast<GstV3dVp9ResidualMeta *>(meta);
  g_clear_pointer(&m->blocks_bytes, g_bytes_unref);
  g_clear_pointer(&m->coeffs_bytes, g_bytes_unref);
  m->blocks = nullptr;
  m->coeffs = nullptr;
  m->n_blocks = m->n_coeffs = 0;
}

// Kept by copies of the whole buffer (sharing the immutable arrays); partial copies skip it
// (a region of a frame is not the frame the blocks describe); every other transform (scaling,
// ...) fails, so the meta is dropped there.
gboolean meta_transform(GstBuffer *dest, GstMeta *meta, GstBuffer *buffer, GQuark type,
                        gpointer data) {
  auto *m = reinterpret_cast<GstV3dVp9ResidualMeta *>(meta);
  if (!GST_META_TRANSFORM_IS_COPY(type)) return FALSE;
  auto *copy = static_cast<GstMetaTransformCopy *>(data);
  if (copy->region && (copy->offset != 0 || copy->size < gst_buffer_get_size(buffer)))
    return TRUE;  // nothing to copy, and not a failure
  GstV3dVp9ResidualMetaParams p = {};
  p.blocks_bytes = g_bytes_ref(m->blocks_bytes);
  p.coeffs_bytes = g_bytes_ref(m->coeffs_bytes);
  return gst_buffer_add_meta(dest, GST_V3D_VP9_RESIDUAL_META_INFO, &p) != nullptr;
}

}  // namespace

GType gst_v3d_vp9_residual_meta_api_get_type(void) {
  static gsize type = 0;
  if (g_once_init_enter(&type)) {
    // Another module of the process (the plugin, a test, an application) may have registered it.
    GType t = g_type_from_name(GST_V3D_VP9_RESIDUAL_META_API_NAME);
    if (!t) {
      static const gchar *tags[] = {GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
                                    GST_META_TAG_VIDEO_ORIENTATION_STR, nullptr};
      t = gst_meta_api_type_register(GST_V3D_VP9_RESIDUAL_META_API_NAME, tags);
    }
    g_once_init_leave(&type, t);
  }
  return static_cast<GType>(type);
}

const GstMetaInfo *gst_v3d_vp9_residual_meta_get_info(void) {
  static const GstMetaInfo *info = nullptr;
  if (g_once_init_enter(&info)) {
    GType api = gst_v3d_vp9_residual_meta_api_get_type();
    const GstMetaInfo *i = gst_meta_get_info(GST_V3D_VP9_RESIDUAL_META_IMPL_NAME);
    if (!i)
      i = gst_meta_register(api, GST_V3D_VP9_RESIDUAL_META_IMPL_NAME,
                            sizeof(GstV3dVp9ResidualMeta), meta_init, meta_free, meta_transform);
    g_once_init_leave(&info, i);
  }
  return info;
}

GstV3dVp9ResidualMeta *gst_buffer_add_v3d_vp9_residual_meta(GstBuffer *buffer,
                                                            const V3dVp9TxBlock *blocks,
                                                            gsize n_blocks, const gint16 *coeffs,
                                                            gsize n_coeffs) {
  g_return_val_if_fail(GST_IS_BUFFER(buffer), nullptr);
  g_return_val_if_fail(gst_buffer_is_writable(buffer), nullptr);
  GstV3dVp9ResidualMetaParams p = {};
  p.blocks = blocks;
  p.n_blocks = blocks ? n_blocks : 0;
  p.coeffs = coeffs;
  p.n_coeffs = coeffs ? n_coeffs : 0;
  return reinterpret_cast<GstV3dVp9ResidualMeta *>(
      gst_buffer_add_meta(buffer, GST_V3D_VP9_RESIDUAL_META_INFO, &p));
}

GstV3dVp9ResidualMeta *gst_buffer_add_v3d_vp9_residual_meta_take(GstBuffer *buffer,
                                                                 GBytes *blocks, GBytes *coeffs) {
  if (!GST_IS_BUFFER(buffer) || !gst_buffer_is_writable(buffer) || !blocks || !coeffs) {
    g_critical("gst_buffer_add_v3d_vp9_residual_meta_take: invalid arguments");
    if (blocks) g_bytes_unref(blocks);
    if (coeffs) g_bytes_unref(coeffs);
    return nullptr;
  }
  GstV3dVp9ResidualMetaParams p = {};
  p.blocks_bytes = blocks;
  p.coeffs_bytes = coeffs;
  return reinterpret_cast<GstV3dVp9ResidualMeta *>(
      gst_buffer_add_meta(buffer, GST_V3D_VP9_RESIDUAL_META_INFO, &p));
}
