// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter: the abstract base class of the in-place v3d filter elements (v3dvp9idct,
// v3dvp9lpf, v3dh264deblock). A subclass describes one buffer (describe: its meta or its
// properties -> the library's frame arguments); the base class runs that description, one frame
// at a time (transform_ip) or several at once (frames in flight), for the kernel family the class
// names. What the base class owns, by file:
//
// - v3dfilter.cpp: the type, state changes, events, queries, the allocation proposal
//   (GstVideoMeta, the subclass's meta API, a GstV3dBufferPool);
// - v3dfilter_run.cpp: the frame path: mapping, the padded copy of frames whose planes lack the
//   room for the 8x8-rounded area, NV12's chroma split and merge, edge extension, the library
//   call (single, copy-and-filter, batch), element errors, removing the consumed meta, counting;
// - v3dfilter_props.cpp: the common properties ("backend", "cpu-threads", optionally
//   "gpu-device", "gpu-share", "checksum"; "stats", "stats-interval", "max-frames-in-flight")
//   and the statistics (the subclass's counters, times, the context's and the scheduler's
//   figures, the optional MD5), posted as "v3d-stats" at EOS and every "stats-interval" ms;
// - v3dfilter_context.cpp: the V3dContext, held from NULL->READY to READY->NULL and shared
//   through GstContext "v3d.context" (rules in <gst/v3d/v3dcontext.h>);
// - v3dfilter_inflight.cpp: frames in flight: with "max-frames-in-flight" N > 1 and a context
//   with a GPU (or several CPU threads, for a class with batches_help_cpu), up to N frames are
//   held and run as one batch, then pushed in order; EOS, caps and flushes drain or drop them;
//   the latency query adds N - 1 frame durations;
// - v3dfilter_input.cpp: read-only input frames: copied into the element's own pool, or (for a
//   family with a copy-and-filter call, one frame at a time) copied inside the kernel.
//
// Subclasses implement describe, GstVideoFilterClass::set_info if they keep caps-time state,
// chain their finalize, and hand property IDs below GST_V3D_FILTER_PROP_LAST to
// gst_v3d_filter_set_property/get_property. The element stays in place and never in
// passthrough.
//
// Threads: settings are read and written under GST_OBJECT_LOCK; counters behind their own lock;
// neither is held while calling into GStreamer or the kernel library.
#pragma once

#include <gst/video/gstvideofilter.h>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <initializer_list>

#include "gstv3delements.h"

G_BEGIN_DECLS

#define GST_TYPE_V3D_FILTER (gst_v3d_filter_get_type())
G_DECLARE_DERIVABLE_TYPE(GstV3dFilter, gst_v3d_filter, GST, V3D_FILTER, GstVideoFilter)

G_END_DECLS

#define GST_V3D_FILTER_MAX_COUNTERS 8

// One counter increment: index into the class's counter_names, and the amount.
struct GstV3dFilterCount {
  guint counter;
  guint64 n;
};

// What a subclass's describe says about one buffer.
struct GstV3dFrameDesc {
  enum Action {
    RUN,   // run the class's kernel family on the frame
    PASS,  // leave the frame as it is (no meta, or a post-filter that does nothing)
  };
  Action action = RUN;
  // The buffer's meta this frame consumes (removed after success), or NULL (post-filter mode).
  // Also chooses the element error for input the library refuses: "Invalid <meta_name>" with a
  // meta, "<what> refused the settings" without.
  GstMeta *meta = nullptr;
  // The processed picture (luma samples): the caps size, or a meta's larger coded size.
  int width = 0, height = 0;
  // Fill the area between the visible edge and the 8x8-rounded one by repeating the edge:
  // always (post-filter input), or only on the padded copy.
  bool extend_always = false;
  bool extend_padded = false;
  // The family's arguments, except planes, strides, width and height (the base sets those):
  // itx for V3D_KERNEL_VP9_ITX, lf for V3D_KERNEL_VP9_LPF, h264 for V3D_KERNEL_H264_DEBLOCK.
  union {
    V3dVp9ItxFrame itx;
    V3dVp9LfFrame lf;
    V3dH264Frame h264;
  } args = {};
  // Counters to add once the frame is done (RUN: after success; PASS: at once).
  GstV3dFilterCount counts[4] = {};
  guint n_counts = 0;

  void count(guint counter, guint64 n = 1) {
    if (n_counts < G_N_ELEMENTS(counts)) counts[n_counts++] = {counter, n};
  }
};

struct _GstV3dFilterClass {
  GstVideoFilterClass parent_class;
  // Describes buf (writable; its pixels may not be there yet, its metas are) with the
  // negotiated info: fills desc and returns GST_FLOW_OK, or posts the element error that names
  // the problem (an invalid meta's sizes, contradictory settings) and returns GST_FLOW_ERROR.
  // Streaming thread.
  GstFlowReturn (*describe)(GstV3dFilter *self, GstBuffer *buf, GstV3dFrameDesc *desc);
  // The kernel family the element runs (V3D_KERNEL_*): picks the library calls, and its
  // scheduler figures (v3d_context_get_kernel_stats) join the stats.
  gint kernel;
  // Names for element errors: the work ("VP9 loop filter") and the meta ("VP9 loop filter meta").
  const gchar *what;
  const gchar *meta_name;
  // The meta API proposed upstream (0 = none); the stats counters' field names (NULL-terminated,
  // at most GST_V3D_FILTER_MAX_COUNTERS, first in the stats structure).
  GType meta_api;
  const gchar *const *counter_names;
  // Counters the base class bumps (-1 = none): frames that went through the padded copy, and
  // NV12 frames whose chroma went through the scratch planes.
  gint padded_counter;
  gint chroma_counter;
  // TRUE: a read-only input frame's pixels are copied inside the kernel (the family's
  // copy-and-filter call) when one frame is processed at a time and the frame allows it.
  gboolean copies_source;
  // TRUE when batches beat frame-by-frame processing on the CPU alone too (the loop filter and
  // H.264 deblocking: a batch's wavefronts run in one loop of the workers): frames in flight
  // then also apply to contexts without a GPU, unless they run the scalar backend or one CPU
  // thread.
  gboolean batches_help_cpu;
};

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
// properties of `optional`, "stats", "stats-interval" and "max-frames-in-flight" on the
// subclass's class. A subclass with properties of its own sets its set_property/get_property
// before the call; else gst_v3d_filter_set_property/get_property are set.
void gst_v3d_filter_class_install_properties(GstV3dFilterClass *klass, guint optional,
                                             const gchar *backend_blurb);

// GObject property handlers of the common properties (IDs below GST_V3D_FILTER_PROP_LAST); warn
// about other IDs.
void gst_v3d_filter_set_property(GObject *object, guint prop_id, const GValue *value,
                                 GParamSpec *pspec);
void gst_v3d_filter_get_property(GObject *object, guint prop_id, GValue *value,
                                 GParamSpec *pspec);

// A new reference to the element's context (held from NULL->READY to READY->NULL), or NULL.
// The caller frees it with v3d_context_free.
V3dContext *gst_v3d_filter_ref_context(GstV3dFilter *self);

// Adds to the counters at once (for a subclass's own events outside describe).
void gst_v3d_filter_count(GstV3dFilter *self, std::initializer_list<GstV3dFilterCount> counts);
