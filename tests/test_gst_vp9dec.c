/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of v3dvp9dec against libvpx: streams made at test time with vpxenc (tests/
 * vp9dec_streams.h), decoded through `filesrc ! ivfparse ! v3dvp9dec ! fakesink` (and
 * matroskademux from WebM, vp9parse with alignment=frame) on the scalar and cpu backends (and
 * gpu, hybrid, auto where a Vulkan device exists), every
 * output frame's MD5 (visible I420 bytes, as `vpxdec --i420 --md5` per frame) equal to vpxdec's
 * and every timestamp kept; frame-size changes mid-stream (two IVF streams joined; inter frames
 * of another size from tests/vp9_resize_enc.c, when built) renegotiate;
 * damaged streams give decode errors under max-errors, never a crash, and resume at the next key
 * frame; a flush (GstHarness) resumes at the next key frame; hidden frames give no buffer;
 * profile 1 is refused with an error naming it; output buffers come from the v3d pool with
 * GstVideoMeta; properties and rank.
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

static void check_ivf(const gchar *stream, const gchar *backend, const gchar *parser) {
  GPtrArray *ref = vpxdec_md5s(stream);
  gchar *desc = g_strdup_printf("filesrc location=%s ! %s ! v3dvp9dec name=dec backend=%s ! "
                                "fakesink name=sink", stream, parser, backend);
  Run *r = run_pipeline(desc);
  check_equal(desc, r, ref);
  run_free(r);
  g_free(desc);
  g_ptr_array_unref(ref);
}

GST_START_TEST(test_ivf_scalar_cpu) {
  gchar *a = encode("odd.ivf", 99, 61, 12, "--kf-max-dist=6 --end-usage=q --cq-level=30");
  gchar *b = encode("cif.ivf", 176, 144, 16, "--tile-columns=1");
  fail_unless(a && b, "vpxenc failed");
  for (int i = 0; i < 2; i++) {
    const gchar *backend = i ? "cpu" : "scalar";
    check_ivf(a, backend, "ivfparse");
    check_ivf(b, backend, "ivfparse");
  }
  g_free(a);
  g_free(b);
}
GST_END_TEST;

/* gpu, hybrid and auto where a Vulkan device exists (lavapipe counts); V3D_REQUIRE_GPU=1 makes
 * its absence a failure. */
GST_START_TEST(test_ivf_gpu_backends) {
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (!ctx) {
    const gchar *req = g_getenv("V3D_REQUIRE_GPU");
    fail_if(req && strcmp(req, "1") == 0, "V3D_REQUIRE_GPU=1 but no Vulkan device");
    printf("SKIP: gpu, hybrid, auto (no Vulkan device: %s)\n", v3d_last_error());
    return;
  }
  printf("GPU: %s\n", v3d_context_gpu_name(ctx));
  v3d_context_free(ctx);
  gchar *a = encode("odd.ivf", 99, 61, 12, "--kf-max-dist=6 --end-usage=q --cq-level=30");
  gchar *b = encode("cif.ivf", 176, 144, 16, "--tile-columns=1");
  fail_unless(a && b, "vpxenc failed");
  static const gchar *const backends[] = {"gpu", "hybrid", "auto"};
  for (int i = 0; i < 3; i++) {
    check_ivf(a, backends[i], "ivfparse");
    check_ivf(b, backends[i], "ivfparse");
  }
  g_free(a);
  g_free(b);
}
GST_END_TEST;

GST_START_TEST(test_webm) {
  GPtrArray *ref;
  gchar *w = stream_with_ref("clip.webm", 160, 90, 16, "--kf-max-dist=8", &ref, NULL);
  for (int i = 0; i < 2; i++) {
    gchar *desc = g_strdup_printf("filesrc location=%s ! matroskademux ! v3dvp9dec name=dec "
                                  "backend=%s ! fakesink name=sink", w, i ? "cpu" : "scalar");
    Run *r = run_pipeline(desc);
    check_equal_slack(desc, r, ref, GST_MSECOND);
    run_free(r);
    g_free(desc);
  }
  g_ptr_array_unref(ref);
  g_free(w);
}
GST_END_TEST;

