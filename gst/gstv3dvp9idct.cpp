// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dvp9idct
 * @title: v3dvp9idct
 *
 * Adds the VP9 inverse transforms of each frame's #GstV3dVp9ResidualMeta (the residual) to the
 * frame (the prediction), in place, on SIMD CPU workers, on the GPU through Vulkan compute, or
 * on both (property #GstV3dVp9Idct:backend), then removes the meta. Buffers without the meta pass
 * through untouched. An invalid meta (overlapping blocks, a block outside the frame, an invalid
 * transform, too few coefficients) is a stream error; the frame is not modified.
 *
 * The CPU workers and the GPU (a V3dContext) are shared with the other v3d elements of the
 * pipeline through a #GstContext of type "v3d.context" (see v3dcontext.h); an application can
 * supply its own. Elements asking for different backends (other than "auto") do not share: each
 * uses a context of its own backend, shared only with neighbours asking for the same one.
 *
 * Upstream is offered a #GstV3dBufferPool: frames in its memory reach the GPU without copies,
 * and with #GstVideoMeta its planes are padded to whole 8x8 luma blocks. Frames in other memory
 * are copied by the library when the GPU processes them (stats field "copies"); frames whose
 * planes lack the room for the 8x8-rounded area are processed through a padded copy made here
 * (stats field "padded-copies").
 *
 * At EOS the element posts an element message named "v3d-stats" with the #GstV3dVp9Idct:stats
 * structure (printed by gst-launch-1.0 -m). With #GstV3dVp9Idct:checksum it also digests the
 * visible pixels of every output frame, so runs on different backends can be compared whatever
 * the memory layout (the scripts in pipelines/ do that).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m v3dvp9residualsrc num-buffers=100 ! video/x-raw,width=1920,height=1088 ! \
 *     v3dvp9idct backend=gpu ! fakesink
 * ]|
 */
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <string>
#include <vector>

#include "gstv3delements.h"
#include "v3dfilter.h"
#include "v3dframe.h"
#include <gst/v3d/v3dvp9meta.h>

GST_DEBUG_CATEGORY_STATIC(gst_v3d_vp9_idct_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_idct_debug

// Properties: backend, cpu-threads, gpu-device, gpu-share, checksum and stats, all of the base
// class (v3dfilter.h).

// Stats counters (GstV3dFilterClass::counter_names).
enum { COUNT_FRAMES, COUNT_BLOCKS, COUNT_FRAMES_WITHOUT_META, COUNT_PADDED_COPIES };
static const gchar *const counter_names[] = {
    "frames",               // frames with a meta, processed
    "blocks",               // blocks of those metas
    "frames-without-meta",  //
    "padded-copies",        // frames processed through the padded copy
    nullptr};

// x and y of V3dVp9TxBlock are 16-bit (v3d.h): planes up to 65536 pixels wide and high.
#define V3D_IDCT_CAPS \
  "video/x-raw, format = (string) I420, width = (int) [ 1, 65536 ], " \
  "height = (int) [ 1, 65536 ], framerate = (fraction) [ 0, max ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_IDCT_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_IDCT_CAPS));

struct GstV3dVp9IdctPrivate {
  // Caps-time plane layout and padded copy; streaming thread (and stop/finalize) only.
  v3d::ItxFrameLayout layout;
};

#define GST_TYPE_V3D_VP9_IDCT (gst_v3d_vp9_idct_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9Idct, gst_v3d_vp9_idct, GST, V3D_VP9_IDCT, GstV3dFilter)

struct _GstV3dVp9Idct {
  GstV3dFilter parent;
  GstV3dVp9IdctPrivate *priv;
};

G_DEFINE_TYPE(GstV3dVp9Idct, gst_v3d_vp9_idct, GST_TYPE_V3D_FILTER)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9idct, "v3dvp9idct", GST_RANK_NONE, GST_TYPE_V3D_VP9_IDCT)

static void gst_v3d_vp9_idct_finalize(GObject *object);
static gboolean gst_v3d_vp9_idct_set_info(GstVideoFilter *filter, GstCaps *incaps,
                                          GstVideoInfo *in_info, GstCaps *outcaps,
                                          GstVideoInfo *out_info);
static gboolean gst_v3d_vp9_idct_stop(GstBaseTransform *trans);
static GstFlowReturn gst_v3d_vp9_idct_transform_ip(GstBaseTransform *trans, GstBuffer *buf);
static GstFlowReturn gst_v3d_vp9_idct_process_batch(GstV3dFilter *filter, GstBuffer **buffers,
                                                    guint n);

