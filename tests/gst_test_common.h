/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the GstHarness tests of the v3d elements (tests/test_gst_*.c): random
 * numbers, I420 and NV12 frames in three memory layouts, packed copies of the visible planes and
 * their comparison, the bytes an element may write, an element inside a GstHarness, its stats,
 * and whether the GPU cases run. Include after defining `static guint64 g_seed` (printed in every
 * failure) and the gst/check and video headers. Everything is static: each
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
  LAYOUT_PADDED,  /* GstVideoMeta, wide strides and spare rows: room for the rounded area */
  LAYOUT_TIGHT,   /* GstVideoMeta, stride = width, planes packed: no room unless w, h are rounded */
  LAYOUT_COUNT,
} Layout;

static G_GNUC_UNUSED const char *layout_name[] = {"default", "padded", "tight"};

static G_GNUC_UNUSED GstCaps *video_caps(GstVideoFormat fmt, int w, int h) {
  return gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING,
                             gst_video_format_to_string(fmt), "width", G_TYPE_INT, w, "height",
                             G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

static G_GNUC_UNUSED GstCaps *i420_caps(int w, int h) {
  return video_caps(GST_VIDEO_FORMAT_I420, w, h);
}

/* Bytes per row and rows of plane p (I420: 3 planes, NV12: 2) of an aw x ah (luma) area. */
static G_GNUC_UNUSED void plane_area(GstVideoFormat fmt, int p, int aw, int ah, int *bytes,
                                     int *rows) {
  *rows = p ? (ah + 1) / 2 : ah;
  *bytes = p == 0 ? aw : fmt == GST_VIDEO_FORMAT_NV12 ? 2 * ((aw + 1) / 2) : (aw + 1) / 2;
}

/* A w x h frame of random pixels (and random bytes everywhere else in the buffer), I420 or NV12.
 * LAYOUT_PADDED leaves room for the area rounded up to multiples of `round` (8 or 16). */
static G_GNUC_UNUSED GstBuffer *make_video_frame(Rng *r, GstVideoFormat fmt, int w, int h,
                                                 Layout layout, int round) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, fmt, w, h);
  const int n_planes = (int)GST_VIDEO_INFO_N_PLANES(&info);
  gsize offset[4] = {0, 0, 0, 0}, size = 0;
  gint stride[4] = {0, 0, 0, 0};
  int pw = (w + round - 1) / round * round, ph = (h + round - 1) / round * round;
  switch (layout) {
    case LAYOUT_DEFAULT:
      size = GST_VIDEO_INFO_SIZE(&info);
      break;
    case LAYOUT_PADDED: {
      static const int extra_stride[3] = {24, 8, 8}, extra_rows[3] = {2, 3, 1};
      offset[0] = 40; /* the first plane need not start at the buffer's start */
      for (int p = 0; p < n_planes; p++) {
        int bytes, rows;
        plane_area(fmt, p, pw, ph, &bytes, &rows);
        stride[p] = bytes + extra_stride[p];
        size = offset[p] + (gsize)stride[p] * (rows + extra_rows[p]);
        if (p + 1 < n_planes) offset[p + 1] = size;
      }
      break;
    }
    default:
      for (int p = 0; p < n_planes; p++) {
        int bytes, rows;
        plane_area(fmt, p, w, h, &bytes, &rows);
        stride[p] = bytes;
        size = offset[p] + (gsize)stride[p] * rows;
        if (p + 1 < n_planes) offset[p + 1] = size;
      }
      break;
  }
  GstBuffer *buf = gst_buffer_new_allocate(NULL, size, NULL);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < size; i++) map.data[i] = (guint8)(rng_next(r) >> 56);
  gst_buffer_unmap(buf, &map);
  if (layout != LAYOUT_DEFAULT)
    gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, fmt, w, h, n_planes, offset,
                                   stride);
  return buf;
}

/* An I420 frame with room for the 8x8-rounded area in LAYOUT_PADDED. */
static G_GNUC_UNUSED GstBuffer *make_frame(Rng *r, int w, int h, Layout layout) {
  return make_video_frame(r, GST_VIDEO_FORMAT_I420, w, h, layout, 8);
}

/* Where plane p of a w x h frame of format fmt starts in buf, and its stride (the buffer's
 * GstVideoMeta, else the default layout). */
static G_GNUC_UNUSED void plane_layout(GstBuffer *buf, GstVideoFormat fmt, int w, int h, int p,
                                       gsize *offset, gint *stride) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, fmt, w, h);
  GstVideoMeta *vm = gst_buffer_get_video_meta(buf);
  *offset = vm ? vm->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&info, p);
  *stride = vm ? vm->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
}

/* Visible planes of a frame, packed (stride = plane width), and reference results. */
typedef struct {
  int w, h;
  guint8 *plane[3];
  int pw[3], ph[3]; /* visible size of each plane */
} Planes;

/* The aw x ah (luma) area of a w x h frame of format fmt (I420 or NV12; NV12's chroma is split
 * into planes 1 and 2), packed. The area may reach past the visible frame into the buffer's
 * padding (the caller knows it is there). */
