/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstHarness tests of v3dvp9lpf: negotiation, pass-through at level 0, frames with a
 * GstV3dVp9LfMeta (random valid VP9 partitions made here) and without (post-filter mode, the
 * uniform grid rebuilt here) equal to v3d_vp9_loop_filter_frame on a "scalar" context applied by
 * the test to a copy of the input (8x8-rounded as the element documents: edges repeated, or the
 * buffer's own samples where a meta meets planes with room), for
 * odd sizes and padded/tight/default layouts, on every backend; refusal of invalid metas and
 * settings; property ranges.
 *
 * Run from Meson with GST_PLUGIN_PATH = the build's gst/ and GST_REGISTRY = a private file.
 * Random inputs come from V3D_TEST_SEED (default fixed), printed at start and in every failure.
 * The gpu/hybrid backends need a Vulkan device (lavapipe counts); without one they are skipped
 * with a note, unless V3D_REQUIRE_GPU=1.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <v3d/v3d.h>

#include <gst/v3d/v3dvp9lfmeta.h>

static guint64 g_seed = 0x1F5EED26u;

#include "gst_test_common.h"


/* ----------------------------------------------------------------------------------------- */
/* Grids                                                                                      */
/* ----------------------------------------------------------------------------------------- */

typedef struct {
  V3dVp9LfInfo *e;
  int cols, rows, stride;
} Grid;

static Grid grid_new(int w, int h, int extra_stride) {
  Grid g;
  g.cols = (w + 7) / 8;
  g.rows = (h + 7) / 8;
  g.stride = g.cols + extra_stride;
  g.e = g_new0(V3dVp9LfInfo, (gsize)g.stride * g.rows);
  return g;
}

/* libvpx BLOCK_SIZE of a bw x bh block in 8x8 units (bw, bh in 1, 2, 4, 8 and bw/bh in 1/2..2) */
static int block_size_of(int bw, int bh) {
  static const int sq[4] = {3, 6, 9, 12}; /* 8X8, 16X16, 32X32, 64X64 */
  int lw = bw == 1 ? 0 : bw == 2 ? 1 : bw == 4 ? 2 : 3;
  int lh = bh == 1 ? 0 : bh == 2 ? 1 : bh == 4 ? 2 : 3;
  if (lw == lh) return sq[lw];
  return lw > lh ? sq[lh] + 2 : sq[lw] + 1; /* wide: 16X8 = 5 ..., tall: 8X16 = 4 ... */
}

static void put_block(Rng *r, Grid *g, int c, int row, int bw, int bh, int bs) {
  V3dVp9LfInfo in;
  int min = bw < bh ? bw : bh; /* 8x8 units */
  int max_tx = min == 1 ? 1 : min == 2 ? 2 : 3;
  if (bs < 3) max_tx = 0;
  in.block_size = (guint8)bs;
  in.tx_size = (guint8)rng_below(r, max_tx + 1);
  in.filter_level = rng_below(r, 6) == 0 ? 0 : (guint8)rng_below(r, 64);
  in.skip_inter = (guint8)(rng_below(r, 3) == 0);
  for (int y = row; y < row + bh && y < g->rows; y++)
    for (int x = c; x < c + bw && x < g->cols; x++) g->e[y * g->stride + x] = in;
}

/* A random VP9 partition of the square of n x n 8x8 units at (c, row). */
static void partition(Rng *r, Grid *g, int c, int row, int n) {
  if (c >= g->cols || row >= g->rows) return;
  guint32 k = rng_below(r, 4);
  if (n == 1) {
    put_block(r, g, c, row, 1, 1, k == 0 ? 3 : (int)rng_below(r, 4)); /* 8X8 or sub-8x8 */
  } else if (k == 0) {
    int h = n / 2;
    partition(r, g, c, row, h);
    partition(r, g, c + h, row, h);
    partition(r, g, c, row + h, h);
    partition(r, g, c + h, row + h, h);
  } else if (k == 1) { /* horizontal: two n x n/2 */
    put_block(r, g, c, row, n, n / 2, block_size_of(n, n / 2));
    put_block(r, g, c, row + n / 2, n, n / 2, block_size_of(n, n / 2));
  } else if (k == 2) { /* vertical: two n/2 x n */
    put_block(r, g, c, row, n / 2, n, block_size_of(n / 2, n));
    put_block(r, g, c + n / 2, row, n / 2, n, block_size_of(n / 2, n));
  } else {
    put_block(r, g, c, row, n, n, block_size_of(n, n));
  }
}

static Grid random_grid(Rng *r, int w, int h) {
  Grid g = grid_new(w, h, (int)rng_below(r, 3));
  for (int row = 0; row < g.rows; row += 8)
    for (int c = 0; c < g.cols; c += 8) partition(r, &g, c, row, 8);
  return g;
}

/* The element's post-filter grid: every entry the same. */
static Grid uniform_grid(int w, int h, int level, int block_size, int tx_size) {
  Grid g = grid_new(w, h, 0);
  for (int i = 0; i < g.stride * g.rows; i++) {
    g.e[i].filter_level = (guint8)level;
    g.e[i].block_size = (guint8)block_size;
    g.e[i].tx_size = (guint8)tx_size;
    g.e[i].skip_inter = 0;
  }
  return g;
}

/* ----------------------------------------------------------------------------------------- */
/* Frames                                                                                     */
/* ----------------------------------------------------------------------------------------- */


/* Blocky random pixels (8x8 tiles of one value plus a little noise: edges the filter changes),
 * random bytes elsewhere in the buffer. */
static GstBuffer *make_blocky_frame(Rng *r, int w, int h, Layout layout) {
  GstBuffer *buf = make_frame(r, w, h, layout);
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, w, h);
  GstVideoFrame f;
  fail_unless(gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE));
  for (int p = 0; p < 3; p++) {
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA(&f, p);
    int s = GST_VIDEO_FRAME_PLANE_STRIDE(&f, p), tile = p ? 4 : 8;
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, p); y += tile)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&f, p); x += tile) {
        int base = 40 + (int)rng_below(r, 170);
        for (int yy = y; yy < y + tile && yy < GST_VIDEO_FRAME_COMP_HEIGHT(&f, p); yy++)
          for (int xx = x; xx < x + tile && xx < GST_VIDEO_FRAME_COMP_WIDTH(&f, p); xx++)
            d[yy * s + xx] = (guint8)(base + (int)rng_below(r, 5) - 2);
      }
  }
  gst_video_frame_unmap(&f);
  return buf;
}