static void gst_v3d_vp9_idct_class_init(GstV3dVp9IdctClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);
  GstV3dFilterClass *v3d_class = GST_V3D_FILTER_CLASS(klass);

  gobject_class->finalize = gst_v3d_vp9_idct_finalize;
  gst_v3d_filter_class_install_properties(v3d_class,
      GST_V3D_FILTER_WITH_GPU_PROPS | GST_V3D_FILTER_WITH_CHECKSUM,
      "Where the inverse transforms run (read when going to READY)",
      "Statistics (read-only): this element's frames, blocks, frames-without-meta, "
      "padded-copies, input-copies and input-copy-time (read-only input frames copied into the "
      "element's pool, seconds), process-time (seconds inside the element for those frames), "
      "stream-time (seconds from the first such frame's arrival to the last one's end); and "
      "its context's backend, gpu-device, cpu-threads, context-frames, "
      "blocks-cpu, blocks-gpu, cpu-time and gpu-time (seconds), gpu-share (last frame, "
      "0..1), copies (plane copies to GPU memory), gpu-submissions, shared-memory (gpu: the pool hands out the GPU's memory; plain: ordinary memory, see V3D_SHARED_MEMORY); the scheduler's figures for this kernel family: kernel-frames, split-gpu-share, "
      "cpu-throughput and gpu-throughput (units per busy second), cpu-idle-time, gpu-idle-time, "
      "gpu-queue-depth, gpu-queue-depth-max, frame-time-median and frame-time-p99 (ms)");
  v3d_class->meta_api = GST_V3D_VP9_RESIDUAL_META_API_TYPE;
  v3d_class->counter_names = counter_names;
  v3d_class->kernel = V3D_KERNEL_VP9_ITX;
  v3d_class->process_batch = gst_v3d_vp9_idct_process_batch;

  gst_element_class_set_static_metadata(element_class, "VP9 inverse transform",
      "Filter/Video", "Adds the VP9 inverse transforms of a GstV3dVp9ResidualMeta to the frame "
      "on SIMD CPU threads and/or the GPU (Vulkan compute)", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_set_info);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_stop);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_transform_ip);

  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_idct_debug, "v3dvp9idct", 0, "VP9 inverse transform");
}

static void gst_v3d_vp9_idct_init(GstV3dVp9Idct *self) {
  self->priv = new GstV3dVp9IdctPrivate();
}

static void gst_v3d_vp9_idct_finalize(GObject *object) {
  auto *self = GST_V3D_VP9_IDCT(object);
  delete self->priv;  // frees the padded copy (the base class then releases the context)
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_vp9_idct_parent_class)->finalize(object);
}

// Caps time: plane sizes the library processes, and the padded copy for frames whose planes lack
// the room for them.
static gboolean gst_v3d_vp9_idct_set_info(GstVideoFilter *filter, GstCaps *, GstVideoInfo *info,
                                          GstCaps *, GstVideoInfo *) {
  auto *self = GST_V3D_VP9_IDCT(filter);
  return gst_v3d_filter_configure_layout(GST_V3D_FILTER(self), &self->priv->layout, info);
}

static gboolean gst_v3d_vp9_idct_stop(GstBaseTransform *trans) {
  GST_V3D_VP9_IDCT(trans)->priv->layout.reset();
  return TRUE;
}

static GstFlowReturn apply_meta(GstV3dVp9Idct *self, GstBuffer *buf);

static GstFlowReturn gst_v3d_vp9_idct_transform_ip(GstBaseTransform *trans, GstBuffer *buf) {
  auto *self = GST_V3D_VP9_IDCT(trans);
  GstFlowReturn ret = apply_meta(self, buf);
  if (ret == GST_FLOW_OK) gst_v3d_filter_update_checksum(GST_V3D_FILTER(self), buf);
  return ret;
}

// Applies and removes the buffer's residual meta, if any.
static GstFlowReturn apply_meta(GstV3dVp9Idct *self, GstBuffer *buf) {
  v3d::ItxFrameLayout &layout = self->priv->layout;
  auto *meta = gst_buffer_get_v3d_vp9_residual_meta(buf);
  if (!meta) {
    gst_v3d_filter_count(GST_V3D_FILTER(self), {{COUNT_FRAMES_WITHOUT_META, 1}});
    return GST_FLOW_OK;
  }
  const gint64 t_start = g_get_monotonic_time();
  GstV3dFilter *filter = GST_V3D_FILTER(self);
  if (!gst_v3d_filter_check_negotiated(filter)) return GST_FLOW_NOT_NEGOTIATED;
  const int w = layout.width(), h = layout.height();
  const bool direct = layout.has_room(buf);

  V3dContext *ctx = gst_v3d_filter_frame_context(filter);
  if (!ctx) return GST_FLOW_ERROR;
  int rc = V3D_OK;
  std::string why;
  if (!direct) {
    // Check first, so that an invalid meta costs no copy.
    rc = v3d_vp9_itxfm_validate(w, h, meta->blocks, meta->n_blocks, meta->n_coeffs);
    if (rc) why = v3d_last_error();
  }
  if (rc == V3D_OK) {
    GstVideoFrame frame;
    if (!gst_v3d_filter_map_frame(filter, &frame, buf)) {
      v3d_context_free(ctx);
      return GST_FLOW_ERROR;
    }
    uint8_t *planes[3];
    ptrdiff_t strides[3];
    layout.planes_for(frame, direct, planes, strides);
    rc = v3d_vp9_itxfm_add_frame(ctx, planes, strides, w, h, meta->blocks, meta->n_blocks,
                                 meta->coeffs, meta->n_coeffs);
    if (rc) why = v3d_last_error();
    if (rc == V3D_OK && !direct) layout.copy_back(frame);
    gst_video_frame_unmap(&frame);
  }
  v3d_context_free(ctx);

  if (rc != V3D_OK) {
    if (!gst_v3d_filter_resource_error(filter, rc, "VP9 inverse transform", why)) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 residual meta (%s): %s", v3d_error_name(rc), why.c_str()),
          ("frame %dx%d, %" G_GSIZE_FORMAT " blocks, %" G_GSIZE_FORMAT " coefficients", w, h,
           meta->n_blocks, meta->n_coeffs));
    }
    return GST_FLOW_ERROR;
  }
  const gsize n_blocks = meta->n_blocks;
  gst_buffer_remove_meta(buf, &meta->meta);
  gst_v3d_filter_count(filter,
                       {{COUNT_FRAMES, 1}, {COUNT_BLOCKS, n_blocks},
                        {COUNT_PADDED_COPIES, direct ? 0u : 1u}},
                       t_start);
  return GST_FLOW_OK;
}

