/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstHarness tests of v3dh264deblock: negotiation (I420 and NV12 only), frames without a meta
 * (post-filter mode: the uniform macroblock grid of the element's documentation, rebuilt here
 * from the properties) and with a GstV3dH264DeblockMeta (random macroblock grids and slices made
 * here, coded size equal to the frame or rounded up to whole macroblocks in padded buffers),
 * each equal to v3d_h264_deblock_frame on a "scalar" context applied by the test to a packed
 * copy of the input (the library's function is tested against an independent reference in
 * test_h264_deblock_frame); odd sizes, padded and tight strides, NV12 equal to I420 on the same
 * content, no byte written outside the area the element may change, every backend, refusal of
 * invalid metas with a stream error naming the problem, property ranges, defaults and the
 * refusal of odd filter offsets, settings changed while playing.
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

#include <gst/v3d/v3dh264meta.h>

static guint64 g_seed = 0x264DEB10Cu;

#include "gst_test_common.h"

#define I420 GST_VIDEO_FORMAT_I420
#define NV12 GST_VIDEO_FORMAT_NV12

/* ----------------------------------------------------------------------------------------- */
/* Macroblock grids                                                                           */
/* ----------------------------------------------------------------------------------------- */

typedef struct {
  V3dH264MbInfo *mbs;
  int cols, rows, stride;
  V3dH264SliceInfo slices[4];
  int n_slices;
} MbGrid;

static MbGrid grid_new(int w, int h, int extra_stride) {
  MbGrid g;
  memset(&g, 0, sizeof(g));
  g.cols = (w + 15) / 16;
  g.rows = (h + 15) / 16;
  g.stride = g.cols + extra_stride;
  g.mbs = g_new0(V3dH264MbInfo, (gsize)g.stride * g.rows);
  g.n_slices = 1;
  return g;
}

static gsize grid_entries(const MbGrid *g) { return (gsize)g->stride * g->rows; }

/* The post-filter settings (the element's properties). */
typedef struct {
  const char *mode; /* "intra" or "inter" */
  int qp, chroma_qp_offset, alpha_offset, beta_offset, bs, transform_8x8;
} PostCfg;

static gchar *post_props(const PostCfg *c) {
  return g_strdup_printf("mode=%s qp=%d chroma-qp-offset=%d alpha-offset=%d beta-offset=%d "
                         "bs=%d transform-8x8=%s", c->mode, c->qp, c->chroma_qp_offset,
                         c->alpha_offset, c->beta_offset, c->bs,
                         c->transform_8x8 ? "true" : "false");
}

/* The element's post-filter input, per its documentation: every macroblock the same, one slice. */
static MbGrid post_grid(int w, int h, const PostCfg *c) {
  MbGrid g = grid_new(w, h, 0);
  gboolean intra = strcmp(c->mode, "intra") == 0;
  for (gsize i = 0; i < grid_entries(&g); i++) {
    V3dH264MbInfo *m = &g.mbs[i];
    m->qp = (guint8)c->qp;
    m->transform_8x8 = (guint8)c->transform_8x8;
    for (int d = 0; d < 2; d++)
      for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++) m->bs[d][e][s] = (guint8)(intra ? (e == 0 ? 4 : 3) : c->bs);
  }
  g.slices[0].filter_offset_a = (gint8)c->alpha_offset;
  g.slices[0].filter_offset_b = (gint8)c->beta_offset;
  g.slices[0].chroma_qp_index_offset = (gint8)c->chroma_qp_offset;
  g.slices[0].second_chroma_qp_index_offset = (gint8)c->chroma_qp_offset;
  return g;
}

static int even_offset(Rng *r) { return 2 * rng_range(r, -6, 6); }

/* A random picture input: QP 0..51 (mostly where the filter acts), bS patterns (intra, inter
 * typical, arbitrary), transform_8x8, up to 4 slices in raster runs with idc 0/1/2 and random
 * offsets; unused grid entries hold junk that must be ignored. */
static MbGrid random_grid(Rng *r, int w, int h) {
  MbGrid g = grid_new(w, h, (int)rng_below(r, 3));
  g.n_slices = 1 + (int)rng_below(r, 4);
  for (int i = 0; i < g.n_slices; i++) {
    V3dH264SliceInfo *s = &g.slices[i];
    s->disable_deblocking_filter_idc = (gint8)(rng_below(r, 4) == 0 ? rng_below(r, 3) : 0);
    s->filter_offset_a = (gint8)even_offset(r);
    s->filter_offset_b = (gint8)even_offset(r);
    s->chroma_qp_index_offset = (gint8)rng_range(r, -12, 12);
    s->second_chroma_qp_index_offset =
        rng_below(r, 2) ? s->chroma_qp_index_offset : (gint8)rng_range(r, -12, 12);
  }
  int n = g.cols * g.rows, slice = 0, next_start = n / g.n_slices;
  for (int i = 0; i < n; i++) {
    if (i == next_start && slice + 1 < g.n_slices) {
      slice++;
      next_start += n / g.n_slices;
    }
    V3dH264MbInfo *m = &g.mbs[(i / g.cols) * g.stride + i % g.cols];
    m->qp = (guint8)(rng_below(r, 8) == 0 ? (int)rng_below(r, 52) : rng_range(r, 24, 51));
    m->transform_8x8 = (guint8)(rng_below(r, 3) == 0);
    m->slice = (guint16)slice;
    guint32 kind = rng_below(r, 3);
    for (int d = 0; d < 2; d++)
      for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++)
          m->bs[d][e][s] = (guint8)(kind == 0 ? (e == 0 ? 4 : 3)
                                    : kind == 1 ? rng_below(r, 3)
                                                : rng_below(r, 5));
  }
  for (int row = 0; row < g.rows; row++) /* junk past the used columns */
    for (int c = g.cols; c < g.stride; c++) memset(&g.mbs[row * g.stride + c], 0xEE, sizeof(V3dH264MbInfo));
  return g;
}