static G_GNUC_UNUSED Planes read_area(GstBuffer *buf, GstVideoFormat fmt, int w, int h, int aw,
                                      int ah) {
  Planes out;
  GstMapInfo map;
  fail_unless(gst_buffer_map(buf, &map, GST_MAP_READ));
  out.w = aw;
  out.h = ah;
  for (int p = 0; p < 3; p++) {
    out.pw[p] = p ? (aw + 1) / 2 : aw;
    out.ph[p] = p ? (ah + 1) / 2 : ah;
    out.plane[p] = g_malloc((gsize)out.pw[p] * out.ph[p]);
    const int nv12_chroma = fmt == GST_VIDEO_FORMAT_NV12 && p > 0;
    gsize offset;
    gint stride;
    plane_layout(buf, fmt, w, h, nv12_chroma ? 1 : p, &offset, &stride);
    for (int y = 0; y < out.ph[p]; y++) {
      const guint8 *src = map.data + offset + (gsize)y * stride;
      guint8 *dst = out.plane[p] + (gsize)y * out.pw[p];
      if (!nv12_chroma) {
        memcpy(dst, src, out.pw[p]);
        continue;
      }
      for (int x = 0; x < out.pw[p]; x++) dst[x] = src[2 * x + (p - 1)];
    }
  }
  gst_buffer_unmap(buf, &map);
  return out;
}

/* The visible planes of an I420 frame. */
static G_GNUC_UNUSED Planes read_planes(GstBuffer *buf, int w, int h) {
  return read_area(buf, GST_VIDEO_FORMAT_I420, w, h, w, h);
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

/* TRUE if two frames' packed planes differ anywhere. */
static G_GNUC_UNUSED gboolean planes_differ(const Planes *a, const Planes *b) {
  for (int p = 0; p < 3; p++)
    if (memcmp(a->plane[p], b->plane[p], (gsize)a->pw[p] * a->ph[p])) return TRUE;
  return FALSE;
}

/* A suite's "general" test case, with g_seed taken from V3D_TEST_SEED (if set) and printed. */
static G_GNUC_UNUSED TCase *suite_general_tcase(Suite *s) {
  TCase *tc = tcase_create("general");
  const char *e = g_getenv("V3D_TEST_SEED");
  if (e) g_seed = g_ascii_strtoull(e, NULL, 0);
  printf("seed 0x%" G_GINT64_MODIFIER "x (set V3D_TEST_SEED to change)\n", g_seed);
  tcase_set_timeout(tc, 300);
  suite_add_tcase(s, tc);
  return tc;
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

/* Bytes of buf (a w x h frame of format fmt) that an element writing the aw x ah (luma) area
 * may change: that area of each plane, from the plane's start. */
static G_GNUC_UNUSED guint8 *area_mask(GstBuffer *buf, GstVideoFormat fmt, int w, int h, int aw,
                                       int ah) {
  gsize size = gst_buffer_get_size(buf);
  guint8 *mask = g_malloc0(size);
  GstVideoInfo info;
  gst_video_info_set_format(&info, fmt, w, h);
  for (int p = 0; p < (int)GST_VIDEO_INFO_N_PLANES(&info); p++) {
    gsize off;
    gint stride;
    int bytes, rows;
    plane_layout(buf, fmt, w, h, p, &off, &stride);
    plane_area(fmt, p, aw, ah, &bytes, &rows);
    for (int y = 0; y < rows; y++)
      for (int x = 0; x < bytes; x++) {
        gsize i = off + (gsize)y * stride + x;
        if (i < size) mask[i] = 1;
      }
  }
  return mask;
}

/* Bytes of an I420 buf that a v3d filter element working on 8x8-rounded planes may change. */
static G_GNUC_UNUSED guint8 *writable_mask(GstBuffer *buf, int w, int h) {
  return area_mask(buf, GST_VIDEO_FORMAT_I420, w, h, (w + 7) / 8 * 8, (h + 7) / 8 * 8);
}

/* A copy of buf's bytes (g_free it); *size gets their count. */
static G_GNUC_UNUSED guint8 *buffer_bytes(GstBuffer *buf, gsize *size) {
  GstMapInfo map;
  fail_unless(gst_buffer_map(buf, &map, GST_MAP_READ));
  guint8 *copy = g_memdup2(map.data, map.size);
  *size = map.size;
  gst_buffer_unmap(buf, &map);
  return copy;
}

/* Fails when out's size is not `size` or a byte of out outside mask differs from before (the
 * buffer's bytes before the element ran). */
static G_GNUC_UNUSED void check_unmasked_bytes(GstBuffer *out, const guint8 *before, gsize size,
                                               const guint8 *mask, const char *what, int w,
                                               int h) {
  GstMapInfo map;
  fail_unless(gst_buffer_map(out, &map, GST_MAP_READ));
  fail_unless(map.size == size, "%s: buffer size changed", what);
  for (gsize i = 0; i < size; i++)
    if (!mask[i] && map.data[i] != before[i]) {
      fail("%s: %dx%d: byte %" G_GSIZE_FORMAT " outside the writable area changed (seed 0x%"
           G_GINT64_MODIFIER "x)", what, w, h, i, g_seed);
      break;
    }
  gst_buffer_unmap(out, &map);
}

/* Pops the error message on bus: it must be a stream error whose message contains expect.
 * Prints it. */
static G_GNUC_UNUSED void expect_stream_error(GstBus *bus, const char *expect, const char *what) {
  GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(msg != NULL, "%s: no error message", what);
  GError *err = NULL;
  gchar *dbg = NULL;
  gst_message_parse_error(msg, &err, &dbg);
  fail_unless(err->domain == GST_STREAM_ERROR, "%s: error domain", what);
  fail_unless(strstr(err->message, expect) != NULL, "%s: message '%s' does not name '%s'", what,
              err->message, expect);
  printf("%s -> %s\n", what, err->message);
  g_error_free(err);
  g_free(dbg);
  gst_message_unref(msg);
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
