// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter: the common part of the in-place v3d filter elements. See v3dfilter.h.
#include "v3dfilter.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include <gst/v3d/v3dcontext.h>
#include "v3dfilter_common.h"
#include "v3dframe.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_filter_debug);
#define GST_CAT_DEFAULT gst_v3d_filter_debug

#define DEFAULT_PROP_BACKEND GST_V3D_BACKEND_AUTO
#define DEFAULT_PROP_CPU_THREADS 0
#define DEFAULT_PROP_GPU_DEVICE nullptr
#define DEFAULT_PROP_GPU_SHARE -1.0
#define DEFAULT_PROP_CHECKSUM FALSE
#define DEFAULT_PROP_STATS_INTERVAL 0
#define DEFAULT_PROP_MAX_FRAMES_IN_FLIGHT 1
#define MAX_FRAMES_IN_FLIGHT 16

namespace {

// Properties; guarded by Impl::settings_lock.
struct Settings {
  GstV3dBackend backend = DEFAULT_PROP_BACKEND;
  guint cpu_threads = DEFAULT_PROP_CPU_THREADS;
  std::string gpu_device;  // empty = default choice
  gdouble gpu_share = DEFAULT_PROP_GPU_SHARE;
  gboolean checksum = DEFAULT_PROP_CHECKSUM;
  guint stats_interval_ms = DEFAULT_PROP_STATS_INTERVAL;
  guint max_frames_in_flight = DEFAULT_PROP_MAX_FRAMES_IN_FLIGHT;
};

// Counters, reset at READY->PAUSED; guarded by Impl::state_lock.
struct State {
  guint64 counters[GST_V3D_FILTER_MAX_COUNTERS] = {};
  gint64 process_us = 0;          // wall time inside the element for processed frames
  gint64 first_us = -1;           // monotonic time the first processed frame arrived
  gint64 last_us = -1;            // ... and the last one was done
  gint64 last_post_us = -1;       // the last periodic "v3d-stats" message
  guint64 batches = 0;            // batches of frames in flight processed
  GChecksum *checksum = nullptr;  // MD5 of the visible pixels of every output frame (property)
};

}  // namespace

// C++ state of the element, created in init and deleted in finalize.
struct GstV3dFilterImpl {
  std::mutex settings_lock;
  Settings settings;
  std::mutex state_lock;
  State state;
  v3d::ElementContext context;
  v3d::OutputPool output;  // read-only input frames are copied into it (streaming thread)
  // Frames in flight (streaming thread; flush and state changes with the stream lock held).
  std::vector<GstBuffer *> held;   // writable input frames waiting for their batch
  std::deque<GstBuffer *> ready;   // processed, waiting to be pushed in order
  // copies_source: the output buffer prepared without pixels, and its read-only source.
  GstBuffer *pending_dst = nullptr;
  GstBuffer *pending_src = nullptr;

  ~GstV3dFilterImpl() {
    if (pending_src) gst_buffer_unref(pending_src);
    if (state.checksum) g_checksum_free(state.checksum);
  }
};

typedef struct {
  GstV3dFilterImpl *impl;
} GstV3dFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstV3dFilter, gst_v3d_filter, GST_TYPE_VIDEO_FILTER)

static GstV3dFilterImpl *impl_of(gpointer self) {
  auto *priv = static_cast<GstV3dFilterPrivate *>(
      gst_v3d_filter_get_instance_private(GST_V3D_FILTER(self)));
  return priv->impl;
}

static void gst_v3d_filter_finalize(GObject *object);
static GstStateChangeReturn gst_v3d_filter_change_state(GstElement *element,
                                                        GstStateChange transition);
static void gst_v3d_filter_set_context(GstElement *element, GstContext *context);
static gboolean gst_v3d_filter_query(GstBaseTransform *trans, GstPadDirection direction,
                                     GstQuery *query);
static gboolean gst_v3d_filter_sink_event(GstBaseTransform *trans, GstEvent *event);
static gboolean gst_v3d_filter_propose_allocation(GstBaseTransform *trans,
                                                  GstQuery *decide_query, GstQuery *query);
static GstFlowReturn gst_v3d_filter_prepare_output_buffer(GstBaseTransform *trans,
                                                          GstBuffer *in, GstBuffer **out);