static V3dContext *scalar_ctx(void) {
  static V3dContext *ctx = NULL;
  if (!ctx) ctx = v3d_context_new("scalar", 1);
  fail_unless(ctx != NULL, "no scalar context: %s", v3d_last_error());
  return ctx;
}

/* TRUE where the element filters the buffer's planes directly (room for the 8x8-rounded area):
 * with a meta it then keeps the buffer's samples past the visible edge (v3dvp9lpf's doc). */
static gboolean has_room(Layout layout, int w, int h) {
  return layout == LAYOUT_PADDED || (w % 8 == 0 && h % 8 == 0);
}

/* The reference: the visible planes copied into 8x8-rounded planes (extra stride), the area past
 * the visible edge filled by repeating the last column then the last row, or, with raw (the
 * buffer's bytes and strides), taken from the buffer; filtered by the library's scalar backend;
 * the visible part written back. */
static void apply_reference(Planes *pl, const Grid *g, int sharpness, GstBuffer *raw) {
  const guint8 *raw_plane[3] = {NULL, NULL, NULL};
  gint raw_stride[3] = {0, 0, 0};
  GstMapInfo map;
  if (raw) {
    GstVideoInfo info;
    gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, pl->w, pl->h);
    GstVideoMeta *vm = gst_buffer_get_video_meta(raw);
    fail_unless(gst_buffer_map(raw, &map, GST_MAP_READ));
    for (int p = 0; p < 3; p++) {
      raw_plane[p] = map.data + (vm ? vm->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&info, p));
      raw_stride[p] = vm ? vm->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    }
  }
  int rw = (pl->w + 7) / 8 * 8, rh = (pl->h + 7) / 8 * 8;
  guint8 *planes[3];
  ptrdiff_t strides[3];
  for (int p = 0; p < 3; p++) {
    int cw = p ? rw / 2 : rw, ch = p ? rh / 2 : rh;
    strides[p] = cw + 13;
    planes[p] = g_malloc0((gsize)strides[p] * ch);
    for (int y = 0; y < ch && raw; y++) memcpy(planes[p] + y * strides[p],
                                               raw_plane[p] + (gsize)y * raw_stride[p], cw);
    for (int y = 0; y < ch && !raw; y++) {
      int sy = y < pl->ph[p] ? y : pl->ph[p] - 1;
      for (int x = 0; x < cw; x++) {
        int sx = x < pl->pw[p] ? x : pl->pw[p] - 1;
        planes[p][y * strides[p] + x] = pl->plane[p][sy * pl->pw[p] + sx];
      }
    }
  }
  if (raw) gst_buffer_unmap(raw, &map);
  int rc = v3d_vp9_loop_filter_frame(scalar_ctx(), planes, strides, pl->w, pl->h, g->e, g->stride,
                                     sharpness);
  fail_unless(rc == 0, "reference filter failed: %s (seed 0x%" G_GINT64_MODIFIER "x)",
              v3d_last_error(), g_seed);
  for (int p = 0; p < 3; p++) {
    for (int y = 0; y < pl->ph[p]; y++)
      memcpy(pl->plane[p] + y * pl->pw[p], planes[p] + y * strides[p], pl->pw[p]);
    g_free(planes[p]);
  }
}




