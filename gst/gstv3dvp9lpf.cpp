// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dvp9lpf
 * @title: v3dvp9lpf
 *
 * Applies the VP9 loop filter (v3d_vp9_loop_filter_frame, bit-exact with libvpx's decoder) to
 * I420 frames in place, in one of two modes:
 *
 * - With a #GstV3dVp9LfMeta (v3dvp9lfmeta.h, attached by a decoder or an application): the
 *   meta's mode-info grid and sharpness describe the frame; the meta is removed after filtering.
 *   An invalid meta is a stream error whose message names the problem (v3d_last_error()); the
 *   frame is not modified.
 * - Without a meta: a deblocking post-filter for any decoded video (low-bitrate MPEG-2, MJPEG,
 *   ...). The element builds, once per caps, a uniform grid: blocks of #GstV3dVp9Lpf:block-size
 *   with transforms of #GstV3dVp9Lpf:tx-size, all at #GstV3dVp9Lpf:level, none skipped, filtered
 *   with #GstV3dVp9Lpf:sharpness. Level 0 passes frames through untouched.
 *
 * The library works on planes holding the frame rounded up to whole 8x8 luma blocks, and reads
 * the samples between the visible edge and that rounded edge. In post-filter mode the element
 * fills them by repeating the last visible column and row before filtering. With a meta, a frame
 * whose planes have that room is filtered as it is (a VP9 decoder leaves its decoded samples
 * there, as libvpx does: bit-exact); frames whose planes lack the room are filtered through a
 * padded copy (stats field "padded-copies"), as in v3dvp9idct, with the edges repeated.
 *
 * Backends (the context is shared with v3dvp9idct): "cpu" runs the SIMD kernels on the CPU
 * workers (a wavefront over superblock rows); "gpu" a Vulkan compute job per frame (frames in
 * the element's shared-memory pool go without copies); "hybrid" splits each frame's planes
 * between the GPU and the CPU from measured throughput; "auto" the CPU wavefront; "scalar" the
 * scalar reference. All give the same frame. At EOS the element posts a "v3d-stats" element
 * message with #GstV3dVp9Lpf:stats.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m filesrc location=low.mpg ! decodebin ! videoconvert ! \
 *     v3dvp9lpf level=24 block-size=16x16 tx-size=8x8 ! autovideosink
 * ]|
 */
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <mutex>
#include <string>
#include <vector>

#include "gstv3delements.h"
#include "v3dcontext.h"
#include "v3dfilter_common.h"
#include "v3dframe.h"
#include "v3dvp9lfmeta.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_vp9_lpf_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_lpf_debug

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CPU_THREADS,
  PROP_LEVEL,
  PROP_SHARPNESS,
  PROP_BLOCK_SIZE,
  PROP_TX_SIZE,
  PROP_STATS,
};

// Post-filter block sizes: libvpx BLOCK_SIZE values of square blocks (v3d.h, V3dVp9LfInfo).
typedef enum {
  GST_V3D_LPF_BLOCK_8X8 = 3,
  GST_V3D_LPF_BLOCK_16X16 = 6,
  GST_V3D_LPF_BLOCK_32X32 = 9,
  GST_V3D_LPF_BLOCK_64X64 = 12,
} GstV3dLpfBlockSize;

// Post-filter transform sizes: VP9 TX_SIZE.
typedef enum {
  GST_V3D_LPF_TX_4X4 = 0,
  GST_V3D_LPF_TX_8X8 = 1,
  GST_V3D_LPF_TX_16X16 = 2,
  GST_V3D_LPF_TX_32X32 = 3,
} GstV3dLpfTxSize;

#define DEFAULT_PROP_BACKEND GST_V3D_BACKEND_AUTO
#define DEFAULT_PROP_CPU_THREADS 0
#define DEFAULT_PROP_LEVEL 16  // moderate deblocking; 0 = pass-through
#define DEFAULT_PROP_SHARPNESS 0
#define DEFAULT_PROP_BLOCK_SIZE GST_V3D_LPF_BLOCK_8X8
#define DEFAULT_PROP_TX_SIZE GST_V3D_LPF_TX_8X8

#define V3D_LPF_CAPS \
  "video/x-raw, format = (string) I420, width = (int) [ 1, max ], " \
  "height = (int) [ 1, max ], framerate = (fraction) [ 0, max ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_LPF_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_LPF_CAPS));