static GstFlowReturn gst_v3d_filter_submit_input_buffer(GstBaseTransform *trans,
                                                        gboolean is_discont, GstBuffer *input);
static GstFlowReturn gst_v3d_filter_generate_output(GstBaseTransform *trans, GstBuffer **outbuf);
static GstFlowReturn gst_v3d_filter_default_process_batch(GstV3dFilter *self,
                                                          GstBuffer **buffers, guint n);
static guint frames_in_flight(GstV3dFilter *self);
static void drop_in_flight(GstV3dFilterImpl *impl);
static GstFlowReturn drain_in_flight(GstV3dFilter *self);

static void gst_v3d_filter_class_init(GstV3dFilterClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);

  gobject_class->finalize = gst_v3d_filter_finalize;

  element_class->change_state = GST_DEBUG_FUNCPTR(gst_v3d_filter_change_state);
  element_class->set_context = GST_DEBUG_FUNCPTR(gst_v3d_filter_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR(gst_v3d_filter_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_v3d_filter_sink_event);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR(gst_v3d_filter_propose_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR(gst_v3d_filter_prepare_output_buffer);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR(gst_v3d_filter_submit_input_buffer);
  trans_class->generate_output = GST_DEBUG_FUNCPTR(gst_v3d_filter_generate_output);

  klass->meta_api = 0;
  klass->counter_names = nullptr;
  klass->kernel = -1;
  klass->process_batch = gst_v3d_filter_default_process_batch;
  klass->copies_source = FALSE;

  gst_type_mark_as_plugin_api(GST_TYPE_V3D_BACKEND, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_V3D_FILTER, static_cast<GstPluginAPIFlags>(0));
  // Registered up front so that applications can put a V3dContext into a GstContext.
  g_type_ensure(GST_TYPE_V3D_CONTEXT);
  GST_DEBUG_CATEGORY_INIT(gst_v3d_filter_debug, "v3dfilter", 0, "v3d filter base class");
}

static void gst_v3d_filter_init(GstV3dFilter *self) {
  auto *priv = static_cast<GstV3dFilterPrivate *>(gst_v3d_filter_get_instance_private(self));
  priv->impl = new GstV3dFilterImpl();
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
  // QoS stays on, as GstVideoFilter sets it: a frame that would reach a synchronising sink too
  // late is dropped before it is processed (property "qos"). Nothing downstream depends on a
  // dropped frame: decoders keep their own reference frames.
}

static void gst_v3d_filter_finalize(GObject *object) {
  auto *priv = static_cast<GstV3dFilterPrivate *>(
      gst_v3d_filter_get_instance_private(GST_V3D_FILTER(object)));
  delete priv->impl;  // releases the context
  priv->impl = nullptr;
  G_OBJECT_CLASS(gst_v3d_filter_parent_class)->finalize(object);
}

void gst_v3d_filter_class_install_properties(GstV3dFilterClass *klass, guint optional,
                                             const gchar *backend_blurb,
                                             const gchar *stats_blurb) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  // GObject does not inherit these two: a subclass without properties of its own uses ours.
  if (!gobject_class->set_property) gobject_class->set_property = gst_v3d_filter_set_property;
  if (!gobject_class->get_property) gobject_class->get_property = gst_v3d_filter_get_property;
  const auto rw_ready = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                 GST_PARAM_MUTABLE_READY);
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_BACKEND,
      g_param_spec_enum("backend", "Backend", backend_blurb, GST_TYPE_V3D_BACKEND,
          DEFAULT_PROP_BACKEND, rw_ready));
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_CPU_THREADS,
      g_param_spec_uint("cpu-threads", "CPU threads",
          "CPU worker threads of a context this element creates (0 = $V3D_CPU_THREADS if set, "
          "else online cores - 1, for backend=auto online cores; at least 1)", 0, 1024, DEFAULT_PROP_CPU_THREADS, rw_ready));
  if (optional & GST_V3D_FILTER_WITH_GPU_PROPS) {
    g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_GPU_DEVICE,
        g_param_spec_string("gpu-device", "GPU device",
            "Vulkan device of a context this element creates: an index (\"1\") or a name "
            "substring (NULL = $V3D_VULKAN_DEVICE if set, else a V3D device, else the first "
            "suitable device)", DEFAULT_PROP_GPU_DEVICE, rw_ready));
    g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_GPU_SHARE,
        g_param_spec_double("gpu-share", "GPU share",
            "Hybrid backend: fraction of each frame's work given to the GPU (0..1; negative = "
            "adaptive). Applies to the whole (possibly shared) context", -1.0, 1.0,
            DEFAULT_PROP_GPU_SHARE,
            static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                     GST_PARAM_MUTABLE_PLAYING)));
  }
  if (optional & GST_V3D_FILTER_WITH_CHECKSUM) {
    g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_CHECKSUM,
        g_param_spec_boolean("checksum", "Checksum",
            "Compute an MD5 digest of the visible pixels of all output frames (stats field "
            "\"checksum\"; costs one read of each frame): compares backends whatever the "
            "memory layout", DEFAULT_PROP_CHECKSUM, rw_ready));
  }
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_STATS,
      g_param_spec_boxed("stats", "Statistics", stats_blurb, GST_TYPE_STRUCTURE,
          static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_MAX_FRAMES_IN_FLIGHT,
      g_param_spec_uint("max-frames-in-flight", "Max frames in flight",
          "With a GPU (backend hybrid, or auto with a GPU), and for v3dvp9lpf and v3dh264deblock "
          "also with several CPU threads: hold up to this many frames and process them together, "
          "so that whole frames run on the CPU workers and the GPU at once (the loop filter and "
          "H.264 deblocking also run the frames' wavefronts together on the workers); output "
          "order is kept and the latency query adds N - 1 frame durations. 1 = process each "
          "frame as it arrives", 1, MAX_FRAMES_IN_FLIGHT,
          DEFAULT_PROP_MAX_FRAMES_IN_FLIGHT, rw_ready));
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_STATS_INTERVAL,
      g_param_spec_uint("stats-interval", "Statistics interval",
          "Post the \"stats\" structure as a \"v3d-stats\" element message every this many "
          "milliseconds while frames flow (0 = only at EOS)", 0, G_MAXUINT,
          DEFAULT_PROP_STATS_INTERVAL,
          static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                   GST_PARAM_MUTABLE_PLAYING)));
}

