// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dh264deblock
 * @title: v3dh264deblock
 *
 * Applies the H.264 deblocking filter (clause 8.7 of ITU-T H.264, v3d_h264_deblock_frame:
 * bit-exact with the standard's sequential process) to 8-bit 4:2:0 frames in place, I420 or
 * NV12, of any size, in one of two modes:
 *
 * - With a #GstV3dH264DeblockMeta (v3dh264meta.h, attached by a decoder or an application): the
 *   meta's coded size, macroblock grid (QP, bS of every edge segment, transform_8x8, slice) and
 *   slices (disable_deblocking_filter_idc, FilterOffsetA/B, chroma QP offsets) describe the
 *   picture; the meta is removed after filtering. An invalid meta is a stream error whose
 *   message names the problem (v3d_last_error()); the frame is not modified.
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
 * "scalar" the scalar reference. At EOS the element
 * posts a "v3d-stats" element message with #GstV3dH264Deblock:stats.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=low.mpg ! decodebin ! videoconvert ! \
 *     v3dh264deblock mode=intra qp=36 transform-8x8=true ! autovideosink
 * ]|
 */
#include <algorithm>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gstv3delements.h"
#include "v3dfilter.h"
#include "v3dframe.h"
#include <gst/v3d/v3dh264meta.h>
#include "v3dnv12.h"

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

// This element's properties; guarded by GstV3dH264DeblockPrivate::settings_lock.
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
  std::mutex settings_lock;
  Settings settings;
  // Streaming thread only (and stop/finalize).
  UniformGrid uniform;
  v3d::ChromaScratch chroma;
  // NV12 frames in flight: a pair of chroma scratch planes per frame of a batch (grown to the
  // largest batch, freed at stop and at new caps).
  std::vector<std::unique_ptr<v3d::ChromaScratch>> batch_chroma;
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
static GstFlowReturn gst_v3d_h264_deblock_transform_ip(GstBaseTransform *trans, GstBuffer *buf);
static GstFlowReturn gst_v3d_h264_deblock_process_batch(GstV3dFilter *filter, GstBuffer **buffers,
                                                        guint n);

