/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstHarness tests of the v3d plugin: v3dvp9idct (negotiation, pass-through, every backend
 * bit-exact against v3d_vp9_itxfm_add_ref applied per block by this test, odd sizes, padded
 * strides, the shared-memory pool, refusal of invalid metas, context sharing) and
 * v3dvp9residualsrc (validity, determinism).
 *
 * Run from Meson with GST_PLUGIN_PATH = the build's gst/ and GST_REGISTRY = a private file.
 * Random inputs come from V3D_TEST_SEED (default fixed), printed at start and in every failure.
 * The GPU cases need a Vulkan device (lavapipe counts); without one they are skipped with a
 * note, unless V3D_REQUIRE_GPU=1 (CI), which makes them fail.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <v3d/v3d.h>

#include <gst/v3d/v3dvp9meta.h>

static guint64 g_seed = 0x5EED2026u;

#include "gst_test_common.h"

/* ----------------------------------------------------------------------------------------- */
/* Random numbers (xorshift64*)                                                               */
/* ----------------------------------------------------------------------------------------- */


/* ----------------------------------------------------------------------------------------- */
/* Residual metas made by the test (independent of v3dvp9residualsrc)                         */
/* ----------------------------------------------------------------------------------------- */

typedef struct {
  GArray *blocks; /* V3dVp9TxBlock */
  GArray *coeffs; /* gint16 */
} Residual;

static void residual_clear(Residual *r) {
  g_array_unref(r->blocks);
  g_array_unref(r->coeffs);
}

static gboolean valid_pair(int size, int type) {
  if (type == 4) return size == 0;
  if (size == 3) return type == 0;
  return type >= 0 && type < 4;
}

/* n x n coefficients: mostly a few low-frequency ones up to 1500 (what a VP9 encoder makes),
 * sometimes dense small values everywhere, sometimes DC only. */
static guint32 make_coeffs(Rng *r, gint16 *c, int n) {
  memset(c, 0, sizeof(gint16) * n * n);
  switch (rng_below(r, 4)) {
    case 0: /* DC only */
      c[0] = (gint16)rng_range(r, -1500, 1500);
      return 1;
    case 1: /* dense, small */
      for (int i = 0; i < n * n; i++) c[i] = (gint16)rng_range(r, -60, 60);
      return n * n;
    default: { /* low-frequency corner */
      int k = n < 8 ? n : 8;
      for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
          if (rng_below(r, 1 + i + j) == 0) {
            int lim = 1500 / (1 + i + j);
            c[i * n + j] = (gint16)rng_range(r, -lim, lim);
          }
      return n * n;
    }
  }
}

static void split(Rng *r, Residual *res, int plane, int x, int y, int size, int pw, int ph) {
  if (x >= pw || y >= ph) return;
  if (size > 32 || (size > 4 && rng_below(r, 2))) {
    int h = size / 2;
    split(r, res, plane, x, y, h, pw, ph);
    split(r, res, plane, x + h, y, h, pw, ph);
    split(r, res, plane, x, y + h, h, pw, ph);
    split(r, res, plane, x + h, y + h, h, pw, ph);
    return;
  }
  if (rng_below(r, 10) < 2) return; /* uncoded */
  V3dVp9TxBlock b;
  memset(&b, 0, sizeof(b));
  b.x = (guint16)x;
  b.y = (guint16)y;
  b.plane = (guint8)plane;
  b.tx_size = (guint8)(size == 4 ? 0 : size == 8 ? 1 : size == 16 ? 2 : 3);
  do b.tx_type = (guint8)rng_below(r, 5);
  while (!valid_pair(b.tx_size, b.tx_type));
  /* A gap before some blocks' coefficients: offsets need not be packed. */
  guint gap = rng_below(r, 8) == 0 ? rng_below(r, 50) : 0;
  g_array_set_size(res->coeffs, res->coeffs->len + gap);
  b.coeff_offset = res->coeffs->len;
  g_array_set_size(res->coeffs, res->coeffs->len + size * size);
  b.eob = make_coeffs(r, &g_array_index(res->coeffs, gint16, b.coeff_offset), size);
  /* eob 0: validated but not applied, even with non-zero coefficients. */
  if (rng_below(r, 16) == 0) b.eob = 0;
  g_array_append_val(res->blocks, b);
}

/* Random valid blocks over a w x h frame (planes rounded up to 8x8 luma), in random order. */
static Residual make_residual(guint64 seed, int w, int h) {
  Residual res;
  Rng r;
  rng_init(&r, seed);
  res.blocks = g_array_new(FALSE, TRUE, sizeof(V3dVp9TxBlock));
  res.coeffs = g_array_new(FALSE, TRUE, sizeof(gint16));
  int pw = (w + 7) / 8 * 8, ph = (h + 7) / 8 * 8;
  for (int p = 0; p < 3; p++) {
    int top = p ? 32 : 64, ppw = p ? pw / 2 : pw, pph = p ? ph / 2 : ph;
    for (int y = 0; y < pph; y += top)
      for (int x = 0; x < ppw; x += top) split(&r, &res, p, x, y, top, ppw, pph);
  }
  for (guint i = res.blocks->len; i > 1; i--) { /* Fisher-Yates */
    guint j = rng_below(&r, i);
    V3dVp9TxBlock t = g_array_index(res.blocks, V3dVp9TxBlock, i - 1);
    g_array_index(res.blocks, V3dVp9TxBlock, i - 1) = g_array_index(res.blocks, V3dVp9TxBlock, j);
    g_array_index(res.blocks, V3dVp9TxBlock, j) = t;
  }
  return res;
}

