/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The harness of the v3dvp9dec tests (tests/test_gst_vp9dec*.c), on the streams of
 * vp9dec_streams.h:
 *  - pipeline runs: a gst-launch description whose decoder is named "dec" and sink "sink" (a
 *    fakesink) run to EOS, every output buffer's MD5 (visible I420 bytes, as
 *    `vpxdec --i420 --md5` per frame), timestamp and size recorded, the decoder's stats read at
 *    the end; checks against vpxdec's MD5s;
 *  - GstHarness runs: the decoder (named "d") fed packet by packet, each buffer pulled checked
 *    against vpxdec's frame;
 *  - the tests' main: the scratch folder, the skip without vpxenc/vpxdec, the suite run.
 * Everything is static: include once, after <gst/check/gstcheck.h> and <gst/video/video.h>.
 */
#ifndef V3D_TESTS_GST_VP9DEC_RUN_H
#define V3D_TESTS_GST_VP9DEC_RUN_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>

#include "vp9dec_streams.h"

/* 30 frames/s: the time base vpxenc writes for a 30/1 source. */
#define FRAME_NS(i) gst_util_uint64_scale_int((i), GST_SECOND, 30)

/* What a decoding run gave: per output buffer its MD5, pts and size; the bus's end. */
typedef struct {
  GMutex lock;
  GPtrArray *md5;
  GArray *pts, *width, *height;
  gchar *error; /* message and debug of the first ERROR, or NULL */
  gboolean eos;
  GstStructure *stats; /* the decoder's "stats" at the end */
} Run;

static gchar *frame_md5(GstBuffer *buf, GstCaps *caps, int *w, int *h) {
  GstVideoInfo info;
  GstVideoFrame f;
  fail_unless(gst_video_info_from_caps(&info, caps));
  fail_unless(gst_video_frame_map(&f, &info, buf, GST_MAP_READ));
  GChecksum *sum = g_checksum_new(G_CHECKSUM_MD5);
  for (int p = 0; p < 3; p++) {
    const guint8 *d = GST_VIDEO_FRAME_PLANE_DATA(&f, p);
    int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f, p);
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, p); y++)
      g_checksum_update(sum, d + (gsize)y * stride, GST_VIDEO_FRAME_COMP_WIDTH(&f, p));
  }
  *w = GST_VIDEO_FRAME_WIDTH(&f);
  *h = GST_VIDEO_FRAME_HEIGHT(&f);
  gst_video_frame_unmap(&f);
  gchar *s = g_strdup(g_checksum_get_string(sum));
  g_checksum_free(sum);
  return s;
}

static void run_add(Run *r, GstBuffer *buf, GstCaps *caps) {
  int w = 0, h = 0;
  gchar *md5 = frame_md5(buf, caps, &w, &h);
  GstClockTime pts = GST_BUFFER_PTS(buf);
  g_mutex_lock(&r->lock);
  g_ptr_array_add(r->md5, md5);
  g_array_append_val(r->pts, pts);
  g_array_append_val(r->width, w);
  g_array_append_val(r->height, h);
  g_mutex_unlock(&r->lock);
}