/* Alternate reference frames: hidden frames inside superframes (ivfparse) and on their own
 * (vp9parse alignment=frame: a packet that shows nothing, no buffer). */
GST_START_TEST(test_hidden_frames) {
  GPtrArray *ref;
  gchar *s = stream_with_ref("altref.ivf", 128, 96, 24, "--auto-alt-ref=1 --lag-in-frames=16",
                             &ref, NULL);
  check_ivf(s, "cpu", "ivfparse");
  gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! vp9parse ! "
                                "video/x-vp9,alignment=frame ! v3dvp9dec name=dec backend=cpu ! "
                                "fakesink name=sink", s);
  Run *r = run_pipeline(desc);
  fail_unless(r->eos, "%s", r->error ? r->error : "");
  fail_unless_equals_int(r->md5->len, ref->len);
  for (guint i = 0; i < ref->len; i++)
    fail_unless_equals_string(g_ptr_array_index(r->md5, i), g_ptr_array_index(ref, i));
  /* shown frames keep their timestamps: increasing, the first at 0 */
  fail_unless_equals_uint64(g_array_index(r->pts, GstClockTime, 0), 0);
  for (guint i = 1; i < r->pts->len; i++)
    fail_unless(g_array_index(r->pts, GstClockTime, i) > g_array_index(r->pts, GstClockTime, i - 1));
  fail_unless(stat_u64(r, "frames-hidden") > 0, "no hidden frame reached the decoder alone");
  fail_unless_equals_uint64(stat_u64(r, "frames-shown"), ref->len);
  fail_unless(stat_u64(r, "vp9-frames") > ref->len);
  printf("vp9parse alignment=frame: %u shown, %" G_GUINT64_FORMAT " hidden packets\n", ref->len,
         stat_u64(r, "frames-hidden"));
  run_free(r);
  g_free(desc);
  g_ptr_array_unref(ref);
  g_free(s);
}
GST_END_TEST;

/* Two streams of different sizes joined into one IVF file (the second starts with a key frame
 * at its size): the caps change at the join, every frame equal to vpxdec's. */
GST_START_TEST(test_resolution_change) {
  gchar *a = encode("big.ivf", 160, 96, 8, "");
  gchar *b = encode("small.ivf", 98, 54, 8, "");
  fail_unless(a && b);
  Ivf ia, ib;
  fail_unless(ivf_read(a, &ia) && ivf_read(b, &ib));
  guint na = ia.packets->len;
  for (guint i = 0; i < ib.packets->len; i++) {
    guint64 pts = na + i;
    g_ptr_array_add(ia.packets, g_bytes_ref(g_ptr_array_index(ib.packets, i)));
    g_array_append_val(ia.pts, pts);
  }
  gchar *joined = tmp_path("joined.ivf");
  ivf_write(joined, &ia);
  GPtrArray *ref = vpxdec_md5s(joined);
  gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec "
                                "backend=cpu ! fakesink name=sink", joined);
  Run *r = run_pipeline(desc);
  check_equal("joined 160x96 + 98x54", r, ref);
  for (guint i = 0; i < r->width->len; i++) {
    fail_unless_equals_int(g_array_index(r->width, int, i), i < na ? 160 : 98);
    fail_unless_equals_int(g_array_index(r->height, int, i), i < na ? 96 : 54);
  }
  run_free(r);
  g_free(desc);
  g_ptr_array_unref(ref);
  ivf_clear(&ia);
  ivf_clear(&ib);
  g_free(joined);
  g_free(a);
  g_free(b);
}
GST_END_TEST;