V3dContext *gst_v3d_filter_ref_context(GstV3dFilter *self) {
  return impl_of(self)->context.ref();
}

void gst_v3d_filter_set_property(GObject *object, guint prop_id, const GValue *value,
                                 GParamSpec *pspec) {
  GstV3dFilterImpl *impl = impl_of(object);
  Settings &s = impl->settings;
  std::lock_guard<std::mutex> lock(impl->settings_lock);
  switch (prop_id) {
    case GST_V3D_FILTER_PROP_BACKEND:
      s.backend = static_cast<GstV3dBackend>(g_value_get_enum(value));
      break;
    case GST_V3D_FILTER_PROP_CPU_THREADS:
      s.cpu_threads = g_value_get_uint(value);
      break;
    case GST_V3D_FILTER_PROP_GPU_DEVICE: {
      const gchar *dev = g_value_get_string(value);
      s.gpu_device = dev ? dev : "";
      break;
    }
    case GST_V3D_FILTER_PROP_GPU_SHARE:
      s.gpu_share = g_value_get_double(value);
      if (V3dContext *ctx = impl->context.ref()) {
        v3d_context_set_gpu_share(ctx, s.gpu_share);
        v3d_context_free(ctx);
      }
      break;
    case GST_V3D_FILTER_PROP_CHECKSUM:
      s.checksum = g_value_get_boolean(value);
      break;
    case GST_V3D_FILTER_PROP_STATS_INTERVAL:
      s.stats_interval_ms = g_value_get_uint(value);
      break;
    case GST_V3D_FILTER_PROP_MAX_FRAMES_IN_FLIGHT:
      s.max_frames_in_flight = g_value_get_uint(value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

// Builds the "v3d-stats" structure: the subclass's counters, process-time, stream-time, the
// context's fields, and the checksum if any. Caller owns the result.
static GstStructure *make_stats(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = impl_of(self);
  State snap;
  std::string checksum;
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    const State &st = impl->state;
    for (int i = 0; i < GST_V3D_FILTER_MAX_COUNTERS; i++) snap.counters[i] = st.counters[i];
    snap.process_us = st.process_us;
    snap.first_us = st.first_us;
    snap.last_us = st.last_us;
    snap.batches = st.batches;
    if (st.checksum) {
      GChecksum *copy = g_checksum_copy(st.checksum);
      checksum = g_checksum_get_string(copy);
      g_checksum_free(copy);
    }
  }
  GstStructure *s = gst_structure_new_empty("v3d-stats");
  const gchar *const *names = GST_V3D_FILTER_GET_CLASS(self)->counter_names;
  for (int i = 0; names && names[i] && i < GST_V3D_FILTER_MAX_COUNTERS; i++)
    gst_structure_set(s, names[i], G_TYPE_UINT64, snap.counters[i], nullptr);
  gst_structure_set(s,
      "process-time", G_TYPE_DOUBLE, snap.process_us / 1e6,
      "stream-time", G_TYPE_DOUBLE,
      snap.first_us >= 0 ? (snap.last_us - snap.first_us) / 1e6 : 0.0,
      "frames-in-flight-batches", G_TYPE_UINT64, snap.batches,
      "input-copies", G_TYPE_UINT64, impl->output.copies(),
      "input-copy-time", G_TYPE_DOUBLE, impl->output.copy_seconds(),
      nullptr);
  V3dContext *ctx = impl->context.ref();
  v3d::add_context_stats(s, ctx);
  const gint kernel = GST_V3D_FILTER_GET_CLASS(self)->kernel;
  V3dKernelStats ks;
  if (ctx && kernel >= 0 && v3d_context_get_kernel_stats(ctx, kernel, &ks) == V3D_OK) {
    // The scheduler's view of this kernel family (all elements of the shared context).
    gst_structure_set(s,
        "kernel-frames", G_TYPE_UINT64, ks.frames,
        "split-gpu-share", G_TYPE_DOUBLE, ks.gpu_share_last,
        "cpu-throughput", G_TYPE_DOUBLE, ks.cpu_units_per_second,
        "gpu-throughput", G_TYPE_DOUBLE, ks.gpu_units_per_second,
        "cpu-idle-time", G_TYPE_DOUBLE, ks.cpu_idle_seconds,
        "gpu-idle-time", G_TYPE_DOUBLE, ks.gpu_idle_seconds,
        "gpu-queue-depth", G_TYPE_UINT, ks.gpu_jobs_in_flight,
        "gpu-queue-depth-max", G_TYPE_UINT, ks.gpu_jobs_in_flight_max,
        "frame-time-median", G_TYPE_DOUBLE, ks.frame_ms_median,
        "frame-time-p99", G_TYPE_DOUBLE, ks.frame_ms_p99,
        nullptr);
  }
  if (ctx) v3d_context_free(ctx);
  if (!checksum.empty()) gst_structure_set(s, "checksum", G_TYPE_STRING, checksum.c_str(), nullptr);
  return s;
}

void gst_v3d_filter_get_property(GObject *object, guint prop_id, GValue *value,
                                 GParamSpec *pspec) {
  if (prop_id == GST_V3D_FILTER_PROP_STATS) {
    g_value_take_boxed(value, make_stats(GST_V3D_FILTER(object)));
    return;
  }
  GstV3dFilterImpl *impl = impl_of(object);
  const Settings &s = impl->settings;
  std::lock_guard<std::mutex> lock(impl->settings_lock);
  switch (prop_id) {
    case GST_V3D_FILTER_PROP_BACKEND:
      g_value_set_enum(value, s.backend);
      break;
    case GST_V3D_FILTER_PROP_CPU_THREADS:
      g_value_set_uint(value, s.cpu_threads);
      break;
    case GST_V3D_FILTER_PROP_GPU_DEVICE:
      g_value_set_string(value, s.gpu_device.empty() ? nullptr : s.gpu_device.c_str());
      break;
    case GST_V3D_FILTER_PROP_GPU_SHARE:
      g_value_set_double(value, s.gpu_share);
      break;
    case GST_V3D_FILTER_PROP_CHECKSUM:
      g_value_set_boolean(value, s.checksum);
      break;
    case GST_V3D_FILTER_PROP_STATS_INTERVAL:
      g_value_set_uint(value, s.stats_interval_ms);
      break;
    case GST_V3D_FILTER_PROP_MAX_FRAMES_IN_FLIGHT:
      g_value_set_uint(value, s.max_frames_in_flight);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

// After each frame (streaming thread): posts "v3d-stats" when stats-interval has passed since
// the last one (or since the first frame).
static void maybe_post_stats(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = impl_of(self);
  guint interval_ms;
  {
    std::lock_guard<std::mutex> lock(impl->settings_lock);
    interval_ms = impl->settings.stats_interval_ms;
  }
  if (!interval_ms) return;
  const gint64 now = g_get_monotonic_time();
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    State &st = impl->state;
    if (st.last_post_us < 0) st.last_post_us = now;
    if (now - st.last_post_us < static_cast<gint64>(interval_ms) * 1000) return;
    st.last_post_us = now;
  }
  GstStructure *s = make_stats(self);
  gchar *str = gst_structure_to_string(s);
  GST_INFO_OBJECT(self, "%s", str);
  g_free(str);
  gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
}

void gst_v3d_filter_count(GstV3dFilter *self, std::initializer_list<GstV3dFilterCount> counts,
                          gint64 t_start) {
  GstV3dFilterImpl *impl = impl_of(self);
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    State &st = impl->state;
    for (const GstV3dFilterCount &c : counts)
      if (c.counter < GST_V3D_FILTER_MAX_COUNTERS) st.counters[c.counter] += c.n;
    if (t_start >= 0) {
      const gint64 t_end = g_get_monotonic_time();
      st.process_us += t_end - t_start;
      if (st.first_us < 0) st.first_us = t_start;
      st.last_us = t_end;
      GST_LOG_OBJECT(self, "frame processed in %.3f ms", (t_end - t_start) / 1e3);
    }
  }
  maybe_post_stats(self);  // for frames passed through too: the interval is wall time
}

void gst_v3d_filter_update_checksum(GstV3dFilter *self, GstBuffer *buf) {
  GstV3dFilterImpl *impl = impl_of(self);
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    if (!impl->state.checksum) return;
  }
  GstVideoFilter *vf = GST_VIDEO_FILTER(self);
  GstVideoFrame frame;
  if (!vf->negotiated || !gst_video_frame_map(&frame, &vf->in_info, buf, GST_MAP_READ)) return;
  {
    // Only this thread changes the checksum; the lock keeps make_stats' copy consistent.
    std::lock_guard<std::mutex> lock(impl->state_lock);
    if (impl->state.checksum) v3d::checksum_visible(impl->state.checksum, frame);
  }
  gst_video_frame_unmap(&frame);
}

gboolean gst_v3d_filter_configure_layout(GstV3dFilter *self, v3d::ItxFrameLayout *layout,
                                         const GstVideoInfo *info) {
  layout->reset();
  V3dContext *ctx = gst_v3d_filter_ref_context(self);
  if (!ctx) {
    GST_ERROR_OBJECT(self, "no v3d context");
    return FALSE;
  }
  bool ok = layout->configure(*info, ctx);
  v3d_context_free(ctx);
  if (!ok) {
    GST_ERROR_OBJECT(self, "could not allocate the padded frame copy");
    return FALSE;
  }
  GST_DEBUG_OBJECT(self, "configured %dx%d", GST_VIDEO_INFO_WIDTH(info),
                   GST_VIDEO_INFO_HEIGHT(info));
  return TRUE;
}

gboolean gst_v3d_filter_check_negotiated(GstV3dFilter *self) {
  if (GST_VIDEO_FILTER(self)->negotiated) return TRUE;
  GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
  return FALSE;
}

V3dContext *gst_v3d_filter_frame_context(GstV3dFilter *self) {
  V3dContext *ctx = gst_v3d_filter_ref_context(self);
  if (!ctx) GST_ELEMENT_ERROR(self, CORE, STATE_CHANGE, (nullptr), ("no v3d context"));
  return ctx;
}

gboolean gst_v3d_filter_map_frame(GstV3dFilter *self, GstVideoFrame *frame, GstBuffer *buf) {
  if (gst_video_frame_map(frame, &GST_VIDEO_FILTER(self)->in_info, buf, GST_MAP_READWRITE))
    return TRUE;
  GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("Could not map the frame for writing"), (nullptr));
  return FALSE;
}

