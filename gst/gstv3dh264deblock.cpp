// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dh264deblock
 * @title: v3dh264deblock
 *
 * Applies the H.264 deblocking filter (clause 8.7 of ITU-T H.264, v3d_h264_deblock_frame:
 * bit-exact with the standard's sequential process) to 8-bit 4:2:0 frames in place, I420 or
 * NV12, of any size, in one of two modes:
 *
 * - With a #GstV3dH264DeblockMeta (<gst/v3d/v3dh264meta.h> of libgstv3d-1.0, attached by a
 *   decoder or an application): the meta's coded size, macroblock grid (QP, bS of every edge
 *   segment, transform_8x8, slice) and slices (disable_deblocking_filter_idc, FilterOffsetA/B,
 *   chroma QP offsets) describe the picture; the meta is removed after filtering. An invalid meta
 *   is a stream error whose message names the problem (v3d_last_error()); the frame is not
 *   modified.
 * - Without a meta: a deblocking post-filter for any decoded video (low-bitrate MPEG-2, MJPEG,
 *   H.264 decoded with its loop filter skipped, ...). Every macroblock gets
 *   #GstV3dH264Deblock:qp and #GstV3dH264Deblock:transform-8x8, one slice gets the offsets, and
 *   the bS of every edge comes from #GstV3dH264Deblock:mode: "intra" (bS 4 on macroblock edges,
 *   3 on internal edges: what an all-intra picture gets; #GstV3dH264Deblock:bs is not used) or
 *   "inter" (#GstV3dH264Deblock:bs on every edge). The grid is built once per caps and again
 *   when a property changes (they may change while playing). Macroblocks cut by the right or
 *   bottom border are filtered on the edges they have (samples outside the frame are never read
 *   or written). A decoder's all-intra picture decoded without its loop filter becomes, with
 *   mode=intra and the stream's QP and offsets, what the decoder's loop filter gives.
 *
 * #GstV3dH264Deblock:alpha-offset and #GstV3dH264Deblock:beta-offset are the standard's
 * FilterOffsetA/B (slice_alpha_c0_offset_div2 * 2 and slice_beta_offset_div2 * 2): always even.
 * Setting an odd value is refused with a warning and the property keeps its previous value.
 *
 * NV12 frames: the library takes three planes, so the interleaved chroma plane is split into two
 * scratch planes (in the context's shared memory) and merged back after filtering (stats field
 * "chroma-copies"); luma is filtered in place.
 *
 * Backends (the context is shared with the other v3d elements): "gpu" deblocks every plane on the
 * GPU; "hybrid" and "auto" let the scheduler's split controller choose, from times measured per
 * frame size, between the CPU wavefront alone, the GPU alone and a split by planes (the GPU
 * deblocks chroma or luma while the CPU workers do the rest); "cpu" runs the SIMD wavefront and
 * "scalar" the scalar reference. At EOS the element posts a "v3d-stats" element message with
 * #GstV3dH264Deblock:stats.
 *
 * A read-only input frame (a decoder's reference picture) is copied into the element's pool:
 * an I420 picture of the caps size macroblock row by row inside the deblocking
 * (v3d_h264_deblock_frame_from, while in cache), others at once (stats "input-copies"). With
 * #GstV3dFilter:max-frames-in-flight and several CPU threads or a GPU, pictures are held and
 * deblocked together (v3d_h264_deblock_frames: their wavefronts in one loop of the workers), in
 * order.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=low.mpg ! decodebin ! videoconvert ! \
 *     v3dh264deblock mode=intra qp=36 transform-8x8=true ! autovideosink
 * ]|
 */
#include <gst/video/video.h>
#include <gst/v3d/v3dh264meta.h>
#include <v3d/v3d.h>

#include <vector>

#include "gstv3delements.h"
#include "v3dfilter.h"
#include "v3dframe.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_h264_deblock_debug);
#define GST_CAT_DEFAULT gst_v3d_h264_deblock_debug

// Properties of this element; backend, cpu-threads, checksum and stats are the base class's.
enum {
  PROP_MODE = GST_V3D_FILTER_PROP_LAST,
  PROP_QP,
  PROP_CHROMA_QP_OFFSET,
  PROP_ALPHA_OFFSET,
  PROP_BETA_OFFSET,
  PROP_BS,
  PROP_TRANSFORM_8X8,
};

// Post-filter bS patterns.
typedef enum {
  GST_V3D_H264_DEBLOCK_MODE_INTRA = 0,  // bS 4 on macroblock edges, 3 on internal edges
  GST_V3D_H264_DEBLOCK_MODE_INTER = 1,  // the bs property on every edge
} GstV3dH264DeblockMode;

// Defaults: a moderate deblocking of any blocky video (QP 32: indexA 32, alpha 32, beta 9 in
// Tables 8-16/8-17 of the standard), and the standard's defaults for the rest.
#define DEFAULT_PROP_MODE GST_V3D_H264_DEBLOCK_MODE_INTRA
#define DEFAULT_PROP_QP 32
#define DEFAULT_PROP_CHROMA_QP_OFFSET 0
#define DEFAULT_PROP_ALPHA_OFFSET 0
#define DEFAULT_PROP_BETA_OFFSET 0
#define DEFAULT_PROP_BS 2  // an inter edge with coefficients (clause 8.7.2.1)
#define DEFAULT_PROP_TRANSFORM_8X8 FALSE

// Stats counters (GstV3dFilterClass::counter_names).
enum { COUNT_FRAMES, COUNT_FRAMES_META, COUNT_FRAMES_POST, COUNT_MACROBLOCKS, COUNT_CHROMA };
static const gchar *const counter_names[] = {
    "frames",              // filtered: with a meta or as a post-filter
    "frames-with-meta",    //
    "frames-post-filter",  //
    "macroblocks",         // macroblocks of the filtered pictures (partial ones included)
    "chroma-copies",       // NV12 frames whose chroma went through the scratch planes
    nullptr};

#define V3D_H264_CAPS \
  "video/x-raw, format = (string) { I420, NV12 }, width = (int) [ 1, max ], " \
  "height = (int) [ 1, max ], framerate = (fraction) [ 0, max ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_H264_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_H264_CAPS));

static GType gst_v3d_h264_deblock_mode_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_H264_DEBLOCK_MODE_INTRA,
       "bS 4 on macroblock edges, 3 on internal edges (an all-intra picture)", "intra"},
      {GST_V3D_H264_DEBLOCK_MODE_INTER, "The bs property on every edge", "inter"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dH264DeblockMode", values));
  return static_cast<GType>(type);
}