/* ----------------------------------------------------------------------------------------- */
/* Frames and the reference                                                                   */
/* ----------------------------------------------------------------------------------------- */

/* Blocky content (4x4 tiles whose values drift in small random steps, a little noise inside):
 * edges the filter changes. Written into every component of a random frame (make_video_frame),
 * padding keeps its random bytes. */
static GstBuffer *make_blocky(Rng *r, GstVideoFormat fmt, int w, int h, Layout layout,
                              int round) {
  GstBuffer *buf = make_video_frame(r, fmt, w, h, layout, round);
  GstVideoInfo info;
  gst_video_info_set_format(&info, fmt, w, h);
  GstVideoFrame f;
  fail_unless(gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE));
  for (int c = 0; c < 3; c++) {
    guint8 *d = GST_VIDEO_FRAME_COMP_DATA(&f, c);
    int s = GST_VIDEO_FRAME_COMP_STRIDE(&f, c), ps = GST_VIDEO_FRAME_COMP_PSTRIDE(&f, c);
    int cw = GST_VIDEO_FRAME_COMP_WIDTH(&f, c), ch = GST_VIDEO_FRAME_COMP_HEIGHT(&f, c);
    int base = 128;
    for (int y = 0; y < ch; y += 4)
      for (int x = 0; x < cw; x += 4) {
        base = CLAMP(base + rng_range(r, -14, 14), 20, 235);
        for (int yy = y; yy < y + 4 && yy < ch; yy++)
          for (int xx = x; xx < x + 4 && xx < cw; xx++)
            d[yy * s + xx * ps] = (guint8)(base + rng_range(r, -1, 1));
      }
  }
  gst_video_frame_unmap(&f);
  return buf;
}

/* The same visible content in another format (I420 <-> NV12), default layout. */
static GstBuffer *convert_frame(GstBuffer *src, GstVideoFormat from, GstVideoFormat to, int w,
                                int h) {
  GstVideoInfo a, b;
  gst_video_info_set_format(&a, from, w, h);
  gst_video_info_set_format(&b, to, w, h);
  GstBuffer *dst = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&b), NULL);
  GstVideoFrame fa, fb;
  fail_unless(gst_video_frame_map(&fa, &a, src, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&fb, &b, dst, GST_MAP_WRITE));
  for (int c = 0; c < 3; c++)
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&fa, c); y++)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&fa, c); x++)
        ((guint8 *)GST_VIDEO_FRAME_COMP_DATA(&fb, c))[y * GST_VIDEO_FRAME_COMP_STRIDE(&fb, c) +
                                                     x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fb, c)] =
            ((const guint8 *)GST_VIDEO_FRAME_COMP_DATA(&fa, c))
                [y * GST_VIDEO_FRAME_COMP_STRIDE(&fa, c) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fa, c)];
  gst_video_frame_unmap(&fa);
  gst_video_frame_unmap(&fb);
  return dst;
}

static V3dContext *scalar_ctx(void) {
  static V3dContext *ctx = NULL;
  if (!ctx) ctx = v3d_context_new("scalar", 1);
  fail_unless(ctx != NULL, "no scalar context: %s", v3d_last_error());
  return ctx;
}

/* The reference: the library's scalar backend on the packed planes. */
static void apply_reference(Planes *pl, const MbGrid *g) {
  guint8 *planes[3] = {pl->plane[0], pl->plane[1], pl->plane[2]};
  ptrdiff_t strides[3] = {pl->pw[0], pl->pw[1], pl->pw[2]};
  int rc = v3d_h264_deblock_frame(scalar_ctx(), planes, strides, pl->w, pl->h, g->mbs, g->stride,
                                  g->slices, g->n_slices);
  fail_unless(rc == 0, "reference failed: %s (seed 0x%" G_GINT64_MODIFIER "x)", v3d_last_error(),
              g_seed);
}


/* ----------------------------------------------------------------------------------------- */
/* Element helpers                                                                            */
/* ----------------------------------------------------------------------------------------- */

