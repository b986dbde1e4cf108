// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter: the abstract base class of the in-place v3d filter elements (v3dvp9idct,
// v3dvp9lpf, v3dh264deblock). It owns what they have in common:
//
// - the properties "backend" and "cpu-threads", optionally "gpu-device", "gpu-share" and
//   "checksum", and "stats", installed on the subclass with its own blurbs
//   (gst_v3d_filter_class_install_properties);
// - the V3dContext, from NULL->READY to READY->NULL, shared through GstContext "v3d.context"
//   (rules in v3dcontext.h: set_context, CONTEXT queries);
// - the statistics: named counters of the subclass, time spent on processed frames, the
//   context's statistics and the scheduler's figures for the element's kernel family (split,
//   each side's throughput and idle time, GPU queue depth, frame-time median and p99), the
//   optional MD5 of the output; reset at READY->PAUSED, posted as a "v3d-stats" element message
//   at EOS and every "stats-interval" milliseconds, logged (GST_DEBUG=v3dfilter:5 per frame,
//   :4 with each message), and readable through "stats";
// - the allocation proposal: GstVideoMeta, the subclass's meta API and a GstV3dBufferPool;
// - frames in flight: with "max-frames-in-flight" N > 1 and a context with a GPU (or several CPU
//   threads, for a class with batches_help_cpu), up to N frames are held and processed together
//   (process_batch), then pushed in their order; EOS, caps changes and flushes drain or drop
//   them; the latency query adds N - 1 frame durations.
//
// Subclasses implement GstVideoFilterClass::set_info and GstBaseTransformClass::transform_ip
// (frames are mapped by the subclass, only when it needs them), chain their finalize, and in
// their set_property/get_property hand the IDs below GST_V3D_FILTER_PROP_LAST to
// gst_v3d_filter_set_property/gst_v3d_filter_get_property. The element stays in place and never
// in passthrough; QoS is off (frames are never dropped for lateness).
//
// Threads: the property and stats functions are thread-safe (settings and counters behind
// separate locks, never held while calling into GStreamer or the kernel library).
#pragma once

#include <gst/video/gstvideofilter.h>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <initializer_list>
#include <string>

#include "gstv3delements.h"
#include "v3dframe.h"

G_BEGIN_DECLS

#define GST_TYPE_V3D_FILTER (gst_v3d_filter_get_type())
G_DECLARE_DERIVABLE_TYPE(GstV3dFilter, gst_v3d_filter, GST, V3D_FILTER, GstVideoFilter)

struct _GstV3dFilterClass {
  GstVideoFilterClass parent_class;
  // Set in the subclass's class_init: the meta API proposed upstream (0 = none), the stats
  // counters' field names (NULL-terminated, at most GST_V3D_FILTER_MAX_COUNTERS, in the order
  // they appear in the stats structure, before the common fields).
  GType meta_api;
  const gchar *const *counter_names;
  // The kernel family the element runs (V3D_KERNEL_*; -1 = none): its scheduler figures
  // (v3d_context_get_kernel_stats) join the stats.
  gint kernel;
  // Frames in flight (property "max-frames-in-flight" > 1 on a context with a GPU): processes
  // n writable buffers, in order, at once, so that the library can run whole frames on the CPU
  // workers and the GPU at the same time. Returns the first failure (having posted its element
  // error). Default: transform_ip on each buffer in turn.
  GstFlowReturn (*process_batch)(GstV3dFilter *self, GstBuffer **buffers, guint n);
  // TRUE when transform_ip takes the pixels of a read-only input frame itself
  // (gst_v3d_filter_take_source), copying them inside its kernel (e.g. row by row, while in
  // cache); FALSE: the base copies them before transform_ip.
  gboolean copies_source;
  // TRUE when process_batch beats frame-by-frame processing on the CPU alone too (the loop filter
  // and H.264 deblocking: a batch's wavefronts run in one loop of the workers): frames in flight
  // then also apply to contexts without a GPU, unless they run the scalar backend or one CPU
  // thread.
  gboolean batches_help_cpu;
};

G_END_DECLS

#define GST_V3D_FILTER_MAX_COUNTERS 8

// Property IDs owned by the base; a subclass numbers its own from GST_V3D_FILTER_PROP_LAST.
enum {
  GST_V3D_FILTER_PROP_BACKEND = 1,
  GST_V3D_FILTER_PROP_CPU_THREADS,
  GST_V3D_FILTER_PROP_GPU_DEVICE,
  GST_V3D_FILTER_PROP_GPU_SHARE,
  GST_V3D_FILTER_PROP_CHECKSUM,
  GST_V3D_FILTER_PROP_STATS,
  GST_V3D_FILTER_PROP_STATS_INTERVAL,
  GST_V3D_FILTER_PROP_MAX_FRAMES_IN_FLIGHT,
  GST_V3D_FILTER_PROP_LAST,
};