gboolean gst_v3d_filter_resource_error(GstV3dFilter *self, int rc, const gchar *what,
                                       const std::string &why) {
  if (rc != V3D_ERROR_GPU && rc != V3D_ERROR_NO_MEMORY && rc != V3D_ERROR_UNAVAILABLE)
    return FALSE;
  GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("%s failed: %s", what, v3d_error_name(rc)),
                    ("%s", why.c_str()));
  return TRUE;
}

// Adopts the context of a "v3d.context" GstContext if the element has none yet and the context
// was made for a compatible backend (see v3dcontext.h).
static void gst_v3d_filter_set_context(GstElement *element, GstContext *context) {
  GstV3dFilterImpl *impl = impl_of(element);
  GstV3dBackend wanted;
  {
    std::lock_guard<std::mutex> lock(impl->settings_lock);
    wanted = impl->settings.backend;
  }
  impl->context.offer(element, context, wanted);
  GST_ELEMENT_CLASS(gst_v3d_filter_parent_class)->set_context(element, context);
}

static GstStateChangeReturn gst_v3d_filter_change_state(GstElement *element,
                                                        GstStateChange transition) {
  GstV3dFilterImpl *impl = impl_of(element);
  if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
    // Finds the pipeline's context (peers, then bins/application) or creates one.
    v3d::ElementContextOptions opts;
    {
      std::lock_guard<std::mutex> lock(impl->settings_lock);
      const Settings &s = impl->settings;
      opts.backend = s.backend;
      opts.cpu_threads = s.cpu_threads;
      opts.gpu_device = s.gpu_device;
      opts.gpu_share = s.gpu_share;
    }
    if (!impl->context.ensure(element, opts)) return GST_STATE_CHANGE_FAILURE;
  }
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    gboolean checksum;
    {
      std::lock_guard<std::mutex> lock(impl->settings_lock);
      checksum = impl->settings.checksum;
    }
    std::lock_guard<std::mutex> lock(impl->state_lock);
    State &st = impl->state;
    if (st.checksum) g_checksum_free(st.checksum);
    st = State();
    st.checksum = checksum ? g_checksum_new(G_CHECKSUM_MD5) : nullptr;
  }
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS(gst_v3d_filter_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    drop_in_flight(impl);
    impl->output.reset();
  }
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) impl->context.drop();
  return ret;
}