/* ----------------------------------------------------------------------------------------- */
/* Element helpers                                                                            */
/* ----------------------------------------------------------------------------------------- */

typedef TestElement Lpf;
static Lpf lpf_new(const char *props) { return test_element_new("v3dvp9lpf", props); }
static void lpf_free(Lpf *t) { test_element_free(t); }


/* Pushes buf (with a meta of grid g when with_meta) and checks the output against the reference
 * and that no byte outside the planes' 8x8-rounded areas changed. */
static void push_and_check(Lpf *t, GstBuffer *buf, const Grid *g, int sharpness,
                           gboolean with_meta, Layout layout, int w, int h, const char *what) {
  guint8 *mask = writable_mask(buf, w, h);
  gsize size;
  guint8 *before = buffer_bytes(buf, &size);
  Planes input = read_planes(buf, w, h);
  Planes expected = read_planes(buf, w, h);
  apply_reference(&expected, g, sharpness, with_meta && has_room(layout, w, h) ? buf : NULL);
  if (with_meta)
    gst_buffer_add_v3d_vp9_lf_meta(buf, g->e, (gsize)g->stride * g->rows, g->stride, sharpness);
  fail_unless_equals_int(gst_harness_push(t->h, buf), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(t->h);
  fail_unless(out != NULL);
  fail_unless(gst_buffer_get_v3d_vp9_lf_meta(out) == NULL, "meta not removed");
  Planes got = read_planes(out, w, h);
  planes_equal(&got, &expected, what);
  /* The inputs are blocky: a filter that did nothing would pass unnoticed otherwise (small
   * random grids may legitimately filter nothing). */
  if (w >= 128 && h >= 128)
    fail_unless(planes_differ(&got, &input), "%s: %dx%d: nothing filtered", what, w, h);
  planes_clear(&got);
  planes_clear(&expected);
  planes_clear(&input);
  check_unmasked_bytes(out, before, size, mask, what, w, h);
  g_free(before);
  g_free(mask);
  gst_buffer_unref(out);
}

/* ----------------------------------------------------------------------------------------- */
/* Tests                                                                                      */
/* ----------------------------------------------------------------------------------------- */

GST_START_TEST(test_negotiation) {
  Lpf t = lpf_new("backend=cpu");
  GstPad *sink = gst_element_get_static_pad(t.element, "sink");
  GstCaps *i420 = i420_caps(250, 130);
  GstCaps *nv12 = gst_caps_from_string("video/x-raw,format=NV12,width=64,height=64");
  fail_unless(gst_pad_query_accept_caps(sink, i420));
  fail_if(gst_pad_query_accept_caps(sink, nv12));
  gst_caps_unref(i420);
  gst_object_unref(sink);
  gst_harness_set_src_caps(t.h, nv12);
  fail_unless_equals_int(
      gst_harness_push(t.h, gst_buffer_new_allocate(NULL, 64 * 64 * 3 / 2, NULL)),
      GST_FLOW_NOT_NEGOTIATED);
  lpf_free(&t);
}
GST_END_TEST;

GST_START_TEST(test_passthrough_level0) {
  Lpf t = lpf_new("backend=cpu level=0");
  Rng r;
  rng_init(&r, g_seed);
  gst_harness_set_src_caps(t.h, i420_caps(33, 17));
  for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
    GstBuffer *in = make_blocky_frame(&r, 33, 17, layout);
    GstMapInfo a, b;
    gst_buffer_map(in, &a, GST_MAP_READ);
    guint8 *copy = g_memdup2(a.data, a.size);
    gsize size = a.size;
    gst_buffer_unmap(in, &a);
    fail_unless_equals_int(gst_harness_push(t.h, in), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(t.h);
    gst_buffer_map(out, &b, GST_MAP_READ);
    fail_unless(b.size == size && memcmp(b.data, copy, size) == 0,
                "level 0 modified the buffer (layout %s)", layout_name[layout]);
    gst_buffer_unmap(out, &b);
    gst_buffer_unref(out);
    g_free(copy);
  }
  fail_unless_equals_int((int)stats_u64(t.element, "frames-passthrough"), LAYOUT_COUNT);
  fail_unless_equals_int((int)stats_u64(t.element, "frames"), 0);
  lpf_free(&t);
}
GST_END_TEST;

static const int sizes[][2] = {{250, 130}, {33, 17}, {352, 288}, {8, 8}, {1, 1}};

/* backend=gpu: the frames went through the GPU (no silent CPU fallback). */
static void check_gpu_ran(Lpf *t, const char *backend) {
  if (strcmp(backend, "gpu") != 0) return;
  fail_unless(stats_u64(t->element, "blocks-gpu") > 0, "backend=gpu: no block on the GPU");
  fail_unless(stats_u64(t->element, "gpu-submissions") > 0, "backend=gpu: no GPU submission");
}

/* With metas: random partitions on every size and layout. */
static void run_meta(const char *backend) {
  gchar *props = g_strdup_printf("backend=%s", backend);
  for (guint si = 0; si < G_N_ELEMENTS(sizes); si++) {
    int w = sizes[si][0], h = sizes[si][1];
    Lpf t = lpf_new(props);
    gst_harness_set_src_caps(t.h, i420_caps(w, h));
    for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
      Rng r;
      rng_init(&r, g_seed ^ (guint64)(si * 7 + layout + 1) * 0x9E37u);
      Grid g = random_grid(&r, w, h);
      int sharpness = (int)rng_below(&r, 8);
      gchar *what = g_strdup_printf("meta, %s, layout %s", backend, layout_name[layout]);
      push_and_check(&t, make_blocky_frame(&r, w, h, layout), &g, sharpness, TRUE, layout, w, h,
                     what);
      g_free(what);
      g_free(g.e);
    }
    fail_unless_equals_int((int)stats_u64(t.element, "frames-with-meta"), LAYOUT_COUNT);
    check_gpu_ran(&t, backend);
    lpf_free(&t);
  }
  g_free(props);
}

