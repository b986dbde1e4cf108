/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3dvp9dec's output paths against libvpx (streams made with vpxenc at test time,
 * tests/vp9dec_streams.h): with a sink that supports GstVideoMeta the decoder's pictures go out
 * without copies (stats frames-copied 0; read-only v3d shared memory with a GstVideoMeta),
 * every frame's MD5 equal to vpxdec's on scalar and cpu (gpu and hybrid where a Vulkan device
 * exists), across size changes; zero-copy=false and elements that ignore GstVideoMeta (y4menc)
 * get copies; buffers kept after the decoder, its context and the pipeline are gone still hold
 * their frames, and writing into a buffer downstream (a copy is made) leaves the decoder's
 * references intact. backend=hybrid starts on a CPU context while its device opens, then moves
 * to it, every frame exact. Also: gst-inspect-1.0 documents every property, the pads and the
 * rank.
 *
 * Run from Meson with GST_PLUGIN_PATH = the build's gst/ and GST_REGISTRY = a private file.
 * Exit 77 (skipped) when vpxenc or vpxdec is missing. V3D_TEST_KEEP=1 keeps the scratch folder.
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/v3d/v3dallocator.h>
#include <v3d/v3d.h>
#include <stdlib.h>

#include "gst_vp9dec_run.h"

/* Decodes stream through ivfparse on backend, zero-copy path (the sink supports GstVideoMeta)
 * and then with zero-copy=false: every frame equal to vpxdec's both ways, no copies the first
 * time, a copy per frame the second. */
static void check_both_paths(const gchar *stream, const gchar *backend) {
  GPtrArray *ref = vpxdec_md5s(stream);
  for (int copy = 0; copy < 2; copy++) {
    gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec "
                                  "backend=%s zero-copy=%s ! fakesink name=sink", stream,
                                  backend, copy ? "false" : "true");
    Run *r = run_pipeline_full(desc, TRUE);
    check_equal(desc, r, ref);
    fail_unless_equals_uint64(stat_u64(r, "frames-copied"), copy ? ref->len : 0);
    run_free(r);
    g_free(desc);
  }
  g_ptr_array_unref(ref);
}

GST_START_TEST(test_zero_copy_streams) {
  gchar *a = encode("odd.ivf", 99, 61, 12, "--kf-max-dist=6 --end-usage=q --cq-level=30");
  gchar *b = encode("altref.ivf", 176, 144, 20, "--auto-alt-ref=1 --lag-in-frames=16 "
                    "--tile-columns=1");
  fail_unless(a && b, "vpxenc failed");
  for (int i = 0; i < 2; i++) {
    check_both_paths(a, i ? "cpu" : "scalar");
    check_both_paths(b, i ? "cpu" : "scalar");
  }
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (ctx) {
    v3d_context_free(ctx);
    check_both_paths(a, "hybrid");
    check_both_paths(b, "gpu");
  } else {
    const gchar *req = g_getenv("V3D_REQUIRE_GPU");
    fail_if(req && strcmp(req, "1") == 0, "V3D_REQUIRE_GPU=1 but no Vulkan device");
    printf("SKIP: gpu and hybrid zero copy (no Vulkan device: %s)\n", v3d_last_error());
  }
  g_free(a);
  g_free(b);
}
GST_END_TEST;

/* Frame sizes changing without key frames (tests/vp9_resize_enc.c, when built): the wrapped
 * pictures change size with the caps, every frame equal to vpxdec's. */
GST_START_TEST(test_zero_copy_size_changes) {
  const gchar *enc = g_getenv("V3D_VP9_RESIZE_ENC");
  if (!enc || !g_file_test(enc, G_FILE_TEST_IS_EXECUTABLE)) {
    printf("SKIP: size changes (no vp9-resize-enc: libvpx's headers missing)\n");
    return;
  }
  gchar *s = tmp_path("scaled.ivf");
  gchar *argv[] = {(gchar *)enc, s, (gchar *)"12", (gchar *)"128x96", (gchar *)"4:65x49",
                   (gchar *)"8:112x80", NULL};
  gchar *out = run_tool(argv);
  fail_unless(out != NULL, "vp9-resize-enc failed");
  g_free(out);
  check_both_paths(s, "cpu");
  g_free(s);
}
GST_END_TEST;

/* y4menc answers allocation queries with GstVideoMeta but writes buffers out as they are: the
 * decoder copies into GStreamer's default layout for it, also behind a queue. */
GST_START_TEST(test_copy_for_y4menc) {
  gchar *a = encode("cif.ivf", 176, 144, 6, "");
  fail_unless(a != NULL);
  gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec "
                                "backend=cpu ! queue ! y4menc ! fakesink name=sink", a);
  Run *r = run_pipeline(desc);
  fail_unless(r->eos, "%s", r->error ? r->error : "");
  fail_unless_equals_uint64(stat_u64(r, "frames-shown"), 6);
  fail_unless_equals_uint64(stat_u64(r, "frames-copied"), 6);
  run_free(r);
  g_free(desc);
  g_free(a);
}
GST_END_TEST;