namespace {

// This element's properties; read and written under GST_OBJECT_LOCK.
struct Settings {
  GstV3dH264DeblockMode mode = DEFAULT_PROP_MODE;
  gint qp = DEFAULT_PROP_QP;
  gint chroma_qp_offset = DEFAULT_PROP_CHROMA_QP_OFFSET;
  gint alpha_offset = DEFAULT_PROP_ALPHA_OFFSET;
  gint beta_offset = DEFAULT_PROP_BETA_OFFSET;
  gint bs = DEFAULT_PROP_BS;
  gboolean transform_8x8 = DEFAULT_PROP_TRANSFORM_8X8;

  bool operator==(const Settings &o) const {
    return mode == o.mode && qp == o.qp && chroma_qp_offset == o.chroma_qp_offset &&
           alpha_offset == o.alpha_offset && beta_offset == o.beta_offset && bs == o.bs &&
           transform_8x8 == o.transform_8x8;
  }
};

// The post-filter's uniform input, built once per caps (and again when the properties change).
struct UniformGrid {
  std::vector<V3dH264MbInfo> mbs;
  int stride = 0;
  int w = 0, h = 0;
  Settings settings;
  V3dH264SliceInfo slice = {};
};

}  // namespace

struct GstV3dH264DeblockPrivate {
  Settings settings;    // GST_OBJECT_LOCK
  UniformGrid uniform;  // streaming thread only (and set_info/stop)
};