// ---- Frames in flight ----

// Frames held at once: the property when the context runs hybrid with a GPU, or (for an element
// whose batches help the CPU) several CPU threads with SIMD kernels; else 1.
static guint frames_in_flight(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = impl_of(self);
  guint n;
  {
    std::lock_guard<std::mutex> lock(impl->settings_lock);
    n = impl->settings.max_frames_in_flight;
  }
  if (n <= 1) return 1;
  V3dContext *ctx = impl->context.ref();
  const bool both_sides = ctx && v3d_context_gpu_name(ctx) &&
                          strcmp(v3d_context_backend(ctx), "hybrid") == 0;
  const bool cpu_batches = ctx && GST_V3D_FILTER_GET_CLASS(self)->batches_help_cpu &&
                           strcmp(v3d_context_backend(ctx), "scalar") != 0 &&
                           v3d_context_cpu_threads(ctx) > 1;
  if (ctx) v3d_context_free(ctx);
  return both_sides || cpu_batches ? n : 1;
}

static void drop_pending_source(GstV3dFilterImpl *impl) {
  if (impl->pending_src) gst_buffer_unref(impl->pending_src);
  impl->pending_src = nullptr;
  impl->pending_dst = nullptr;
}

static void drop_in_flight(GstV3dFilterImpl *impl) {
  drop_pending_source(impl);
  for (GstBuffer *b : impl->held) gst_buffer_unref(b);
  impl->held.clear();
  for (GstBuffer *b : impl->ready) gst_buffer_unref(b);
  impl->ready.clear();
}