/* ----------------------------------------------------------------------------------------- */
/* Frames                                                                                     */
/* ----------------------------------------------------------------------------------------- */

/* Fills the visible planes of buf (any layout, via GstVideoFrame) with random pixels. */
static void fill_frame(Rng *r, GstBuffer *buf, int w, int h) {
  GstVideoInfo info;
  GstVideoFrame f;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, w, h);
  fail_unless(gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE));
  for (int p = 0; p < 3; p++) {
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA(&f, p);
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, p); y++)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&f, p); x++)
        d[y * GST_VIDEO_FRAME_PLANE_STRIDE(&f, p) + x] = (guint8)(rng_next(r) >> 56);
  }
  gst_video_frame_unmap(&f);
}


/* The test's own reference: every block with eob > 0 through v3d_vp9_itxfm_add_ref, on a copy of
 * each plane with 32 spare columns and rows (so blocks reaching past the plane need no clipping:
 * each output pixel depends only on its own input pixel and the coefficients). */
static void apply_reference(Planes *pl, const V3dVp9TxBlock *blocks, gsize n_blocks,
                            const gint16 *coeffs) {
  for (int p = 0; p < 3; p++) {
    int stride = pl->pw[p] + 8 + 32, rows = pl->ph[p] + 8 + 32;
    guint8 *tmp = g_malloc0((gsize)stride * rows);
    for (int y = 0; y < pl->ph[p]; y++)
      memcpy(tmp + y * stride, pl->plane[p] + y * pl->pw[p], pl->pw[p]);
    for (gsize i = 0; i < n_blocks; i++) {
      const V3dVp9TxBlock *b = &blocks[i];
      if (b->plane != p || b->eob == 0) continue;
      v3d_vp9_itxfm_add_ref(tmp + b->y * stride + b->x, stride, coeffs + b->coeff_offset,
                            b->tx_size, b->tx_type, (int)b->eob);
    }
    for (int y = 0; y < pl->ph[p]; y++)
      memcpy(pl->plane[p] + y * pl->pw[p], tmp + y * stride, pl->pw[p]);
    g_free(tmp);
  }
}


/* ----------------------------------------------------------------------------------------- */
/* Element helpers                                                                            */
/* ----------------------------------------------------------------------------------------- */

typedef TestElement Idct;
static Idct idct_new(const char *props) { return test_element_new("v3dvp9idct", props); }
static void idct_free(Idct *t) { test_element_free(t); }


static gchar *stats_string(GstElement *e, const char *field) {
  GstStructure *s = NULL;
  g_object_get(e, "stats", &s, NULL);
  fail_unless(s != NULL);
  gchar *v = g_strdup(gst_structure_get_string(s, field));
  gst_structure_free(s);
  return v;
}


/* Pushes buf (with a meta from `res`) and checks the output against the reference, and that no
 * byte outside the planes' processed areas changed. */