#define GST_TYPE_V3D_H264_DEBLOCK (gst_v3d_h264_deblock_get_type())
G_DECLARE_FINAL_TYPE(GstV3dH264Deblock, gst_v3d_h264_deblock, GST, V3D_H264_DEBLOCK,
                     GstV3dFilter)

struct _GstV3dH264Deblock {
  GstV3dFilter parent;
  GstV3dH264DeblockPrivate *priv;
};

G_DEFINE_TYPE(GstV3dH264Deblock, gst_v3d_h264_deblock, GST_TYPE_V3D_FILTER)
GST_ELEMENT_REGISTER_DEFINE(v3dh264deblock, "v3dh264deblock", GST_RANK_NONE,
                            GST_TYPE_V3D_H264_DEBLOCK)

static void gst_v3d_h264_deblock_finalize(GObject *object);
static void gst_v3d_h264_deblock_set_property(GObject *object, guint prop_id,
                                              const GValue *value, GParamSpec *pspec);
static void gst_v3d_h264_deblock_get_property(GObject *object, guint prop_id, GValue *value,
                                              GParamSpec *pspec);
static gboolean gst_v3d_h264_deblock_set_info(GstVideoFilter *filter, GstCaps *incaps,
                                              GstVideoInfo *in_info, GstCaps *outcaps,
                                              GstVideoInfo *out_info);
static gboolean gst_v3d_h264_deblock_stop(GstBaseTransform *trans);
static GstFlowReturn gst_v3d_h264_deblock_describe(GstV3dFilter *filter, GstBuffer *buf,
                                                   GstV3dFrameDesc *desc);

