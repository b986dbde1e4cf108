// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dAllocator: GstMemory over v3d_shared_alloc()/v3d_shared_free(). See v3dallocator.h.
#include "v3dallocator.h"

#include <cstring>

GST_DEBUG_CATEGORY_STATIC(gst_v3d_allocator_debug);
#define GST_CAT_DEFAULT gst_v3d_allocator_debug

struct _GstV3dAllocator {
  GstAllocator parent;
  V3dContext *ctx;
};

namespace {

// One allocation (parent == NULL, base set), wrapped memory (parent == NULL, base NULL; notify
// releases it) or a sub-memory sharing its parent's (parent set).
struct V3dMemory {
  GstMemory mem;
  void *base;     // what v3d_shared_alloc returned (NULL for sub-memories and wrapped memory)
  guint8 *data;   // start of the maxsize region, aligned as the params asked
  gpointer user_data;     // wrapped memory: notify's argument
  GDestroyNotify notify;  // wrapped memory: what releases it (may be NULL)
};

// v3d_shared_alloc gives 64-byte alignment (v3d.h); larger alignments are made by over-allocating.
constexpr gsize kSharedAlign = 63;

GstMemory *v3d_alloc(GstAllocator *allocator, gsize size, GstAllocationParams *params) {
  auto *self = GST_V3D_ALLOCATOR(allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = size + params->prefix + params->padding;
  gsize extra = align > kSharedAlign ? align : 0;
  void *base = v3d_shared_alloc(self->ctx, maxsize + extra);
  if (!base) {
    GST_ERROR_OBJECT(self, "v3d_shared_alloc of %" G_GSIZE_FORMAT " bytes failed: %s",
                     maxsize + extra, v3d_last_error());
    return nullptr;
  }
  auto *m = g_new0(V3dMemory, 1);
  m->base = base;
  m->data = reinterpret_cast<guint8 *>((reinterpret_cast<guintptr>(base) + extra) & ~extra);
  gst_memory_init(&m->mem, params->flags, allocator, nullptr, maxsize, align, params->prefix,
                  size);
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset(m->data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset(m->data + params->prefix + size, 0, params->padding);
  return &m->mem;
}

void v3d_free(GstAllocator *, GstMemory *mem) {
  auto *m = reinterpret_cast<V3dMemory *>(mem);
  if (m->base) v3d_shared_free(m->base);
  if (m->notify) m->notify(m->user_data);
  g_free(m);
}

gpointer v3d_mem_map(GstMemory *mem, gsize, GstMapFlags) {
  return reinterpret_cast<V3dMemory *>(mem)->data;
}

void v3d_mem_unmap(GstMemory *) {}

GstMemory *v3d_mem_share(GstMemory *mem, gssize offset, gssize size) {
  auto *m = reinterpret_cast<V3dMemory *>(mem);
  GstMemory *parent = mem->parent ? mem->parent : mem;
  if (size == -1) size = mem->size > static_cast<gsize>(offset) ? mem->size - offset : 0;
  auto *sub = g_new0(V3dMemory, 1);
  sub->base = nullptr;
  sub->data = m->data;
  gst_memory_init(&sub->mem,
                  static_cast<GstMemoryFlags>(GST_MINI_OBJECT_FLAGS(parent) |
                                              GST_MINI_OBJECT_FLAG_LOCK_READONLY),
                  mem->allocator, parent, mem->maxsize, mem->align, mem->offset + offset, size);
  return &sub->mem;
}

GstMemory *v3d_mem_copy(GstMemory *mem, gssize offset, gssize size) {
  if (size == -1) size = mem->size > static_cast<gsize>(offset) ? mem->size - offset : 0;
  GstAllocationParams params = {};
  params.align = mem->align;
  GstMemory *copy = gst_allocator_alloc(mem->allocator, size, &params);
  if (!copy) return nullptr;
  auto *src = reinterpret_cast<V3dMemory *>(mem);
  auto *dst = reinterpret_cast<V3dMemory *>(copy);
  memcpy(dst->data + copy->offset, src->data + mem->offset + offset, size);
  return copy;
}

gboolean v3d_mem_is_span(GstMemory *mem1, GstMemory *mem2, gsize *offset) {
  auto *m1 = reinterpret_cast<V3dMemory *>(mem1);
  auto *m2 = reinterpret_cast<V3dMemory *>(mem2);
  if (offset && mem1->parent) *offset = mem1->offset - mem1->parent->offset;
  return m1->data + mem1->offset + mem1->size == m2->data + mem2->offset;
}

}  // namespace

G_DEFINE_TYPE(GstV3dAllocator, gst_v3d_allocator, GST_TYPE_ALLOCATOR)

static void gst_v3d_allocator_finalize(GObject *object) {
  auto *self = GST_V3D_ALLOCATOR(object);
  if (self->ctx) v3d_context_free(self->ctx);
  self->ctx = nullptr;
  G_OBJECT_CLASS(gst_v3d_allocator_parent_class)->finalize(object);
}

static void gst_v3d_allocator_class_init(GstV3dAllocatorClass *klass) {
  G_OBJECT_CLASS(klass)->finalize = gst_v3d_allocator_finalize;
  GstAllocatorClass *alloc_class = GST_ALLOCATOR_CLASS(klass);
  alloc_class->alloc = v3d_alloc;
  alloc_class->free = v3d_free;
  GST_DEBUG_CATEGORY_INIT(gst_v3d_allocator_debug, "v3dallocator", 0,
                          "v3d shared-memory allocator");
}

static void gst_v3d_allocator_init(GstV3dAllocator *self) {
  GstAllocator *alloc = GST_ALLOCATOR(self);
  alloc->mem_type = GST_V3D_SHARED_MEMORY_TYPE;
  alloc->mem_map = v3d_mem_map;
  alloc->mem_unmap = v3d_mem_unmap;
  alloc->mem_share = v3d_mem_share;
  alloc->mem_copy = v3d_mem_copy;
  alloc->mem_is_span = v3d_mem_is_span;
}

GstAllocator *gst_v3d_allocator_new(V3dContext *ctx) {
  g_return_val_if_fail(ctx != nullptr, nullptr);
  auto *self = GST_V3D_ALLOCATOR(g_object_new(GST_TYPE_V3D_ALLOCATOR, nullptr));
  gst_object_ref_sink(self);
  self->ctx = v3d_context_ref(ctx);
  return GST_ALLOCATOR(self);
}

GstMemory *gst_v3d_allocator_wrap(GstAllocator *allocator, GstMemoryFlags flags, gpointer data,
                                  gsize size, gpointer user_data, GDestroyNotify notify) {
  g_return_val_if_fail(GST_IS_V3D_ALLOCATOR(allocator), nullptr);
  g_return_val_if_fail(data != nullptr, nullptr);
  auto *m = g_new0(V3dMemory, 1);
  m->data = static_cast<guint8 *>(data);
  m->user_data = user_data;
  m->notify = notify;
  // The alignment mask says what data has: 64 bytes when it is a block's start.
  const gsize align = (reinterpret_cast<guintptr>(data) & kSharedAlign) == 0 ? kSharedAlign : 0;
  gst_memory_init(&m->mem, flags, allocator, nullptr, size, align, 0, size);
  return &m->mem;
}

gboolean gst_is_v3d_shared_memory(GstMemory *mem) {
  return mem && mem->allocator && gst_memory_is_type(mem, GST_V3D_SHARED_MEMORY_TYPE);
}