typedef TestElement Dbk;
static Dbk dbk_new(const char *props) { return test_element_new("v3dh264deblock", props); }
static void dbk_free(Dbk *t) { test_element_free(t); }

/* One frame's case: its format and size, the area the element works on (the meta's coded size,
 * else the frame), the grid, and whether the filter must change something. */
typedef struct {
  GstVideoFormat fmt;
  int w, h;
  int cw, ch;
  const MbGrid *grid;
  gboolean with_meta;
  gboolean expect_change;
  const char *what;
} Case;

/* What a pushed frame's output must be: the reference on the worked area, every other byte as
 * it was. */
typedef struct {
  guint8 *mask, *before;
  gsize size;
  Planes input, expected;
} Expect;

/* Records buf's expected output and adds the meta when c->with_meta (before the push). */
static Expect expect_for(GstBuffer *buf, const Case *c) {
  Expect e;
  e.mask = area_mask(buf, c->fmt, c->w, c->h, c->cw, c->ch);
  e.before = buffer_bytes(buf, &e.size);
  e.input = read_area(buf, c->fmt, c->w, c->h, c->cw, c->ch);
  e.expected = read_area(buf, c->fmt, c->w, c->h, c->cw, c->ch);
  apply_reference(&e.expected, c->grid);
  if (c->with_meta)
    fail_unless(gst_buffer_add_v3d_h264_deblock_meta(buf, c->cw, c->ch, c->grid->mbs,
                                                     grid_entries(c->grid), c->grid->stride,
                                                     c->grid->slices, c->grid->n_slices) != NULL);
  return e;
}

/* Checks out against e (and frees e). */
static void check_output(GstBuffer *out, Expect *e, const Case *c) {
  fail_unless(out != NULL);
  fail_unless(gst_buffer_get_v3d_h264_deblock_meta(out) == NULL, "%s: meta not removed", c->what);
  Planes got = read_area(out, c->fmt, c->w, c->h, c->cw, c->ch);
  planes_equal(&got, &e->expected, c->what);
  /* The content is blocky: a filter that does nothing would pass unnoticed otherwise. */
  if (c->expect_change)
    fail_unless(planes_differ(&e->expected, &e->input), "%s: %dx%d: the reference filtered nothing",
                c->what, c->w, c->h);
  planes_clear(&got);
  planes_clear(&e->expected);
  planes_clear(&e->input);
  check_unmasked_bytes(out, e->before, e->size, e->mask, c->what, c->w, c->h);
  g_free(e->before);
  g_free(e->mask);
}

/* Pushes buf (with a meta when c->with_meta) and checks the output against the reference on the
 * worked area, and that no byte outside it changed. */
static void push_and_check(Dbk *t, GstBuffer *buf, const Case *c) {
  Expect e = expect_for(buf, c);
  fail_unless_equals_int(gst_harness_push(t->h, buf), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(t->h);
  check_output(out, &e, c);
  gst_buffer_unref(out);
}

static const GstVideoFormat formats[] = {I420, NV12};
static const int sizes[][2] = {{250, 130}, {17, 17}, {64, 48}, {33, 8}, {16, 16}, {1, 1}};

/* ----------------------------------------------------------------------------------------- */
/* Tests                                                                                      */
/* ----------------------------------------------------------------------------------------- */

GST_START_TEST(test_meta_copy) {
  MbGrid g = grid_new(48, 32, 1);
  g.mbs[5].qp = 33;
  g.mbs[5].bs[1][2][3] = 4;
  g.n_slices = 2;
  g.slices[1].filter_offset_b = -6;
  GstBuffer *a = gst_buffer_new_allocate(NULL, 48 * 32 * 3 / 2, NULL);
  fail_unless(gst_buffer_add_v3d_h264_deblock_meta(a, 48, 32, g.mbs, grid_entries(&g), g.stride,
                                                   g.slices, 2) != NULL);
  GstBuffer *b = gst_buffer_copy(a);
  GstV3dH264DeblockMeta *m = gst_buffer_get_v3d_h264_deblock_meta(b);
  fail_unless(m != NULL && m->coded_width == 48 && m->coded_height == 32);
  fail_unless(m->n_mbs == 8 && m->mb_stride == 4 && m->n_slices == 2);
  fail_unless(m->mbs[5].qp == 33 && m->mbs[5].bs[1][2][3] == 4);
  fail_unless(m->slices[1].filter_offset_b == -6);
  fail_unless(g_type_from_name(GST_V3D_H264_DEBLOCK_META_API_NAME) ==
              GST_V3D_H264_DEBLOCK_META_API_TYPE);
  fail_unless(gst_meta_get_info(GST_V3D_H264_DEBLOCK_META_IMPL_NAME) ==
              GST_V3D_H264_DEBLOCK_META_INFO);
  gst_buffer_unref(a);
  gst_buffer_unref(b);
  g_free(g.mbs);
}
GST_END_TEST;

GST_START_TEST(test_negotiation) {
  Dbk t = dbk_new("backend=cpu");
  GstPad *sink = gst_element_get_static_pad(t.element, "sink");
  static const char *accepted[] = {"I420", "NV12"};
  static const char *refused[] = {"YV12", "NV21", "Y444", "YUY2", "RGBA", "GRAY8", "I420_10LE"};
  for (guint i = 0; i < G_N_ELEMENTS(accepted); i++) {
    GstCaps *c = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, accepted[i], "width",
                            G_TYPE_INT, 250, "height", G_TYPE_INT, 130, NULL);
    fail_unless(gst_pad_query_accept_caps(sink, c), "%s refused", accepted[i]);
    gst_caps_unref(c);
  }
  for (guint i = 0; i < G_N_ELEMENTS(refused); i++) {
    GstCaps *c = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, refused[i], "width",
                                     G_TYPE_INT, 64, "height", G_TYPE_INT, 64, NULL);
    fail_if(gst_pad_query_accept_caps(sink, c), "%s accepted", refused[i]);
    gst_caps_unref(c);
  }
  gst_object_unref(sink);
  gst_harness_set_src_caps(t.h, gst_caps_from_string("video/x-raw,format=YUY2,width=64,height=64"));
  fail_unless_equals_int(gst_harness_push(t.h, gst_buffer_new_allocate(NULL, 64 * 64 * 2, NULL)),
                         GST_FLOW_NOT_NEGOTIATED);
  dbk_free(&t);
}
GST_END_TEST;