static void install_properties(GObjectClass *gobject_class) {
  const auto rw_playing = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                   GST_PARAM_MUTABLE_PLAYING);
  /**
   * GstV3dH264Deblock:mode:
   *
   * Post-filter mode (frames without a #GstV3dH264DeblockMeta): where the bS of each edge comes
   * from. "intra": bS 4 on macroblock edges and 3 on internal edges, what an all-intra picture
   * gets (#GstV3dH264Deblock:bs is not used); "inter": #GstV3dH264Deblock:bs on every edge.
   */
  g_object_class_install_property(gobject_class, PROP_MODE,
      g_param_spec_enum("mode", "Mode", "Post-filter: where each edge's bS comes from",
          gst_v3d_h264_deblock_mode_get_type(), DEFAULT_PROP_MODE, rw_playing));
  /**
   * GstV3dH264Deblock:qp:
   *
   * Post-filter mode: QP_Y of every macroblock, 0..51. Higher values filter more (indexA and
   * indexB of Tables 8-16/8-17 of the standard grow with it); below 16 (with zero offsets)
   * nothing is filtered.
   */
  g_object_class_install_property(gobject_class, PROP_QP,
      g_param_spec_int("qp", "QP", "Post-filter: QP_Y of every macroblock (0 = no filtering)",
          0, 51, DEFAULT_PROP_QP, rw_playing));
  /**
   * GstV3dH264Deblock:chroma-qp-offset:
   *
   * Post-filter mode: chroma_qp_index_offset, for both chroma planes (the standard's
   * second_chroma_qp_index_offset takes the same value).
   */
  g_object_class_install_property(gobject_class, PROP_CHROMA_QP_OFFSET,
      g_param_spec_int("chroma-qp-offset", "Chroma QP offset",
          "Post-filter: chroma_qp_index_offset of both chroma planes (0 = none)", -12, 12,
          DEFAULT_PROP_CHROMA_QP_OFFSET, rw_playing));
  /**
   * GstV3dH264Deblock:alpha-offset:
   *
   * Post-filter mode: FilterOffsetA, which is slice_alpha_c0_offset_div2 * 2 and so always
   * even. An odd value is refused with a warning and the property keeps its previous value.
   */
  g_object_class_install_property(gobject_class, PROP_ALPHA_OFFSET,
      g_param_spec_int("alpha-offset", "Alpha offset",
          "Post-filter: FilterOffsetA, even (0 = none)", -12, 12, DEFAULT_PROP_ALPHA_OFFSET,
          rw_playing));
  /**
   * GstV3dH264Deblock:beta-offset:
   *
   * Post-filter mode: FilterOffsetB, which is slice_beta_offset_div2 * 2 and so always even.
   * An odd value is refused with a warning and the property keeps its previous value.
   */
  g_object_class_install_property(gobject_class, PROP_BETA_OFFSET,
      g_param_spec_int("beta-offset", "Beta offset",
          "Post-filter: FilterOffsetB, even (0 = none)", -12, 12, DEFAULT_PROP_BETA_OFFSET,
          rw_playing));
  /**
   * GstV3dH264Deblock:bs:
   *
   * Post-filter mode "inter": the boundary strength of every edge (clause 8.7.2.1): 0 filters
   * nothing, 1..3 the normal filter, 4 the strong filter on every edge. Not used by mode
   * "intra".
   */
  g_object_class_install_property(gobject_class, PROP_BS,
      g_param_spec_int("bs", "Boundary strength",
          "Post-filter, mode inter: bS of every edge (0 = no filtering, 4 = strong)", 0, 4,
          DEFAULT_PROP_BS, rw_playing));
  /**
   * GstV3dH264Deblock:transform-8x8:
   *
   * Post-filter mode: transform_size_8x8_flag of every macroblock: luma internal edges only
   * every 8 samples (e.g. for MPEG-2 and JPEG, whose transforms are 8x8).
   */
  g_object_class_install_property(gobject_class, PROP_TRANSFORM_8X8,
      g_param_spec_boolean("transform-8x8", "8x8 transform",
          "Post-filter: transform_size_8x8_flag of every macroblock", DEFAULT_PROP_TRANSFORM_8X8,
          rw_playing));
}

static void gst_v3d_h264_deblock_class_init(GstV3dH264DeblockClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);
  GstV3dFilterClass *v3d_class = GST_V3D_FILTER_CLASS(klass);

  gobject_class->finalize = gst_v3d_h264_deblock_finalize;
  gobject_class->set_property = gst_v3d_h264_deblock_set_property;
  gobject_class->get_property = gst_v3d_h264_deblock_get_property;

  /**
   * GstV3dH264Deblock:backend:
   *
   * "gpu" deblocks every plane on the GPU; "hybrid" and "auto" let the scheduler's split
   * controller choose, from times measured per frame size, between the CPU wavefront alone, the
   * GPU alone and a split by planes (the GPU deblocks chroma or luma while the CPU workers do
   * the rest); "cpu" runs the SIMD wavefront, "scalar" the scalar reference. Same result.
   *
   * GstV3dH264Deblock:stats:
   *
   * Besides the common fields (#GstV3dFilter:stats): frames (filtered, with a meta or as a
   * post-filter), frames-with-meta, frames-post-filter, macroblocks (of the filtered pictures,
   * partial ones included), chroma-copies (NV12 frames whose chroma went through the scratch
   * planes). The context's blocks-cpu and blocks-gpu count macroblocks.
   */
  gst_v3d_filter_class_install_properties(v3d_class, GST_V3D_FILTER_WITH_CHECKSUM,
      "Where the deblocking runs (read when going to READY)");
  install_properties(gobject_class);
  v3d_class->describe = gst_v3d_h264_deblock_describe;
  v3d_class->kernel = V3D_KERNEL_H264_DEBLOCK;
  v3d_class->what = "H.264 deblocking";
  v3d_class->meta_name = "H.264 deblocking meta";
  v3d_class->meta_api = GST_V3D_H264_DEBLOCK_META_API_TYPE;
  v3d_class->counter_names = counter_names;
  v3d_class->chroma_counter = COUNT_CHROMA;
  v3d_class->copies_source = TRUE;
  v3d_class->batches_help_cpu = TRUE;  // the batch's wavefronts run in one loop of the workers

  gst_element_class_set_static_metadata(element_class, "H.264 deblocking filter",
      "Filter/Effect/Video", "Applies the H.264 deblocking filter in place: per a "
      "GstV3dH264DeblockMeta from a decoder, or as a deblocking post-filter configured by "
      "properties", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_v3d_h264_deblock_set_info);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_h264_deblock_stop);

  gst_type_mark_as_plugin_api(gst_v3d_h264_deblock_mode_get_type(),
                              static_cast<GstPluginAPIFlags>(0));
  // The meta's API type is registered up front, so that decoders can find it by name.
  g_type_ensure(GST_V3D_H264_DEBLOCK_META_API_TYPE);
  (void)GST_V3D_H264_DEBLOCK_META_INFO;
  GST_DEBUG_CATEGORY_INIT(gst_v3d_h264_deblock_debug, "v3dh264deblock", 0,
                          "H.264 deblocking filter");
}

