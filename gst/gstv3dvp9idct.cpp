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
 * pipeline through a #GstContext of type "v3d.context" (<gst/v3d/v3dcontext.h> of
 * libgstv3d-1.0, which also holds the meta); an application can supply its own. Elements asking
 * for different backends (other than "auto") do not share: each uses a context of its own
 * backend, shared only with neighbours asking for the same one.
 *
 * With #GstV3dFilter:max-frames-in-flight and a GPU (backend hybrid, or auto with one), frames
 * are held and transformed together (v3d_vp9_itxfm_add_frames), in order.
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

#include <gst/v3d/v3dvp9meta.h>

#include "gstv3delements.h"
#include "v3dfilter.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_vp9_idct_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_idct_debug

// Properties: backend, cpu-threads, gpu-device, gpu-share, checksum, stats, stats-interval and
// max-frames-in-flight, all of the base class (v3dfilter_props.cpp).

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

#define GST_TYPE_V3D_VP9_IDCT (gst_v3d_vp9_idct_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9Idct, gst_v3d_vp9_idct, GST, V3D_VP9_IDCT, GstV3dFilter)

struct _GstV3dVp9Idct {
  GstV3dFilter parent;
};

G_DEFINE_TYPE(GstV3dVp9Idct, gst_v3d_vp9_idct, GST_TYPE_V3D_FILTER)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9idct, "v3dvp9idct", GST_RANK_NONE, GST_TYPE_V3D_VP9_IDCT)

static GstFlowReturn gst_v3d_vp9_idct_describe(GstV3dFilter *filter, GstBuffer *buf,
                                               GstV3dFrameDesc *desc);

static void gst_v3d_vp9_idct_class_init(GstV3dVp9IdctClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstV3dFilterClass *v3d_class = GST_V3D_FILTER_CLASS(klass);

  /**
   * GstV3dVp9Idct:stats:
   *
   * Besides the common fields (#GstV3dFilter:stats): frames (frames with a meta, processed),
   * blocks (the blocks of their metas), frames-without-meta (passed through untouched),
   * padded-copies (frames processed through the padded copy). The context's blocks-cpu and
   * blocks-gpu count transform blocks.
   */
  gst_v3d_filter_class_install_properties(v3d_class,
      GST_V3D_FILTER_WITH_GPU_PROPS | GST_V3D_FILTER_WITH_CHECKSUM,
      "Where the inverse transforms run (read when going to READY)");
  v3d_class->describe = gst_v3d_vp9_idct_describe;
  v3d_class->kernel = V3D_KERNEL_VP9_ITX;
  v3d_class->what = "VP9 inverse transform";
  v3d_class->meta_name = "VP9 residual meta";
  v3d_class->meta_api = GST_V3D_VP9_RESIDUAL_META_API_TYPE;
  v3d_class->counter_names = counter_names;
  v3d_class->padded_counter = COUNT_PADDED_COPIES;

  gst_element_class_set_static_metadata(element_class, "VP9 inverse transform",
      "Filter/Video", "Adds the VP9 inverse transforms of a GstV3dVp9ResidualMeta to the frame "
      "on SIMD CPU threads and/or the GPU (Vulkan compute)", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_idct_debug, "v3dvp9idct", 0, "VP9 inverse transform");
}

static void gst_v3d_vp9_idct_init(GstV3dVp9Idct *) {}

// A frame with a residual meta: its blocks and coefficients, over the caps size. Without one:
// left as it is.
static GstFlowReturn gst_v3d_vp9_idct_describe(GstV3dFilter *filter, GstBuffer *buf,
                                               GstV3dFrameDesc *desc) {
  auto *meta = gst_buffer_get_v3d_vp9_residual_meta(buf);
  if (!meta) {
    desc->action = GstV3dFrameDesc::PASS;
    desc->count(COUNT_FRAMES_WITHOUT_META);
    return GST_FLOW_OK;
  }
  const GstVideoInfo *info = &GST_VIDEO_FILTER(filter)->in_info;
  desc->meta = &meta->meta;
  desc->width = GST_VIDEO_INFO_WIDTH(info);
  desc->height = GST_VIDEO_INFO_HEIGHT(info);
  desc->args.itx.blocks = meta->blocks;
  desc->args.itx.n_blocks = meta->n_blocks;
  desc->args.itx.coeffs = meta->coeffs;
  desc->args.itx.n_coeffs = meta->n_coeffs;
  desc->count(COUNT_FRAMES);
  desc->count(COUNT_BLOCKS, meta->n_blocks);
  return GST_FLOW_OK;
}