static void push_and_check(Idct *t, GstBuffer *buf, const Residual *res, int w, int h,
                           const char *what) {
  guint8 *mask = writable_mask(buf, w, h);
  gsize size;
  guint8 *before = buffer_bytes(buf, &size);
  Planes expected = read_planes(buf, w, h);
  apply_reference(&expected, (const V3dVp9TxBlock *)res->blocks->data, res->blocks->len,
                  (const gint16 *)res->coeffs->data);
  gst_buffer_add_v3d_vp9_residual_meta(buf, (const V3dVp9TxBlock *)res->blocks->data,
                                       res->blocks->len, (const gint16 *)res->coeffs->data,
                                       res->coeffs->len);
  fail_unless_equals_int(gst_harness_push(t->h, buf), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(t->h);
  fail_unless(out != NULL);
  fail_unless(gst_buffer_get_v3d_vp9_residual_meta(out) == NULL, "meta not removed");
  Planes got = read_planes(out, w, h);
  planes_equal(&got, &expected, what);
  planes_clear(&got);
  planes_clear(&expected);
  check_unmasked_bytes(out, before, size, mask, what, w, h);
  g_free(before);
  g_free(mask);
  gst_buffer_unref(out);
}

/* ----------------------------------------------------------------------------------------- */
/* Tests                                                                                      */
/* ----------------------------------------------------------------------------------------- */

GST_START_TEST(test_negotiation) {
  Idct t = idct_new("backend=cpu");
  GstPad *sink = gst_element_get_static_pad(t.element, "sink");
  GstCaps *i420 = i420_caps(250, 130);
  GstCaps *nv12 = gst_caps_from_string("video/x-raw,format=NV12,width=64,height=64");
  GstCaps *rgb = gst_caps_from_string("video/x-raw,format=RGBA,width=64,height=64");
  fail_unless(gst_pad_query_accept_caps(sink, i420));
  fail_if(gst_pad_query_accept_caps(sink, nv12));
  fail_if(gst_pad_query_accept_caps(sink, rgb));
  gst_caps_unref(i420);
  gst_caps_unref(rgb);
  gst_object_unref(sink);
  /* Pushing with refused caps fails negotiation. */
  gst_harness_set_src_caps(t.h, nv12);
  fail_unless_equals_int(gst_harness_push(t.h, gst_buffer_new_allocate(NULL, 64 * 64 * 3 / 2,
                                                                        NULL)),
                         GST_FLOW_NOT_NEGOTIATED);
  idct_free(&t);
}
GST_END_TEST;

GST_START_TEST(test_passthrough_without_meta) {
  Idct t = idct_new("backend=cpu");
  Rng r;
  rng_init(&r, g_seed);
  gst_harness_set_src_caps(t.h, i420_caps(33, 17));
  for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
    GstBuffer *in = make_frame(&r, 33, 17, layout);
    GstMapInfo a, b;
    gst_buffer_map(in, &a, GST_MAP_READ);
    guint8 *copy = g_memdup2(a.data, a.size);
    gsize size = a.size;
    gst_buffer_unmap(in, &a);
    fail_unless_equals_int(gst_harness_push(t.h, in), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(t.h);
    gst_buffer_map(out, &b, GST_MAP_READ);
    fail_unless(b.size == size && memcmp(b.data, copy, size) == 0,
                "buffer without meta modified (layout %s)", layout_name[layout]);
    gst_buffer_unmap(out, &b);
    gst_buffer_unref(out);
    g_free(copy);
  }
  fail_unless_equals_int((int)stats_u64(t.element, "frames-without-meta"), LAYOUT_COUNT);
  fail_unless_equals_int((int)stats_u64(t.element, "frames"), 0);
  idct_free(&t);
}
GST_END_TEST;

static const int sizes[][2] = {{64, 64}, {250, 130}, {33, 17}, {1, 1}, {8, 24}, {2, 130},
                               {320, 240}};

static void run_backend(const char *props, const char *expect_backend) {
  Idct t = idct_new(props);
  Rng r;
  rng_init(&r, g_seed ^ g_str_hash(props));
  guint frames = 0, blocks = 0;
  for (gsize s = 0; s < G_N_ELEMENTS(sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1];
    gst_harness_set_src_caps(t.h, i420_caps(w, h));
    for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
      Residual res = make_residual(rng_next(&r), w, h);
      gchar *what = g_strdup_printf("%s, layout %s", props, layout_name[layout]);
      push_and_check(&t, make_frame(&r, w, h, layout), &res, w, h, what);
      g_free(what);
      frames++;
      blocks += res.blocks->len;
      residual_clear(&res);
    }
  }
  fail_unless_equals_int((int)stats_u64(t.element, "frames"), frames);
  fail_unless_equals_int((int)stats_u64(t.element, "blocks"), blocks);
  fail_unless(stats_u64(t.element, "padded-copies") > 0, "the tight layouts need a padded copy");
  gchar *used = stats_string(t.element, "backend");
  fail_unless(g_strcmp0(used, expect_backend) == 0, "%s: backend %s, expected %s", props, used,
              expect_backend);
  g_free(used);
  /* Where the pool's memory comes from: the GPU's only with a GPU (and then as the library says
   * for this context: plain where the CPU does not cache the GPU's memory). */
  gchar *mem = stats_string(t.element, "shared-memory");
  const gboolean on_gpu = g_strcmp0(expect_backend, "gpu") == 0 || g_strcmp0(expect_backend, "hybrid") == 0;
  fail_unless(g_strcmp0(mem, "gpu") == 0 || g_strcmp0(mem, "plain") == 0, "%s: shared-memory '%s'",
              props, mem ? mem : "(none)");
  if (!on_gpu)
    fail_unless(g_strcmp0(mem, "plain") == 0, "%s: shared-memory %s without a GPU", props, mem);
  g_free(mem);
  idct_free(&t);
}

GST_START_TEST(test_backend_scalar) { run_backend("backend=scalar", "scalar"); }
GST_END_TEST;

GST_START_TEST(test_backend_cpu) {
  run_backend("backend=cpu", "simd");
  run_backend("backend=cpu cpu-threads=3", "simd");
}
GST_END_TEST;

GST_START_TEST(test_backend_gpu) {
  if (want_gpu()) run_backend("backend=gpu", "gpu");
}
GST_END_TEST;

GST_START_TEST(test_backend_hybrid) {
  gboolean gpu = gpu_available();
  run_backend("backend=hybrid", gpu ? "hybrid" : "simd");
  if (!want_gpu()) return;
  /* A fixed half split: both sides must have worked, and the result is still exact. */
  run_backend("backend=hybrid gpu-share=0.5", "hybrid");
  Idct t = idct_new("backend=hybrid gpu-share=0.5");
  Rng r;
  rng_init(&r, g_seed + 7);
  gst_harness_set_src_caps(t.h, i420_caps(640, 360));
  for (int i = 0; i < 3; i++) {
    Residual res = make_residual(rng_next(&r), 640, 360);
    push_and_check(&t, make_frame(&r, 640, 360, LAYOUT_PADDED), &res, 640, 360, "hybrid 0.5");
    residual_clear(&res);
  }
  fail_unless(stats_u64(t.element, "blocks-cpu") > 0, "hybrid 0.5: no CPU blocks");
  fail_unless(stats_u64(t.element, "blocks-gpu") > 0, "hybrid 0.5: no GPU blocks");
  idct_free(&t);
}
GST_END_TEST;

/* Frames in flight with frames a batch cannot take whole: without a meta (left as they are) and
 * without the 8x8 room (tight layout, odd size: the padded copy) they go one by one, the others
 * in one library call. Each output equals the reference, and the MD5 (checksum=true) equals the
 * one of the same frames processed one at a time: the digest follows the stream order. */