static void gst_v3d_h264_deblock_init(GstV3dH264Deblock *self) {
  self->priv = new GstV3dH264DeblockPrivate();
}

static void gst_v3d_h264_deblock_finalize(GObject *object) {
  auto *self = GST_V3D_H264_DEBLOCK(object);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_h264_deblock_parent_class)->finalize(object);
}

// FilterOffsetA/B are twice a slice header's *_div2 value: an odd value is refused with a
// warning (outside the lock) and the property keeps its value. TRUE if refused.
static gboolean refuse_odd_offset(GstV3dH264Deblock *self, guint prop_id, const GValue *value) {
  const gint v = g_value_get_int(value);
  if (v % 2 == 0) return FALSE;
  GST_OBJECT_LOCK(self);
  const Settings &s = self->priv->settings;
  const gint current = prop_id == PROP_ALPHA_OFFSET ? s.alpha_offset : s.beta_offset;
  GST_OBJECT_UNLOCK(self);
  g_warning("%s: %s %d refused: FilterOffsetA/B are even (slice header value * 2); it stays %d",
            GST_OBJECT_NAME(self), prop_id == PROP_ALPHA_OFFSET ? "alpha-offset" : "beta-offset",
            v, current);
  return TRUE;
}

static void gst_v3d_h264_deblock_set_property(GObject *object, guint prop_id,
                                              const GValue *value, GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_set_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_H264_DEBLOCK(object);
  if ((prop_id == PROP_ALPHA_OFFSET || prop_id == PROP_BETA_OFFSET) &&
      refuse_odd_offset(self, prop_id, value))
    return;
  Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_MODE: s.mode = static_cast<GstV3dH264DeblockMode>(g_value_get_enum(value)); break;
    case PROP_QP: s.qp = g_value_get_int(value); break;
    case PROP_CHROMA_QP_OFFSET: s.chroma_qp_offset = g_value_get_int(value); break;
    case PROP_ALPHA_OFFSET: s.alpha_offset = g_value_get_int(value); break;
    case PROP_BETA_OFFSET: s.beta_offset = g_value_get_int(value); break;
    case PROP_BS: s.bs = g_value_get_int(value); break;
    case PROP_TRANSFORM_8X8: s.transform_8x8 = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_v3d_h264_deblock_get_property(GObject *object, guint prop_id, GValue *value,
                                              GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_get_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_H264_DEBLOCK(object);
  const Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_MODE: g_value_set_enum(value, s.mode); break;
    case PROP_QP: g_value_set_int(value, s.qp); break;
    case PROP_CHROMA_QP_OFFSET: g_value_set_int(value, s.chroma_qp_offset); break;
    case PROP_ALPHA_OFFSET: g_value_set_int(value, s.alpha_offset); break;
    case PROP_BETA_OFFSET: g_value_set_int(value, s.beta_offset); break;
    case PROP_BS: g_value_set_int(value, s.bs); break;
    case PROP_TRANSFORM_8X8: g_value_set_boolean(value, s.transform_8x8); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static gboolean gst_v3d_h264_deblock_set_info(GstVideoFilter *filter, GstCaps *incaps,
                                              GstVideoInfo *in_info, GstCaps *outcaps,
                                              GstVideoInfo *out_info) {
  GST_V3D_H264_DEBLOCK(filter)->priv->uniform = UniformGrid();
  return GST_VIDEO_FILTER_CLASS(gst_v3d_h264_deblock_parent_class)
      ->set_info(filter, incaps, in_info, outcaps, out_info);
}

static gboolean gst_v3d_h264_deblock_stop(GstBaseTransform *trans) {
  GST_V3D_H264_DEBLOCK(trans)->priv->uniform = UniformGrid();
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_h264_deblock_parent_class)->stop(trans);
}

// The post-filter's input for the current caps and settings; rebuilt when they changed.
static const UniformGrid &uniform_grid(GstV3dH264Deblock *self, const Settings &s, int w, int h) {
  UniformGrid &g = self->priv->uniform;
  if (g.w == w && g.h == h && g.settings == s && !g.mbs.empty()) return g;
  g.w = w;
  g.h = h;
  g.settings = s;
  g.stride = (w + 15) / 16;
  V3dH264MbInfo mb = {};
  mb.qp = static_cast<uint8_t>(s.qp);
  mb.transform_8x8 = s.transform_8x8 ? 1 : 0;
  mb.slice = 0;
  for (int dir = 0; dir < 2; dir++)
    for (int edge = 0; edge < 4; edge++)
      for (int seg = 0; seg < 4; seg++)
        mb.bs[dir][edge][seg] = static_cast<uint8_t>(
            s.mode == GST_V3D_H264_DEBLOCK_MODE_INTRA ? (edge == 0 ? 4 : 3) : s.bs);
  g.mbs.assign(static_cast<size_t>(g.stride) * ((h + 15) / 16), mb);
  g.slice = V3dH264SliceInfo{};
  g.slice.disable_deblocking_filter_idc = 0;
  g.slice.filter_offset_a = static_cast<int8_t>(s.alpha_offset);
  g.slice.filter_offset_b = static_cast<int8_t>(s.beta_offset);
  g.slice.chroma_qp_index_offset = static_cast<int8_t>(s.chroma_qp_offset);
  g.slice.second_chroma_qp_index_offset = static_cast<int8_t>(s.chroma_qp_offset);
  GST_DEBUG_OBJECT(self, "uniform grid %dx%d: mode %d, qp %d, bs %d, 8x8 %d, offsets %d/%d, "
                   "chroma %d", g.stride, (h + 15) / 16, s.mode, s.qp, s.bs, s.transform_8x8,
                   s.alpha_offset, s.beta_offset, s.chroma_qp_offset);
  return g;
}

// A meta's sizes against the frame and the buffer (the library checks the values). FALSE with a
// stream error naming the problem.
static bool meta_fits(GstV3dH264Deblock *self, const GstV3dH264DeblockMeta *m, GstBuffer *buf,
                      const GstVideoInfo *info) {
  const int w = GST_VIDEO_INFO_WIDTH(info), h = GST_VIDEO_INFO_HEIGHT(info);
  const int cw = m->coded_width, ch = m->coded_height;
  if (cw < w || ch < h) {
    GST_ELEMENT_ERROR(self, STREAM, DECODE,
        ("Invalid H.264 deblocking meta: coded size %dx%d does not cover the %dx%d frame", cw,
         ch, w, h), (nullptr));
    return false;
  }
  const int cols = (cw + 15) / 16, rows = (ch + 15) / 16;
  const gsize need = m->mb_stride > 0 ? static_cast<gsize>(m->mb_stride) * rows : 0;
  if (m->mb_stride < cols || m->n_mbs < need) {
    GST_ELEMENT_ERROR(self, STREAM, DECODE,
        ("Invalid H.264 deblocking meta: grid of %" G_GSIZE_FORMAT " macroblocks with stride "
         "%d does not cover a %dx%d picture (%d x %d macroblocks)", m->n_mbs, m->mb_stride, cw,
         ch, cols, rows), (nullptr));
    return false;
  }
  if (m->n_slices < 1 || m->n_slices > G_MAXUINT16 + 1u) {
    GST_ELEMENT_ERROR(self, STREAM, DECODE,
        ("Invalid H.264 deblocking meta: %" G_GSIZE_FORMAT " slices (1..65536)", m->n_slices),
        (nullptr));
    return false;
  }
  if (cw == w && ch == h) return true;
  // Rows and columns beyond the caps size: the planes must hold them.
  const bool nv12 = GST_VIDEO_INFO_FORMAT(info) == GST_VIDEO_FORMAT_NV12;
  const int ccw = (cw + 1) / 2, cch = (ch + 1) / 2;
  const int row_bytes[3] = {cw, nv12 ? 2 * ccw : ccw, ccw};
  const int plane_rows[3] = {ch, cch, cch};
  if (!v3d::planes_have_room(buf, *info, row_bytes, plane_rows)) {
    GST_ELEMENT_ERROR(self, STREAM, DECODE,
        ("Invalid H.264 deblocking meta: the buffer's planes do not hold the coded %dx%d "
         "picture (frame %dx%d)", cw, ch, w, h), (nullptr));
    return false;
  }
  return true;
}

// With a meta: its coded size, grid and slices (sizes checked against the frame and buffer here,
// values by the library). Without one: the uniform grid of the properties over the caps size.
static GstFlowReturn gst_v3d_h264_deblock_describe(GstV3dFilter *filter, GstBuffer *buf,
                                                   GstV3dFrameDesc *desc) {
  auto *self = GST_V3D_H264_DEBLOCK(filter);
  const GstVideoInfo *info = &GST_VIDEO_FILTER(self)->in_info;
  V3dH264Frame &f = desc->args.h264;
  auto *meta = gst_buffer_get_v3d_h264_deblock_meta(buf);
  if (meta) {
    if (!meta_fits(self, meta, buf, info)) return GST_FLOW_ERROR;
    desc->meta = &meta->meta;
    desc->width = meta->coded_width;
    desc->height = meta->coded_height;
    f.mbs = meta->mbs;
    f.mb_stride = meta->mb_stride;
    f.slices = meta->slices;
    f.n_slices = static_cast<int>(meta->n_slices);
  } else {
    GST_OBJECT_LOCK(self);
    const Settings s = self->priv->settings;
    GST_OBJECT_UNLOCK(self);
    desc->width = GST_VIDEO_INFO_WIDTH(info);
    desc->height = GST_VIDEO_INFO_HEIGHT(info);
    const UniformGrid &g = uniform_grid(self, s, desc->width, desc->height);
    f.mbs = g.mbs.data();
    f.mb_stride = g.stride;
    f.slices = &g.slice;
    f.n_slices = 1;
  }
  const guint64 n_mbs =
      static_cast<guint64>((desc->width + 15) / 16) * ((desc->height + 15) / 16);
  desc->count(COUNT_FRAMES);
  desc->count(meta ? COUNT_FRAMES_META : COUNT_FRAMES_POST);
  desc->count(COUNT_MACROBLOCKS, n_mbs);
  return GST_FLOW_OK;
}