static void on_handoff(G_GNUC_UNUSED GstElement *sink, GstBuffer *buf, GstPad *pad, gpointer user_data) {
  GstCaps *caps = gst_pad_get_current_caps(pad);
  /* raw video only: a sink behind an encoder (y4menc) records nothing */
  if (gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw"))
    run_add(user_data, buf, caps);
  gst_caps_unref(caps);
}

static Run *run_new(void) {
  Run *r = g_new0(Run, 1);
  g_mutex_init(&r->lock);
  r->md5 = g_ptr_array_new_with_free_func(g_free);
  r->pts = g_array_new(FALSE, FALSE, sizeof(GstClockTime));
  r->width = g_array_new(FALSE, FALSE, sizeof(int));
  r->height = g_array_new(FALSE, FALSE, sizeof(int));
  return r;
}

static void run_free(Run *r) {
  g_ptr_array_unref(r->md5);
  g_array_unref(r->pts);
  g_array_unref(r->width);
  g_array_unref(r->height);
  g_free(r->error);
  if (r->stats) gst_structure_free(r->stats);
  g_mutex_clear(&r->lock);
  g_free(r);
}

/* Answers the allocation queries reaching the sink with GST_VIDEO_META_API_TYPE, as a sink that
 * handles GstVideoMeta does (fakesink answers none): the decoder then takes its zero-copy path. */
static GstPadProbeReturn answer_video_meta(G_GNUC_UNUSED GstPad *pad, GstPadProbeInfo *info,
                                           G_GNUC_UNUSED gpointer user_data) {
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY(info);
  if (GST_QUERY_TYPE(q) != GST_QUERY_ALLOCATION) return GST_PAD_PROBE_OK;
  gst_query_add_allocation_meta(q, GST_VIDEO_META_API_TYPE, NULL);
  return GST_PAD_PROBE_HANDLED;
}

/* The pipeline of a description whose sink is named "sink" (a fakesink), its buffers recorded
 * in r from PLAYING on; video_meta: the sink supports GstVideoMeta (answer_video_meta). */
static GstElement *pipeline_new(const gchar *desc, Run *r, gboolean video_meta) {
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch(desc, &err);
  fail_unless(pipe != NULL && err == NULL, "%s: %s", desc, err ? err->message : "");
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
  fail_unless(sink != NULL);
  g_object_set(sink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), r);
  if (video_meta) {
    GstPad *pad = gst_element_get_static_pad(sink, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_video_meta, NULL, NULL);
    gst_object_unref(pad);
  }
  gst_object_unref(sink);
  return pipe;
}

/* Runs a pipeline description whose decoder is named "dec" and sink "sink" (a fakesink) to EOS
 * or its first error; video_meta: the sink supports GstVideoMeta (answer_video_meta). */
