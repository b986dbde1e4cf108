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
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <cstring>
#include <mutex>
#include <string>

#include "gstv3delements.h"
#include "v3dcontext.h"
#include "v3dfilter_common.h"
#include "v3dframe.h"
#include "v3dpool.h"
#include "v3dvp9meta.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_vp9_idct_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_idct_debug

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CPU_THREADS,
  PROP_GPU_DEVICE,
  PROP_GPU_SHARE,
  PROP_CHECKSUM,
  PROP_STATS,
};

#define DEFAULT_PROP_BACKEND GST_V3D_BACKEND_AUTO
#define DEFAULT_PROP_CPU_THREADS 0
#define DEFAULT_PROP_GPU_DEVICE nullptr
#define DEFAULT_PROP_GPU_SHARE -1.0
#define DEFAULT_PROP_CHECKSUM FALSE

// x and y of V3dVp9TxBlock are 16-bit (v3d.h): planes up to 65536 pixels wide and high.
#define V3D_IDCT_CAPS \
  "video/x-raw, format = (string) I420, width = (int) [ 1, 65536 ], " \
  "height = (int) [ 1, 65536 ], framerate = (fraction) [ 0, max ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_IDCT_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_IDCT_CAPS));

namespace {

// Properties; guarded by GstV3dVp9IdctPrivate::settings_lock.
struct Settings {
  GstV3dBackend backend = DEFAULT_PROP_BACKEND;
  guint cpu_threads = DEFAULT_PROP_CPU_THREADS;
  std::string gpu_device;  // empty = default choice
  gdouble gpu_share = DEFAULT_PROP_GPU_SHARE;
  gboolean checksum = DEFAULT_PROP_CHECKSUM;
};

// Running state (the context is GstV3dVp9IdctPrivate::context, from NULL->READY to READY->NULL);
// guarded by GstV3dVp9IdctPrivate::state_lock, which is never held while calling
// into the kernel library's frame functions or into GStreamer.
struct State {
  guint64 frames = 0;         // frames with a meta, processed
  guint64 blocks = 0;         // blocks of those metas
  guint64 frames_without_meta = 0;
  guint64 padded_copies = 0;  // frames processed through the padded copy
  gint64 process_us = 0;      // wall time inside transform_ip for frames with a meta
  gint64 first_us = -1;       // monotonic time the first frame with a meta arrived
  gint64 last_us = -1;        // ... and the last one was done
  GChecksum *checksum = nullptr;  // MD5 of the visible pixels of every output frame (property)
};

}  // namespace

struct GstV3dVp9IdctPrivate {
  std::mutex settings_lock;
  Settings settings;
  std::mutex state_lock;
  State state;
  v3d::ElementContext context;
  // Caps-time plane layout and padded copy; streaming thread (and stop/finalize) only.
  v3d::ItxFrameLayout layout;
  v3d::OutputPool output;  // for read-only input frames
};

#define GST_TYPE_V3D_VP9_IDCT (gst_v3d_vp9_idct_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9Idct, gst_v3d_vp9_idct, GST, V3D_VP9_IDCT, GstBaseTransform)

struct _GstV3dVp9Idct {
  GstBaseTransform parent;
  GstV3dVp9IdctPrivate *priv;
};

G_DEFINE_TYPE(GstV3dVp9Idct, gst_v3d_vp9_idct, GST_TYPE_BASE_TRANSFORM)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9idct, "v3dvp9idct", GST_RANK_NONE, GST_TYPE_V3D_VP9_IDCT)

static void gst_v3d_vp9_idct_finalize(GObject *object);
static void gst_v3d_vp9_idct_set_property(GObject *object, guint prop_id, const GValue *value,
                                          GParamSpec *pspec);
static void gst_v3d_vp9_idct_get_property(GObject *object, guint prop_id, GValue *value,
                                          GParamSpec *pspec);
static GstStateChangeReturn gst_v3d_vp9_idct_change_state(GstElement *element,
                                                          GstStateChange transition);
static void gst_v3d_vp9_idct_set_context(GstElement *element, GstContext *context);
static gboolean gst_v3d_vp9_idct_query(GstBaseTransform *trans, GstPadDirection direction,
                                       GstQuery *query);
static gboolean gst_v3d_vp9_idct_sink_event(GstBaseTransform *trans, GstEvent *event);
static gboolean gst_v3d_vp9_idct_set_caps(GstBaseTransform *trans, GstCaps *incaps,
                                          GstCaps *outcaps);