/* Post-filter settings: each property over its range (extremes included), both modes. */
static const PostCfg post_cfgs[] = {
    {"intra", 32, 0, 0, 0, 2, 0},       /* the defaults */
    {"intra", 51, 12, 12, 12, 0, 1},    /* strongest */
    {"intra", 0, -12, -12, -12, 4, 0},  /* QP 0: nothing filtered */
    {"intra", 16, 0, 12, 12, 1, 1},     /* lowest QP that can filter, raised by the offsets */
    {"intra", 28, 5, -8, 8, 3, 0},      /* */
    {"inter", 40, -6, -4, 6, 1, 0},     /* */
    {"inter", 36, 3, 2, -2, 2, 1},      /* */
    {"inter", 45, 0, 0, 0, 3, 0},       /* */
    {"inter", 30, -12, 0, 0, 4, 1},     /* bS 4 everywhere */
    {"inter", 51, 0, 0, 0, 0, 0},       /* bS 0: nothing filtered */
};

static gboolean post_filters(const PostCfg *c) {
  return c->qp + c->alpha_offset >= 24 && (strcmp(c->mode, "intra") == 0 || c->bs > 0);
}

/* Post-filter mode: every configuration, size, format and layout (a subset with `quick`). */
static void run_post(const char *backend, gboolean quick) {
  for (guint ci = 0; ci < G_N_ELEMENTS(post_cfgs); ci++)
    for (guint si = 0; si < G_N_ELEMENTS(sizes); si++) {
      if (quick && (ci + si) % 3 != 0) continue;
      const PostCfg *cfg = &post_cfgs[ci];
      int w = sizes[si][0], h = sizes[si][1];
      gchar *settings = post_props(cfg);
      gchar *props = g_strdup_printf("backend=%s %s", backend, settings);
      MbGrid g = post_grid(w, h, cfg);
      for (guint fi = 0; fi < G_N_ELEMENTS(formats); fi++) {
        Dbk t = dbk_new(props);
        gst_harness_set_src_caps(t.h, video_caps(formats[fi], w, h));
        for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
          Rng r;
          rng_init(&r, g_seed ^ (guint64)(ci * 1000 + si * 10 + fi * 3 + layout + 1) * 0x7F4Au);
          gchar *what = g_strdup_printf("post-filter %s '%s', %s, layout %s", backend, settings,
                                        gst_video_format_to_string(formats[fi]),
                                        layout_name[layout]);
          Case c = {formats[fi], w, h, w, h, &g, FALSE, post_filters(cfg) && w >= 64, what};
          push_and_check(&t, make_blocky(&r, formats[fi], w, h, layout, 16), &c);
          g_free(what);
        }
        fail_unless_equals_int((int)stats_u64(t.element, "frames-post-filter"), LAYOUT_COUNT);
        fail_unless_equals_int((int)stats_u64(t.element, "chroma-copies"),
                               formats[fi] == NV12 ? LAYOUT_COUNT : 0);
        fail_unless_equals_int((int)stats_u64(t.element, "macroblocks"),
                               LAYOUT_COUNT * g.cols * g.rows);
        dbk_free(&t);
      }
      g_free(g.mbs);
      g_free(props);
      g_free(settings);
    }
}

/* Meta mode: random grids; the coded size equal to the frame on every layout, and rounded up to
 * whole macroblocks in padded buffers (the element then works on the rows and columns past the
 * visible frame too). */