#define MIXED_FRAMES 8
static gchar *run_mixed_batch(const char *props, guint64 *batches) {
  const int w = 250, h = 130;
  Idct t = idct_new(props);
  gst_harness_set_src_caps(t.h, i420_caps(w, h));
  Planes expected[MIXED_FRAMES];
  for (int i = 0; i < MIXED_FRAMES; i++) {
    Rng r;
    rng_init(&r, g_seed + 100 + i);
    GstBuffer *buf = make_frame(&r, w, h, i % 3 == 2 ? LAYOUT_TIGHT : LAYOUT_PADDED);
    expected[i] = read_planes(buf, w, h);
    if (i % 4 != 1) {
      Residual res = make_residual(rng_next(&r), w, h);
      apply_reference(&expected[i], (const V3dVp9TxBlock *)res.blocks->data, res.blocks->len,
                      (const gint16 *)res.coeffs->data);
      gst_buffer_add_v3d_vp9_residual_meta(buf, (const V3dVp9TxBlock *)res.blocks->data,
                                           res.blocks->len, (const gint16 *)res.coeffs->data,
                                           res.coeffs->len);
      residual_clear(&res);
    }
    fail_unless_equals_int(gst_harness_push(t.h, buf), GST_FLOW_OK);
  }
  fail_unless(gst_harness_push_event(t.h, gst_event_new_eos()));
  for (int i = 0; i < MIXED_FRAMES; i++) {
    GstBuffer *out = gst_harness_pull(t.h);
    fail_unless(out != NULL, "%s: frame %d missing (seed 0x%" G_GINT64_MODIFIER "x)", props, i,
                g_seed);
    Planes got = read_planes(out, w, h);
    gchar *what = g_strdup_printf("%s, frame %d (seed 0x%" G_GINT64_MODIFIER "x)", props, i,
                                  g_seed);
    planes_equal(&got, &expected[i], what);
    g_free(what);
    planes_clear(&got);
    planes_clear(&expected[i]);
    gst_buffer_unref(out);
  }
  if (batches) *batches = stats_u64(t.element, "frames-in-flight-batches");
  gchar *sum = stats_string(t.element, "checksum");
  fail_unless(sum != NULL, "%s: no checksum", props);
  idct_free(&t);
  return sum;
}

GST_START_TEST(test_frames_in_flight_mixed) {
  if (!want_gpu()) return;
  gchar *want = run_mixed_batch("backend=scalar checksum=true", NULL);
  guint64 batches = 0;
  gchar *got = run_mixed_batch("backend=hybrid max-frames-in-flight=4 checksum=true", &batches);
  fail_unless_equals_uint64(batches, 2);
  fail_unless_equals_string(got, want);
  g_free(want);
  g_free(got);
}
GST_END_TEST;

/* Upstream gets the v3d pool through the ALLOCATION query; frames in it need no copies. */
static void run_pool(const char *props, gboolean gpu) {
  Idct t = idct_new(props);
  Rng r;
  rng_init(&r, g_seed + 11);
  const int w = 250, h = 130;
  GstCaps *caps = i420_caps(w, h);
  gst_harness_set_src_caps(t.h, gst_caps_ref(caps));
  GstQuery *q = gst_query_new_allocation(caps, TRUE);
  fail_unless(gst_pad_peer_query(t.h->srcpad, q), "ALLOCATION query not answered");
  fail_unless(gst_query_get_n_allocation_pools(q) >= 1, "no pool proposed");
  fail_unless(gst_query_find_allocation_meta(q, GST_VIDEO_META_API_TYPE, NULL));
  fail_unless(gst_query_find_allocation_meta(q, GST_V3D_VP9_RESIDUAL_META_API_TYPE, NULL));
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gst_query_parse_nth_allocation_pool(q, 0, &pool, &size, &min, &max);
  fail_unless(pool != NULL);
  fail_unless(strcmp(G_OBJECT_TYPE_NAME(pool), "GstV3dBufferPool") == 0, "pool is a %s",
              G_OBJECT_TYPE_NAME(pool));
  fail_unless(gst_query_get_n_allocation_params(q) >= 1);
  GstAllocator *alloc = NULL;
  gst_query_parse_nth_allocation_param(q, 0, &alloc, NULL);
  fail_unless(alloc != NULL && g_strcmp0(alloc->mem_type, "V3dSharedMemory") == 0);
  gst_object_unref(alloc);

  /* Upstream supports GstVideoMeta: the pool pads the planes to whole 8x8 luma blocks. */
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, min, max);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(pool, config)) {
    config = gst_buffer_pool_get_config(pool);
    fail_unless(gst_buffer_pool_set_config(pool, config));
  }
  fail_unless(gst_buffer_pool_set_active(pool, TRUE));
  for (int i = 0; i < 4; i++) {
    GstBuffer *buf = NULL;
    fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &buf, NULL), GST_FLOW_OK);
    fail_unless(g_strcmp0(gst_buffer_peek_memory(buf, 0)->allocator->mem_type,
                          "V3dSharedMemory") == 0);
    GstVideoMeta *vm = gst_buffer_get_video_meta(buf);
    fail_unless(vm != NULL);
    fail_unless(vm->stride[0] >= 256 && vm->stride[1] >= 128, "strides %d %d", vm->stride[0],
                vm->stride[1]);
    fill_frame(&r, buf, w, h);
    Residual res = make_residual(rng_next(&r), w, h);
    push_and_check(&t, buf, &res, w, h, props);
    residual_clear(&res);
  }
  fail_unless_equals_int((int)stats_u64(t.element, "padded-copies"), 0);
  if (gpu) {
    fail_unless_equals_int((int)stats_u64(t.element, "copies"), 0);
    /* A frame in ordinary memory is copied for the GPU, and counted. */
    Residual res = make_residual(rng_next(&r), w, h);
    push_and_check(&t, make_frame(&r, w, h, LAYOUT_PADDED), &res, w, h, "system memory");
    residual_clear(&res);
    fail_unless(stats_u64(t.element, "copies") > 0, "copy to GPU memory not counted");
  }
  gst_buffer_pool_set_active(pool, FALSE);
  gst_object_unref(pool);
  gst_query_unref(q);
  gst_caps_unref(caps);
  idct_free(&t);
}