static gboolean gst_v3d_vp9_idct_stop(GstBaseTransform *trans);
static gboolean gst_v3d_vp9_idct_propose_allocation(GstBaseTransform *trans,
                                                    GstQuery *decide_query, GstQuery *query);
static GstFlowReturn gst_v3d_vp9_idct_transform_ip(GstBaseTransform *trans, GstBuffer *buf);
static GstFlowReturn gst_v3d_vp9_idct_prepare_output_buffer(GstBaseTransform *trans, GstBuffer *in,
                                                      GstBuffer **out);

static void gst_v3d_vp9_idct_class_init(GstV3dVp9IdctClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);

  gobject_class->finalize = gst_v3d_vp9_idct_finalize;
  gobject_class->set_property = gst_v3d_vp9_idct_set_property;
  gobject_class->get_property = gst_v3d_vp9_idct_get_property;

  g_object_class_install_property(gobject_class, PROP_BACKEND,
      g_param_spec_enum("backend", "Backend",
          "Where the inverse transforms run (read when going to READY)", GST_TYPE_V3D_BACKEND,
          DEFAULT_PROP_BACKEND,
          static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                   GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(gobject_class, PROP_CPU_THREADS,
      g_param_spec_uint("cpu-threads", "CPU threads",
          "CPU worker threads of a context this element creates (0 = online cores - 1, at "
          "least 1)", 0, 1024, DEFAULT_PROP_CPU_THREADS,
          static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                   GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(gobject_class, PROP_GPU_DEVICE,
      g_param_spec_string("gpu-device", "GPU device",
          "Vulkan device of a context this element creates: an index (\"1\") or a name "
          "substring (NULL = $V3D_VULKAN_DEVICE if set, else a V3D device, else the first "
          "suitable device)", DEFAULT_PROP_GPU_DEVICE,
          static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                   GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(gobject_class, PROP_GPU_SHARE,
      g_param_spec_double("gpu-share", "GPU share",
          "Hybrid backend: fraction of each frame's work given to the GPU (0..1; negative = "
          "adaptive). Applies to the whole (possibly shared) context", -1.0, 1.0,
          DEFAULT_PROP_GPU_SHARE,
          static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                   GST_PARAM_MUTABLE_PLAYING)));
  g_object_class_install_property(gobject_class, PROP_CHECKSUM,
      g_param_spec_boolean("checksum", "Checksum",
          "Compute an MD5 digest of the visible pixels of all output frames (stats field "
          "\"checksum\"; costs one read of each frame): compares backends whatever the memory "
          "layout", DEFAULT_PROP_CHECKSUM,
          static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                   GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(gobject_class, PROP_STATS,
      g_param_spec_boxed("stats", "Statistics",
          "Statistics (read-only): this element's frames, blocks, frames-without-meta, "
          "padded-copies, input-copies (read-only input frames copied into the element's pool) and input-copy-time (seconds), "
          "process-time (seconds inside the element for those frames), "
          "stream-time (seconds from the first such frame's arrival to the last one's end); and "
          "its context's backend, gpu-device, cpu-threads, context-frames, "
          "blocks-cpu, blocks-gpu, cpu-time and gpu-time (seconds), gpu-share (last frame, "
          "0..1), copies (plane copies to GPU memory), gpu-submissions", GST_TYPE_STRUCTURE,
          static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  gst_element_class_set_static_metadata(element_class, "VP9 inverse transform",
      "Filter/Video", "Adds the VP9 inverse transforms of a GstV3dVp9ResidualMeta to the frame "
      "on SIMD CPU threads and/or the GPU (Vulkan compute)", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  element_class->change_state = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_change_state);
  element_class->set_context = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_sink_event);
  trans_class->set_caps = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_set_caps);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_stop);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_propose_allocation);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_transform_ip);
  trans_class->prepare_output_buffer = GST_DEBUG_FUNCPTR(gst_v3d_vp9_idct_prepare_output_buffer);

  gst_type_mark_as_plugin_api(GST_TYPE_V3D_BACKEND, static_cast<GstPluginAPIFlags>(0));
  // Registered up front so that applications can put a V3dContext into a GstContext.
  g_type_ensure(GST_TYPE_V3D_CONTEXT);
  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_idct_debug, "v3dvp9idct", 0, "VP9 inverse transform");
}

static void gst_v3d_vp9_idct_init(GstV3dVp9Idct *self) {
  self->priv = new GstV3dVp9IdctPrivate();
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}

static void gst_v3d_vp9_idct_finalize(GObject *object) {
  auto *self = GST_V3D_VP9_IDCT(object);
  self->priv->layout.reset();
  self->priv->context.drop();
  if (self->priv->state.checksum) g_checksum_free(self->priv->state.checksum);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_vp9_idct_parent_class)->finalize(object);
}

// Returns a new reference to the element's context, or NULL.
static V3dContext *ref_context(GstV3dVp9Idct *self) { return self->priv->context.ref(); }

static void gst_v3d_vp9_idct_set_property(GObject *object, guint prop_id, const GValue *value,
                                          GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_IDCT(object);
  Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_BACKEND:
      s.backend = static_cast<GstV3dBackend>(g_value_get_enum(value));
      break;
    case PROP_CPU_THREADS:
      s.cpu_threads = g_value_get_uint(value);
      break;
    case PROP_GPU_DEVICE: {
      const gchar *dev = g_value_get_string(value);
      s.gpu_device = dev ? dev : "";
      break;
    }
    case PROP_CHECKSUM:
      s.checksum = g_value_get_boolean(value);
      break;
    case PROP_GPU_SHARE: {
      s.gpu_share = g_value_get_double(value);
      if (V3dContext *ctx = ref_context(self)) {
        v3d_context_set_gpu_share(ctx, s.gpu_share);
        v3d_context_free(ctx);
      }
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

// Builds the "v3d-stats" structure (see the stats property). Caller owns the result.
static GstStructure *make_stats(GstV3dVp9Idct *self) {
  State snap;
  std::string checksum;
  {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    snap.frames = self->priv->state.frames;
    snap.blocks = self->priv->state.blocks;
    snap.frames_without_meta = self->priv->state.frames_without_meta;
    snap.padded_copies = self->priv->state.padded_copies;
    snap.process_us = self->priv->state.process_us;
    snap.first_us = self->priv->state.first_us;
    snap.last_us = self->priv->state.last_us;
    if (self->priv->state.checksum) {
      GChecksum *copy = g_checksum_copy(self->priv->state.checksum);
      checksum = g_checksum_get_string(copy);
      g_checksum_free(copy);
    }
  }
  GstStructure *s = gst_structure_new("v3d-stats",
      "frames", G_TYPE_UINT64, snap.frames,
      "blocks", G_TYPE_UINT64, snap.blocks,
      "frames-without-meta", G_TYPE_UINT64, snap.frames_without_meta,
      "padded-copies", G_TYPE_UINT64, snap.padded_copies,
      "input-copies", G_TYPE_UINT64, self->priv->output.copies(),
      "input-copy-time", G_TYPE_DOUBLE, self->priv->output.copy_seconds(),
      "process-time", G_TYPE_DOUBLE, snap.process_us / 1e6,
      "stream-time", G_TYPE_DOUBLE,
      snap.first_us >= 0 ? (snap.last_us - snap.first_us) / 1e6 : 0.0,
      nullptr);
  V3dContext *ctx = ref_context(self);
  v3d::add_context_stats(s, ctx);
  if (ctx) v3d_context_free(ctx);
  if (!checksum.empty()) gst_structure_set(s, "checksum", G_TYPE_STRING, checksum.c_str(), nullptr);
  return s;
}

static void gst_v3d_vp9_idct_get_property(GObject *object, guint prop_id, GValue *value,
                                          GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_IDCT(object);
  if (prop_id == PROP_STATS) {
    g_value_take_boxed(value, make_stats(self));
    return;
  }
  Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum(value, s.backend);
      break;
    case PROP_CPU_THREADS:
      g_value_set_uint(value, s.cpu_threads);
      break;
    case PROP_GPU_DEVICE:
      g_value_set_string(value, s.gpu_device.empty() ? nullptr : s.gpu_device.c_str());
      break;
    case PROP_GPU_SHARE:
      g_value_set_double(value, s.gpu_share);
      break;
    case PROP_CHECKSUM:
      g_value_set_boolean(value, s.checksum);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

// Adopts the context of a "v3d.context" GstContext if the element has none yet and the context
// was made for a compatible backend (see v3dcontext.h).
static void gst_v3d_vp9_idct_set_context(GstElement *element, GstContext *context) {
  auto *self = GST_V3D_VP9_IDCT(element);
  GstV3dBackend wanted;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    wanted = self->priv->settings.backend;
  }
  self->priv->context.offer(element, context, wanted);
  GST_ELEMENT_CLASS(gst_v3d_vp9_idct_parent_class)->set_context(element, context);
}

// NULL->READY: finds the pipeline's context (peers, then bins/application) or creates one.
static gboolean ensure_context(GstV3dVp9Idct *self) {
  v3d::ElementContextOptions opts;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    const Settings &s = self->priv->settings;
    opts.backend = s.backend;
    opts.cpu_threads = s.cpu_threads;
    opts.gpu_device = s.gpu_device;
    opts.gpu_share = s.gpu_share;
  }
  return self->priv->context.ensure(GST_ELEMENT(self), opts);
}

static void drop_context(GstV3dVp9Idct *self) { self->priv->context.drop(); }

static GstStateChangeReturn gst_v3d_vp9_idct_change_state(GstElement *element,
                                                          GstStateChange transition) {
  auto *self = GST_V3D_VP9_IDCT(element);
  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !ensure_context(self))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    gboolean checksum;
    {
      std::lock_guard<std::mutex> lock(self->priv->settings_lock);
      checksum = self->priv->settings.checksum;
    }
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    State &st = self->priv->state;
    st.frames = st.blocks = st.frames_without_meta = st.padded_copies = 0;
    st.process_us = 0;
    st.first_us = st.last_us = -1;
    if (st.checksum) g_checksum_free(st.checksum);
    st.checksum = checksum ? g_checksum_new(G_CHECKSUM_MD5) : nullptr;
  }
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS(gst_v3d_vp9_idct_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) drop_context(self);
  return ret;
}