static void run_meta(const char *backend) {
  gchar *props = g_strdup_printf("backend=%s", backend);
  for (guint si = 0; si < G_N_ELEMENTS(sizes); si++)
    for (guint fi = 0; fi < G_N_ELEMENTS(formats); fi++) {
      int w = sizes[si][0], h = sizes[si][1];
      Dbk t = dbk_new(props);
      gst_harness_set_src_caps(t.h, video_caps(formats[fi], w, h));
      int n = 0;
      for (int layout = 0; layout <= LAYOUT_COUNT; layout++, n++) {
        /* LAYOUT_COUNT here: padded, coded size rounded to 16 */
        gboolean rounded = layout == LAYOUT_COUNT;
        Layout l = rounded ? LAYOUT_PADDED : (Layout)layout;
        int cw = rounded ? (w + 15) / 16 * 16 : w, ch = rounded ? (h + 15) / 16 * 16 : h;
        Rng r;
        rng_init(&r, g_seed ^ (guint64)(si * 100 + fi * 10 + layout + 1) * 0x9E37u);
        MbGrid g = random_grid(&r, cw, ch);
        gchar *what = g_strdup_printf("meta %s, %s, layout %s, coded %dx%d", backend,
                                      gst_video_format_to_string(formats[fi]), layout_name[l],
                                      cw, ch);
        Case c = {formats[fi], w, h, cw, ch, &g, TRUE, FALSE, what};
        push_and_check(&t, make_blocky(&r, formats[fi], w, h, l, 16), &c);
        g_free(what);
        g_free(g.mbs);
      }
      fail_unless_equals_int((int)stats_u64(t.element, "frames-with-meta"), n);
      dbk_free(&t);
    }
  g_free(props);
}

GST_START_TEST(test_scalar) {
  run_post("scalar", FALSE);
  run_meta("scalar");
}
GST_END_TEST;

GST_START_TEST(test_cpu) {
  run_post("cpu", FALSE);
  run_meta("cpu");
}
GST_END_TEST;

GST_START_TEST(test_auto) {
  run_post("auto", TRUE);
  run_meta("auto");
}
GST_END_TEST;

GST_START_TEST(test_gpu_hybrid) {
  if (!want_gpu()) return;
  run_post("gpu", TRUE);
  run_meta("gpu");
  run_post("hybrid", TRUE);
  run_meta("hybrid");
}
GST_END_TEST;

/* Random post-filter settings on a larger frame, several CPU threads. */
GST_START_TEST(test_random_settings) {
  Rng r;
  rng_init(&r, g_seed ^ 0x5E77u);
  for (int i = 0; i < 12; i++) {
    PostCfg c = {rng_below(&r, 2) ? "intra" : "inter", rng_range(&r, 0, 51), rng_range(&r, -12, 12),
                 even_offset(&r), even_offset(&r), rng_range(&r, 0, 4), (int)rng_below(&r, 2)};
    GstVideoFormat fmt = formats[rng_below(&r, 2)];
    int w = rng_range(&r, 1, 400), h = rng_range(&r, 1, 300);
    gchar *settings = post_props(&c);
    gchar *props = g_strdup_printf("backend=cpu cpu-threads=3 %s", settings);
    Dbk t = dbk_new(props);
    gst_harness_set_src_caps(t.h, video_caps(fmt, w, h));
    MbGrid g = post_grid(w, h, &c);
    gchar *what = g_strdup_printf("random settings '%s', %s %dx%d", settings,
                                  gst_video_format_to_string(fmt), w, h);
    Case cs = {fmt, w, h, w, h, &g, FALSE, post_filters(&c) && w >= 64 && h >= 64, what};
    push_and_check(&t, make_blocky(&r, fmt, w, h, (Layout)rng_below(&r, LAYOUT_COUNT), 16), &cs);
    g_free(what);
    g_free(g.mbs);
    g_free(props);
    g_free(settings);
    dbk_free(&t);
  }
}
GST_END_TEST;

