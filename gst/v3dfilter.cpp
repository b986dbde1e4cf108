// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter: the type, its state changes, events, queries and allocation proposal; the other
// concerns live in the v3dfilter_*.cpp files. See v3dfilter.h.
#include "v3dfilter.h"

#include <gst/v3d/v3dcontext.h>

#include "v3dfilter_private.h"

GST_DEBUG_CATEGORY(gst_v3d_filter_debug);
#define GST_CAT_DEFAULT gst_v3d_filter_debug

typedef struct {
  GstV3dFilterImpl *impl;
} GstV3dFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstV3dFilter, gst_v3d_filter, GST_TYPE_VIDEO_FILTER)

GstV3dFilterImpl *gst_v3d_filter_impl(gpointer self) {
  auto *priv = static_cast<GstV3dFilterPrivate *>(
      gst_v3d_filter_get_instance_private(GST_V3D_FILTER(self)));
  return priv->impl;
}

GstBaseTransformClass *gst_v3d_filter_parent_transform_class() {
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class);
}

static void gst_v3d_filter_finalize(GObject *object);
static GstStateChangeReturn gst_v3d_filter_change_state(GstElement *element,
                                                        GstStateChange transition);
static void gst_v3d_filter_element_set_context(GstElement *element, GstContext *context);
static gboolean gst_v3d_filter_query(GstBaseTransform *trans, GstPadDirection direction,
                                     GstQuery *query);
static gboolean gst_v3d_filter_sink_event(GstBaseTransform *trans, GstEvent *event);
static gboolean gst_v3d_filter_stop(GstBaseTransform *trans);
static GstFlowReturn gst_v3d_filter_transform_ip(GstBaseTransform *trans, GstBuffer *buf);
static gboolean gst_v3d_filter_set_info(GstVideoFilter *filter, GstCaps *incaps,
                                        GstVideoInfo *in_info, GstCaps *outcaps,
                                        GstVideoInfo *out_info);

static void gst_v3d_filter_class_init(GstV3dFilterClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);

  gobject_class->finalize = gst_v3d_filter_finalize;

  element_class->change_state = GST_DEBUG_FUNCPTR(gst_v3d_filter_change_state);
  element_class->set_context = GST_DEBUG_FUNCPTR(gst_v3d_filter_element_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR(gst_v3d_filter_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_v3d_filter_sink_event);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_filter_stop);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_v3d_filter_transform_ip);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR(gst_v3d_filter_propose_allocation);
  trans_class->prepare_output_buffer = GST_DEBUG_FUNCPTR(gst_v3d_filter_prepare_output_buffer);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR(gst_v3d_filter_submit_input_buffer);
  trans_class->generate_output = GST_DEBUG_FUNCPTR(gst_v3d_filter_generate_output);
  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_v3d_filter_set_info);

  klass->describe = nullptr;
  klass->kernel = -1;
  klass->what = "v3d filter";
  klass->meta_name = "v3d meta";
  klass->meta_api = 0;
  klass->counter_names = nullptr;
  klass->padded_counter = -1;
  klass->chroma_counter = -1;
  klass->copies_source = FALSE;
  klass->batches_help_cpu = FALSE;

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
  delete priv->impl;  // frees the scratch planes, then releases the context
  priv->impl = nullptr;
  G_OBJECT_CLASS(gst_v3d_filter_parent_class)->finalize(object);
}

static void gst_v3d_filter_element_set_context(GstElement *element, GstContext *context) {
  gst_v3d_filter_set_context(element, context);
  GST_ELEMENT_CLASS(gst_v3d_filter_parent_class)->set_context(element, context);
}

static GstStateChangeReturn gst_v3d_filter_change_state(GstElement *element,
                                                        GstStateChange transition) {
  GstV3dFilter *self = GST_V3D_FILTER(element);
  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !gst_v3d_filter_open_context(self))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) gst_v3d_filter_reset_state(self);
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS(gst_v3d_filter_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    gst_v3d_filter_drop_in_flight(self);
    gst_v3d_filter_impl(self)->input.reset();
  }
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) gst_v3d_filter_close_context(self);
  return ret;
}

// Caps time: the frame path's scratch for the new caps. A subclass with caps-time state of its
// own chains up.
static gboolean gst_v3d_filter_set_info(GstVideoFilter *filter, GstCaps *, GstVideoInfo *in_info,
                                        GstCaps *, GstVideoInfo *) {
  return gst_v3d_filter_configure_frames(GST_V3D_FILTER(filter), in_info);
}

// A subclass with state of its own to release chains up.
static gboolean gst_v3d_filter_stop(GstBaseTransform *trans) {
  gst_v3d_filter_impl(trans)->scratch.reset();
  return TRUE;
}

static GstFlowReturn gst_v3d_filter_transform_ip(GstBaseTransform *trans, GstBuffer *buf) {
  return gst_v3d_filter_run_one(GST_V3D_FILTER(trans), buf);
}

static gboolean gst_v3d_filter_query(GstBaseTransform *trans, GstPadDirection direction,
                                     GstQuery *query) {
  GstV3dFilter *self = GST_V3D_FILTER(trans);
  if (gst_v3d_filter_answer_context_query(self, query)) return TRUE;
  const gboolean ok =
      GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class)->query(trans, direction, query);
  if (ok && GST_QUERY_TYPE(query) == GST_QUERY_LATENCY && direction == GST_PAD_SRC)
    gst_v3d_filter_add_latency(self, query);
  return ok;
}

static gboolean gst_v3d_filter_sink_event(GstBaseTransform *trans, GstEvent *event) {
  GstV3dFilter *self = GST_V3D_FILTER(trans);
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
      // Frames in flight belong before these: process and push them first.
      if (gst_v3d_filter_drain_in_flight(self) != GST_FLOW_OK)
        GST_DEBUG_OBJECT(trans, "frames in flight not all pushed before %s",
                         GST_EVENT_TYPE_NAME(event));
      break;
    case GST_EVENT_FLUSH_STOP:
      gst_v3d_filter_drop_in_flight(self);
      break;
    default:
      break;
  }
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    GstStructure *s = gst_v3d_filter_make_stats(self);
    gchar *str = gst_structure_to_string(s);
    GST_INFO_OBJECT(trans, "EOS: %s", str);
    g_free(str);
    gst_element_post_message(GST_ELEMENT(trans), gst_message_new_element(GST_OBJECT(trans), s));
  }
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_filter_parent_class)->sink_event(trans, event);
}