GST_START_TEST(test_pool) {
  run_pool("backend=cpu", FALSE);
  if (want_gpu()) run_pool("backend=gpu", TRUE);
}
GST_END_TEST;

/* An invalid meta: GST_FLOW_ERROR and an error message naming the problem, no crash. */
static void run_bad_meta(const V3dVp9TxBlock *blocks, gsize n_blocks, gsize n_coeffs,
                         int expected_code, const char *what) {
  Idct t = idct_new("backend=cpu");
  Rng r;
  rng_init(&r, g_seed);
  gst_harness_set_src_caps(t.h, i420_caps(64, 64));
  GstBuffer *buf = make_frame(&r, 64, 64, LAYOUT_DEFAULT);
  gint16 *coeffs = g_new0(gint16, MAX(n_coeffs, 1));
  for (gsize i = 0; i < n_coeffs; i++) coeffs[i] = (gint16)rng_range(&r, -100, 100);
  gst_buffer_add_v3d_vp9_residual_meta(buf, blocks, n_blocks, coeffs, n_coeffs);
  g_free(coeffs);
  fail_unless(v3d_vp9_itxfm_validate(64, 64, blocks, n_blocks, n_coeffs) == expected_code,
              "%s: the library does not see error %d", what, expected_code);
  fail_unless_equals_int(gst_harness_push(t.h, buf), GST_FLOW_ERROR);
  fail_unless_equals_int(gst_harness_buffers_received(t.h), 0);
  expect_stream_error(t.bus, v3d_error_name(expected_code), what);
  idct_free(&t);
}

static V3dVp9TxBlock blk(int plane, int x, int y, int size, int type, int eob, int off) {
  V3dVp9TxBlock b;
  memset(&b, 0, sizeof(b));
  b.plane = (guint8)plane;
  b.x = (guint16)x;
  b.y = (guint16)y;
  b.tx_size = (guint8)size;
  b.tx_type = (guint8)type;
  b.eob = (guint32)eob;
  b.coeff_offset = (guint32)off;
  return b;
}

GST_START_TEST(test_bad_meta) {
  V3dVp9TxBlock overlap[2] = {blk(0, 0, 0, 1, 0, 64, 0), blk(0, 4, 4, 0, 0, 16, 64)};
  run_bad_meta(overlap, 2, 80, V3D_ERROR_BLOCK_OVERLAP, "overlap");
  V3dVp9TxBlock outside[1] = {blk(0, 64, 0, 0, 0, 16, 0)};
  run_bad_meta(outside, 1, 16, V3D_ERROR_BLOCK_OUTSIDE, "outside (luma)");
  V3dVp9TxBlock outside_c[1] = {blk(2, 0, 32, 0, 0, 16, 0)};
  run_bad_meta(outside_c, 1, 16, V3D_ERROR_BLOCK_OUTSIDE, "outside (chroma)");
  V3dVp9TxBlock pair32[1] = {blk(0, 0, 0, 3, 1, 1024, 0)};
  run_bad_meta(pair32, 1, 1024, V3D_ERROR_BAD_TRANSFORM, "32x32 ADST");
  V3dVp9TxBlock wht8[1] = {blk(1, 0, 0, 1, 4, 64, 0)};
  run_bad_meta(wht8, 1, 64, V3D_ERROR_BAD_TRANSFORM, "8x8 WHT");
  V3dVp9TxBlock short_c[2] = {blk(0, 0, 0, 2, 0, 256, 0), blk(1, 0, 0, 2, 0, 256, 256)};
  run_bad_meta(short_c, 2, 511, V3D_ERROR_COEFFS_OUT_OF_RANGE, "short coefficients");
  V3dVp9TxBlock plane3[1] = {blk(3, 0, 0, 0, 0, 16, 0)};
  run_bad_meta(plane3, 1, 16, V3D_ERROR_BAD_PLANE, "plane 3");
  V3dVp9TxBlock eob[1] = {blk(0, 0, 0, 0, 0, 17, 0)};
  run_bad_meta(eob, 1, 16, V3D_ERROR_BAD_EOB, "eob 17 for 4x4");
}
GST_END_TEST;

static void expect_ready_failure(GstElement *e, GstBus *bus, const char *what) {
  fail_unless_equals_int(gst_element_set_state(e, GST_STATE_READY), GST_STATE_CHANGE_FAILURE);
  GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(msg != NULL, "%s: no error message", what);
  GError *err = NULL;
  gst_message_parse_error(msg, &err, NULL);
  fail_unless(strstr(err->message, "gpu") != NULL, "%s: message: %s", what, err->message);
  printf("%s -> %s\n", what, err->message);
  g_error_free(err);
  gst_message_unref(msg);
  gst_element_set_state(e, GST_STATE_NULL);
}