/* The same content as I420 and as NV12 gives the same pictures. */
GST_START_TEST(test_nv12_equals_i420) {
  const char *props[] = {"backend=cpu", "backend=cpu mode=inter bs=4 qp=44 chroma-qp-offset=-5",
                         "backend=scalar transform-8x8=true qp=51 alpha-offset=6"};
  for (guint pi = 0; pi < G_N_ELEMENTS(props); pi++)
    for (guint si = 0; si < G_N_ELEMENTS(sizes); si++) {
      int w = sizes[si][0], h = sizes[si][1];
      Rng r;
      rng_init(&r, g_seed ^ (guint64)(pi * 10 + si + 1) * 0x4E56u);
      GstBuffer *a = make_blocky(&r, I420, w, h, LAYOUT_DEFAULT, 16);
      GstBuffer *b = convert_frame(a, I420, NV12, w, h);
      Planes in_a = read_area(a, I420, w, h, w, h), in_b = read_area(b, NV12, w, h, w, h);
      planes_equal(&in_b, &in_a, "NV12 input");
      Dbk ta = dbk_new(props[pi]), tb = dbk_new(props[pi]);
      gst_harness_set_src_caps(ta.h, video_caps(I420, w, h));
      gst_harness_set_src_caps(tb.h, video_caps(NV12, w, h));
      fail_unless_equals_int(gst_harness_push(ta.h, a), GST_FLOW_OK);
      fail_unless_equals_int(gst_harness_push(tb.h, b), GST_FLOW_OK);
      GstBuffer *oa = gst_harness_pull(ta.h), *ob = gst_harness_pull(tb.h);
      Planes pa = read_area(oa, I420, w, h, w, h), pb = read_area(ob, NV12, w, h, w, h);
      gchar *what = g_strdup_printf("NV12 vs I420, '%s', %dx%d", props[pi], w, h);
      planes_equal(&pb, &pa, what);
      if (w >= 64) fail_unless(planes_differ(&pa, &in_a), "%s: nothing filtered", what);
      g_free(what);
      planes_clear(&pa);
      planes_clear(&pb);
      planes_clear(&in_a);
      planes_clear(&in_b);
      gst_buffer_unref(oa);
      gst_buffer_unref(ob);
      dbk_free(&ta);
      dbk_free(&tb);
    }
}
GST_END_TEST;

/* Frames in flight (max-frames-in-flight=3): NV12 pictures reach the library together, each
 * through chroma planes of its own, and come out in order, each equal to the reference with no
 * byte outside its worked area changed. Frames with and without metas, coded sizes differing
 * inside a batch (a padded frame's rounded up to whole macroblocks), and a last frame drained
 * alone at EOS. */
static void run_nv12_in_flight(const char *backend) {
  enum { kFrames = 7 };
  const int w = 70, h = 50;
  const PostCfg cfg = {"inter", 44, 3, 4, -2, 3, 1};
  gchar *settings = post_props(&cfg);
  gchar *props = g_strdup_printf("backend=%s cpu-threads=2 max-frames-in-flight=3 %s", backend,
                                 settings);
  Dbk t = dbk_new(props);
  gst_harness_set_src_caps(t.h, video_caps(NV12, w, h));
  Rng r;
  rng_init(&r, g_seed ^ 0x4E12F1u ^ (guint64)strlen(backend));
  MbGrid post = post_grid(w, h, &cfg);
  MbGrid grids[kFrames];
  Case cases[kFrames];
  Expect expect[kFrames];
  gchar *whats[kFrames];
  int n_meta = 0;
  for (int f = 0; f < kFrames; f++) {
    const gboolean with_meta = f % 3 != 0;
    const Layout layout = (Layout)(f % LAYOUT_COUNT);
    const gboolean rounded = with_meta && layout == LAYOUT_PADDED;
    const int cw = rounded ? (w + 15) / 16 * 16 : w, ch = rounded ? (h + 15) / 16 * 16 : h;
    grids[f] = with_meta ? random_grid(&r, cw, ch) : post;
    n_meta += with_meta;
    whats[f] = g_strdup_printf("NV12 frame %d of batches of 3, %s, %s, layout %s, coded %dx%d", f,
                               backend, with_meta ? "meta" : "post-filter", layout_name[layout],
                               cw, ch);
    cases[f] = (Case){NV12, w, h, cw, ch, &grids[f], with_meta, !with_meta, whats[f]};
    GstBuffer *buf = make_blocky(&r, NV12, w, h, layout, 16);
    GST_BUFFER_PTS(buf) = (GstClockTime)f * GST_SECOND / 30;
    expect[f] = expect_for(buf, &cases[f]);
    fail_unless_equals_int(gst_harness_push(t.h, buf), GST_FLOW_OK);
    /* Outputs come in whole batches of 3. */
    fail_unless_equals_int(gst_harness_buffers_received(t.h), (f + 1) / 3 * 3);
  }
  fail_unless(gst_harness_push_event(t.h, gst_event_new_eos()));
  fail_unless_equals_int(gst_harness_buffers_received(t.h), kFrames);
  for (int f = 0; f < kFrames; f++) {
    GstBuffer *out = gst_harness_pull(t.h);
    fail_unless(out != NULL);
    fail_unless_equals_uint64(GST_BUFFER_PTS(out), (guint64)f * GST_SECOND / 30);
    check_output(out, &expect[f], &cases[f]);
    gst_buffer_unref(out);
    if (grids[f].mbs != post.mbs) g_free(grids[f].mbs);
    g_free(whats[f]);
  }
  fail_unless_equals_int((int)stats_u64(t.element, "chroma-copies"), kFrames);
  fail_unless_equals_int((int)stats_u64(t.element, "frames-with-meta"), n_meta);
  fail_unless_equals_int((int)stats_u64(t.element, "frames-in-flight-batches"), 3);
  g_free(post.mbs);
  g_free(props);
  g_free(settings);
  dbk_free(&t);
}

GST_START_TEST(test_nv12_frames_in_flight) {
  run_nv12_in_flight("cpu");
  if (want_gpu()) run_nv12_in_flight("hybrid");
}
GST_END_TEST;

