/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the GstHarness tests of the v3d elements (tests/test_gst_*.c): random
 * numbers, I420 frames in three memory layouts, packed copies of the visible planes and their
 * comparison, the bytes an element may write, an element inside a GstHarness, its stats, and
 * whether the GPU cases run. Include after defining `static guint64 g_seed`
 * (printed in every failure) and the gst/check and video headers. Everything is static: each
 * test program gets its own copy.
 */
#ifndef V3D_TESTS_GST_TEST_COMMON_H
#define V3D_TESTS_GST_TEST_COMMON_H

#include <stdio.h>
#include <string.h>
#include <gst/check/gstharness.h>
#include <v3d/v3d.h>

/* Random numbers (xorshift64*) */
typedef struct {
  guint64 s;
} Rng;

static G_GNUC_UNUSED void rng_init(Rng *r, guint64 seed) { r->s = seed ? seed : 0x9E3779B97F4A7C15ull; }
static G_GNUC_UNUSED guint64 rng_next(Rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1Dull;
}
static G_GNUC_UNUSED guint32 rng_below(Rng *r, guint32 n) { return n ? (guint32)((rng_next(r) >> 32) % n) : 0; }
static G_GNUC_UNUSED gint rng_range(Rng *r, gint lo, gint hi) { return lo + (gint)rng_below(r, hi - lo + 1); }

/* Frames */
typedef enum {
  LAYOUT_DEFAULT, /* GstVideoInfo's layout, no GstVideoMeta */
  LAYOUT_PADDED,  /* GstVideoMeta, wide strides and spare rows: room for the 8x8 rounding */
  LAYOUT_TIGHT,   /* GstVideoMeta, stride = width, planes packed: no room unless w, h % 8 == 0 */
  LAYOUT_COUNT,
} Layout;

static G_GNUC_UNUSED const char *layout_name[] = {"default", "padded", "tight"};

static G_GNUC_UNUSED GstCaps *i420_caps(int w, int h) {
  return gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "I420", "width", G_TYPE_INT,
                             w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 30, 1,
                             NULL);
}

/* A frame of random pixels (and random bytes everywhere else in the buffer). */
static G_GNUC_UNUSED GstBuffer *make_frame(Rng *r, int w, int h, Layout layout) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, w, h);
  gsize offset[4] = {0, 0, 0, 0}, size = 0;
  gint stride[4] = {0, 0, 0, 0};
  int pw = (w + 7) / 8 * 8, ph = (h + 7) / 8 * 8;
  switch (layout) {
    case LAYOUT_DEFAULT:
      size = GST_VIDEO_INFO_SIZE(&info);
      break;
    case LAYOUT_PADDED:
      stride[0] = pw + 24;
      stride[1] = stride[2] = pw / 2 + 8;
      offset[0] = 40; /* the first plane need not start at the buffer's start */
      offset[1] = offset[0] + (gsize)stride[0] * (ph + 2);
      offset[2] = offset[1] + (gsize)stride[1] * (ph / 2 + 3);
      size = offset[2] + (gsize)stride[2] * (ph / 2 + 1);
      break;
    default:
      stride[0] = w;
      stride[1] = stride[2] = (w + 1) / 2;
      offset[1] = (gsize)w * h;
      offset[2] = offset[1] + (gsize)stride[1] * ((h + 1) / 2);
      size = offset[2] + (gsize)stride[2] * ((h + 1) / 2);
      break;
  }
  GstBuffer *buf = gst_buffer_new_allocate(NULL, size, NULL);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < size; i++) map.data[i] = (guint8)(rng_next(r) >> 56);
  gst_buffer_unmap(buf, &map);
  if (layout != LAYOUT_DEFAULT)
    gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420, w, h, 3,
                                   offset, stride);
  return buf;
}

/* Visible planes of a frame, packed (stride = plane width), and reference results. */
typedef struct {
  int w, h;
  guint8 *plane[3];
  int pw[3], ph[3]; /* visible size of each plane */
} Planes;

static G_GNUC_UNUSED Planes read_planes(GstBuffer *buf, int w, int h) {
  Planes out;
  GstVideoInfo info;
  GstVideoFrame f;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, w, h);
  out.w = w;
  out.h = h;
  fail_unless(gst_video_frame_map(&f, &info, buf, GST_MAP_READ));
  for (int p = 0; p < 3; p++) {
    out.pw[p] = GST_VIDEO_FRAME_COMP_WIDTH(&f, p);
    out.ph[p] = GST_VIDEO_FRAME_COMP_HEIGHT(&f, p);
    out.plane[p] = g_malloc((gsize)out.pw[p] * out.ph[p]);
    for (int y = 0; y < out.ph[p]; y++)
      memcpy(out.plane[p] + y * out.pw[p],
             (guint8 *)GST_VIDEO_FRAME_PLANE_DATA(&f, p) + y * GST_VIDEO_FRAME_PLANE_STRIDE(&f, p),
             out.pw[p]);
  }
  gst_video_frame_unmap(&f);
  return out;
}