// Frames in flight: the frames with a meta and room for the 8x8 rounding go to the library in
// one v3d_vp9_itxfm_add_frames call (whole frames on the CPU workers and the GPU at once); the
// others (no meta, or a padded copy needed) one by one.
static GstFlowReturn gst_v3d_vp9_idct_process_batch(GstV3dFilter *filter, GstBuffer **buffers,
                                                    guint n) {
  auto *self = GST_V3D_VP9_IDCT(filter);
  v3d::ItxFrameLayout &layout = self->priv->layout;
  if (!gst_v3d_filter_check_negotiated(filter)) return GST_FLOW_NOT_NEGOTIATED;
  const gint64 t_start = g_get_monotonic_time();
  std::vector<GstBuffer *> batched;
  std::vector<GstVideoFrame> mapped;
  std::vector<V3dVp9ItxFrame> frames;
  batched.reserve(n);
  mapped.reserve(n);
  frames.reserve(n);
  GstFlowReturn ret = GST_FLOW_OK;
  for (guint i = 0; i < n && ret == GST_FLOW_OK; i++) {
    auto *meta = gst_buffer_get_v3d_vp9_residual_meta(buffers[i]);
    if (!meta || !layout.has_room(buffers[i])) {
      ret = gst_v3d_vp9_idct_transform_ip(GST_BASE_TRANSFORM(self), buffers[i]);
      continue;
    }
    mapped.emplace_back();
    if (!gst_v3d_filter_map_frame(filter, &mapped.back(), buffers[i])) {
      mapped.pop_back();
      ret = GST_FLOW_ERROR;
      break;
    }
    V3dVp9ItxFrame fr{};
    layout.planes_for(mapped.back(), true, fr.planes, fr.strides);
    fr.width = layout.width();
    fr.height = layout.height();
    fr.blocks = meta->blocks;
    fr.n_blocks = meta->n_blocks;
    fr.coeffs = meta->coeffs;
    fr.n_coeffs = meta->n_coeffs;
    frames.push_back(fr);
    batched.push_back(buffers[i]);
  }
  if (ret == GST_FLOW_OK && !frames.empty()) {
    V3dContext *ctx = gst_v3d_filter_frame_context(filter);
    int rc = ctx ? v3d_vp9_itxfm_add_frames(ctx, frames.data(), frames.size()) : V3D_ERROR_UNAVAILABLE;
    std::string why = rc ? v3d_last_error() : "";
    if (ctx) v3d_context_free(ctx);
    if (rc != V3D_OK) {
      if (!gst_v3d_filter_resource_error(filter, rc, "VP9 inverse transform", why))
        GST_ELEMENT_ERROR(self, STREAM, DECODE,
            ("Invalid VP9 residual meta (%s): %s", v3d_error_name(rc), why.c_str()),
            ("a batch of %zu frames in flight", frames.size()));
      ret = GST_FLOW_ERROR;
    }
  }
  for (GstVideoFrame &f : mapped) gst_video_frame_unmap(&f);
  if (ret != GST_FLOW_OK) return ret;
  for (size_t i = 0; i < batched.size(); i++) {
    auto *meta = gst_buffer_get_v3d_vp9_residual_meta(batched[i]);
    const gsize n_blocks = meta->n_blocks;
    gst_buffer_remove_meta(batched[i], &meta->meta);
    // The batch's time counts once, with its last frame.
    gst_v3d_filter_count(filter, {{COUNT_FRAMES, 1}, {COUNT_BLOCKS, n_blocks}},
                         i + 1 == batched.size() ? t_start : -1);
    gst_v3d_filter_update_checksum(filter, batched[i]);
  }
  return GST_FLOW_OK;
}