static void gst_v3d_h264_deblock_class_init(GstV3dH264DeblockClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);
  GstV3dFilterClass *v3d_class = GST_V3D_FILTER_CLASS(klass);
  const auto rw_playing = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                   GST_PARAM_MUTABLE_PLAYING);

  gobject_class->finalize = gst_v3d_h264_deblock_finalize;
  gobject_class->set_property = gst_v3d_h264_deblock_set_property;
  gobject_class->get_property = gst_v3d_h264_deblock_get_property;

  gst_v3d_filter_class_install_properties(v3d_class, GST_V3D_FILTER_WITH_CHECKSUM,
      "Where the deblocking runs (read when going to READY): gpu deblocks every plane on the GPU; "
      "hybrid and auto pick the CPU wavefront, the GPU or a split by planes from measured times",
      "Statistics (read-only): this element's frames (filtered), frames-with-meta, "
      "frames-post-filter, macroblocks, chroma-copies (NV12 frames whose chroma went through "
      "scratch planes), process-time (seconds inside the element for filtered frames), "
      "stream-time (first filtered frame's arrival to the last one's end); and its context's "
      "backend, gpu-device, cpu-threads, context-frames, blocks-cpu, blocks-gpu (macroblocks), "
      "cpu-time, gpu-time, gpu-share, copies, gpu-submissions, shared-memory (gpu: the pool hands out the GPU's memory; plain: ordinary memory, see V3D_SHARED_MEMORY); input-copies and input-copy-time "
      "(read-only input frames copied into the element's pool, seconds), "
      "frames-in-flight-batches; the scheduler's figures for this kernel family: kernel-frames, "
      "split-gpu-share, cpu-throughput and gpu-throughput (macroblocks per busy second), "
      "cpu-idle-time, gpu-idle-time, gpu-queue-depth, gpu-queue-depth-max, frame-time-median and "
      "frame-time-p99 (ms)");
  g_object_class_install_property(gobject_class, PROP_MODE,
      g_param_spec_enum("mode", "Mode",
          "Post-filter mode (frames without a GstV3dH264DeblockMeta): where the bS of each edge "
          "comes from", gst_v3d_h264_deblock_mode_get_type(), DEFAULT_PROP_MODE, rw_playing));
  g_object_class_install_property(gobject_class, PROP_QP,
      g_param_spec_int("qp", "QP",
          "Post-filter mode: QP_Y of every macroblock (higher filters more; below 16 nothing "
          "is filtered)", 0, 51, DEFAULT_PROP_QP, rw_playing));
  g_object_class_install_property(gobject_class, PROP_CHROMA_QP_OFFSET,
      g_param_spec_int("chroma-qp-offset", "Chroma QP offset",
          "Post-filter mode: chroma_qp_index_offset (both chroma planes)", -12, 12,
          DEFAULT_PROP_CHROMA_QP_OFFSET, rw_playing));
  g_object_class_install_property(gobject_class, PROP_ALPHA_OFFSET,
      g_param_spec_int("alpha-offset", "Alpha offset",
          "Post-filter mode: FilterOffsetA (slice_alpha_c0_offset_div2 * 2), even; odd values "
          "are refused with a warning (the previous value stays)", -12, 12,
          DEFAULT_PROP_ALPHA_OFFSET, rw_playing));
  g_object_class_install_property(gobject_class, PROP_BETA_OFFSET,
      g_param_spec_int("beta-offset", "Beta offset",
          "Post-filter mode: FilterOffsetB (slice_beta_offset_div2 * 2), even; odd values are "
          "refused with a warning (the previous value stays)", -12, 12,
          DEFAULT_PROP_BETA_OFFSET, rw_playing));
  g_object_class_install_property(gobject_class, PROP_BS,
      g_param_spec_int("bs", "Boundary strength",
          "Post-filter mode inter: bS of every edge (0 = no filtering, 4 = strong filter on "
          "every edge); not used by mode intra", 0, 4, DEFAULT_PROP_BS, rw_playing));
  g_object_class_install_property(gobject_class, PROP_TRANSFORM_8X8,
      g_param_spec_boolean("transform-8x8", "8x8 transform",
          "Post-filter mode: transform_size_8x8_flag of every macroblock (luma internal edges "
          "only every 8 samples; e.g. for MPEG-2 and JPEG)", DEFAULT_PROP_TRANSFORM_8X8,
          rw_playing));
  v3d_class->meta_api = GST_V3D_H264_DEBLOCK_META_API_TYPE;
  v3d_class->counter_names = counter_names;
  v3d_class->copies_source = TRUE;
  v3d_class->process_batch = gst_v3d_h264_deblock_process_batch;
  v3d_class->batches_help_cpu = TRUE;  // the batch's wavefronts run in one loop of the workers
  v3d_class->kernel = V3D_KERNEL_H264_DEBLOCK;

  gst_element_class_set_static_metadata(element_class, "H.264 deblocking filter",
      "Filter/Effect/Video", "Applies the H.264 deblocking filter in place: per a "
      "GstV3dH264DeblockMeta from a decoder, or as a deblocking post-filter configured by "
      "properties", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_v3d_h264_deblock_set_info);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_h264_deblock_stop);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_v3d_h264_deblock_transform_ip);

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
  delete self->priv;  // frees the chroma scratch (the base class then releases the context)
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_h264_deblock_parent_class)->finalize(object);
}

// FilterOffsetA/B are twice a slice header's *_div2 value: an odd value is refused (warning),
// the property keeps `current`.
static gint even_offset(GstV3dH264Deblock *self, const gchar *name, gint value, gint current) {
  if (value % 2 == 0) return value;
  g_warning("%s: %s %d refused: FilterOffsetA/B are even (slice header value * 2); it stays %d",
            GST_OBJECT_NAME(self), name, value, current);
  return current;
}

static void gst_v3d_h264_deblock_set_property(GObject *object, guint prop_id,
                                              const GValue *value, GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_set_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_H264_DEBLOCK(object);
  Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_MODE: s.mode = static_cast<GstV3dH264DeblockMode>(g_value_get_enum(value)); break;
    case PROP_QP: s.qp = g_value_get_int(value); break;
    case PROP_CHROMA_QP_OFFSET: s.chroma_qp_offset = g_value_get_int(value); break;
    case PROP_ALPHA_OFFSET:
      s.alpha_offset = even_offset(self, "alpha-offset", g_value_get_int(value), s.alpha_offset);
      break;
    case PROP_BETA_OFFSET:
      s.beta_offset = even_offset(self, "beta-offset", g_value_get_int(value), s.beta_offset);
      break;
    case PROP_BS: s.bs = g_value_get_int(value); break;
    case PROP_TRANSFORM_8X8: s.transform_8x8 = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
}