static Run *run_pipeline_full(const gchar *desc, gboolean video_meta) {
  Run *r = run_new();
  GstElement *pipe = pipeline_new(desc, r, video_meta);
  GstElement *dec = gst_bin_get_by_name(GST_BIN(pipe), "dec");
  fail_unless(dec != NULL);
  GstBus *bus = gst_element_get_bus(pipe);
  fail_unless(gst_element_set_state(pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  GstMessage *m = gst_bus_timed_pop_filtered(bus, 300 * GST_SECOND,
                                             GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless(m != NULL, "%s: no EOS or error in 300 s", desc);
  if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error(m, &e, &dbg);
    r->error = g_strdup_printf("%s: %s (%s)", GST_OBJECT_NAME(GST_MESSAGE_SRC(m)), e->message,
                               dbg ? dbg : "");
    g_error_free(e);
    g_free(dbg);
  } else {
    r->eos = TRUE;
  }
  gst_message_unref(m);
  g_object_get(dec, "stats", &r->stats, NULL);
  gst_element_set_state(pipe, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(dec);
  gst_object_unref(pipe);
  return r;
}

static Run *run_pipeline(const gchar *desc) { return run_pipeline_full(desc, FALSE); }

static guint64 stat_u64(const Run *r, const gchar *field) {
  guint64 v = 0;
  fail_unless(r->stats && gst_structure_get_uint64(r->stats, field, &v), "no stats field %s",
              field);
  return v;
}

/* Every output frame equals vpxdec's, in order, with pts i/30 s (within pts_slack: WebM keeps
 * milliseconds). */
static void check_equal_slack(const gchar *what, const Run *r, GPtrArray *ref,
                              GstClockTime pts_slack) {
  fail_unless(r->eos, "%s: %s", what, r->error ? r->error : "no EOS");
  fail_unless(ref->len > 0, "%s: vpxdec gave no frames", what);
  fail_unless_equals_int(r->md5->len, ref->len);
  for (guint i = 0; i < ref->len; i++) {
    fail_unless_equals_string(g_ptr_array_index(r->md5, i), g_ptr_array_index(ref, i));
    GstClockTime pts = g_array_index(r->pts, GstClockTime, i);
    fail_unless(pts + pts_slack >= FRAME_NS(i) && pts <= FRAME_NS(i) + pts_slack,
                "%s: frame %u pts %" GST_TIME_FORMAT, what, i, GST_TIME_ARGS(pts));
  }
  fail_unless_equals_uint64(stat_u64(r, "frames-shown"), ref->len);
  fail_unless_equals_uint64(stat_u64(r, "errors"), 0);
  printf("%s: %u frames equal to vpxdec's\n", what, ref->len);
}

static void check_equal(const gchar *what, const Run *r, GPtrArray *ref) {
  check_equal_slack(what, r, ref, 0);
}

/* Encodes tmp/NAME (encode()), failing the test when vpxenc fails; *ref: vpxdec's MD5s
 * (g_ptr_array_unref); ivf, when not NULL: the stream's packets (ivf_clear). Returns the path
 * (g_free). */
static gchar *stream_with_ref(const gchar *name, int w, int h, int n, const gchar *extra,
                              GPtrArray **ref, Ivf *ivf) {
  gchar *s = encode(name, w, h, n, extra);
  fail_unless(s != NULL, "vpxenc failed on %s", name);
  *ref = vpxdec_md5s(s);
  if (ivf) fail_unless(ivf_read(s, ivf));
  return s;
}

/* Packet i of ivf as a buffer with pts i/30 s, lasting 1/30 s. */
static GstBuffer *packet_buffer(const Ivf *ivf, guint i) {
  GstBuffer *buf = gst_buffer_new_wrapped_bytes(g_ptr_array_index(ivf->packets, i));
  GST_BUFFER_PTS(buf) = FRAME_NS(i);
  GST_BUFFER_DURATION(buf) = FRAME_NS(1);
  return buf;
}

/* A GstHarness of "v3dvp9dec name=d PROPS" fed video/x-vp9 of w x h at 30 frames/s; video_meta:
 * its sink lists GstVideoMeta in allocation queries (the decoder may then take its zero-copy
 * path). */
static GstHarness *harness_new(const gchar *props, gboolean video_meta, int w, int h) {
  gchar *launch = g_strdup_printf("v3dvp9dec name=d %s", props);
  GstHarness *hr = gst_harness_new_parse(launch);
  g_free(launch);
  if (video_meta) gst_harness_add_propose_allocation_meta(hr, GST_VIDEO_META_API_TYPE, NULL);
  gchar *caps = g_strdup_printf("video/x-vp9, width=(int)%d, height=(int)%d, "
                                "framerate=(fraction)30/1", w, h);
  gst_harness_set_src_caps_str(hr, caps);
  g_free(caps);
  return hr;
}

/* The decoder's stats field `field` (a guint64) in a harness of harness_new. */
static guint64 harness_stat_u64(GstHarness *hr, const gchar *field) {
  GstElement *dec = gst_bin_get_by_name(GST_BIN(hr->element), "d");
  GstStructure *st = NULL;
  g_object_get(dec, "stats", &st, NULL);
  gst_object_unref(dec);
  guint64 v = 0;
  fail_unless(st && gst_structure_get_uint64(st, field, &v), "no stats field %s", field);
  gst_structure_free(st);
  return v;
}

/* The next buffer the harness holds (NULL when none), whose MD5 must be ref[n]. caps: receives
 * the sink pad's caps (gst_caps_unref), or NULL. */
static GstBuffer *harness_pull_exact(GstHarness *hr, GPtrArray *ref, guint n, GstCaps **caps) {
  GstBuffer *buf = gst_harness_try_pull(hr);
  if (!buf) return NULL;
  GstCaps *c = gst_pad_get_current_caps(hr->sinkpad);
  int w, h;
  gchar *md5 = frame_md5(buf, c, &w, &h);
  fail_unless(n < ref->len, "frame %u: vpxdec has %u", n, ref->len);
  fail_unless_equals_string(md5, g_ptr_array_index(ref, n));
  g_free(md5);
  if (caps) *caps = c;
  else gst_caps_unref(c);
  return buf;
}

/* The tests' main after gst_check_init: the scratch folder made before the tests' forks (and
 * removed when this process exits), exit 77 without vpxenc or vpxdec, then the suite. */
static int run_vp9dec_suite(Suite *suite, const gchar *name, const gchar *file) {
  tmp_dir();
  for (int i = 0; i < 2; i++) {
    gchar *p = g_find_program_in_path(i ? "vpxdec" : "vpxenc");
    if (!p) {
      printf("SKIP: %s not found\n", i ? "vpxdec" : "vpxenc");
      return 77;
    }
    g_free(p);
  }
  return gst_check_run_suite(suite, name, file);
}

/* A suite of one test case "general" with a 600 s timeout; *tc receives the case. */
static Suite *vp9dec_suite_new(const gchar *name, TCase **tc) {
  Suite *s = suite_create(name);
  *tc = tcase_create("general");
  tcase_set_timeout(*tc, 600);
  suite_add_tcase(s, *tc);
  return s;
}

#endif /* V3D_TESTS_GST_VP9DEC_RUN_H */
