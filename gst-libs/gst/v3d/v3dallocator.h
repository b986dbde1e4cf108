/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstV3dAllocator: GstMemory from v3d_shared_alloc() of a V3dContext, i.e. host-visible memory
 * that the context's CPU workers and GPU use without copies (plain aligned memory when the
 * context has no GPU, or when the CPU does not cache the GPU's memory, as on a Raspberry Pi:
 * V3D_SHARED_MEMORY, v3d.h). Mapping is free (the memory is always mapped). Memory type
 * GST_V3D_SHARED_MEMORY_TYPE.
 *
 * Ownership: the allocator holds a reference to its V3dContext; each memory keeps what it needs
 * alive (v3d_shared_free() may run after the context is freed). Thread-safe.
 *
 * Memory that the library allocated itself (a decoded picture's planes, <v3d/vp9_decoder.h>)
 * becomes GstMemory of the same type through gst_v3d_allocator_wrap(), without a copy.
 */
#ifndef GST_V3D_ALLOCATOR_H
#define GST_V3D_ALLOCATOR_H

#include <gst/gst.h>
#include <gst/v3d/v3d-prelude.h>
#include <v3d/v3d.h>

G_BEGIN_DECLS

#define GST_V3D_SHARED_MEMORY_TYPE "V3dSharedMemory"

#define GST_TYPE_V3D_ALLOCATOR (gst_v3d_allocator_get_type ())
GST_V3D_API
GType gst_v3d_allocator_get_type (void);
G_DECLARE_FINAL_TYPE (GstV3dAllocator, gst_v3d_allocator, GST, V3D_ALLOCATOR, GstAllocator)

/* Returns: (transfer full): a new allocator for ctx (which it references). */
GST_V3D_API
GstAllocator *gst_v3d_allocator_new (V3dContext *ctx);

/* Returns: (transfer full): size bytes at data (memory of v3d_shared_alloc(), or inside such a
 * block, that the caller keeps alive) as GstMemory of allocator's type, without copying, with
 * flags (GST_MEMORY_FLAG_READONLY for memory the library may still read). notify (may be NULL)
 * runs with user_data, on any thread, once the memory and every memory shared from it are
 * freed. gst_memory_copy() of it allocates new memory from allocator. */
GST_V3D_API
GstMemory *gst_v3d_allocator_wrap (GstAllocator *allocator, GstMemoryFlags flags, gpointer data,
    gsize size, gpointer user_data, GDestroyNotify notify);

/* TRUE if mem (or its parent) came from a GstV3dAllocator. */
GST_V3D_API
gboolean gst_is_v3d_shared_memory (GstMemory *mem);

G_END_DECLS

#endif /* GST_V3D_ALLOCATOR_H */