/* xorshift64*: the bit flips' positions (seed printed). */
static guint64 next_random(guint64 *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

/* Frame sizes changing without key frames (inter frames predicting from references of another
 * size), made by tests/vp9_resize_enc.c when built (V3D_VP9_RESIZE_ENC): every size change
 * renegotiates, every frame equal to vpxdec's, scaled predictions counted. */
GST_START_TEST(test_scaled_references) {
  const gchar *enc = g_getenv("V3D_VP9_RESIZE_ENC");
  if (!enc || !g_file_test(enc, G_FILE_TEST_IS_EXECUTABLE)) {
    printf("SKIP: scaled references (no vp9-resize-enc: libvpx's headers missing)\n");
    return;
  }
  gchar *s = tmp_path("scaled.ivf");
  gchar *argv[] = {(gchar *)enc, s, (gchar *)"16", (gchar *)"128x96", (gchar *)"4:96x72",
                   (gchar *)"8:128x96", (gchar *)"12:65x49", NULL};
  gchar *out = run_tool(argv);
  fail_unless(out != NULL, "vp9-resize-enc failed");
  g_free(out);
  static const int sizes[4][2] = {{128, 96}, {96, 72}, {128, 96}, {65, 49}};
  GPtrArray *ref = vpxdec_md5s(s);
  gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec "
                                "backend=cpu ! fakesink name=sink", s);
  Run *r = run_pipeline(desc);
  check_equal("scaled references 128x96 96x72 128x96 65x49", r, ref);
  fail_unless_equals_int(r->width->len, 16);
  for (guint i = 0; i < r->width->len; i++) {
    fail_unless_equals_int(g_array_index(r->width, int, i), sizes[i / 4][0]);
    fail_unless_equals_int(g_array_index(r->height, int, i), sizes[i / 4][1]);
  }
  fail_unless(stat_u64(r, "vp9-scaled-preds") > 0, "no scaled prediction");
  fail_unless_equals_uint64(stat_u64(r, "vp9-key"), 1);
  run_free(r);
  g_free(desc);
  g_ptr_array_unref(ref);
  g_free(s);
}
GST_END_TEST;

/* The first key frame at or after packet i (G_MAXUINT if none). */
static guint next_key(const Ivf *ivf, guint i) {
  for (; i < ivf->packets->len; i++)
    if (ivf_is_key(ivf, i)) return i;
  return G_MAXUINT;
}

/* A damaged copy: packet `bad` loses its frame marker (first byte 0), packet `cut` keeps one
 * byte. With max-errors=-1 the stream goes on: decode errors for the two, no output until the
 * next key frame, then frames equal to vpxdec's on the intact stream; with max-errors=0 the
 * first damaged packet stops it with an error from the decoder. */