/* Overwrites every visible sample of buf, which the harness handed over: a writable buffer's
 * read-only memory is copied on the way (gst_buffer_map), the decoder's picture untouched. */
static void scribble(GstBuffer *buf, GstCaps *caps) {
  GstVideoInfo info;
  GstVideoFrame f;
  fail_unless(gst_video_info_from_caps(&info, caps));
  buf = gst_buffer_make_writable(buf);
  fail_unless(gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE));
  for (int p = 0; p < 3; p++)
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, p); y++)
      memset((guint8 *)GST_VIDEO_FRAME_PLANE_DATA(&f, p) +
                 (gsize)y * GST_VIDEO_FRAME_PLANE_STRIDE(&f, p),
             0x5a, GST_VIDEO_FRAME_COMP_WIDTH(&f, p));
  gst_video_frame_unmap(&f);
  gst_buffer_unref(buf);
}

/* Through GstHarness (a sink that supports GstVideoMeta): every buffer is read-only v3d shared
 * memory with a GstVideoMeta and equal to vpxdec's frame. Every second buffer is scribbled over
 * at once (a writable copy is made: the frames after it, which predict from the decoder's
 * picture, stay exact); the others are kept past the harness's teardown (decoder, context and
 * element freed) and checked again then. Under ASan/LSan: no use after free, no leak. */
GST_START_TEST(test_zero_copy_lifetime) {
  GPtrArray *ref;
  Ivf ivf;
  gchar *s = stream_with_ref("life.ivf", 96, 64, 16, "--kf-max-dist=30 --auto-alt-ref=1 "
                             "--lag-in-frames=8", &ref, &ivf);
  GstHarness *h = harness_new("backend=cpu", TRUE, 96, 64);
  GPtrArray *kept = g_ptr_array_new();
  GPtrArray *kept_caps = g_ptr_array_new();
  guint n = 0;
  for (guint i = 0; i < ivf.packets->len; i++) {
    fail_unless_equals_int(gst_harness_push(h, packet_buffer(&ivf, i)), GST_FLOW_OK);
    GstBuffer *buf;
    GstCaps *caps;
    while ((buf = harness_pull_exact(h, ref, n, &caps))) {
      GstMemory *mem = gst_buffer_peek_memory(buf, 0);
      fail_unless(gst_is_v3d_shared_memory(mem));
      fail_unless(GST_MEMORY_IS_READONLY(mem), "a zero-copy buffer must be read-only");
      GstVideoMeta *vm = gst_buffer_get_video_meta(buf);
      fail_unless(vm != NULL && vm->stride[0] >= (gint)vm->width && vm->n_planes == 3);
      if (n % 2) {
        scribble(buf, caps);
        gst_caps_unref(caps);
      } else {
        g_ptr_array_add(kept, buf);
        g_ptr_array_add(kept_caps, caps);
      }
      n++;
    }
  }
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  fail_unless_equals_int(n, ref->len);
  fail_unless_equals_uint64(harness_stat_u64(h, "frames-copied"), 0);
  gst_harness_teardown(h);
  for (guint k = 0; k < kept->len; k++) {
    int w, hh;
    gchar *md5 = frame_md5(g_ptr_array_index(kept, k), g_ptr_array_index(kept_caps, k), &w, &hh);
    fail_unless_equals_string(md5, g_ptr_array_index(ref, 2 * k));
    g_free(md5);
    gst_buffer_unref(g_ptr_array_index(kept, k));
    gst_caps_unref(g_ptr_array_index(kept_caps, k));
  }
  printf("zero copy: %u frames, %u kept past the decoder\n", n, kept->len);
  g_ptr_array_unref(kept);
  g_ptr_array_unref(kept_caps);
  ivf_clear(&ivf);
  g_ptr_array_unref(ref);
  g_free(s);
}
GST_END_TEST;

/* The decoder's stats field `field` (a string) and its context-opening field. */
static gchar *stats_string(GstElement *dec, const gchar *field, gboolean *opening) {
  GstStructure *st = NULL;
  g_object_get(dec, "stats", &st, NULL);
  gchar *v = g_strdup(gst_structure_get_string(st, field));
  fail_unless(v && gst_structure_get_boolean(st, "context-opening", opening));
  gst_structure_free(st);
  return v;
}

/* backend=hybrid opens its Vulkan device in the background: the first frames are decoded on a
 * CPU context (stats backend "simd", context-opening TRUE, unless the device opened first);
 * after the second packet the test waits for the opening to end (at most 60 s), and the next
 * packet moves the decoder to the hybrid context; every frame equal to vpxdec's before and
 * after the move. */
