// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter's frames in flight: frames held and run as one batch, pushed in their order.
// See v3dfilter.h.
#include <cstring>

#include "v3dfilter_private.h"

#define GST_CAT_DEFAULT gst_v3d_filter_debug

// Frames held at once: the property when the context runs hybrid with a GPU, or (for an element
// whose batches help the CPU) several CPU threads with SIMD kernels; else 1.
guint gst_v3d_filter_frames_in_flight(GstV3dFilter *self) {
  const guint n = gst_v3d_filter_settings(self).max_frames_in_flight;
  if (n <= 1) return 1;
  V3dContext *ctx = gst_v3d_filter_impl(self)->context.ref();
  if (!ctx) return 1;
  const bool both_sides =
      v3d_context_gpu_name(ctx) && strcmp(v3d_context_backend(ctx), "hybrid") == 0;
  const bool cpu_batches = GST_V3D_FILTER_GET_CLASS(self)->batches_help_cpu &&
                           strcmp(v3d_context_backend(ctx), "scalar") != 0 &&
                           v3d_context_cpu_threads(ctx) > 1;
  v3d_context_free(ctx);
  return both_sides || cpu_batches ? n : 1;
}

void gst_v3d_filter_drop_in_flight(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  impl->input.drop_pending();
  for (GstBuffer *b : impl->held) gst_buffer_unref(b);
  impl->held.clear();
  for (GstBuffer *b : impl->ready) gst_buffer_unref(b);
  impl->ready.clear();
}

// Processes the held frames as one batch; they join the ready queue in order.
static GstFlowReturn process_held(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  if (impl->held.empty()) return GST_FLOW_OK;
  std::vector<GstBuffer *> batch;
  batch.swap(impl->held);
  GST_LOG_OBJECT(self, "processing %zu frames in flight", batch.size());
  {
    std::lock_guard<std::mutex> lock(impl->state_lock);
    impl->state.batches++;
  }
  const GstFlowReturn ret =
      gst_v3d_filter_run_batch(self, batch.data(), static_cast<guint>(batch.size()));
  for (GstBuffer *b : batch) {
    if (ret == GST_FLOW_OK) impl->ready.push_back(b);
    else gst_buffer_unref(b);
  }
  return ret;
}

// Processes and pushes every frame in flight (before EOS, caps, segments, gaps).
GstFlowReturn gst_v3d_filter_drain_in_flight(GstV3dFilter *self) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
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
GstFlowReturn gst_v3d_filter_submit_input_buffer(GstBaseTransform *trans, gboolean is_discont,
                                                 GstBuffer *input) {
  GstFlowReturn ret =
      gst_v3d_filter_parent_transform_class()->submit_input_buffer(trans, is_discont, input);
  GstV3dFilter *self = GST_V3D_FILTER(trans);
  if (ret != GST_FLOW_OK || !trans->queued_buf || gst_v3d_filter_frames_in_flight(self) <= 1)
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
  gst_v3d_filter_impl(self)->held.push_back(writable);
  return GST_FLOW_OK;
}

// Called until it returns no buffer: the next processed frame in order, processing a batch when
// enough frames are held; else GstBaseTransform's way for a frame not held.
GstFlowReturn gst_v3d_filter_generate_output(GstBaseTransform *trans, GstBuffer **outbuf) {
  GstV3dFilter *self = GST_V3D_FILTER(trans);
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  *outbuf = nullptr;
  if (!impl->held.empty() && impl->held.size() >= gst_v3d_filter_frames_in_flight(self)) {
    const GstFlowReturn ret = process_held(self);
    if (ret != GST_FLOW_OK) return ret;
  }
  if (!impl->ready.empty()) {
    *outbuf = impl->ready.front();
    impl->ready.pop_front();
    return GST_FLOW_OK;
  }
  if (!trans->queued_buf) return GST_FLOW_OK;
  return gst_v3d_filter_parent_transform_class()->generate_output(trans, outbuf);
}

// A frame waits for up to N - 1 later ones before it leaves.
void gst_v3d_filter_add_latency(GstV3dFilter *self, GstQuery *query) {
  const guint n = gst_v3d_filter_frames_in_flight(self);
  const GstVideoInfo &info = GST_VIDEO_FILTER(self)->in_info;
  if (n <= 1 || GST_VIDEO_INFO_FPS_N(&info) <= 0) return;
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency(query, &live, &min, &max);
  const GstClockTime add = gst_util_uint64_scale_int(
      (n - 1) * GST_SECOND, GST_VIDEO_INFO_FPS_D(&info), GST_VIDEO_INFO_FPS_N(&info));
  GST_DEBUG_OBJECT(self, "%u frames in flight: latency + %" GST_TIME_FORMAT, n,
                   GST_TIME_ARGS(add));
  gst_query_set_latency(query, live, min + add, GST_CLOCK_TIME_IS_VALID(max) ? max + add : max);
}