static G_GNUC_UNUSED void planes_clear(Planes *p) {
  for (int i = 0; i < 3; i++) g_free(p->plane[i]);
}

/* Compares visible pixels; reports the first difference. */
static G_GNUC_UNUSED gboolean planes_equal(const Planes *a, const Planes *b, const char *what) {
  for (int p = 0; p < 3; p++)
    for (int y = 0; y < a->ph[p]; y++)
      for (int x = 0; x < a->pw[p]; x++) {
        guint8 va = a->plane[p][y * a->pw[p] + x], vb = b->plane[p][y * b->pw[p] + x];
        if (va != vb) {
          fail("%s: %dx%d plane %d pixel (%d, %d): got %u, expected %u (seed 0x%" G_GINT64_MODIFIER
               "x)", what, a->w, a->h, p, x, y, va, vb, g_seed);
          return FALSE;
        }
      }
  return TRUE;
}

static G_GNUC_UNUSED gboolean gpu_available(void) {
  static int have = -1;
  if (have < 0) {
    V3dContext *ctx = v3d_context_new("gpu", 1);
    have = ctx != NULL;
    if (ctx) {
      printf("GPU: %s\n", v3d_context_gpu_name(ctx));
      v3d_context_free(ctx);
    } else {
      printf("no GPU (%s)\n", v3d_last_error());
    }
  }
  return have;
}

/* TRUE when the GPU cases should run; fails the test when V3D_REQUIRE_GPU=1 and there is none. */
static G_GNUC_UNUSED gboolean want_gpu(void) {
  if (gpu_available()) return TRUE;
  const char *req = g_getenv("V3D_REQUIRE_GPU");
  fail_if(req && strcmp(req, "1") == 0, "V3D_REQUIRE_GPU=1 but no Vulkan device");
  printf("SKIP: GPU cases (no Vulkan device)\n");
  return FALSE;
}

/* Bytes of buf that a v3d filter element may change: each plane's processed area (8x8-rounded luma, half
 * for chroma) from the plane's start, per the buffer's GstVideoMeta or the default layout. */
static G_GNUC_UNUSED guint8 *writable_mask(GstBuffer *buf, int w, int h) {
  gsize size = gst_buffer_get_size(buf);
  guint8 *mask = g_malloc0(size);
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, w, h);
  GstVideoMeta *vm = gst_buffer_get_video_meta(buf);
  int pw = (w + 7) / 8 * 8, ph = (h + 7) / 8 * 8;
  for (int p = 0; p < 3; p++) {
    gsize off = vm ? vm->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&info, p);
    gint stride = vm ? vm->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    int cw = p ? pw / 2 : pw, ch = p ? ph / 2 : ph;
    for (int y = 0; y < ch; y++)
      for (int x = 0; x < cw; x++) {
        gsize i = off + (gsize)y * stride + x;
        if (i < size) mask[i] = 1;
      }
  }
  return mask;
}

/* A field of the element's "stats" structure: guint64 fields, or int fields (stats_int). */
static G_GNUC_UNUSED gboolean stats_field(GstElement *e, const char *field, GType type, gpointer v) {
  GstStructure *s = NULL;
  g_object_get(e, "stats", &s, NULL);
  fail_unless(s != NULL);
  gboolean ok = type == G_TYPE_INT ? gst_structure_get_int(s, field, v)
                                   : gst_structure_get_uint64(s, field, v);
  gst_structure_free(s);
  fail_unless(ok, "no stats field %s of type %s", field, g_type_name(type));
  return ok;
}
static G_GNUC_UNUSED guint64 stats_u64(GstElement *e, const char *field) {
  guint64 v = 0;
  stats_field(e, field, G_TYPE_UINT64, &v);
  return v;
}
static G_GNUC_UNUSED gint stats_int(GstElement *e, const char *field) {
  gint v = 0;
  stats_field(e, field, G_TYPE_INT, &v);
  return v;
}

/* One element under test inside a GstHarness, with its own bus (to read its errors). */
typedef struct {
  GstElement *element;
  GstBus *bus;
  GstHarness *h;
} TestElement;

static G_GNUC_UNUSED TestElement test_element_new(const char *factory, const char *props) {
  TestElement t;
  gchar *desc = g_strdup_printf("%s %s", factory, props ? props : "");
  GError *err = NULL;
  t.element = gst_parse_launch(desc, &err);
  fail_unless(t.element != NULL, "could not make '%s': %s", desc, err ? err->message : "?");
  g_free(desc);
  t.bus = gst_bus_new();
  gst_element_set_bus(t.element, t.bus);
  t.h = gst_harness_new_with_element(t.element, "sink", "src");
  return t;
}

static G_GNUC_UNUSED void test_element_free(TestElement *t) {
  gst_harness_teardown(t->h);
  gst_element_set_bus(t->element, NULL);
  gst_object_unref(t->bus);
  gst_object_unref(t->element);
}

#endif /* V3D_TESTS_GST_TEST_COMMON_H */