static GstFlowReturn gst_v3d_filter_default_process_batch(GstV3dFilter *self,
                                                          GstBuffer **buffers, guint n) {
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS(self);
  for (guint i = 0; i < n; i++) {
    GstFlowReturn ret = klass->transform_ip(GST_BASE_TRANSFORM(self), buffers[i]);
    if (ret != GST_FLOW_OK) return ret;
  }
  return GST_FLOW_OK;
}

// Processes the held frames as one batch; they join the ready queue in order.
static GstFlowReturn process_held(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = impl_of(self);
  if (impl->held.empty()) return GST_FLOW_OK;
  std::vector<GstBuffer *> batch;
  batch.swap(impl->held);
  GST_LOG_OBJECT(self, "processing %zu frames in flight", batch.size());
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    impl->state.batches++;
  }
  GstFlowReturn ret = GST_V3D_FILTER_GET_CLASS(self)->process_batch(
      self, batch.data(), static_cast<guint>(batch.size()));
  for (GstBuffer *b : batch) {
    if (ret == GST_FLOW_OK) impl->ready.push_back(b);
    else gst_buffer_unref(b);
  }
  return ret;
}

// Processes and pushes every frame in flight (before EOS, caps, segments, gaps).
static GstFlowReturn drain_in_flight(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = impl_of(self);
  GstFlowReturn ret = process_held(self);
  while (!impl->ready.empty()) {
    GstBuffer *b = impl->ready.front();
    impl->ready.pop_front();
    if (ret == GST_FLOW_OK) ret = gst_pad_push(GST_BASE_TRANSFORM_SRC_PAD(self), b);
    else gst_buffer_unref(b);
  }
  return ret;
}

