// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter's instance state and the functions its files share (v3dfilter.cpp,
// v3dfilter_props.cpp, v3dfilter_context.cpp, v3dfilter_inflight.cpp, v3dfilter_input.cpp,
// v3dfilter_run.cpp). Not for subclasses: they use v3dfilter.h.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "v3dfilter.h"
#include "v3dfilter_context.h"
#include "v3dfilter_input.h"
#include "v3dframe.h"
#include "v3dnv12.h"

GST_DEBUG_CATEGORY_EXTERN(gst_v3d_filter_debug);

namespace v3d {

// Properties of the base class; read and written under GST_OBJECT_LOCK of the element.
struct FilterSettings {
  GstV3dBackend backend = GST_V3D_BACKEND_AUTO;
  guint cpu_threads = 0;
  std::string gpu_device;  // empty = default choice
  gdouble gpu_share = -1.0;
  gboolean checksum = FALSE;
  guint stats_interval_ms = 0;
  guint max_frames_in_flight = 1;
};

// Counters, reset at READY->PAUSED; guarded by FilterImpl::state_lock.
struct FilterState {
  guint64 counters[GST_V3D_FILTER_MAX_COUNTERS] = {};
  gint64 process_us = 0;          // wall time inside the element for processed frames
  gint64 first_us = -1;           // monotonic time the first processed frame arrived
  gint64 last_us = -1;            // ... and the last one was done
  gint64 last_post_us = -1;       // the last periodic "v3d-stats" message
  guint64 batches = 0;            // batches of frames in flight processed
  GChecksum *checksum = nullptr;  // MD5 of the visible pixels of every output frame (property)
};

// Caps-time state of the frame path (streaming thread; reset at caps and stop).
struct FrameScratch {
  ItxFrameLayout layout;  // 8x8-rounding families: processed sizes and the padded copy
  std::vector<std::unique_ptr<ChromaScratch>> chroma;  // NV12: one pair of planes per frame
  void reset() {
    layout.reset();
    chroma.clear();
  }
};

}  // namespace v3d

// C++ state of the element, created in init and deleted in finalize.
struct GstV3dFilterImpl {
  v3d::FilterSettings settings;  // GST_OBJECT_LOCK
  std::mutex state_lock;
  v3d::FilterState state;
  v3d::ElementContext context;
  v3d::InputCopies input;  // read-only input frames (streaming thread)
  v3d::FrameScratch scratch;
  // Frames in flight (streaming thread; flush and state changes with the stream lock held).
  std::vector<GstBuffer *> held;  // writable input frames waiting for their batch
  std::deque<GstBuffer *> ready;  // processed, waiting to be pushed in order

  ~GstV3dFilterImpl() {
    if (state.checksum) g_checksum_free(state.checksum);
  }
};

GstV3dFilterImpl *gst_v3d_filter_impl(gpointer self);
// The parent class (GstVideoFilter's vfuncs), for the files that chain up.
GstBaseTransformClass *gst_v3d_filter_parent_transform_class();

// A copy of the settings (under GST_OBJECT_LOCK).
v3d::FilterSettings gst_v3d_filter_settings(GstV3dFilter *self);

// v3dfilter_props.cpp: the "stats" structure (caller owns it); the counters of a processed
// frame (t_start >= 0: g_get_monotonic_time() when it arrived, its time counts) or of a frame
// left as it was (t_start < 0); the running MD5 of buf; reset at READY->PAUSED.
GstStructure *gst_v3d_filter_make_stats(GstV3dFilter *self);
void gst_v3d_filter_count_frame(GstV3dFilter *self, const GstV3dFilterCount *counts, guint n,
                                gint64 t_start);
void gst_v3d_filter_update_checksum(GstV3dFilter *self, GstBuffer *buf);
void gst_v3d_filter_reset_state(GstV3dFilter *self);

// v3dfilter_run.cpp: one buffer (transform_ip), and n buffers at once (frames in flight).
GstFlowReturn gst_v3d_filter_run_one(GstV3dFilter *self, GstBuffer *buf);
GstFlowReturn gst_v3d_filter_run_batch(GstV3dFilter *self, GstBuffer **buffers, guint n);
// set_info: the frame path's caps-time state (the padded copy, NV12's chroma planes).
gboolean gst_v3d_filter_configure_frames(GstV3dFilter *self, const GstVideoInfo *info);

// v3dfilter_inflight.cpp: frames held at once (1 = none held); drop or push the held frames;
// GstBaseTransform vfuncs; the latency the held frames add.
guint gst_v3d_filter_frames_in_flight(GstV3dFilter *self);
void gst_v3d_filter_drop_in_flight(GstV3dFilter *self);
GstFlowReturn gst_v3d_filter_drain_in_flight(GstV3dFilter *self);
GstFlowReturn gst_v3d_filter_submit_input_buffer(GstBaseTransform *trans, gboolean is_discont,
                                                 GstBuffer *input);
GstFlowReturn gst_v3d_filter_generate_output(GstBaseTransform *trans, GstBuffer **outbuf);
void gst_v3d_filter_add_latency(GstV3dFilter *self, GstQuery *query);

// v3dfilter_input.cpp: GstBaseTransform::prepare_output_buffer and propose_allocation; a
// read-only source's visible pixels copied into buf (counted; FALSE after an element error).
GstFlowReturn gst_v3d_filter_prepare_output_buffer(GstBaseTransform *trans, GstBuffer *in,
                                                   GstBuffer **out);
gboolean gst_v3d_filter_propose_allocation(GstBaseTransform *trans, GstQuery *decide_query,
                                           GstQuery *query);
gboolean gst_v3d_filter_copy_source(GstV3dFilter *self, GstBuffer *src, GstBuffer *buf);

// v3dfilter_context.cpp: GstElement::set_context (before chaining up); NULL->READY (FALSE after
// an element error) and READY->NULL; a CONTEXT query answered with the held context.
void gst_v3d_filter_set_context(GstElement *element, GstContext *context);
gboolean gst_v3d_filter_open_context(GstV3dFilter *self);
void gst_v3d_filter_close_context(GstV3dFilter *self);
gboolean gst_v3d_filter_answer_context_query(GstV3dFilter *self, GstQuery *query);
