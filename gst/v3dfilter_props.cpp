// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter's common properties and its statistics. See v3dfilter.h.
#include <string>

#include "v3dfilter_private.h"

#define GST_CAT_DEFAULT gst_v3d_filter_debug

#define MAX_FRAMES_IN_FLIGHT 16

void gst_v3d_filter_class_install_properties(GstV3dFilterClass *klass, guint optional,
                                             const gchar *backend_blurb) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  const v3d::FilterSettings defaults;
  // GObject does not inherit these two: a subclass without properties of its own uses ours.
  if (!gobject_class->set_property) gobject_class->set_property = gst_v3d_filter_set_property;
  if (!gobject_class->get_property) gobject_class->get_property = gst_v3d_filter_get_property;
  const auto rw_ready = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                 GST_PARAM_MUTABLE_READY);
  const auto rw_playing = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                   GST_PARAM_MUTABLE_PLAYING);
  /**
   * GstV3dFilter:backend:
   *
   * Where the element's kernels run: "auto", "scalar", "cpu" (SIMD), "gpu" (Vulkan compute) or
   * "hybrid" (GPU and CPU workers together). Read when going to READY, for the context the
   * element creates or the shared context it accepts (<gst/v3d/v3dcontext.h>: an element asking
   * for a backend other than "auto" ignores a shared context made for another one). Each element
   * describes what its family does on each backend.
   */
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_BACKEND,
      g_param_spec_enum("backend", "Backend", backend_blurb, GST_TYPE_V3D_BACKEND,
          defaults.backend, rw_ready));
  /**
   * GstV3dFilter:cpu-threads:
   *
   * CPU worker threads of a context this element creates (a shared context keeps its creator's).
   * 0: $V3D_CPU_THREADS if set, else the online cores minus one (the streaming thread works
   * too), for backend=auto with a GPU all online cores; at least 1.
   */
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_CPU_THREADS,
      g_param_spec_uint("cpu-threads", "CPU threads",
          "CPU worker threads of a context this element creates (0 = automatic)", 0, 1024,
          defaults.cpu_threads, rw_ready));
  if (optional & GST_V3D_FILTER_WITH_GPU_PROPS) {
    /**
     * GstV3dFilter:gpu-device:
     *
     * Vulkan device of a context this element creates: an index ("1") or a substring of the
     * device's name. NULL: $V3D_VULKAN_DEVICE if set, else a V3D device, else the first suitable
     * device.
     */
    g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_GPU_DEVICE,
        g_param_spec_string("gpu-device", "GPU device",
            "Vulkan device of a context this element creates: index or name (NULL = automatic)",
            nullptr, rw_ready));
    /**
     * GstV3dFilter:gpu-share:
     *
     * Backend hybrid: the fraction of each frame's work given to the GPU, fixed; a negative value
     * lets the split controller choose from measured throughput. Applies to the whole context,
     * which other elements may share; may change while playing.
     */
    g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_GPU_SHARE,
        g_param_spec_double("gpu-share", "GPU share",
            "Hybrid: fraction 0..1 of each frame's work on the GPU (0 = none, negative = adaptive)",
            -1.0, 1.0, defaults.gpu_share, rw_playing));
  }
  if (optional & GST_V3D_FILTER_WITH_CHECKSUM) {
    /**
     * GstV3dFilter:checksum:
     *
     * Digests the visible pixels of every output frame (rows left to right, planes in order, no
     * padding) into an MD5, the stats field "checksum": runs on different backends and memory
     * layouts can be compared. Costs one read of each frame. Read when going to PAUSED.
     */
    g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_CHECKSUM,
        g_param_spec_boolean("checksum", "Checksum",
            "MD5 of the visible pixels of all output frames, in stats field \"checksum\"",
            defaults.checksum, rw_ready));
  }
  /**
   * GstV3dFilter:stats:
   *
   * A "v3d-stats" structure, also posted as an element message at EOS and every
   * #GstV3dFilter:stats-interval milliseconds. Fields: the element's counters (each element
   * lists them), then process-time (seconds inside the element for processed frames),
   * stream-time (seconds from the first processed frame's arrival to the last one's end),
   * frames-in-flight-batches, input-copies and input-copy-time (read-only input frames copied,
   * seconds); the context's backend, gpu-device, cpu-threads, context-frames, blocks-cpu,
   * blocks-gpu, cpu-time and gpu-time (seconds), gpu-share (last frame, 0..1), copies (plane
   * copies to GPU memory), gpu-submissions, shared-memory ("gpu": the pool hands out the GPU's
   * memory; "plain": ordinary memory, see V3D_SHARED_MEMORY); the scheduler's figures for the
   * element's kernel family: kernel-frames, split-gpu-share, cpu-throughput and gpu-throughput
   * (work units per busy second), cpu-idle-time, gpu-idle-time (seconds), gpu-queue-depth,
   * gpu-queue-depth-max, frame-time-median and frame-time-p99 (ms); and checksum, with
   * #GstV3dFilter:checksum.
   */
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_STATS,
      g_param_spec_boxed("stats", "Statistics",
          "Counters, seconds, context and scheduler figures (read-only; fields in the docs)",
          GST_TYPE_STRUCTURE, static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  /**
   * GstV3dFilter:max-frames-in-flight:
   *
   * With a GPU (backend hybrid, or auto with a GPU), and for v3dvp9lpf and v3dh264deblock also
   * with several CPU threads: hold up to this many frames and process them together, so that
   * whole frames run on the CPU workers and the GPU at once (the loop filter and H.264
   * deblocking also run the frames' wavefronts together on the workers). Output order is kept;
   * the latency query adds N - 1 frame durations. 1: each frame as it arrives.
   */
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_MAX_FRAMES_IN_FLIGHT,
      g_param_spec_uint("max-frames-in-flight", "Max frames in flight",
          "Frames held and processed together, in order (1 = each frame as it arrives)", 1,
          MAX_FRAMES_IN_FLIGHT, defaults.max_frames_in_flight, rw_ready));
  /**
   * GstV3dFilter:stats-interval:
   *
   * Posts #GstV3dFilter:stats as a "v3d-stats" element message every this many milliseconds of
   * wall time while frames flow, besides the one at EOS. 0: only at EOS.
   */
  g_object_class_install_property(gobject_class, GST_V3D_FILTER_PROP_STATS_INTERVAL,
      g_param_spec_uint("stats-interval", "Statistics interval",
          "Milliseconds between \"v3d-stats\" messages (0 = only at EOS)", 0, G_MAXUINT,
          defaults.stats_interval_ms, rw_playing));
}

