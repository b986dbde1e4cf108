// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dH264DeblockMeta: registration, init/free/transform functions, add helper. See
// v3dh264meta.h.
#include "v3dh264meta.h"

#include <gst/video/video.h>

namespace {

// Takes `bytes` if given, else copies n elements of `data`.
GBytes *take_or_copy(GBytes *bytes, const void *data, gsize n, gsize elem) {
  if (bytes) return bytes;
  return g_bytes_new(data, data ? n * elem : 0);
}

gboolean meta_init(GstMeta *meta, gpointer params, GstBuffer *) {
  auto *m = reinterpret_cast<GstV3dH264DeblockMeta *>(meta);
  GstV3dH264DeblockMetaParams empty = {};
  auto *p = params ? static_cast<GstV3dH264DeblockMetaParams *>(params) : &empty;
  m->coded_width = p->coded_width;
  m->coded_height = p->coded_height;
  m->mb_stride = p->mb_stride;
  m->mbs_bytes = take_or_copy(p->mbs_bytes, p->mbs, p->n_mbs, sizeof(V3dH264MbInfo));
  m->slices_bytes =
      take_or_copy(p->slices_bytes, p->slices, p->n_slices, sizeof(V3dH264SliceInfo));
  gsize size = 0;
  m->mbs = static_cast<const V3dH264MbInfo *>(g_bytes_get_data(m->mbs_bytes, &size));
  m->n_mbs = size / sizeof(V3dH264MbInfo);
  m->slices = static_cast<const V3dH264SliceInfo *>(g_bytes_get_data(m->slices_bytes, &size));
  m->n_slices = size / sizeof(V3dH264SliceInfo);
  return TRUE;
}

void meta_free(GstMeta *meta, GstBuffer *) {
  auto *m = reinterpret_cast<GstV3dH264DeblockMeta *>(meta);
  g_clear_pointer(&m->mbs_bytes, g_bytes_unref);
  g_clear_pointer(&m->slices_bytes, g_bytes_unref);
  m->mbs = nullptr;
  m->slices = nullptr;
  m->n_mbs = m->n_slices = 0;
}

// Whole-buffer copies share the immutable arrays; partial copies skip the meta; other
// transforms fail.
gboolean meta_transform(GstBuffer *dest, GstMeta *meta, GstBuffer *buffer, GQuark type,
                        gpointer data) {
  auto *m = reinterpret_cast<GstV3dH264DeblockMeta *>(meta);
  if (!GST_META_TRANSFORM_IS_COPY(type)) return FALSE;
  auto *copy = static_cast<GstMetaTransformCopy *>(data);
  if (copy->region && (copy->offset != 0 || copy->size < gst_buffer_get_size(buffer)))
    return TRUE;
  GstV3dH264DeblockMetaParams p = {};
  p.coded_width = m->coded_width;
  p.coded_height = m->coded_height;
  p.mbs_bytes = g_bytes_ref(m->mbs_bytes);
  p.mb_stride = m->mb_stride;
  p.slices_bytes = g_bytes_ref(m->slices_bytes);
  return gst_buffer_add_meta(dest, GST_V3D_H264_DEBLOCK_META_INFO, &p) != nullptr;
}

}  // namespace

GType gst_v3d_h264_deblock_meta_api_get_type(void) {
  static gsize type = 0;
  if (g_once_init_enter(&type)) {
    GType t = g_type_from_name(GST_V3D_H264_DEBLOCK_META_API_NAME);
    if (!t) {
      static const gchar *tags[] = {GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
                                    GST_META_TAG_VIDEO_ORIENTATION_STR, nullptr};
      t = gst_meta_api_type_register(GST_V3D_H264_DEBLOCK_META_API_NAME, tags);
    }
    g_once_init_leave(&type, t);
  }
  return static_cast<GType>(type);
}

const GstMetaInfo *gst_v3d_h264_deblock_meta_get_info(void) {
  static const GstMetaInfo *info = nullptr;
  if (g_once_init_enter(&info)) {
    GType api = gst_v3d_h264_deblock_meta_api_get_type();
    const GstMetaInfo *i = gst_meta_get_info(GST_V3D_H264_DEBLOCK_META_IMPL_NAME);
    if (!i)
      i = gst_meta_register(api, GST_V3D_H264_DEBLOCK_META_IMPL_NAME,
                            sizeof(GstV3dH264DeblockMeta), meta_init, meta_free, meta_transform);
    g_once_init_leave(&info, i);
  }
  return info;
}

GstV3dH264DeblockMeta *gst_buffer_add_v3d_h264_deblock_meta(
    GstBuffer *buffer, gint coded_width, gint coded_height, const V3dH264MbInfo *mbs,
    gsize n_mbs, gint mb_stride, const V3dH264SliceInfo *slices, gsize n_slices) {
  g_return_val_if_fail(GST_IS_BUFFER(buffer), nullptr);
  g_return_val_if_fail(gst_buffer_is_writable(buffer), nullptr);
  GstV3dH264DeblockMetaParams p = {};
  p.coded_width = coded_width;
  p.coded_height = coded_height;
  p.mbs = mbs;
  p.n_mbs = mbs ? n_mbs : 0;
  p.mb_stride = mb_stride;
  p.slices = slices;
  p.n_slices = slices ? n_slices : 0;
  return reinterpret_cast<GstV3dH264DeblockMeta *>(
      gst_buffer_add_meta(buffer, GST_V3D_H264_DEBLOCK_META_INFO, &p));
}