/* Without metas: the post-filter's uniform grid, several settings. */
static void run_post(const char *backend) {
  static const struct {
    int level, sharpness, block, tx;
    const char *block_nick, *tx_nick;
  } cfg[] = {{16, 0, 3, 1, "8x8", "8x8"},
             {40, 3, 6, 1, "16x16", "8x8"},
             {63, 7, 12, 3, "64x64", "32x32"},
             {9, 1, 9, 0, "32x32", "4x4"}};
  for (guint ci = 0; ci < G_N_ELEMENTS(cfg); ci++)
    for (guint si = 0; si < G_N_ELEMENTS(sizes); si++) {
      int w = sizes[si][0], h = sizes[si][1];
      gchar *props = g_strdup_printf("backend=%s level=%d sharpness=%d block-size=%s tx-size=%s",
                                     backend, cfg[ci].level, cfg[ci].sharpness,
                                     cfg[ci].block_nick, cfg[ci].tx_nick);
      Lpf t = lpf_new(props);
      gst_harness_set_src_caps(t.h, i420_caps(w, h));
      Grid g = uniform_grid(w, h, cfg[ci].level, cfg[ci].block, cfg[ci].tx);
      for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
        Rng r;
        rng_init(&r, g_seed ^ (guint64)(ci * 100 + si * 7 + layout + 1) * 0x7F4Au);
        gchar *what = g_strdup_printf("post-filter '%s', layout %s", props, layout_name[layout]);
        push_and_check(&t, make_blocky_frame(&r, w, h, layout), &g, cfg[ci].sharpness, FALSE, layout,
                       w, h, what);
        g_free(what);
      }
      fail_unless_equals_int((int)stats_u64(t.element, "frames-post-filter"), LAYOUT_COUNT);
      check_gpu_ran(&t, backend);
      g_free(g.e);
      g_free(props);
      lpf_free(&t);
    }
}