v3d::FilterSettings gst_v3d_filter_settings(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  GST_OBJECT_LOCK(self);
  v3d::FilterSettings s = impl->settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

void gst_v3d_filter_set_property(GObject *object, guint prop_id, const GValue *value,
                                 GParamSpec *pspec) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(object);
  v3d::FilterSettings &s = impl->settings;
  GST_OBJECT_LOCK(object);
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
  GST_OBJECT_UNLOCK(object);
  // A held context takes a new share at once (outside the lock: it calls the library).
  if (prop_id == GST_V3D_FILTER_PROP_GPU_SHARE) {
    if (V3dContext *ctx = impl->context.ref()) {
      v3d_context_set_gpu_share(ctx, g_value_get_double(value));
      v3d_context_free(ctx);
    }
  }
}

void gst_v3d_filter_get_property(GObject *object, guint prop_id, GValue *value,
                                 GParamSpec *pspec) {
  if (prop_id == GST_V3D_FILTER_PROP_STATS) {
    g_value_take_boxed(value, gst_v3d_filter_make_stats(GST_V3D_FILTER(object)));
    return;
  }
  const v3d::FilterSettings s = gst_v3d_filter_settings(GST_V3D_FILTER(object));
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

// The scheduler's view of the element's kernel family (all elements of the shared context).
static void add_kernel_stats(GstStructure *s, V3dContext *ctx, gint kernel) {
  V3dKernelStats ks;
  if (!ctx || kernel < 0 || v3d_context_get_kernel_stats(ctx, kernel, &ks) != V3D_OK) return;
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

GstStructure *gst_v3d_filter_make_stats(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  v3d::FilterState snap;
  std::string checksum;
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    const v3d::FilterState &st = impl->state;
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
  GstV3dFilterClass *klass = GST_V3D_FILTER_GET_CLASS(self);
  const gchar *const *names = klass->counter_names;
  for (int i = 0; names && names[i] && i < GST_V3D_FILTER_MAX_COUNTERS; i++)
    gst_structure_set(s, names[i], G_TYPE_UINT64, snap.counters[i], nullptr);
  gst_structure_set(s,
      "process-time", G_TYPE_DOUBLE, snap.process_us / 1e6,
      "stream-time", G_TYPE_DOUBLE,
      snap.first_us >= 0 ? (snap.last_us - snap.first_us) / 1e6 : 0.0,
      "frames-in-flight-batches", G_TYPE_UINT64, snap.batches,
      "input-copies", G_TYPE_UINT64, impl->input.copies(),
      "input-copy-time", G_TYPE_DOUBLE, impl->input.copy_seconds(),
      nullptr);
  V3dContext *ctx = impl->context.ref();
  v3d::add_context_stats(s, ctx);
  add_kernel_stats(s, ctx, klass->kernel);
  if (ctx) v3d_context_free(ctx);
  if (!checksum.empty()) gst_structure_set(s, "checksum", G_TYPE_STRING, checksum.c_str(), nullptr);
  return s;
}

// After each frame (streaming thread): posts "v3d-stats" when stats-interval has passed since
// the last one (or since the first frame).
static void maybe_post_stats(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  const guint interval_ms = gst_v3d_filter_settings(self).stats_interval_ms;
  if (!interval_ms) return;
  const gint64 now = g_get_monotonic_time();
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    v3d::FilterState &st = impl->state;
    if (st.last_post_us < 0) st.last_post_us = now;
    if (now - st.last_post_us < static_cast<gint64>(interval_ms) * 1000) return;
    st.last_post_us = now;
  }
  GstStructure *s = gst_v3d_filter_make_stats(self);
  gchar *str = gst_structure_to_string(s);
  GST_INFO_OBJECT(self, "%s", str);
  g_free(str);
  gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
}

void gst_v3d_filter_count_frame(GstV3dFilter *self, const GstV3dFilterCount *counts, guint n,
                                gint64 t_start) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    v3d::FilterState &st = impl->state;
    for (guint i = 0; i < n; i++)
      if (counts[i].counter < GST_V3D_FILTER_MAX_COUNTERS)
        st.counters[counts[i].counter] += counts[i].n;
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

void gst_v3d_filter_count(GstV3dFilter *self, std::initializer_list<GstV3dFilterCount> counts) {
  gst_v3d_filter_count_frame(self, counts.begin(), static_cast<guint>(counts.size()), -1);
}

void gst_v3d_filter_update_checksum(GstV3dFilter *self, GstBuffer *buf) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
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

void gst_v3d_filter_reset_state(GstV3dFilter *self) {
  const gboolean checksum = gst_v3d_filter_settings(self).checksum;
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  std::lock_guard<std::mutex> lock(impl->state_lock);
  v3d::FilterState &st = impl->state;
  if (st.checksum) g_checksum_free(st.checksum);
  st = v3d::FilterState();
  st.checksum = checksum ? g_checksum_new(G_CHECKSUM_MD5) : nullptr;
}