// Holds the frame (made writable) when frames are in flight; else GstBaseTransform's way.
// QoS runs first (the parent's submit_input_buffer drops late frames).
static GstFlowReturn gst_v3d_filter_submit_input_buffer(GstBaseTransform *trans,
                                                        gboolean is_discont, GstBuffer *input) {
  GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class)
                          ->submit_input_buffer(trans, is_discont, input);
  if (ret != GST_FLOW_OK || !trans->queued_buf || frames_in_flight(GST_V3D_FILTER(trans)) <= 1)
    return ret;
  GstBuffer *in = trans->queued_buf;
  trans->queued_buf = nullptr;
  GstBuffer *writable = nullptr;
  ret = gst_v3d_filter_prepare_output_buffer(trans, in, &writable);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref(in);
    return ret;
  }
  if (writable != in) gst_buffer_unref(in);
  impl_of(trans)->held.push_back(writable);
  return GST_FLOW_OK;
}

// Called until it returns no buffer: the next processed frame in order, processing a batch when
// enough frames are held; else GstBaseTransform's way for a frame not held.
static GstFlowReturn gst_v3d_filter_generate_output(GstBaseTransform *trans, GstBuffer **outbuf) {
  GstV3dFilter *self = GST_V3D_FILTER(trans);
  GstV3dFilterImpl *impl = impl_of(self);
  *outbuf = nullptr;
  if (!impl->held.empty() && impl->held.size() >= frames_in_flight(self)) {
    GstFlowReturn ret = process_held(self);
    if (ret != GST_FLOW_OK) return ret;
  }
  if (!impl->ready.empty()) {
    *outbuf = impl->ready.front();
    impl->ready.pop_front();
    return GST_FLOW_OK;
  }
  if (!trans->queued_buf) return GST_FLOW_OK;
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class)->generate_output(trans, outbuf);
}

static gboolean gst_v3d_filter_query(GstBaseTransform *trans, GstPadDirection direction,
                                     GstQuery *query) {
  // Private contexts (made because the pipeline's shared one has another backend) answer too:
  // neighbours asking for the same backend then share them.
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      impl_of(trans)->context.answer_query(GST_ELEMENT(trans), query))
    return TRUE;
  gboolean ok = GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class)->query(trans, direction, query);
  if (ok && GST_QUERY_TYPE(query) == GST_QUERY_LATENCY && direction == GST_PAD_SRC) {
    // Frames in flight: a frame waits for up to N - 1 later ones before it leaves.
    const guint n = frames_in_flight(GST_V3D_FILTER(trans));
    const GstVideoInfo &info = GST_VIDEO_FILTER(trans)->in_info;
    if (n > 1 && GST_VIDEO_INFO_FPS_N(&info) > 0) {
      gboolean live;
      GstClockTime min, max;
      gst_query_parse_latency(query, &live, &min, &max);
      const GstClockTime add = gst_util_uint64_scale_int(
          (n - 1) * GST_SECOND, GST_VIDEO_INFO_FPS_D(&info), GST_VIDEO_INFO_FPS_N(&info));
      GST_DEBUG_OBJECT(trans, "%u frames in flight: latency + %" GST_TIME_FORMAT, n,
                       GST_TIME_ARGS(add));
      gst_query_set_latency(query, live, min + add,
                            GST_CLOCK_TIME_IS_VALID(max) ? max + add : max);
    }
  }
  return ok;
}