GST_START_TEST(test_gpu_unavailable) {
  GstElement *e = gst_element_factory_make("v3dvp9idct", NULL);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(e, bus);
  /* A device that does not exist: backend=gpu fails at NULL->READY with a clear message. */
  g_object_set(e, "backend", 3 /* gpu */, "gpu-device", "no-such-gpu-xyz", NULL);
  expect_ready_failure(e, bus, "gpu-device=no-such-gpu-xyz");

  /* No Vulkan driver at all (this test runs in its own process in check's fork mode; the
   * variables are restored at the end for CK_FORK=no runs). */
  gchar *old_icd = g_strdup(g_getenv("VK_ICD_FILENAMES"));
  gchar *old_drv = g_strdup(g_getenv("VK_DRIVER_FILES"));
  g_setenv("VK_ICD_FILENAMES", "/nonexistent/icd.json", TRUE);
  g_setenv("VK_DRIVER_FILES", "/nonexistent/icd.json", TRUE);
  g_object_set(e, "gpu-device", NULL, NULL);
  expect_ready_failure(e, bus, "backend=gpu without Vulkan");

  /* hybrid without a GPU: one warning, CPU. */
  g_object_set(e, "backend", 4 /* hybrid */, NULL);
  fail_unless_equals_int(gst_element_set_state(e, GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  gchar *used = stats_string(e, "backend");
  fail_unless(g_strcmp0(used, "simd") == 0, "hybrid without GPU runs %s", used);
  g_free(used);
  GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING);
  fail_unless(msg != NULL, "no warning for hybrid without GPU");
  gst_message_unref(msg);
  fail_unless(gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING) == NULL, "more than one warning");
  gst_element_set_state(e, GST_STATE_NULL);
  gst_element_set_bus(e, NULL);
  gst_object_unref(bus);
  gst_object_unref(e);
  if (old_icd) g_setenv("VK_ICD_FILENAMES", old_icd, TRUE);
  else g_unsetenv("VK_ICD_FILENAMES");
  if (old_drv) g_setenv("VK_DRIVER_FILES", old_drv, TRUE);
  else g_unsetenv("VK_DRIVER_FILES");
  g_free(old_icd);
  g_free(old_drv);
}
GST_END_TEST;

/* ----------------------------------------------------------------------------------------- */
/* The source                                                                                 */
/* ----------------------------------------------------------------------------------------- */

static GstHarness *src_new(const char *props, int w, int h) {
  gchar *desc = g_strdup_printf("v3dvp9residualsrc %s", props);
  GstElement *e = gst_parse_launch(desc, NULL);
  fail_unless(e != NULL, "could not make %s", desc);
  g_free(desc);
  GstHarness *hs = gst_harness_new_with_element(e, NULL, "src");
  gst_object_unref(e);
  gchar *caps = g_strdup_printf("video/x-raw,format=I420,width=%d,height=%d,framerate=30/1", w, h);
  gst_harness_set_sink_caps_str(hs, caps);
  g_free(caps);
  gst_harness_play(hs);
  return hs;
}

/* Pulls n buffers and returns a checksum of pixels + meta; checks each meta's validity. */
static guint32 src_digest(const char *props, int w, int h, int n, guint max_coef) {
  GstHarness *hs = src_new(props, w, h);
  guint32 hash = 2166136261u;
  for (int i = 0; i < n; i++) {
    GstBuffer *buf = gst_harness_pull(hs);
    fail_unless(buf != NULL);
    GstV3dVp9ResidualMeta *m = gst_buffer_get_v3d_vp9_residual_meta(buf);
    fail_unless(m != NULL, "source buffer without meta");
    int rc = v3d_vp9_itxfm_validate(w, h, m->blocks, m->n_blocks, m->n_coeffs);
    fail_unless(rc == 0, "%s %dx%d frame %d: invalid meta: %s", props, w, h, i, v3d_last_error());
    for (gsize c = 0; c < m->n_coeffs; c++)
      fail_unless(ABS(m->coeffs[c]) <= (int)max_coef, "coefficient %d > %u", m->coeffs[c],
                  max_coef);
    Planes pl = read_planes(buf, w, h);
    for (int p = 0; p < 3; p++)
      for (int k = 0; k < pl.pw[p] * pl.ph[p]; k++) hash = (hash ^ pl.plane[p][k]) * 16777619u;
    const guint8 *bb = (const guint8 *)m->blocks;
    for (gsize k = 0; k < m->n_blocks * sizeof(V3dVp9TxBlock); k++)
      hash = (hash ^ bb[k]) * 16777619u;
    const guint8 *cb = (const guint8 *)m->coeffs;
    for (gsize k = 0; k < m->n_coeffs * sizeof(gint16); k++) hash = (hash ^ cb[k]) * 16777619u;
    planes_clear(&pl);
    gst_buffer_unref(buf);
  }
  gst_harness_teardown(hs);
  return hash;
}

