/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sharing one V3dContext (CPU worker pool + GPU) between the v3d elements of a pipeline through
 * GstContext, as GStreamer's Vulkan elements share "gst.vulkan.device".
 *
 * Context type GST_V3D_CONTEXT_TYPE ("v3d.context"); its structure holds
 *   "context"  GST_TYPE_V3D_CONTEXT (boxed, reference counted V3dContext *)
 *   "backend"  G_TYPE_STRING, the backend it was created for ("auto", "scalar", "simd", "gpu",
 *              "hybrid"); optional: contexts supplied by applications may leave it out.
 *
 * An application can supply its own: gst_element_set_context (pipeline_or_element,
 * gst_v3d_context_new_gst_context (v3d_context_new ("gpu", 0), "gpu")).
 *
 * Rules: an element adopts a context only while it holds none (from NULL->READY to READY->NULL).
 * It looks for one with a CONTEXT query to its peers (downstream first), then a need-context
 * message (answered by the application, or by a bin from the context it caches), and else
 * creates one and posts it with have-context (the bins cache it for the others).
 * An element whose backend property is not "auto" ignores contexts whose "backend" field names
 * another backend (the field holds what the creator asked for, or for "auto" what that resolved
 * to); it then creates its own context, which it does not post (a bin caches only one context
 * per type) but which answers its neighbours' queries, so adjacent elements asking for the same
 * backend still share it. "auto" elements take whatever context they find. Threads and GPU
 * device are those of whoever created the context.
 */
#ifndef GST_V3D_CONTEXT_H
#define GST_V3D_CONTEXT_H

#include <gst/gst.h>
#include <gst/v3d/v3d-prelude.h>
#include <v3d/v3d.h>

G_BEGIN_DECLS

#define GST_V3D_CONTEXT_TYPE "v3d.context"

/* Boxed type for V3dContext * (copy = v3d_context_ref, free = v3d_context_free). */
#define GST_TYPE_V3D_CONTEXT (gst_v3d_context_get_type ())
GST_V3D_API
GType gst_v3d_context_get_type (void);

/* Returns: (transfer full): a persistent GstContext of type "v3d.context" holding ctx (whose
 * reference is TAKEN) and the requested backend name (nullable). */
GST_V3D_API
GstContext *gst_v3d_context_new_gst_context (V3dContext *ctx, const gchar *backend);

/* Returns: (transfer full) (nullable): the V3dContext of a "v3d.context" GstContext (a new
 * reference), NULL for other types; *backend (nullable out) gets the "backend" field or NULL
 * (transfer full, g_free it). */
GST_V3D_API
V3dContext *gst_v3d_context_from_gst_context (GstContext *context, gchar **backend);

/* TRUE if a context created for `offered` (NULL = unknown, e.g. from an application) may be used by
 * an element whose backend property is `wanted`. */
GST_V3D_API
gboolean gst_v3d_context_backend_compatible (const gchar *wanted, const gchar *offered);

/* Asks the peers for a shared context with a CONTEXT query (downstream first, then upstream) and
 * gives what it finds to gst_element_set_context (element). Check the element's context after. */
GST_V3D_API
void gst_v3d_context_query_peers (GstElement *element);

/* Posts a need-context message: the application or a bin that caches one answers synchronously
 * through gst_element_set_context (element). Check the element's context after. */
GST_V3D_API
void gst_v3d_context_post_need (GstElement *element);

/* Posts a have-context message (and sets the context on the element's parent bins through it). */
GST_V3D_API
void gst_v3d_context_post (GstElement *element, V3dContext *ctx, const gchar *backend);

/* Answers a CONTEXT query with ctx if the query asks for "v3d.context". Returns TRUE if
 * answered. */
GST_V3D_API
gboolean gst_v3d_context_handle_query (GstElement *element, GstQuery *query, V3dContext *ctx,
    const gchar *backend);

G_END_DECLS

#endif /* GST_V3D_CONTEXT_H */