// Optional common properties (flags of gst_v3d_filter_class_install_properties).
enum GstV3dFilterOptional : guint {
  GST_V3D_FILTER_WITH_GPU_PROPS = 1 << 0,  // "gpu-device" and "gpu-share"
  GST_V3D_FILTER_WITH_CHECKSUM = 1 << 1,   // "checksum" (MD5 of the visible output pixels)
};

// class_init of a subclass: installs "backend" (blurb backend_blurb), "cpu-threads", the optional
// properties of `optional`, and "stats" (blurb stats_blurb) on the subclass's class. A subclass
// with properties of its own sets its set_property/get_property before the call; else
// gst_v3d_filter_set_property/get_property are set.
void gst_v3d_filter_class_install_properties(GstV3dFilterClass *klass, guint optional,
                                             const gchar *backend_blurb,
                                             const gchar *stats_blurb);

// GObject property handlers of the common properties (IDs below GST_V3D_FILTER_PROP_LAST); warn
// about other IDs.
void gst_v3d_filter_set_property(GObject *object, guint prop_id, const GValue *value,
                                 GParamSpec *pspec);
void gst_v3d_filter_get_property(GObject *object, guint prop_id, GValue *value,
                                 GParamSpec *pspec);

// A new reference to the element's context (held from NULL->READY to READY->NULL), or NULL.
// The caller frees it with v3d_context_free.
V3dContext *gst_v3d_filter_ref_context(GstV3dFilter *self);

// One counter increment: index into the class's counter_names, and the amount.
struct GstV3dFilterCount {
  guint counter;
  guint64 n;
};

// Adds to the counters at once. With t_start >= 0 (g_get_monotonic_time() when the frame
// arrived) the frame also counts as processed: its time goes into "process-time" and
// "stream-time".
void gst_v3d_filter_count(GstV3dFilter *self, std::initializer_list<GstV3dFilterCount> counts,
                          gint64 t_start = -1);

// For classes with copies_source: the read-only input frame whose pixels buf (the output buffer
// handed to transform_ip) does not hold yet, or NULL when buf holds them (transfer full). Call
// it first in transform_ip: with a source, the subclass copies its pixels into buf, either in
// its kernel or with gst_v3d_filter_copy_source.
GstBuffer *gst_v3d_filter_take_source(GstV3dFilter *self, GstBuffer *buf);
// Copies src's visible pixels into buf (counted as an input copy). FALSE after an element error.
gboolean gst_v3d_filter_copy_source(GstV3dFilter *self, GstBuffer *src, GstBuffer *buf);
// Counts an input copy that a kernel did (seconds: its share of the kernel's time, if known).
void gst_v3d_filter_count_source_copy(GstV3dFilter *self, double seconds);

// With the "checksum" property on: adds the visible pixels of buf (per the negotiated caps) to
// the running MD5. Streaming thread only.
void gst_v3d_filter_update_checksum(GstV3dFilter *self, GstBuffer *buf);

// Helpers of transform_ip and set_info; each posts the element error (or logs, at caps time) it
// names and returns FALSE/NULL when it fails.

// set_info of elements working on 8x8-rounded planes: configures layout for info with the
// element's context (padded copy in its shared memory).
gboolean gst_v3d_filter_configure_layout(GstV3dFilter *self, v3d::ItxFrameLayout *layout,
                                         const GstVideoInfo *info);
// Caps were negotiated (else CORE/NEGOTIATION "no caps set before the first buffer").
gboolean gst_v3d_filter_check_negotiated(GstV3dFilter *self);
// gst_v3d_filter_ref_context, or NULL after a CORE/STATE_CHANGE "no v3d context" error.
V3dContext *gst_v3d_filter_frame_context(GstV3dFilter *self);
// Maps buf read-write with the negotiated info (else RESOURCE/WRITE "Could not map the frame").
gboolean gst_v3d_filter_map_frame(GstV3dFilter *self, GstVideoFrame *frame, GstBuffer *buf);
// After a library call failed with rc: if rc is a resource failure (GPU, memory, unavailable),
// posts RESOURCE/FAILED "<what> failed: <error name>" with why as debug text, and returns TRUE;
// FALSE for input errors (the caller names the invalid input).
gboolean gst_v3d_filter_resource_error(GstV3dFilter *self, int rc, const gchar *what,
                                       const std::string &why);