GST_START_TEST(test_startup_moves_to_gpu) {
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (!ctx) {
    const gchar *req = g_getenv("V3D_REQUIRE_GPU");
    fail_if(req && strcmp(req, "1") == 0, "V3D_REQUIRE_GPU=1 but no Vulkan device");
    printf("SKIP: start-up on hybrid (no Vulkan device: %s)\n", v3d_last_error());
    return;
  }
  v3d_context_free(ctx);
  GPtrArray *ref;
  Ivf ivf;
  gchar *s = stream_with_ref("startup.ivf", 96, 64, 12, "--kf-max-dist=60", &ref, &ivf);
  GstHarness *h = harness_new("backend=hybrid", FALSE, 96, 64);
  GstElement *dec = gst_bin_get_by_name(GST_BIN(h->element), "d");
  guint n = 0;
  gchar *backends[2] = {NULL, NULL}; /* after packets 0 and 2 */
  for (guint i = 0; i < ivf.packets->len; i++) {
    fail_unless_equals_int(gst_harness_push(h, packet_buffer(&ivf, i)), GST_FLOW_OK);
    gboolean opening = FALSE;
    gchar *backend = stats_string(dec, "backend", &opening);
    if (i == 0) {
      fail_unless(opening ? strcmp(backend, "simd") == 0 : TRUE, "opening, backend %s", backend);
      backends[0] = g_strdup(backend);
    }
    if (i == 2) backends[1] = g_strdup(backend);
    for (int wait = 0; i == 1 && opening && wait < 600; wait++) {
      g_usleep(100000);
      g_free(stats_string(dec, "backend", &opening));
    }
    fail_if(i == 1 && opening, "the device was still opening after 60 s");
    g_free(backend);
    GstBuffer *buf;
    while ((buf = harness_pull_exact(h, ref, n, NULL))) {
      gst_buffer_unref(buf);
      n++;
    }
  }
  fail_unless_equals_int(n, ref->len);
  fail_unless_equals_string(backends[1], "hybrid");
  printf("hybrid start-up: packet 0 on %s, packet 2 on %s, %u frames equal to vpxdec's\n",
         backends[0], backends[1], n);
  g_free(backends[0]);
  g_free(backends[1]);
  gst_object_unref(dec);
  gst_harness_teardown(h);
  ivf_clear(&ivf);
  g_ptr_array_unref(ref);
  g_free(s);
}
GST_END_TEST;

/* gst-inspect-1.0 v3dvp9dec names every property of the element with its blurb, the backend
 * enum's values, both pad templates and the rank. */
GST_START_TEST(test_inspect_documents) {
  gchar *argv[] = {(gchar *)"gst-inspect-1.0", (gchar *)"v3dvp9dec", NULL};
  gchar *out = NULL, *err = NULL;
  gint status = 0;
  fail_unless(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                           &status, NULL), "gst-inspect-1.0 did not run");
  if (!g_spawn_check_wait_status(status, NULL) && err && strstr(err, "Failed to load plugin")) {
    /* A sanitizer build's plugin needs its runtime, which the system's tool lacks. */
    printf("SKIP: gst-inspect-1.0 cannot load this build's plugin: %s\n", err);
    g_free(out);
    g_free(err);
    return;
  }
  fail_unless(g_spawn_check_wait_status(status, NULL), "gst-inspect-1.0 v3dvp9dec: %s", err);
  g_free(err);
  GstElement *e = gst_element_factory_make("v3dvp9dec", NULL);
  fail_unless(e != NULL);
  guint n = 0;
  GParamSpec **props = g_object_class_list_properties(G_OBJECT_GET_CLASS(e), &n);
  guint own = 0;
  for (guint i = 0; i < n; i++) {
    const gchar *blurb = g_param_spec_get_blurb(props[i]);
    fail_unless(strstr(out, g_param_spec_get_name(props[i])) != NULL, "%s missing",
                g_param_spec_get_name(props[i]));
    fail_unless(blurb && *blurb && strstr(out, blurb), "%s: blurb missing",
                g_param_spec_get_name(props[i]));
    if (props[i]->owner_type == G_OBJECT_TYPE(e)) own++;
  }
  fail_unless_equals_int(own, 4); /* backend, cpu-threads, stats, zero-copy */
  static const char *const expected[] = {"auto", "scalar", "hybrid", "SINK template",
                                         "SRC template", "video/x-vp9", "I420", "Rank",
                                         "marginal"};
  for (guint i = 0; i < G_N_ELEMENTS(expected); i++)
    fail_unless(strstr(out, expected[i]) != NULL, "gst-inspect lacks \"%s\"", expected[i]);
  g_free(props);
  gst_object_unref(e);
  g_free(out);
}
GST_END_TEST;

static Suite *v3dvp9dec_output_suite(void) {
  TCase *tc;
  Suite *s = vp9dec_suite_new("v3dvp9dec-output", &tc);
  tcase_add_test(tc, test_inspect_documents);
  tcase_add_test(tc, test_zero_copy_streams);
  tcase_add_test(tc, test_zero_copy_size_changes);
  tcase_add_test(tc, test_copy_for_y4menc);
  tcase_add_test(tc, test_zero_copy_lifetime);
  tcase_add_test(tc, test_startup_moves_to_gpu);
  return s;
}

int main(int argc, char **argv) {
  gst_check_init(&argc, &argv);
  return run_vp9dec_suite(v3dvp9dec_output_suite(), "v3dvp9dec-output", __FILE__);
}