static void gst_v3d_h264_deblock_get_property(GObject *object, guint prop_id, GValue *value,
                                              GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_get_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_H264_DEBLOCK(object);
  const Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
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
}

// Caps time: NV12's chroma scratch planes for the caps size (a meta with a larger coded size
// grows them when it comes).
static gboolean gst_v3d_h264_deblock_set_info(GstVideoFilter *filter, GstCaps *,
                                              GstVideoInfo *info, GstCaps *, GstVideoInfo *) {
  auto *self = GST_V3D_H264_DEBLOCK(filter);
  GstV3dH264DeblockPrivate *priv = self->priv;
  priv->uniform = UniformGrid();
  priv->chroma.reset();
  priv->batch_chroma.clear();
  if (GST_VIDEO_INFO_FORMAT(info) != GST_VIDEO_FORMAT_NV12) return TRUE;
  V3dContext *ctx = gst_v3d_filter_ref_context(GST_V3D_FILTER(self));
  if (!ctx) {
    GST_ERROR_OBJECT(self, "no v3d context");
    return FALSE;
  }
  const bool ok =
      priv->chroma.ensure(ctx, GST_VIDEO_INFO_WIDTH(info), GST_VIDEO_INFO_HEIGHT(info));
  v3d_context_free(ctx);
  if (!ok) GST_ERROR_OBJECT(self, "could not allocate the NV12 chroma scratch planes");
  return ok;
}

static gboolean gst_v3d_h264_deblock_stop(GstBaseTransform *trans) {
  auto *self = GST_V3D_H264_DEBLOCK(trans);
  self->priv->uniform = UniformGrid();
  self->priv->chroma.reset();
  self->priv->batch_chroma.clear();
  return TRUE;
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

static GstFlowReturn gst_v3d_h264_deblock_transform_ip(GstBaseTransform *trans,
                                                       GstBuffer *buf) {
  auto *self = GST_V3D_H264_DEBLOCK(trans);
  GstV3dFilter *filter = GST_V3D_FILTER(self);
  if (!gst_v3d_filter_check_negotiated(filter)) return GST_FLOW_NOT_NEGOTIATED;
  const gint64 t_start = g_get_monotonic_time();
  const GstVideoInfo *info = &GST_VIDEO_FILTER(self)->in_info;
  const bool nv12 = GST_VIDEO_INFO_FORMAT(info) == GST_VIDEO_FORMAT_NV12;
  Settings s;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    s = self->priv->settings;
  }
  auto *meta = gst_buffer_get_v3d_h264_deblock_meta(buf);
  // A read-only input frame: I420 pictures of the caps size are copied macroblock row by row
  // inside the deblocking (v3d_h264_deblock_frame_from, while in cache); others here, at once.
  GstVideoFrame src_frame;
  bool fused = false;
  if (GstBuffer *src = gst_v3d_filter_take_source(filter, buf)) {
    const bool same_size = !meta || (meta->coded_width == GST_VIDEO_INFO_WIDTH(info) &&
                                     meta->coded_height == GST_VIDEO_INFO_HEIGHT(info));
    if (!nv12 && same_size && gst_video_frame_map(&src_frame, info, src, GST_MAP_READ)) {
      fused = true;
    } else if (!gst_v3d_filter_copy_source(filter, src, buf)) {
      gst_buffer_unref(src);
      return GST_FLOW_ERROR;
    }
    gst_buffer_unref(src);  // a mapped frame keeps its own reference
  }
  auto unmap_src = [&]() {
    if (fused) gst_video_frame_unmap(&src_frame);
    fused = false;
  };
  int w, h, mb_stride, n_slices;
  const V3dH264MbInfo *mbs;
  const V3dH264SliceInfo *slices;
  if (meta) {
    if (!meta_fits(self, meta, buf, info)) {
      unmap_src();
      return GST_FLOW_ERROR;
    }
    w = meta->coded_width;
    h = meta->coded_height;
    mbs = meta->mbs;
    mb_stride = meta->mb_stride;
    slices = meta->slices;
    n_slices = static_cast<int>(meta->n_slices);
  } else {
    w = GST_VIDEO_INFO_WIDTH(info);
    h = GST_VIDEO_INFO_HEIGHT(info);
    const UniformGrid &g = uniform_grid(self, s, w, h);
    mbs = g.mbs.data();
    mb_stride = g.stride;
    slices = &g.slice;
    n_slices = 1;
  }

  V3dContext *ctx = gst_v3d_filter_frame_context(filter);
  if (!ctx) {
    unmap_src();
    return GST_FLOW_ERROR;
  }
  GstVideoFrame frame;
  if (!gst_v3d_filter_map_frame(filter, &frame, buf)) {
    v3d_context_free(ctx);
    unmap_src();
    return GST_FLOW_ERROR;
  }
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  for (int p = 0; p < (nv12 ? 1 : 3); p++) {
    planes[p] = static_cast<uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
  }
  int rc = V3D_OK;
  std::string why;
  v3d::ChromaScratch &chroma = self->priv->chroma;
  if (nv12 && !chroma.ensure(ctx, w, h)) {
    rc = V3D_ERROR_NO_MEMORY;
    why = "could not allocate the NV12 chroma scratch planes";
  } else if (nv12) {
    chroma.split(frame, w, h, planes, strides);
  }
  if (rc == V3D_OK && fused) {
    const uint8_t *src[3];
    ptrdiff_t src_strides[3];
    for (int p = 0; p < 3; p++) {
      src[p] = static_cast<const uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&src_frame, p));
      src_strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE(&src_frame, p);
    }
    rc = v3d_h264_deblock_frame_from(ctx, src, src_strides, planes, strides, w, h, mbs,
                                     mb_stride, slices, n_slices);
    if (rc) why = v3d_last_error();
    gst_v3d_filter_count_source_copy(filter, 0);  // the copy's time is the kernel's
  } else if (rc == V3D_OK) {
    rc = v3d_h264_deblock_frame(ctx, planes, strides, w, h, mbs, mb_stride, slices, n_slices);
    if (rc) why = v3d_last_error();
  }
  unmap_src();
  if (rc == V3D_OK && nv12) chroma.merge(frame, w, h);
  gst_video_frame_unmap(&frame);
  v3d_context_free(ctx);

  if (rc != V3D_OK) {
    if (gst_v3d_filter_resource_error(filter, rc, "H.264 deblocking", why)) {
    } else if (meta) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid H.264 deblocking meta (%s): %s", v3d_error_name(rc), why.c_str()),
          ("coded size %dx%d, mb_stride %d, %" G_GSIZE_FORMAT " macroblocks, %d slices", w, h,
           mb_stride, meta->n_mbs, n_slices));
    } else {
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("H.264 deblocking refused the settings (%s): %s", v3d_error_name(rc), why.c_str()),
          (nullptr));
    }
    return GST_FLOW_ERROR;
  }
  const bool had_meta = meta != nullptr;
  if (meta) gst_buffer_remove_meta(buf, &meta->meta);
  const guint64 n_mbs = static_cast<guint64>((w + 15) / 16) * ((h + 15) / 16);
  gst_v3d_filter_count(filter,
                       {{COUNT_FRAMES, 1}, {had_meta ? COUNT_FRAMES_META : COUNT_FRAMES_POST, 1},
                        {COUNT_MACROBLOCKS, n_mbs}, {COUNT_CHROMA, nv12 ? 1u : 0u}},
                       t_start);
  gst_v3d_filter_update_checksum(filter, buf);
  return GST_FLOW_OK;
}