GST_START_TEST(test_scalar) {
  run_meta("scalar");
  run_post("scalar");
}
GST_END_TEST;

GST_START_TEST(test_cpu) {
  run_meta("cpu");
  run_post("cpu");
}
GST_END_TEST;

GST_START_TEST(test_auto) {
  run_meta("auto");
  run_post("auto");
}
GST_END_TEST;

GST_START_TEST(test_gpu_hybrid) {
  if (!want_gpu()) return;
  run_meta("gpu");
  run_post("gpu");
  run_meta("hybrid");
  run_post("hybrid");
}
GST_END_TEST;

/* An invalid meta: GST_FLOW_ERROR, a stream error whose message contains `expect`, the visible
 * frame untouched. */
static void run_bad_meta(Grid *g, int n_entries, int sharpness, const char *expect,
                         const char *what) {
  Lpf t = lpf_new("backend=cpu");
  Rng r;
  rng_init(&r, g_seed);
  gst_harness_set_src_caps(t.h, i420_caps(64, 48));
  GstBuffer *buf = make_blocky_frame(&r, 64, 48, LAYOUT_DEFAULT);
  Planes before = read_planes(buf, 64, 48);
  gst_buffer_add_v3d_vp9_lf_meta(buf, g->e, (gsize)n_entries, g->stride, sharpness);
  gst_buffer_ref(buf);
  fail_unless_equals_int(gst_harness_push(t.h, buf), GST_FLOW_ERROR);
  fail_unless_equals_int(gst_harness_buffers_received(t.h), 0);
  Planes after = read_planes(buf, 64, 48);
  fail_if(planes_differ(&before, &after), "%s: frame modified", what);
  planes_clear(&before);
  planes_clear(&after);
  gst_buffer_unref(buf);
  expect_stream_error(t.bus, expect, what);
  lpf_free(&t);
}

GST_START_TEST(test_bad_meta) {
  Grid g = uniform_grid(64, 48, 20, 3, 1);
  int n = g.stride * g.rows;
  g.e[9].filter_level = 64;
  run_bad_meta(&g, n, 0, "64", "filter_level 64");
  g.e[9].filter_level = 20;
  g.e[10].tx_size = 2; /* 16x16 transform in an 8x8 block */
  run_bad_meta(&g, n, 0, "Invalid VP9 loop filter meta", "tx larger than block");
  g.e[10].tx_size = 1;
  g.e[11].block_size = 13;
  run_bad_meta(&g, n, 0, "13", "block_size 13");
  g.e[11].block_size = 3;
  run_bad_meta(&g, n, 8, "sharpness", "sharpness 8");
  run_bad_meta(&g, n - 1, 0, "does not cover", "grid too small");
  g_free(g.e);
}
GST_END_TEST;