GST_START_TEST(test_corrupt) {
  GPtrArray *ref;
  Ivf ivf;
  gchar *s = stream_with_ref("kf5.ivf", 96, 64, 20, "--kf-min-dist=5 --kf-max-dist=5", &ref, &ivf);
  fail_unless_equals_int(ref->len, ivf.packets->len);
  const guint bad = 2, cut = next_key(&ivf, bad) + 2;
  fail_unless(cut < ivf.packets->len && !ivf_is_key(&ivf, bad) && !ivf_is_key(&ivf, cut));
  gsize n;
  const guint8 *orig = g_bytes_get_data(g_ptr_array_index(ivf.packets, bad), &n);
  guint8 *d = g_memdup2(orig, n);
  d[0] = 0;
  g_bytes_unref(g_ptr_array_index(ivf.packets, bad));
  g_ptr_array_index(ivf.packets, bad) = g_bytes_new_take(d, n);
  GBytes *whole = g_ptr_array_index(ivf.packets, cut);
  g_ptr_array_index(ivf.packets, cut) = g_bytes_new_from_bytes(whole, 0, 1);
  g_bytes_unref(whole);
  gchar *damaged = tmp_path("damaged.ivf");
  ivf_write(damaged, &ivf);

  gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec "
                                "backend=cpu max-errors=-1 ! fakesink name=sink", damaged);
  Run *r = run_pipeline(desc);
  fail_unless(r->eos, "max-errors=-1: %s", r->error ? r->error : "");
  fail_unless_equals_uint64(stat_u64(r, "errors"), 2);
  guint k = 0;
  for (guint i = 0; i < ivf.packets->len; i++) {
    gboolean lost = (i >= bad && i < next_key(&ivf, bad)) || (i >= cut && i < next_key(&ivf, cut));
    if (lost) continue;
    fail_unless(k < r->md5->len, "packet %u gave no frame", i);
    fail_unless_equals_uint64(g_array_index(r->pts, GstClockTime, k), FRAME_NS(i));
    fail_unless_equals_string(g_ptr_array_index(r->md5, k), g_ptr_array_index(ref, i));
    k++;
  }
  fail_unless_equals_int(k, r->md5->len);
  printf("damaged stream: %u of %u frames out, 2 errors\n", k, ivf.packets->len);
  run_free(r);
  g_free(desc);

  desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec backend=cpu "
                         "max-errors=0 ! "
                         "fakesink name=sink", damaged);
  r = run_pipeline(desc);
  fail_unless(r->error != NULL && strstr(r->error, "dec:") == r->error, "%s",
              r->error ? r->error : "no error");
  fail_unless(strstr(r->error, "frame") != NULL, "%s", r->error);
  fail_unless_equals_int(r->md5->len, bad);
  printf("max-errors=0: %s\n", r->error);
  run_free(r);
  g_free(desc);

  /* Bit flips anywhere past the first 16 bytes of inter frames: no crash, EOS. */
  guint64 rng = 0x5EED0000u + 23;
  for (guint i = 0; i < ivf.packets->len; i++) {
    if (ivf_is_key(&ivf, i)) continue;
    orig = g_bytes_get_data(g_ptr_array_index(ivf.packets, i), &n);
    d = g_memdup2(orig, n);
    for (int f = 0; f < 4 && n > 16; f++) d[16 + next_random(&rng) % (n - 16)] ^= 1u << (next_random(&rng) % 8);
    g_bytes_unref(g_ptr_array_index(ivf.packets, i));
    g_ptr_array_index(ivf.packets, i) = g_bytes_new_take(d, n);
  }
  ivf_write(damaged, &ivf);
  desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec backend=cpu ! "
                         "fakesink name=sink", damaged);
  r = run_pipeline(desc);
  fail_unless(r->eos, "bit flips: %s", r->error ? r->error : "");
  printf("bit flips (seed %" G_GUINT64_FORMAT "): %u frames, %" G_GUINT64_FORMAT " errors\n",
         (guint64)0x5EED0000u + 23, r->md5->len, stat_u64(r, "errors"));
  run_free(r);
  g_free(desc);
  ivf_clear(&ivf);
  g_free(damaged);
  g_ptr_array_unref(ref);
  g_free(s);
}
GST_END_TEST;

/* Pulls what the harness holds; each buffer's MD5 must be ref[start + k], its pts start + k. */
static guint pull_check(GstHarness *h, GPtrArray *ref, guint start) {
  guint k = 0;
  GstBuffer *buf;
  while ((buf = harness_pull_exact(h, ref, start + k, NULL))) {
    fail_unless_equals_uint64(GST_BUFFER_PTS(buf), FRAME_NS(start + k));
    /* the v3d pool's shared memory, with the pool's strides in a GstVideoMeta */
    GstVideoMeta *vm = gst_buffer_get_video_meta(buf);
    fail_unless(vm != NULL && vm->stride[0] >= (gint)vm->width);
    fail_unless(gst_is_v3d_shared_memory(gst_buffer_peek_memory(buf, 0)));
    gst_buffer_unref(buf);
    k++;
  }
  return k;
}

/* Packets 0..5 decode; a flush; packets from 6 on: those before the next key frame are dropped
 * without errors, then every frame equals vpxdec's. */