static GType gst_v3d_lpf_block_size_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_LPF_BLOCK_8X8, "8x8 blocks", "8x8"},
      {GST_V3D_LPF_BLOCK_16X16, "16x16 blocks", "16x16"},
      {GST_V3D_LPF_BLOCK_32X32, "32x32 blocks", "32x32"},
      {GST_V3D_LPF_BLOCK_64X64, "64x64 blocks", "64x64"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dLpfBlockSize", values));
  return static_cast<GType>(type);
}

static GType gst_v3d_lpf_tx_size_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_LPF_TX_4X4, "4x4 transforms", "4x4"},
      {GST_V3D_LPF_TX_8X8, "8x8 transforms", "8x8"},
      {GST_V3D_LPF_TX_16X16, "16x16 transforms", "16x16"},
      {GST_V3D_LPF_TX_32X32, "32x32 transforms", "32x32"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dLpfTxSize", values));
  return static_cast<GType>(type);
}

namespace {

// Properties; guarded by GstV3dVp9LpfPrivate::settings_lock.
struct Settings {
  GstV3dBackend backend = DEFAULT_PROP_BACKEND;
  guint cpu_threads = DEFAULT_PROP_CPU_THREADS;
  guint level = DEFAULT_PROP_LEVEL;
  guint sharpness = DEFAULT_PROP_SHARPNESS;
  GstV3dLpfBlockSize block_size = DEFAULT_PROP_BLOCK_SIZE;
  GstV3dLpfTxSize tx_size = DEFAULT_PROP_TX_SIZE;
};

// Counters; guarded by GstV3dVp9LpfPrivate::state_lock.
struct State {
  guint64 frames_meta = 0;         // filtered with a meta
  guint64 frames_post = 0;         // filtered as a post-filter (uniform grid)
  guint64 frames_passthrough = 0;  // level 0 and no meta
  guint64 padded_copies = 0;
  gint64 process_us = 0;
  gint64 first_us = -1;
  gint64 last_us = -1;
};

// The post-filter's uniform grid, built once per caps (and again when its properties change).
struct UniformGrid {
  std::vector<V3dVp9LfInfo> grid;
  int stride = 0;
  int w = 0, h = 0;
  guint level = 0;
  GstV3dLpfBlockSize block = DEFAULT_PROP_BLOCK_SIZE;
  GstV3dLpfTxSize tx = DEFAULT_PROP_TX_SIZE;
};

}  // namespace

struct GstV3dVp9LpfPrivate {
  std::mutex settings_lock;
  Settings settings;
  std::mutex state_lock;
  State state;
  v3d::ElementContext context;
  // Streaming thread only (and stop/finalize).
  v3d::ItxFrameLayout layout;
  UniformGrid uniform;
};

#define GST_TYPE_V3D_VP9_LPF (gst_v3d_vp9_lpf_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9Lpf, gst_v3d_vp9_lpf, GST, V3D_VP9_LPF, GstBaseTransform)

struct _GstV3dVp9Lpf {
  GstBaseTransform parent;
  GstV3dVp9LpfPrivate *priv;
};

G_DEFINE_TYPE(GstV3dVp9Lpf, gst_v3d_vp9_lpf, GST_TYPE_BASE_TRANSFORM)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9lpf, "v3dvp9lpf", GST_RANK_NONE, GST_TYPE_V3D_VP9_LPF)

static void gst_v3d_vp9_lpf_finalize(GObject *object);
static void gst_v3d_vp9_lpf_set_property(GObject *object, guint prop_id, const GValue *value,
                                         GParamSpec *pspec);
static void gst_v3d_vp9_lpf_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec);
static GstStateChangeReturn gst_v3d_vp9_lpf_change_state(GstElement *element,
                                                         GstStateChange transition);
static void gst_v3d_vp9_lpf_set_context(GstElement *element, GstContext *context);
static gboolean gst_v3d_vp9_lpf_query(GstBaseTransform *trans, GstPadDirection direction,
                                      GstQuery *query);
static gboolean gst_v3d_vp9_lpf_sink_event(GstBaseTransform *trans, GstEvent *event);
static gboolean gst_v3d_vp9_lpf_set_caps(GstBaseTransform *trans, GstCaps *incaps,
                                         GstCaps *outcaps);