GST_START_TEST(test_properties) {
  GstElement *e = gst_element_factory_make("v3dvp9lpf", NULL);
  fail_unless(e != NULL);
  GObjectClass *k = G_OBJECT_GET_CLASS(e);
  GParamSpecUInt *level = G_PARAM_SPEC_UINT(g_object_class_find_property(k, "level"));
  GParamSpecUInt *sharp = G_PARAM_SPEC_UINT(g_object_class_find_property(k, "sharpness"));
  fail_unless(level->minimum == 0 && level->maximum == 63);
  fail_unless(sharp->minimum == 0 && sharp->maximum == 7);
  fail_unless(g_object_class_find_property(k, "cpu-threads") != NULL);
  GParamSpec *stats = g_object_class_find_property(k, "stats");
  fail_unless(stats && !(stats->flags & G_PARAM_WRITABLE));
  guint v = 0;
  g_object_set(e, "level", 63, "sharpness", 7, NULL);
  g_object_get(e, "level", &v, NULL);
  fail_unless_equals_int(v, 63);
  gint bs = 0, tx = 0;
  g_object_get(e, "block-size", &bs, "tx-size", &tx, NULL);
  fail_unless_equals_int(bs, 3); /* 8x8 blocks with 8x8 transforms by default */
  fail_unless_equals_int(tx, 1);
  gst_object_unref(e);

  /* tx-size larger than block-size: an element error at the first frame. */
  Lpf t = lpf_new("backend=cpu block-size=8x8 tx-size=16x16");
  Rng r;
  rng_init(&r, g_seed);
  gst_harness_set_src_caps(t.h, i420_caps(64, 64));
  fail_unless_equals_int(gst_harness_push(t.h, make_blocky_frame(&r, 64, 64, LAYOUT_DEFAULT)),
                         GST_FLOW_ERROR);
  GstMessage *msg = gst_bus_pop_filtered(t.bus, GST_MESSAGE_ERROR);
  fail_unless(msg != NULL);
  gst_message_unref(msg);
  lpf_free(&t);
}
GST_END_TEST;

GST_START_TEST(test_meta_copy) {
  Grid g = uniform_grid(16, 16, 5, 6, 2);
  GstBuffer *a = gst_buffer_new_allocate(NULL, 16 * 16 * 3 / 2, NULL);
  fail_unless(gst_buffer_add_v3d_vp9_lf_meta(a, g.e, 4, 2, 3) != NULL);
  GstBuffer *b = gst_buffer_copy(a);
  GstV3dVp9LfMeta *m = gst_buffer_get_v3d_vp9_lf_meta(b);
  fail_unless(m != NULL && m->n_entries == 4 && m->grid_stride == 2 && m->sharpness == 3);
  fail_unless(m->grid[3].block_size == 6 && m->grid[3].tx_size == 2);
  fail_unless(g_type_from_name(GST_V3D_VP9_LF_META_API_NAME) == GST_V3D_VP9_LF_META_API_TYPE);
  gst_buffer_unref(a);
  gst_buffer_unref(b);
  g_free(g.e);
}
GST_END_TEST;

static Suite *v3dvp9lpf_suite(void) {
  Suite *s = suite_create("v3dvp9lpf");
  TCase *tc = suite_general_tcase(s);
  tcase_add_test(tc, test_meta_copy);
  tcase_add_test(tc, test_negotiation);
  tcase_add_test(tc, test_passthrough_level0);
  tcase_add_test(tc, test_scalar);
  tcase_add_test(tc, test_cpu);
  tcase_add_test(tc, test_auto);
  tcase_add_test(tc, test_gpu_hybrid);
  tcase_add_test(tc, test_bad_meta);
  tcase_add_test(tc, test_properties);
  return s;
}

GST_CHECK_MAIN(v3dvp9lpf);
