// SPDX-License-Identifier: LGPL-2.1-or-later
// GstContext sharing of V3dContext. See v3dcontext.h.
#include "v3dcontext.h"

#include <cstring>

GST_DEBUG_CATEGORY_STATIC(gst_v3d_context_debug);
#define GST_CAT_DEFAULT gst_v3d_context_debug

static void ensure_debug_category() {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    GST_DEBUG_CATEGORY_INIT(gst_v3d_context_debug, "v3dcontext", 0, "v3d context sharing");
    g_once_init_leave(&done, 1);
  }
}

G_DEFINE_BOXED_TYPE(V3dContext, gst_v3d_context, v3d_context_ref, v3d_context_free)

GstContext *gst_v3d_context_new_gst_context(V3dContext *ctx, const gchar *backend) {
  g_return_val_if_fail(ctx != nullptr, nullptr);
  GstContext *context = gst_context_new(GST_V3D_CONTEXT_TYPE, TRUE);
  GstStructure *s = gst_context_writable_structure(context);
  gst_structure_set(s, "context", GST_TYPE_V3D_CONTEXT, ctx, nullptr);
  if (backend) gst_structure_set(s, "backend", G_TYPE_STRING, backend, nullptr);
  v3d_context_free(ctx);  // the structure holds its own reference now
  return context;
}

V3dContext *gst_v3d_context_from_gst_context(GstContext *context, gchar **backend) {
  if (backend) *backend = nullptr;
  if (!context || g_strcmp0(gst_context_get_context_type(context), GST_V3D_CONTEXT_TYPE) != 0)
    return nullptr;
  const GstStructure *s = gst_context_get_structure(context);
  V3dContext *ctx = nullptr;
  if (!gst_structure_get(s, "context", GST_TYPE_V3D_CONTEXT, &ctx, nullptr)) return nullptr;
  if (backend) *backend = g_strdup(gst_structure_get_string(s, "backend"));
  return ctx;
}

gboolean gst_v3d_context_backend_compatible(const gchar *wanted, const gchar *offered) {
  if (!wanted || !strcmp(wanted, "auto") || !offered) return TRUE;
  return strcmp(wanted, offered) == 0;
}

static gboolean pad_peer_query(const GValue *item, GValue *value, gpointer user_data) {
  auto *pad = GST_PAD(g_value_get_object(item));
  auto *query = static_cast<GstQuery *>(user_data);
  if (gst_pad_peer_query(pad, query)) {
    g_value_set_boolean(value, TRUE);
    return FALSE;
  }
  return TRUE;
}

static gboolean run_pad_query(GstElement *element, GstQuery *query, GstPadDirection direction) {
  GstIterator *it = direction == GST_PAD_SRC ? gst_element_iterate_src_pads(element)
                                             : gst_element_iterate_sink_pads(element);
  GValue res = G_VALUE_INIT;
  g_value_init(&res, G_TYPE_BOOLEAN);
  g_value_set_boolean(&res, FALSE);
  while (gst_iterator_fold(it, pad_peer_query, &res, query) == GST_ITERATOR_RESYNC)
    gst_iterator_resync(it);
  gst_iterator_free(it);
  gboolean found = g_value_get_boolean(&res);
  g_value_unset(&res);
  return found;
}

void gst_v3d_context_query_peers(GstElement *element) {
  ensure_debug_category();
  GstQuery *query = gst_query_new_context(GST_V3D_CONTEXT_TYPE);
  if (run_pad_query(element, query, GST_PAD_SRC) || run_pad_query(element, query, GST_PAD_SINK)) {
    GstContext *context = nullptr;
    gst_query_parse_context(query, &context);
    if (context) {
      GST_DEBUG_OBJECT(element, "found a v3d context through a query");
      gst_element_set_context(element, context);
    }
  }
  gst_query_unref(query);
}

void gst_v3d_context_post_need(GstElement *element) {
  ensure_debug_category();
  GST_DEBUG_OBJECT(element, "posting need-context");
  gst_element_post_message(element, gst_message_new_need_context(GST_OBJECT(element),
                                                                 GST_V3D_CONTEXT_TYPE));
}

void gst_v3d_context_post(GstElement *element, V3dContext *ctx, const gchar *backend) {
  ensure_debug_category();
  GstContext *context = gst_v3d_context_new_gst_context(v3d_context_ref(ctx), backend);
  GST_DEBUG_OBJECT(element, "posting have-context (backend %s)", backend ? backend : "?");
  gst_element_set_context(element, context);
  gst_element_post_message(element, gst_message_new_have_context(GST_OBJECT(element), context));
}

gboolean gst_v3d_context_handle_query(GstElement *element, GstQuery *query, V3dContext *ctx,
                                      const gchar *backend) {
  if (!ctx || GST_QUERY_TYPE(query) != GST_QUERY_CONTEXT) return FALSE;
  const gchar *type = nullptr;
  if (!gst_query_parse_context_type(query, &type) || g_strcmp0(type, GST_V3D_CONTEXT_TYPE) != 0)
    return FALSE;
  ensure_debug_category();
  GstContext *old = nullptr;
  gst_query_parse_context(query, &old);
  GstContext *context = old ? gst_context_copy(old) : gst_context_new(GST_V3D_CONTEXT_TYPE, TRUE);
  GstStructure *s = gst_context_writable_structure(context);
  gst_structure_set(s, "context", GST_TYPE_V3D_CONTEXT, ctx, nullptr);
  if (backend) gst_structure_set(s, "backend", G_TYPE_STRING, backend, nullptr);
  gst_query_set_context(query, context);
  gst_context_unref(context);
  GST_DEBUG_OBJECT(element, "answered a v3d context query");
  return TRUE;
}