static gboolean gst_v3d_vp9_lpf_stop(GstBaseTransform *trans);
static gboolean gst_v3d_vp9_lpf_propose_allocation(GstBaseTransform *trans,
                                                   GstQuery *decide_query, GstQuery *query);
static GstFlowReturn gst_v3d_vp9_lpf_transform_ip(GstBaseTransform *trans, GstBuffer *buf);

static void gst_v3d_vp9_lpf_class_init(GstV3dVp9LpfClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  const auto rw_ready = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                 GST_PARAM_MUTABLE_READY);
  const auto rw_playing = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                   GST_PARAM_MUTABLE_PLAYING);

  gobject_class->finalize = gst_v3d_vp9_lpf_finalize;
  gobject_class->set_property = gst_v3d_vp9_lpf_set_property;
  gobject_class->get_property = gst_v3d_vp9_lpf_get_property;

  g_object_class_install_property(gobject_class, PROP_BACKEND,
      g_param_spec_enum("backend", "Backend",
          "Where the loop filter runs (read when going to READY): cpu (SIMD wavefront), gpu "
          "(Vulkan compute), hybrid (planes split between GPU and CPU), auto (cpu); same result", GST_TYPE_V3D_BACKEND,
          DEFAULT_PROP_BACKEND, rw_ready));
  g_object_class_install_property(gobject_class, PROP_CPU_THREADS,
      g_param_spec_uint("cpu-threads", "CPU threads",
          "CPU worker threads of a context this element creates (0 = online cores - 1, at "
          "least 1)", 0, 1024, DEFAULT_PROP_CPU_THREADS, rw_ready));
  g_object_class_install_property(gobject_class, PROP_LEVEL,
      g_param_spec_uint("level", "Level",
          "Post-filter mode (frames without a GstV3dVp9LfMeta): VP9 filter level of every block "
          "(0 = pass-through)", 0, 63, DEFAULT_PROP_LEVEL, rw_playing));
  g_object_class_install_property(gobject_class, PROP_SHARPNESS,
      g_param_spec_uint("sharpness", "Sharpness",
          "Post-filter mode: VP9 sharpness (higher filters less across strong edges)", 0, 7,
          DEFAULT_PROP_SHARPNESS, rw_playing));
  g_object_class_install_property(gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_enum("block-size", "Block size",
          "Post-filter mode: size of the uniform prediction blocks (edges of blocks get the "
          "strongest filters)", gst_v3d_lpf_block_size_get_type(), DEFAULT_PROP_BLOCK_SIZE,
          rw_playing));
  g_object_class_install_property(gobject_class, PROP_TX_SIZE,
      g_param_spec_enum("tx-size", "Transform size",
          "Post-filter mode: size of the uniform transforms (at most the block size; e.g. 8x8 "
          "for MPEG-2 and JPEG)", gst_v3d_lpf_tx_size_get_type(), DEFAULT_PROP_TX_SIZE,
          rw_playing));
  g_object_class_install_property(gobject_class, PROP_STATS,
      g_param_spec_boxed("stats", "Statistics",
          "Statistics (read-only): this element's frames (filtered), frames-with-meta, "
          "frames-post-filter, frames-passthrough, padded-copies, process-time (seconds inside "
          "the element for filtered frames), stream-time (first filtered frame's arrival to the "
          "last one's end); and its context's backend, gpu-device, cpu-threads, "
          "context-frames, blocks-cpu, blocks-gpu, cpu-time, gpu-time, gpu-share, copies, "
          "gpu-submissions", GST_TYPE_STRUCTURE,
          static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  gst_element_class_set_static_metadata(element_class, "VP9 loop filter",
      "Filter/Effect/Video", "Applies the VP9 loop filter in place: per a GstV3dVp9LfMeta from "
      "a decoder, or as a deblocking post-filter configured by properties", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  element_class->change_state = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_change_state);
  element_class->set_context = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_sink_event);
  trans_class->set_caps = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_set_caps);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_stop);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_propose_allocation);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_transform_ip);

  gst_type_mark_as_plugin_api(GST_TYPE_V3D_BACKEND, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(gst_v3d_lpf_block_size_get_type(),
                              static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(gst_v3d_lpf_tx_size_get_type(), static_cast<GstPluginAPIFlags>(0));
  g_type_ensure(GST_TYPE_V3D_CONTEXT);
  // The meta's API type is registered up front, so that decoders can find it by name.
  g_type_ensure(GST_V3D_VP9_LF_META_API_TYPE);
  (void)GST_V3D_VP9_LF_META_INFO;
  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_lpf_debug, "v3dvp9lpf", 0, "VP9 loop filter");
}