/* Settings changed while playing apply from the next frame. */
GST_START_TEST(test_settings_while_playing) {
  const int w = 96, h = 80;
  PostCfg c1 = {"intra", 30, 0, 0, 0, 2, 0}, c2 = {"inter", 46, 4, 6, -2, 3, 1};
  gchar *p1 = post_props(&c1);
  gchar *props = g_strdup_printf("backend=cpu %s", p1);
  Dbk t = dbk_new(props);
  gst_harness_set_src_caps(t.h, video_caps(NV12, w, h));
  Rng r;
  rng_init(&r, g_seed ^ 0xC4A7u);
  MbGrid g1 = post_grid(w, h, &c1), g2 = post_grid(w, h, &c2);
  Case a = {NV12, w, h, w, h, &g1, FALSE, TRUE, "settings: first"};
  push_and_check(&t, make_blocky(&r, NV12, w, h, LAYOUT_PADDED, 16), &a);
  g_object_set(t.element, "mode", 1, "qp", c2.qp, "chroma-qp-offset", c2.chroma_qp_offset,
               "alpha-offset", c2.alpha_offset, "beta-offset", c2.beta_offset, "bs", c2.bs,
               "transform-8x8", TRUE, NULL);
  Case b = {NV12, w, h, w, h, &g2, FALSE, TRUE, "settings: changed"};
  push_and_check(&t, make_blocky(&r, NV12, w, h, LAYOUT_TIGHT, 16), &b);
  g_free(g1.mbs);
  g_free(g2.mbs);
  g_free(props);
  g_free(p1);
  dbk_free(&t);
}
GST_END_TEST;

/* An invalid meta: GST_FLOW_ERROR, a stream error whose message contains `expect`, no output,
 * the buffer untouched. */
static void run_bad_meta(GstVideoFormat fmt, int w, int h, Layout layout, int cw, int ch,
                         const MbGrid *g, gsize n_mbs, int n_slices, const char *expect) {
  Dbk t = dbk_new("backend=cpu");
  Rng r;
  rng_init(&r, g_seed);
  gst_harness_set_src_caps(t.h, video_caps(fmt, w, h));
  GstBuffer *buf = make_blocky(&r, fmt, w, h, layout, 16);
  gsize size;
  guint8 *before = buffer_bytes(buf, &size);
  guint8 *none = g_malloc0(size); /* nothing may change */
  gst_buffer_add_v3d_h264_deblock_meta(buf, cw, ch, g->mbs, n_mbs, g->stride, g->slices,
                                       (gsize)n_slices);
  gst_buffer_ref(buf);
  fail_unless_equals_int(gst_harness_push(t.h, buf), GST_FLOW_ERROR);
  fail_unless_equals_int(gst_harness_buffers_received(t.h), 0);
  check_unmasked_bytes(buf, before, size, none, expect, w, h);
  g_free(before);
  g_free(none);
  gst_buffer_unref(buf);
  expect_stream_error(t.bus, expect, expect);
  dbk_free(&t);
}

GST_START_TEST(test_bad_meta) {
  const int w = 64, h = 48;
  PostCfg cfg = {"intra", 30, 0, 0, 0, 2, 0};
  for (guint fi = 0; fi < G_N_ELEMENTS(formats); fi++) {
    GstVideoFormat f = formats[fi];
    MbGrid g = post_grid(w, h, &cfg);
    gsize n = grid_entries(&g);
    g.mbs[7].qp = 52;
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w, h, &g, n, 1, "qp 52 > 51");
    g.mbs[7].qp = 30;
    g.mbs[8].bs[1][2][1] = 5;
    run_bad_meta(f, w, h, LAYOUT_PADDED, w, h, &g, n, 1, "bS 5 > 4");
    g.mbs[8].bs[1][2][1] = 3;
    g.mbs[11].slice = 1;
    run_bad_meta(f, w, h, LAYOUT_TIGHT, w, h, &g, n, 1, "slice 1 >= n_slices 1");
    g.mbs[11].slice = 0;
    g.slices[0].disable_deblocking_filter_idc = 3;
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w, h, &g, n, 1, "disable_deblocking_filter_idc 3");
    g.slices[0].disable_deblocking_filter_idc = 0;
    g.slices[0].filter_offset_a = 3;
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w, h, &g, n, 1, "filter offsets A 3");
    g.slices[0].filter_offset_a = 0;
    g.slices[0].second_chroma_qp_index_offset = 13;
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w, h, &g, n, 1, "second_chroma_qp_index_offset 13");
    g.slices[0].second_chroma_qp_index_offset = 0;
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w, h, &g, n - 1, 1, "does not cover a 64x48 picture");
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w, h, &g, n, 0, "0 slices");
    run_bad_meta(f, w, h, LAYOUT_DEFAULT, w - 1, h, &g, n, 1, "does not cover the 64x48 frame");
    g_free(g.mbs);
    /* A coded size past the frame in buffers without that room. */
    MbGrid big = post_grid(80, 64, &cfg);
    run_bad_meta(f, 70, 50, LAYOUT_TIGHT, 80, 64, &big, grid_entries(&big), 1, "do not hold");
    run_bad_meta(f, 70, 50, LAYOUT_DEFAULT, 80, 64, &big, grid_entries(&big), 1, "do not hold");
    g_free(big.mbs);
  }
}
GST_END_TEST;