// Frames in flight: the pictures go to the library in one v3d_h264_deblock_frames call (their
// wavefronts in one loop of the workers; hybrid: whole pictures on the GPU meanwhile); NV12
// frames each through a pair of chroma scratch planes of their own, merged back after the call.
static GstFlowReturn gst_v3d_h264_deblock_process_batch(GstV3dFilter *filter, GstBuffer **buffers,
                                                        guint n) {
  auto *self = GST_V3D_H264_DEBLOCK(filter);
  if (!gst_v3d_filter_check_negotiated(filter)) return GST_FLOW_NOT_NEGOTIATED;
  const GstVideoInfo *info = &GST_VIDEO_FILTER(self)->in_info;
  const bool nv12 = GST_VIDEO_INFO_FORMAT(info) == GST_VIDEO_FORMAT_NV12;
  if (n <= 1) {
    for (guint i = 0; i < n; i++) {
      const GstFlowReturn r = gst_v3d_h264_deblock_transform_ip(GST_BASE_TRANSFORM(self), buffers[i]);
      if (r != GST_FLOW_OK) return r;
    }
    return GST_FLOW_OK;
  }
  Settings s;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    s = self->priv->settings;
  }
  const gint64 t_start = g_get_monotonic_time();
  V3dContext *ctx = gst_v3d_filter_frame_context(filter);  // posts its own error
  if (!ctx) return GST_FLOW_ERROR;
  auto &scratch = self->priv->batch_chroma;
  if (nv12)
    while (scratch.size() < n) scratch.push_back(std::make_unique<v3d::ChromaScratch>());
  int rc = V3D_OK;
  std::string why;
  std::vector<GstVideoFrame> mapped;
  mapped.reserve(n);
  std::vector<V3dH264Frame> frames;
  std::vector<GstV3dH264DeblockMeta *> metas;
  GstFlowReturn ret = GST_FLOW_OK;
  for (guint i = 0; i < n && ret == GST_FLOW_OK; i++) {
    auto *meta = gst_buffer_get_v3d_h264_deblock_meta(buffers[i]);
    V3dH264Frame f{};
    if (meta) {
      if (!meta_fits(self, meta, buffers[i], info)) {
        ret = GST_FLOW_ERROR;
        break;
      }
      f.width = meta->coded_width;
      f.height = meta->coded_height;
      f.mbs = meta->mbs;
      f.mb_stride = meta->mb_stride;
      f.slices = meta->slices;
      f.n_slices = static_cast<int>(meta->n_slices);
    } else {
      f.width = GST_VIDEO_INFO_WIDTH(info);
      f.height = GST_VIDEO_INFO_HEIGHT(info);
      const UniformGrid &g = uniform_grid(self, s, f.width, f.height);
      f.mbs = g.mbs.data();
      f.mb_stride = g.stride;
      f.slices = &g.slice;
      f.n_slices = 1;
    }
    mapped.emplace_back();
    if (!gst_v3d_filter_map_frame(filter, &mapped.back(), buffers[i])) {
      mapped.pop_back();
      ret = GST_FLOW_ERROR;
      break;
    }
    for (int p = 0; p < (nv12 ? 1 : 3); p++) {
      f.planes[p] = static_cast<uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&mapped.back(), p));
      f.strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped.back(), p);
    }
    if (nv12) {
      v3d::ChromaScratch &c = *scratch[i];
      if (!c.ensure(ctx, f.width, f.height)) {
        rc = V3D_ERROR_NO_MEMORY;
        why = "could not allocate the NV12 chroma scratch planes";
        break;
      }
      c.split(mapped.back(), f.width, f.height, f.planes, f.strides);
    }
    frames.push_back(f);
    metas.push_back(meta);
  }
  if (ret == GST_FLOW_OK && rc == V3D_OK) {
    rc = v3d_h264_deblock_frames(ctx, frames.data(), frames.size());
    if (rc) why = v3d_last_error();
    if (rc == V3D_OK && nv12)
      for (size_t i = 0; i < frames.size(); i++)
        scratch[i]->merge(mapped[i], frames[i].width, frames[i].height);
  }
  v3d_context_free(ctx);
  if (ret == GST_FLOW_OK) {
    if (rc != V3D_OK) {
      const bool any_meta = std::any_of(metas.begin(), metas.end(), [](auto *m) { return m; });
      if (gst_v3d_filter_resource_error(filter, rc, "H.264 deblocking", why)) {
      } else if (any_meta) {
        GST_ELEMENT_ERROR(self, STREAM, DECODE,
            ("Invalid H.264 deblocking meta (%s): %s", v3d_error_name(rc), why.c_str()),
            ("a batch of %zu frames in flight", frames.size()));
      } else {
        GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
            ("H.264 deblocking refused the settings (%s): %s", v3d_error_name(rc), why.c_str()),
            ("a batch of %zu frames in flight", frames.size()));
      }
      ret = GST_FLOW_ERROR;
    }
  }
  for (GstVideoFrame &f : mapped) gst_video_frame_unmap(&f);
  if (ret != GST_FLOW_OK) return ret;
  for (size_t i = 0; i < frames.size(); i++) {
    if (metas[i]) gst_buffer_remove_meta(buffers[i], &metas[i]->meta);
    const guint64 n_mbs =
        static_cast<guint64>((frames[i].width + 15) / 16) * ((frames[i].height + 15) / 16);
    // The batch's time counts once, with its last frame.
    gst_v3d_filter_count(filter,
                         {{COUNT_FRAMES, 1}, {metas[i] ? COUNT_FRAMES_META : COUNT_FRAMES_POST, 1},
                          {COUNT_MACROBLOCKS, n_mbs}, {COUNT_CHROMA, nv12 ? 1u : 0u}},
                         i + 1 == frames.size() ? t_start : -1);
    gst_v3d_filter_update_checksum(filter, buffers[i]);
  }
  return GST_FLOW_OK;
}