static void gst_v3d_vp9_lpf_init(GstV3dVp9Lpf *self) {
  self->priv = new GstV3dVp9LpfPrivate();
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}

static void gst_v3d_vp9_lpf_finalize(GObject *object) {
  auto *self = GST_V3D_VP9_LPF(object);
  delete self->priv;  // releases the padded copy, then the context
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_vp9_lpf_parent_class)->finalize(object);
}

static void gst_v3d_vp9_lpf_set_property(GObject *object, guint prop_id, const GValue *value,
                                         GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_LPF(object);
  Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_BACKEND: s.backend = static_cast<GstV3dBackend>(g_value_get_enum(value)); break;
    case PROP_CPU_THREADS: s.cpu_threads = g_value_get_uint(value); break;
    case PROP_LEVEL: s.level = g_value_get_uint(value); break;
    case PROP_SHARPNESS: s.sharpness = g_value_get_uint(value); break;
    case PROP_BLOCK_SIZE:
      s.block_size = static_cast<GstV3dLpfBlockSize>(g_value_get_enum(value));
      break;
    case PROP_TX_SIZE: s.tx_size = static_cast<GstV3dLpfTxSize>(g_value_get_enum(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
}

// Builds the "v3d-stats" structure (see the stats property). Caller owns the result.
static GstStructure *make_stats(GstV3dVp9Lpf *self) {
  State snap;
  {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    snap = self->priv->state;
  }
  GstStructure *s = gst_structure_new("v3d-stats",
      "frames", G_TYPE_UINT64, snap.frames_meta + snap.frames_post,
      "frames-with-meta", G_TYPE_UINT64, snap.frames_meta,
      "frames-post-filter", G_TYPE_UINT64, snap.frames_post,
      "frames-passthrough", G_TYPE_UINT64, snap.frames_passthrough,
      "padded-copies", G_TYPE_UINT64, snap.padded_copies,
      "process-time", G_TYPE_DOUBLE, snap.process_us / 1e6,
      "stream-time", G_TYPE_DOUBLE,
      snap.first_us >= 0 ? (snap.last_us - snap.first_us) / 1e6 : 0.0,
      nullptr);
  V3dContext *ctx = self->priv->context.ref();
  v3d::add_context_stats(s, ctx);
  if (ctx) v3d_context_free(ctx);
  return s;
}

static void gst_v3d_vp9_lpf_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_LPF(object);
  if (prop_id == PROP_STATS) {
    g_value_take_boxed(value, make_stats(self));
    return;
  }
  Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_BACKEND: g_value_set_enum(value, s.backend); break;
    case PROP_CPU_THREADS: g_value_set_uint(value, s.cpu_threads); break;
    case PROP_LEVEL: g_value_set_uint(value, s.level); break;
    case PROP_SHARPNESS: g_value_set_uint(value, s.sharpness); break;
    case PROP_BLOCK_SIZE: g_value_set_enum(value, s.block_size); break;
    case PROP_TX_SIZE: g_value_set_enum(value, s.tx_size); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
}

static void gst_v3d_vp9_lpf_set_context(GstElement *element, GstContext *context) {
  auto *self = GST_V3D_VP9_LPF(element);
  GstV3dBackend wanted;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    wanted = self->priv->settings.backend;
  }
  self->priv->context.offer(element, context, wanted);
  GST_ELEMENT_CLASS(gst_v3d_vp9_lpf_parent_class)->set_context(element, context);
}

static GstStateChangeReturn gst_v3d_vp9_lpf_change_state(GstElement *element,
                                                         GstStateChange transition) {
  auto *self = GST_V3D_VP9_LPF(element);
  if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
    v3d::ElementContextOptions opts;
    {
      std::lock_guard<std::mutex> lock(self->priv->settings_lock);
      opts.backend = self->priv->settings.backend;
      opts.cpu_threads = self->priv->settings.cpu_threads;
    }
    if (!self->priv->context.ensure(element, opts)) return GST_STATE_CHANGE_FAILURE;
  }
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    self->priv->state = State();
  }
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS(gst_v3d_vp9_lpf_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) self->priv->context.drop();
  return ret;
}