static gboolean gst_v3d_vp9_idct_query(GstBaseTransform *trans, GstPadDirection direction,
                                       GstQuery *query) {
  auto *self = GST_V3D_VP9_IDCT(trans);
  // Private contexts (made because the pipeline's shared one has another backend) answer too:
  // neighbours asking for the same backend then share them.
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      self->priv->context.answer_query(GST_ELEMENT(self), query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_vp9_idct_parent_class)->query(trans, direction, query);
}

static gboolean gst_v3d_vp9_idct_sink_event(GstBaseTransform *trans, GstEvent *event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    auto *self = GST_V3D_VP9_IDCT(trans);
    GstStructure *s = make_stats(self);
    gchar *str = gst_structure_to_string(s);
    GST_INFO_OBJECT(self, "EOS: %s", str);
    g_free(str);
    gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
  }
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_vp9_idct_parent_class)->sink_event(trans, event);
}

// Caps time: plane sizes the library processes, and the padded copy for frames whose planes lack
// the room for them.
static gboolean gst_v3d_vp9_idct_set_caps(GstBaseTransform *trans, GstCaps *incaps, GstCaps *) {
  auto *self = GST_V3D_VP9_IDCT(trans);
  self->priv->output.reset();
  GstVideoInfo info;
  self->priv->layout.reset();
  if (!gst_video_info_from_caps(&info, incaps)) {
    GST_ERROR_OBJECT(self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  V3dContext *ctx = ref_context(self);
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
  GST_DEBUG_OBJECT(self, "configured %dx%d", GST_VIDEO_INFO_WIDTH(&info),
                   GST_VIDEO_INFO_HEIGHT(&info));
  return TRUE;
}

static gboolean gst_v3d_vp9_idct_stop(GstBaseTransform *trans) {
  GST_V3D_VP9_IDCT(trans)->priv->layout.reset();
  GST_V3D_VP9_IDCT(trans)->priv->output.reset();
  return TRUE;
}

static gboolean gst_v3d_vp9_idct_propose_allocation(GstBaseTransform *trans, GstQuery *,
                                                    GstQuery *query) {
  auto *self = GST_V3D_VP9_IDCT(trans);
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  gst_query_add_allocation_meta(query, GST_V3D_VP9_RESIDUAL_META_API_TYPE, nullptr);
  V3dContext *ctx = ref_context(self);
  if (ctx) v3d::propose_v3d_pool(GST_ELEMENT(self), query, ctx);
  if (ctx) v3d_context_free(ctx);
  return TRUE;
}

// Adds the visible pixels of buf to the running checksum, if there is one (checksum property).
static void update_checksum(GstV3dVp9Idct *self, GstBuffer *buf) {
  {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    if (!self->priv->state.checksum) return;
  }
  const v3d::ItxFrameLayout &layout = self->priv->layout;
  GstVideoFrame frame;
  if (!layout.configured() || !gst_video_frame_map(&frame, &layout.info(), buf, GST_MAP_READ))
    return;
  {
    // Only this thread changes the checksum; the lock keeps make_stats' copy consistent.
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    if (self->priv->state.checksum) v3d::checksum_visible(self->priv->state.checksum, frame);
  }
  gst_video_frame_unmap(&frame);
}

static GstFlowReturn apply_meta(GstV3dVp9Idct *self, GstBuffer *buf);

static GstFlowReturn gst_v3d_vp9_idct_transform_ip(GstBaseTransform *trans, GstBuffer *buf) {
  auto *self = GST_V3D_VP9_IDCT(trans);
  GstFlowReturn ret = apply_meta(self, buf);
  if (ret == GST_FLOW_OK) update_checksum(self, buf);
  return ret;
}

// Applies and removes the buffer's residual meta, if any.
static GstFlowReturn apply_meta(GstV3dVp9Idct *self, GstBuffer *buf) {
  v3d::ItxFrameLayout &layout = self->priv->layout;
  auto *meta = gst_buffer_get_v3d_vp9_residual_meta(buf);
  if (!meta) {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    self->priv->state.frames_without_meta++;
    return GST_FLOW_OK;
  }
  const gint64 t_start = g_get_monotonic_time();
  if (!layout.configured()) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  const int w = layout.width(), h = layout.height();
  const bool direct = layout.has_room(buf);

  V3dContext *ctx = ref_context(self);
  if (!ctx) {
    GST_ELEMENT_ERROR(self, CORE, STATE_CHANGE, (nullptr), ("no v3d context"));
    return GST_FLOW_ERROR;
  }
  int rc = V3D_OK;
  std::string why;
  if (!direct) {
    // Check first, so that an invalid meta costs no copy.
    rc = v3d_vp9_itxfm_validate(w, h, meta->blocks, meta->n_blocks, meta->n_coeffs);
    if (rc) why = v3d_last_error();
  }
  if (rc == V3D_OK) {
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &layout.info(), buf, GST_MAP_READWRITE)) {
      v3d_context_free(ctx);
      GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("Could not map the frame for writing"),
                        (nullptr));
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
    if (rc == V3D_ERROR_GPU || rc == V3D_ERROR_NO_MEMORY || rc == V3D_ERROR_UNAVAILABLE) {
      GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
          ("VP9 inverse transform failed: %s", v3d_error_name(rc)), ("%s", why.c_str()));
    } else {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 residual meta (%s): %s", v3d_error_name(rc), why.c_str()),
          ("frame %dx%d, %" G_GSIZE_FORMAT " blocks, %" G_GSIZE_FORMAT " coefficients", w, h,
           meta->n_blocks, meta->n_coeffs));
    }
    return GST_FLOW_ERROR;
  }
  const gsize n_blocks = meta->n_blocks;
  gst_buffer_remove_meta(buf, &meta->meta);
  {
    std::lock_guard<std::mutex> lock(self->priv->state_lock);
    State &st = self->priv->state;
    st.frames++;
    st.blocks += n_blocks;
    if (!direct) st.padded_copies++;
    const gint64 t_end = g_get_monotonic_time();
    st.process_us += t_end - t_start;
    if (st.first_us < 0) st.first_us = t_start;
    st.last_us = t_end;
  }
  return GST_FLOW_OK;
}

// A read-only input frame (a decoder's reference frame) is copied into the element's pool of
// shared memory rather than into freshly allocated memory (v3dfilter_common.h: OutputPool).
static GstFlowReturn gst_v3d_vp9_idct_prepare_output_buffer(GstBaseTransform *trans, GstBuffer *in,
                                                      GstBuffer **out) {
  auto *self = GST_V3D_VP9_IDCT(trans);
  V3dContext *ctx = self->priv->context.ref();
  GstFlowReturn ret = GST_FLOW_NOT_NEGOTIATED;
  if (self->priv->layout.configured())
    ret = self->priv->output.prepare(GST_ELEMENT(self), ctx, self->priv->layout.info(), in, out);
  else
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
  if (ctx) v3d_context_free(ctx);
  return ret;
}