GST_START_TEST(test_source_determinism) {
  guint32 a = src_digest("seed=5", 250, 130, 3, 1000);
  guint32 b = src_digest("seed=5", 250, 130, 3, 1000);
  guint32 c = src_digest("seed=6", 250, 130, 3, 1000);
  fail_unless(a == b, "same seed, different streams");
  fail_unless(a != c, "different seeds, same stream");
  /* Every mode and odd sizes make valid metas. */
  const char *modes[] = {"tx-size=4x4", "tx-size=8x8 tx-types=dct", "tx-size=16x16",
                         "tx-size=32x32 density=1", "tx-types=all pattern=noise",
                         "density=0", "max-coefficient=50 density=1"};
  for (gsize i = 0; i < G_N_ELEMENTS(modes); i++) {
    src_digest(modes[i], 33, 17, 2, strstr(modes[i], "max-coefficient=50") ? 50 : 1000);
    src_digest(modes[i], 1, 1, 1, 1000);
  }
  src_digest("seed=1", 1920, 1088, 1, 1000);
}
GST_END_TEST;

GST_START_TEST(test_source_modes) {
  GstHarness *hs = src_new("tx-size=8x8 tx-types=dct density=1", 64, 48);
  GstBuffer *buf = gst_harness_pull(hs);
  GstV3dVp9ResidualMeta *m = gst_buffer_get_v3d_vp9_residual_meta(buf);
  /* density 1: every 8x8 block of every plane coded: 64*48/64 + 2 * 32*24/64 blocks. */
  fail_unless_equals_int((int)m->n_blocks, 48 + 2 * 12);
  for (gsize i = 0; i < m->n_blocks; i++) {
    fail_unless_equals_int(m->blocks[i].tx_size, 1);
    fail_unless_equals_int(m->blocks[i].tx_type, 0);
  }
  gst_buffer_unref(buf);
  gst_harness_teardown(hs);
  hs = src_new("density=0", 64, 48);
  buf = gst_harness_pull(hs);
  fail_unless_equals_int((int)gst_buffer_get_v3d_vp9_residual_meta(buf)->n_blocks, 0);
  gst_buffer_unref(buf);
  gst_harness_teardown(hs);
}
GST_END_TEST;

/* ----------------------------------------------------------------------------------------- */
/* Pipelines: end to end through the pool, and context sharing                                */
/* ----------------------------------------------------------------------------------------- */

static GstPadProbeReturn collect(GstPad *pad G_GNUC_UNUSED, GstPadProbeInfo *info, gpointer user_data) {
  GPtrArray *out = user_data;
  g_ptr_array_add(out, gst_buffer_ref(GST_PAD_PROBE_INFO_BUFFER(info)));
  return GST_PAD_PROBE_OK;
}

/* Runs `launch` (ending in "fakesink name=sink") to EOS; collects the buffers reaching sink. */
static GPtrArray *run_pipeline(GstElement *pipeline) {
  GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)gst_buffer_unref);
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, collect, out, NULL);
  gst_object_unref(pad);
  gst_object_unref(sink);
  fail_if(gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND,
                                               GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless(msg != NULL, "pipeline timed out");
  if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gst_message_parse_error(msg, &err, NULL);
    fail("pipeline error: %s", err->message);
  }
  gst_message_unref(msg);
  gst_object_unref(bus);
  return out;
}

GST_START_TEST(test_pipeline_end_to_end) {
  const char *backends[] = {"cpu", "gpu", "hybrid"};
  for (gsize k = 0; k < G_N_ELEMENTS(backends); k++) {
    if (!strcmp(backends[k], "gpu") && !want_gpu()) continue;
    const int w = 250, h = 130, n = 3;
    gchar *desc = g_strdup_printf(
        "v3dvp9residualsrc num-buffers=%d seed=9 ! video/x-raw,width=%d,height=%d ! "
        "v3dvp9idct name=idct backend=%s checksum=true ! fakesink name=sink", n, w, h,
        backends[k]);
    GstElement *pipeline = gst_parse_launch(desc, NULL);
    fail_unless(pipeline != NULL);
    GPtrArray *out = run_pipeline(pipeline);
    fail_unless_equals_int((int)out->len, n);
    /* The same frames again from the source alone, through the reference. */
    GstHarness *hs = src_new("seed=9", w, h);
    GChecksum *sum = g_checksum_new(G_CHECKSUM_MD5);
    for (int i = 0; i < n; i++) {
      GstBuffer *ref = gst_harness_pull(hs);
      GstV3dVp9ResidualMeta *m = gst_buffer_get_v3d_vp9_residual_meta(ref);
      Planes expected = read_planes(ref, w, h);
      apply_reference(&expected, m->blocks, m->n_blocks, m->coeffs);
      Planes got = read_planes(g_ptr_array_index(out, i), w, h);
      planes_equal(&got, &expected, desc);
      for (int p = 0; p < 3; p++)
        g_checksum_update(sum, expected.plane[p], (gssize)expected.pw[p] * expected.ph[p]);
      planes_clear(&got);
      planes_clear(&expected);
      gst_buffer_unref(ref);
    }
    gst_harness_teardown(hs);
    GstElement *idct = gst_bin_get_by_name(GST_BIN(pipeline), "idct");
    fail_unless_equals_int((int)stats_u64(idct, "frames"), n);
    /* The source used the element's pool (with GstVideoMeta): no copy anywhere. */
    fail_unless_equals_int((int)stats_u64(idct, "padded-copies"), 0);
    fail_unless_equals_int((int)stats_u64(idct, "copies"), 0);
    /* The checksum property digests the visible pixels of the output frames. */
    gchar *digest = stats_string(idct, "checksum");
    fail_unless(g_strcmp0(digest, g_checksum_get_string(sum)) == 0, "%s: checksum %s, expected %s",
                desc, digest, g_checksum_get_string(sum));
    g_free(digest);
    g_checksum_free(sum);
    gst_object_unref(idct);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    g_ptr_array_unref(out);
    gst_object_unref(pipeline);
    g_free(desc);
  }
}
GST_END_TEST;