GST_START_TEST(test_flush) {
  GPtrArray *ref;
  Ivf ivf;
  gchar *s = stream_with_ref("kf5.ivf", 96, 64, 20, "--kf-min-dist=5 --kf-max-dist=5", &ref, &ivf);
  GstHarness *h = harness_new("backend=cpu", TRUE, 96, 64);
  const guint before = 6, resume = 6, key = next_key(&ivf, resume);
  fail_unless(key > resume && key < ivf.packets->len, "no key frame after %u", resume);
  for (guint i = 0; i < before; i++)
    fail_unless_equals_int(gst_harness_push(h, packet_buffer(&ivf, i)), GST_FLOW_OK);
  fail_unless_equals_int(pull_check(h, ref, 0), before);
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
  GstSegment seg;
  gst_segment_init(&seg, GST_FORMAT_TIME);
  fail_unless(gst_harness_push_event(h, gst_event_new_segment(&seg)));
  for (guint i = resume; i < ivf.packets->len; i++)
    fail_unless_equals_int(gst_harness_push(h, packet_buffer(&ivf, i)), GST_FLOW_OK);
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  fail_unless_equals_int(pull_check(h, ref, key), ivf.packets->len - key);
  fail_unless_equals_uint64(harness_stat_u64(h, "frames-skipped"), key - resume);
  fail_unless_equals_uint64(harness_stat_u64(h, "errors"), 0);
  gst_harness_teardown(h);
  ivf_clear(&ivf);
  g_ptr_array_unref(ref);
  g_free(s);
}
GST_END_TEST;

/* A flushing seek in a playing pipeline: matroskademux restarts at the key frame before the
 * position, the decoder's output starts at the position, every frame equal to vpxdec's. */