GST_START_TEST(test_properties) {
  GstElement *e = gst_element_factory_make("v3dh264deblock", NULL);
  fail_unless(e != NULL);
  GObjectClass *k = G_OBJECT_GET_CLASS(e);
  static const struct {
    const char *name;
    int min, max, def;
  } ints[] = {{"qp", 0, 51, 32},           {"chroma-qp-offset", -12, 12, 0},
              {"alpha-offset", -12, 12, 0}, {"beta-offset", -12, 12, 0},
              {"bs", 0, 4, 2}};
  for (guint i = 0; i < G_N_ELEMENTS(ints); i++) {
    GParamSpec *ps = g_object_class_find_property(k, ints[i].name);
    fail_unless(ps != NULL && G_IS_PARAM_SPEC_INT(ps), "no int property %s", ints[i].name);
    GParamSpecInt *pi = G_PARAM_SPEC_INT(ps);
    fail_unless(pi->minimum == ints[i].min && pi->maximum == ints[i].max &&
                    pi->default_value == ints[i].def,
                "%s: range %d..%d default %d", ints[i].name, pi->minimum, pi->maximum,
                pi->default_value);
    fail_unless(ps->flags & GST_PARAM_MUTABLE_PLAYING, "%s not mutable while playing",
                ints[i].name);
  }
  GParamSpec *mode = g_object_class_find_property(k, "mode");
  fail_unless(mode && G_IS_PARAM_SPEC_ENUM(mode));
  GEnumClass *ec = G_PARAM_SPEC_ENUM(mode)->enum_class;
  fail_unless(g_enum_get_value_by_nick(ec, "intra") != NULL);
  fail_unless(g_enum_get_value_by_nick(ec, "inter") != NULL);
  fail_unless_equals_int(ec->n_values, 2);
  fail_unless_equals_int(G_PARAM_SPEC_ENUM(mode)->default_value,
                         g_enum_get_value_by_nick(ec, "intra")->value);
  GParamSpec *t8 = g_object_class_find_property(k, "transform-8x8");
  fail_unless(t8 && G_IS_PARAM_SPEC_BOOLEAN(t8) && !G_PARAM_SPEC_BOOLEAN(t8)->default_value);
  GParamSpec *backend = g_object_class_find_property(k, "backend");
  fail_unless(backend && G_IS_PARAM_SPEC_ENUM(backend));
  static const char *backends[] = {"auto", "cpu", "gpu", "hybrid", "scalar"};
  for (guint i = 0; i < G_N_ELEMENTS(backends); i++)
    fail_unless(g_enum_get_value_by_nick(G_PARAM_SPEC_ENUM(backend)->enum_class, backends[i]));
  fail_unless(g_object_class_find_property(k, "cpu-threads") != NULL);
  GParamSpec *stats = g_object_class_find_property(k, "stats");
  fail_unless(stats && !(stats->flags & G_PARAM_WRITABLE));

  /* Even offsets are taken; odd ones refused with a warning, the value stays. */
  gint a = 0, b = 0;
  g_object_set(e, "alpha-offset", -12, "beta-offset", 12, NULL);
  g_object_get(e, "alpha-offset", &a, "beta-offset", &b, NULL);
  fail_unless(a == -12 && b == 12);
  ASSERT_WARNING(g_object_set(e, "alpha-offset", 3, NULL));
  ASSERT_WARNING(g_object_set(e, "beta-offset", -7, NULL));
  g_object_get(e, "alpha-offset", &a, "beta-offset", &b, NULL);
  fail_unless(a == -12 && b == 12, "odd offsets taken: %d %d", a, b);
  gst_object_unref(e);
}
GST_END_TEST;

static Suite *v3dh264deblock_suite(void) {
  Suite *s = suite_create("v3dh264deblock");
  TCase *tc = suite_general_tcase(s);
  tcase_add_test(tc, test_meta_copy);
  tcase_add_test(tc, test_negotiation);
  tcase_add_test(tc, test_properties);
  tcase_add_test(tc, test_scalar);
  tcase_add_test(tc, test_cpu);
  tcase_add_test(tc, test_auto);
  tcase_add_test(tc, test_gpu_hybrid);
  tcase_add_test(tc, test_random_settings);
  tcase_add_test(tc, test_nv12_equals_i420);
  tcase_add_test(tc, test_nv12_frames_in_flight);
  tcase_add_test(tc, test_settings_while_playing);
  tcase_add_test(tc, test_bad_meta);
  return s;
}

GST_CHECK_MAIN(v3dh264deblock);