GST_START_TEST(test_context_sharing) {
  /* State changes run downstream first: c (scalar) creates and shares the pipeline's context;
   * b (cpu) ignores it and makes its own; a (cpu) finds b's through a query and shares it. */
  GstElement *pipeline = gst_parse_launch(
      "v3dvp9residualsrc num-buffers=3 ! video/x-raw,width=64,height=64 ! "
      "v3dvp9idct name=a backend=cpu ! v3dvp9idct name=b backend=cpu ! "
      "v3dvp9idct name=c backend=scalar ! fakesink name=sink", NULL);
  fail_unless(pipeline != NULL);
  GPtrArray *out = run_pipeline(pipeline);
  GstElement *a = gst_bin_get_by_name(GST_BIN(pipeline), "a");
  GstElement *b = gst_bin_get_by_name(GST_BIN(pipeline), "b");
  GstElement *c = gst_bin_get_by_name(GST_BIN(pipeline), "c");
  fail_unless_equals_int((int)stats_u64(a, "frames"), 3);
  fail_unless_equals_int((int)stats_u64(b, "frames"), 0);
  fail_unless_equals_int((int)stats_u64(b, "frames-without-meta"), 3);
  fail_unless_equals_int((int)stats_u64(b, "context-frames"), 3); /* a's frames: shared */
  fail_unless_equals_int((int)stats_u64(c, "context-frames"), 0); /* another context */
  gchar *cb = stats_string(c, "backend");
  fail_unless(g_strcmp0(cb, "scalar") == 0);
  g_free(cb);
  gst_object_unref(a);
  gst_object_unref(b);
  gst_object_unref(c);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  g_ptr_array_unref(out);
  gst_object_unref(pipeline);

  /* An application-supplied context is used by the pipeline's elements. */
  pipeline = gst_parse_launch(
      "v3dvp9residualsrc num-buffers=2 ! video/x-raw,width=64,height=64 ! "
      "v3dvp9idct name=a ! fakesink name=sink", NULL);
  GType boxed = g_type_from_name("V3dContext");
  fail_unless(boxed != 0, "boxed type V3dContext not registered by the plugin");
  V3dContext *ctx = v3d_context_new("scalar", 1);
  GstContext *gctx = gst_context_new("v3d.context", TRUE);
  gst_structure_set(gst_context_writable_structure(gctx), "context", boxed, ctx, NULL);
  gst_element_set_context(pipeline, gctx);
  gst_context_unref(gctx);
  out = run_pipeline(pipeline);
  V3dStats st;
  v3d_context_get_stats(ctx, &st);
  fail_unless_equals_int((int)st.frames, 2);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  g_ptr_array_unref(out);
  gst_object_unref(pipeline);
  v3d_context_free(ctx);
}
GST_END_TEST;

/* The meta survives buffer copies (sharing its arrays) and not partial copies. */
GST_START_TEST(test_meta_copy) {
  V3dVp9TxBlock b = blk(0, 0, 0, 0, 0, 16, 0);
  gint16 c[16] = {5};
  GstBuffer *buf = gst_buffer_new_allocate(NULL, 100, NULL);
  GstV3dVp9ResidualMeta *m = gst_buffer_add_v3d_vp9_residual_meta(buf, &b, 1, c, 16);
  fail_unless(m != NULL && m->n_blocks == 1 && m->n_coeffs == 16 && m->coeffs[0] == 5);
  GstBuffer *copy = gst_buffer_copy(buf);
  GstV3dVp9ResidualMeta *m2 = gst_buffer_get_v3d_vp9_residual_meta(copy);
  fail_unless(m2 != NULL && m2->blocks == m->blocks && m2->coeffs == m->coeffs);
  GstBuffer *part = gst_buffer_copy_region(buf, GST_BUFFER_COPY_ALL, 10, 20);
  fail_unless(gst_buffer_get_v3d_vp9_residual_meta(part) == NULL);
  gst_buffer_unref(part);
  gst_buffer_unref(copy);
  gst_buffer_unref(buf);
}
GST_END_TEST;

static Suite *v3dvp9idct_suite(void) {
  Suite *s = suite_create("v3dvp9idct");
  TCase *tc = suite_general_tcase(s);
  tcase_add_test(tc, test_meta_copy);
  tcase_add_test(tc, test_negotiation);
  tcase_add_test(tc, test_passthrough_without_meta);
  tcase_add_test(tc, test_backend_scalar);
  tcase_add_test(tc, test_backend_cpu);
  tcase_add_test(tc, test_backend_gpu);
  tcase_add_test(tc, test_backend_hybrid);
  tcase_add_test(tc, test_frames_in_flight_mixed);
  tcase_add_test(tc, test_pool);
  tcase_add_test(tc, test_bad_meta);
  tcase_add_test(tc, test_gpu_unavailable);
  tcase_add_test(tc, test_source_determinism);
  tcase_add_test(tc, test_source_modes);
  tcase_add_test(tc, test_pipeline_end_to_end);
  tcase_add_test(tc, test_context_sharing);
  return s;
}

GST_CHECK_MAIN(v3dvp9idct);