static gboolean gst_v3d_vp9_lpf_query(GstBaseTransform *trans, GstPadDirection direction,
                                      GstQuery *query) {
  auto *self = GST_V3D_VP9_LPF(trans);
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      self->priv->context.answer_query(GST_ELEMENT(self), query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_vp9_lpf_parent_class)->query(trans, direction, query);
}

static gboolean gst_v3d_vp9_lpf_sink_event(GstBaseTransform *trans, GstEvent *event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    auto *self = GST_V3D_VP9_LPF(trans);
    GstStructure *s = make_stats(self);
    gchar *str = gst_structure_to_string(s);
    GST_INFO_OBJECT(self, "EOS: %s", str);
    g_free(str);
    gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
  }
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_vp9_lpf_parent_class)->sink_event(trans, event);
}

static gboolean gst_v3d_vp9_lpf_set_caps(GstBaseTransform *trans, GstCaps *incaps, GstCaps *) {
  auto *self = GST_V3D_VP9_LPF(trans);
  GstVideoInfo info;
  self->priv->layout.reset();
  self->priv->uniform = UniformGrid();
  if (!gst_video_info_from_caps(&info, incaps)) {
    GST_ERROR_OBJECT(self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  V3dContext *ctx = self->priv->context.ref();
  if (!ctx) {
    GST_ERROR_OBJECT(self, "no v3d context");
    return FALSE;
  }
  bool ok = self->priv->layout.configure(info, ctx);
  v3d_context_free(ctx);
  if (!ok) {
    GST_ERROR_OBJECT(self, "could not allocate the padded frame copy");
    return FALSE;
  }
  return TRUE;
}

static gboolean gst_v3d_vp9_lpf_stop(GstBaseTransform *trans) {
  auto *self = GST_V3D_VP9_LPF(trans);
  self->priv->layout.reset();
  self->priv->uniform = UniformGrid();
  return TRUE;
}

// As v3dvp9idct: the video meta and the v3d pool (padded planes avoid the padded copy).
static gboolean gst_v3d_vp9_lpf_propose_allocation(GstBaseTransform *trans, GstQuery *,
                                                   GstQuery *query) {
  auto *self = GST_V3D_VP9_LPF(trans);
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  gst_query_add_allocation_meta(query, GST_V3D_VP9_LF_META_API_TYPE, nullptr);
  V3dContext *ctx = self->priv->context.ref();
  if (ctx) v3d::propose_v3d_pool(GST_ELEMENT(self), query, ctx);
  if (ctx) v3d_context_free(ctx);
  return TRUE;
}

// The post-filter's grid for the current caps and settings; rebuilt when they changed.
static const UniformGrid &uniform_grid(GstV3dVp9Lpf *self, const Settings &s, int w, int h) {
  UniformGrid &g = self->priv->uniform;
  if (g.w == w && g.h == h && g.level == s.level && g.block == s.block_size &&
      g.tx == s.tx_size && !g.grid.empty())
    return g;
  g.w = w;
  g.h = h;
  g.level = s.level;
  g.block = s.block_size;
  g.tx = s.tx_size;
  g.stride = (w + 7) / 8;
  g.grid.assign(static_cast<size_t>(g.stride) * ((h + 7) / 8), V3dVp9LfInfo{});
  for (V3dVp9LfInfo &e : g.grid) {
    e.filter_level = static_cast<uint8_t>(s.level);
    e.block_size = static_cast<uint8_t>(s.block_size);
    e.tx_size = static_cast<uint8_t>(s.tx_size);
    e.skip_inter = 0;
  }
  GST_DEBUG_OBJECT(self, "uniform grid %dx%d: level %u, block %d, tx %d", g.stride,
                   (h + 7) / 8, s.level, s.block_size, s.tx_size);
  return g;
}

static GstFlowReturn gst_v3d_vp9_lpf_transform_ip(GstBaseTransform *trans, GstBuffer *buf) {
  auto *self = GST_V3D_VP9_LPF(trans);
  v3d::ItxFrameLayout &layout = self->priv->layout;
  if (!layout.configured()) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  const int w = layout.width(), h = layout.height();
  Settings s;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    s = self->priv->settings;
  }
  auto *meta = gst_buffer_get_v3d_vp9_lf_meta(buf);
  if (!meta && s.level == 0) {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    self->priv->state.frames_passthrough++;
    return GST_FLOW_OK;
  }
  const gint64 t_start = g_get_monotonic_time();
  const V3dVp9LfInfo *grid;
  int grid_stride, sharpness;
  if (meta) {
    grid = meta->grid;
    grid_stride = meta->grid_stride;
    sharpness = meta->sharpness;
    // The library cannot see the array's size: check it covers the grid rows here.
    const gsize need = grid_stride > 0 ? static_cast<gsize>(grid_stride) * ((h + 7) / 8) : 0;
    if (grid_stride < (w + 7) / 8 || meta->n_entries < need) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 loop filter meta: grid of %" G_GSIZE_FORMAT " entries with stride %d "
           "does not cover a %dx%d frame (%d x %d entries needed)", meta->n_entries,
           grid_stride, w, h, (w + 7) / 8, (h + 7) / 8), (nullptr));
      return GST_FLOW_ERROR;
    }
  } else {
    if (s.tx_size > (s.block_size / 3)) {  // BLOCK_8X8 (3) holds TX_8X8 (1) at most, ...
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("tx-size larger than block-size (%d vs %d)", 4 << s.tx_size,
           8 << (s.block_size / 3 - 1)), (nullptr));
      return GST_FLOW_ERROR;
    }
    const UniformGrid &g = uniform_grid(self, s, w, h);
    grid = g.grid.data();
    grid_stride = g.stride;
    sharpness = static_cast<int>(s.sharpness);
  }

  V3dContext *ctx = self->priv->context.ref();
  if (!ctx) {
    GST_ELEMENT_ERROR(self, CORE, STATE_CHANGE, (nullptr), ("no v3d context"));
    return GST_FLOW_ERROR;
  }
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &layout.info(), buf, GST_MAP_READWRITE)) {
    v3d_context_free(ctx);
    GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("Could not map the frame for writing"), (nullptr));
    return GST_FLOW_ERROR;
  }
  const bool direct = layout.has_room(buf);
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  layout.planes_for(frame, direct, planes, strides);
  // Post-filter mode, and the padded copy: the area past the visible edge repeats the edge. A
  // decoder's frame with room keeps what the decoder put there (libvpx's decoded samples). The
  // extension only writes outside the visible area (invalid grids leave that untouched).
  if (!meta || !direct) v3d::extend_to_8x8(planes, strides, w, h);
  int rc = v3d_vp9_loop_filter_frame(ctx, planes, strides, w, h, grid, grid_stride, sharpness);
  std::string why = rc ? v3d_last_error() : "";
  if (rc == V3D_OK && !direct) layout.copy_back(frame);
  gst_video_frame_unmap(&frame);
  v3d_context_free(ctx);

  if (rc != V3D_OK) {
    if (rc == V3D_ERROR_NO_MEMORY || rc == V3D_ERROR_GPU || rc == V3D_ERROR_UNAVAILABLE) {
      GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
          ("VP9 loop filter failed: %s", v3d_error_name(rc)), ("%s", why.c_str()));
    } else if (meta) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 loop filter meta (%s): %s", v3d_error_name(rc), why.c_str()),
          ("frame %dx%d, grid stride %d, sharpness %d", w, h, grid_stride, sharpness));
    } else {
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("VP9 loop filter refused the settings (%s): %s", v3d_error_name(rc), why.c_str()),
          (nullptr));
    }
    return GST_FLOW_ERROR;
  }
  if (meta) gst_buffer_remove_meta(buf, &meta->meta);
  std::lock_guard<std::mutex> lock(self->priv->state_lock);
  State &st = self->priv->state;
  (meta ? st.frames_meta : st.frames_post)++;
  if (!direct) st.padded_copies++;
  const gint64 t_end = g_get_monotonic_time();
  st.process_us += t_end - t_start;
  if (st.first_us < 0) st.first_us = t_start;
  st.last_us = t_end;
  return GST_FLOW_OK;
}