GST_START_TEST(test_seek) {
  GPtrArray *ref;
  gchar *w = stream_with_ref("seek.webm", 96, 64, 30, "--kf-min-dist=10 --kf-max-dist=10", &ref,
                             NULL);
  fail_unless_equals_int(ref->len, 30);
  gchar *desc = g_strdup_printf("filesrc location=%s ! matroskademux ! v3dvp9dec name=dec "
                                "backend=cpu ! fakesink name=sink", w);
  Run *r = run_new();
  GstElement *pipe = pipeline_new(desc, r, FALSE);
  gst_element_set_state(pipe, GST_STATE_PAUSED);
  fail_unless_equals_int(gst_element_get_state(pipe, NULL, NULL, 60 * GST_SECOND),
                         GST_STATE_CHANGE_SUCCESS);
  const guint at = 15; /* between the key frames 10 and 20 */
  fail_unless(gst_element_seek_simple(pipe, GST_FORMAT_TIME,
                                      GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, FRAME_NS(at)));
  fail_unless_equals_int(gst_element_get_state(pipe, NULL, NULL, 60 * GST_SECOND),
                         GST_STATE_CHANGE_SUCCESS);
  /* fakesink renders (and signals handoff) only in PLAYING: what it holds from the preroll
   * before the seek was flushed unseen. */
  gst_element_set_state(pipe, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus(pipe);
  GstMessage *m = gst_bus_timed_pop_filtered(bus, 120 * GST_SECOND,
                                             GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless(m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS, "no EOS after the seek");
  gst_message_unref(m);
  gst_element_set_state(pipe, GST_STATE_NULL);
  /* The first frame is the one at the position, or the one before when its duration (WebM
   * keeps milliseconds) reaches into the segment: GstVideoDecoder clips by overlap, moving that
   * frame's pts to the segment's start. */
  const guint start = 30 - r->md5->len;
  fail_unless(start == at || start == at - 1, "%u frames after the seek", r->md5->len);
  for (guint k = 0; k < r->md5->len; k++) {
    GstClockTime pts = g_array_index(r->pts, GstClockTime, k);
    const guint i = start + k;
    const GstClockTime want = MAX(FRAME_NS(i), FRAME_NS(at));
    fail_unless(pts + GST_MSECOND >= want && pts <= want + GST_MSECOND,
                "frame %u pts %" GST_TIME_FORMAT, i, GST_TIME_ARGS(pts));
    fail_unless_equals_string(g_ptr_array_index(r->md5, k), g_ptr_array_index(ref, i));
  }
  printf("seek to frame %u: frames %u..29 equal to vpxdec's\n", at, start);
  gst_object_unref(bus);
  gst_object_unref(pipe);
  run_free(r);
  g_free(desc);
  g_ptr_array_unref(ref);
  g_free(w);
}
GST_END_TEST;

/* Profile 1 (4:4:4): an element error naming the profile and bit depth, no output. */
GST_START_TEST(test_profile1_refused) {
  gchar *s = encode("p1.ivf", 64, 64, 3, "--profile=1");
  fail_unless(s != NULL, "vpxenc --profile=1 --i444 failed");
  gchar *desc = g_strdup_printf("filesrc location=%s ! ivfparse ! v3dvp9dec name=dec "
                                "backend=cpu ! fakesink name=sink", s);
  Run *r = run_pipeline(desc);
  fail_unless(r->error != NULL, "profile 1 decoded without an error");
  fail_unless(strstr(r->error, "profile 1") && strstr(r->error, "8-bit"), "%s", r->error);
  fail_unless_equals_int(r->md5->len, 0);
  printf("profile 1: %s\n", r->error);
  run_free(r);
  g_free(desc);
  g_free(s);
}
GST_END_TEST;

GST_START_TEST(test_properties_rank) {
  GstElementFactory *f = gst_element_factory_find("v3dvp9dec");
  fail_unless(f != NULL);
  guint rank = gst_plugin_feature_get_rank(GST_PLUGIN_FEATURE(f));
  fail_unless(rank < GST_RANK_MARGINAL);
  GstElementFactory *av = gst_element_factory_find("avdec_vp9");
  if (av) {
    fail_unless(rank < gst_plugin_feature_get_rank(GST_PLUGIN_FEATURE(av)));
    gst_object_unref(av);
  }
  GstElement *e = gst_element_factory_create(f, NULL);
  GObjectClass *k = G_OBJECT_GET_CLASS(e);
  GParamSpec *backend = g_object_class_find_property(k, "backend");
  fail_unless(backend && G_PARAM_SPEC_VALUE_TYPE(backend) == g_type_from_name("GstV3dBackend"));
  GParamSpec *threads = g_object_class_find_property(k, "cpu-threads");
  fail_unless(threads && G_PARAM_SPEC_UINT(threads)->default_value == 0);
  GParamSpec *stats = g_object_class_find_property(k, "stats");
  fail_unless(stats && !(stats->flags & G_PARAM_WRITABLE));
  GstStructure *st = NULL;
  g_object_get(e, "stats", &st, NULL);
  fail_unless(st && gst_structure_has_field(st, "frames-decoded") &&
              gst_structure_has_field(st, "frames-hidden") &&
              gst_structure_has_field(st, "backend"));
  gst_structure_free(st);
  gst_object_unref(e);
  gst_object_unref(f);
}
GST_END_TEST;

static Suite *v3dvp9dec_suite(void) {
  TCase *tc;
  Suite *s = vp9dec_suite_new("v3dvp9dec", &tc);
  tcase_add_test(tc, test_properties_rank);
  tcase_add_test(tc, test_ivf_scalar_cpu);
  tcase_add_test(tc, test_ivf_gpu_backends);
  tcase_add_test(tc, test_webm);
  tcase_add_test(tc, test_hidden_frames);
  tcase_add_test(tc, test_resolution_change);
  tcase_add_test(tc, test_scaled_references);
  tcase_add_test(tc, test_corrupt);
  tcase_add_test(tc, test_flush);
  tcase_add_test(tc, test_seek);
  tcase_add_test(tc, test_profile1_refused);
  return s;
}

int main(int argc, char **argv) {
  gst_check_init(&argc, &argv);
  return run_vp9dec_suite(v3dvp9dec_suite(), "v3dvp9dec", __FILE__);
}