static gboolean gst_v3d_filter_sink_event(GstBaseTransform *trans, GstEvent *event) {
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
      // Frames in flight belong before these: process and push them first.
      if (drain_in_flight(GST_V3D_FILTER(trans)) != GST_FLOW_OK)
        GST_DEBUG_OBJECT(trans, "frames in flight not all pushed before %s",
                         GST_EVENT_TYPE_NAME(event));
      break;
    case GST_EVENT_FLUSH_STOP:
      drop_in_flight(impl_of(trans));
      break;
    default:
      break;
  }
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    GstStructure *s = make_stats(GST_V3D_FILTER(trans));
    gchar *str = gst_structure_to_string(s);
    GST_INFO_OBJECT(trans, "EOS: %s", str);
    g_free(str);
    gst_element_post_message(GST_ELEMENT(trans), gst_message_new_element(GST_OBJECT(trans), s));
  }
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class)->sink_event(trans, event);
}

// The video meta, the subclass's meta, and the v3d pool (shared memory saves GPU copies; with
// GstVideoMeta its planes are padded to whole 8x8 luma blocks).
static gboolean gst_v3d_filter_propose_allocation(GstBaseTransform *trans, GstQuery *,
                                                  GstQuery *query) {
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  const GType meta_api = GST_V3D_FILTER_GET_CLASS(trans)->meta_api;
  if (meta_api) gst_query_add_allocation_meta(query, meta_api, nullptr);
  V3dContext *ctx = impl_of(trans)->context.ref();
  if (ctx) {
    v3d::propose_v3d_pool(GST_ELEMENT(trans), query, ctx);
    v3d_context_free(ctx);
  }
  return TRUE;
}

// A read-only input frame (a decoder's reference frame, which the decoder still uses) is copied
// into the element's own pool of shared memory instead of GstBaseTransform's fresh allocation
// per frame (v3dfilter_common.h: OutputPool).
static GstFlowReturn gst_v3d_filter_prepare_output_buffer(GstBaseTransform *trans,
                                                          GstBuffer *in, GstBuffer **out) {
  GstVideoFilter *vf = GST_VIDEO_FILTER(trans);
  if (!vf->negotiated) {
    GST_ELEMENT_ERROR(trans, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  GstV3dFilterImpl *impl = impl_of(trans);
  V3dContext *ctx = impl->context.ref();
  // One frame at a time, a class that copies inside its kernel gets the pixels left to it.
  const bool defer = GST_V3D_FILTER_GET_CLASS(trans)->copies_source &&
                     frames_in_flight(GST_V3D_FILTER(trans)) <= 1;
  drop_pending_source(impl);
  GstFlowReturn ret = impl->output.prepare(GST_ELEMENT(trans), ctx, vf->in_info, in, out, defer);
  if (ctx) v3d_context_free(ctx);
  if (ret == GST_FLOW_OK && defer && *out != in) {
    impl->pending_dst = *out;
    impl->pending_src = gst_buffer_ref(in);
  }
  return ret;
}

GstBuffer *gst_v3d_filter_take_source(GstV3dFilter *self, GstBuffer *buf) {
  GstV3dFilterImpl *impl = impl_of(self);
  if (!impl->pending_src || impl->pending_dst != buf) return nullptr;
  GstBuffer *src = impl->pending_src;
  impl->pending_src = nullptr;
  impl->pending_dst = nullptr;
  return src;
}

gboolean gst_v3d_filter_copy_source(GstV3dFilter *self, GstBuffer *src, GstBuffer *buf) {
  const gint64 t0 = g_get_monotonic_time();
  GstV3dFilterImpl *impl = impl_of(self);
  if (!impl->output.copy_pixels(GST_ELEMENT(self), GST_VIDEO_FILTER(self)->in_info, src, buf))
    return FALSE;
  impl->output.count_copy((g_get_monotonic_time() - t0) / 1e6);
  return TRUE;
}

void gst_v3d_filter_count_source_copy(GstV3dFilter *self, double seconds) {
  impl_of(self)->output.count_copy(seconds);
}
