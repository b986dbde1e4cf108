/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a GStreamer user expects of every v3d video filter, checked on each element in turn:
 * renegotiation mid-stream (the output after a size change equals a fresh element's), EOS after
 * exactly the frames that went in, flushing seeks, state changes at any moment (no failure, no
 * hang), several instances sharing one context, and a latency query that the element answers
 * without adding latency (it keeps no frames in flight). Seed: V3D_TEST_SEED (printed).
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <stdlib.h>

static guint64 g_seed = 0xBE4A51u;

#include "gst_test_common.h"

/* The elements under test and properties that make them do real work without a meta. */
typedef struct {
  const char *factory;
  const char *props;
} ElementCase;

static const ElementCase kElements[] = {
  { "v3dvp9lpf", "level=40 sharpness=2" },
  { "v3dvp9idct", "" },
  { "v3dh264deblock", "qp=40 transform-8x8=true" },
};

/* ---- pipelines ---- */

typedef struct {
  int buffers;
  GstClockTime first_pts_after_flush;
  gboolean flushed;
} PadCount;

static GstPadProbeReturn count_probe (GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  PadCount *c = data;
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);
    if (c->flushed && c->first_pts_after_flush == GST_CLOCK_TIME_NONE)
      c->first_pts_after_flush = GST_BUFFER_PTS (b);
    c->buffers++;
  } else if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_EVENT_FLUSH) {
    GstEvent *e = GST_PAD_PROBE_INFO_EVENT (info);
    if (GST_EVENT_TYPE (e) == GST_EVENT_FLUSH_STOP) {
      c->flushed = TRUE;
      c->first_pts_after_flush = GST_CLOCK_TIME_NONE;
      c->buffers = 0;
    }
  }
  (void) pad;
  return GST_PAD_PROBE_OK;
}

static GstElement *make_pipeline (const char *desc) {
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  fail_unless (p != NULL, "pipeline '%s': %s", desc, err ? err->message : "?");
  return p;
}

/* Attaches a counting probe (buffers and flushes) to the sink pad of the element named name. */
static void add_count_probe (GstElement *pipeline, const char *name, PadCount *c) {
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  fail_unless (e != NULL);
  GstPad *pad = gst_element_get_static_pad (e, "sink");
  c->buffers = 0;
  c->flushed = FALSE;
  c->first_pts_after_flush = GST_CLOCK_TIME_NONE;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      count_probe, c, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

/* Waits for EOS (TRUE) or an error (fails the test) within 60 s. */
static void wait_eos (GstElement *pipeline, const char *what) {
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "%s: no EOS within 60 s", what);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (m, &e, &dbg);
    fail ("%s: error %s (%s)", what, e ? e->message : "?", dbg ? dbg : "");
  }
  gst_message_unref (m);
  gst_object_unref (bus);
}

static void set_state_sync (GstElement *p, GstState s, const char *what) {
  GstStateChangeReturn r = gst_element_set_state (p, s);
  fail_if (r == GST_STATE_CHANGE_FAILURE, "%s: change to %s failed", what,
      gst_element_state_get_name (s));
  r = gst_element_get_state (p, NULL, NULL, 30 * GST_SECOND);
  fail_if (r == GST_STATE_CHANGE_FAILURE || r == GST_STATE_CHANGE_ASYNC,
      "%s: state %s not reached within 30 s (%s)", what, gst_element_state_get_name (s),
      gst_element_state_change_return_get_name (r));
}

static const char *backends_to_test (int i) {
  static const char *b[] = { "cpu", "scalar", "gpu", "hybrid" };
  return i < 4 ? b[i] : NULL;
}

static gboolean backend_runs (const char *backend) {
  if (strcmp (backend, "gpu") == 0 || strcmp (backend, "hybrid") == 0)
    return want_gpu ();
  return TRUE;
}

static gboolean planes_equal_quiet (const Planes *a, const Planes *b) {
  for (int p = 0; p < 3; p++)
    if (memcmp (a->plane[p], b->plane[p], (size_t) a->pw[p] * a->ph[p]) != 0)
      return FALSE;
  return TRUE;
}

/* A frame that deblocking filters change: flat 8x8 blocks with small steps between them and a
 * little noise (random pixels would exceed every threshold and pass unchanged). */
static GstBuffer *make_blocky_frame (Rng *r, int w, int h) {
  GstBuffer *buf = make_frame (r, w, h, (Layout) rng_below (r, LAYOUT_COUNT));
  GstVideoInfo info;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, w, h);
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_READWRITE));
  const int base = rng_range (r, 40, 200);
  for (int p = 0; p < 3; p++) {
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    const int pw = GST_VIDEO_FRAME_COMP_WIDTH (&f, p), ph = GST_VIDEO_FRAME_COMP_HEIGHT (&f, p);
    for (int y = 0; y < ph; y++)
      for (int x = 0; x < pw; x++) {
        const int block = (x / 8) * 7 + (y / 8) * 13;
        d[y * stride + x] = (guint8) (base + (block % 9) - 4 + (int) rng_below (r, 2));
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* ---- renegotiation ---- */

/* Output of a fresh element for one frame: what the long-lived one must also give. */
static Planes fresh_output (const ElementCase *ec, const char *backend, GstBuffer *in, int w,
    int h) {
  gchar *props = g_strdup_printf ("%s backend=%s", ec->props, backend);
  TestElement t = test_element_new (ec->factory, props);
  g_free (props);
  gst_harness_set_src_caps (t.h, i420_caps (w, h));
  GstBuffer *out = gst_harness_push_and_pull (t.h, gst_buffer_copy_deep (in));
  fail_unless (out != NULL);
  Planes p = read_planes (out, w, h);
  gst_buffer_unref (out);
  test_element_free (&t);
  return p;
}

GST_START_TEST (test_renegotiate)
{
  static const int sizes[][2] = { { 320, 240 }, { 176, 144 }, { 250, 130 }, { 320, 240 }, { 64, 64 } };
  Rng r;
  rng_init (&r, g_seed);
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    for (int bi = 0; backends_to_test (bi); bi++) {
      const char *backend = backends_to_test (bi);
      if (!backend_runs (backend))
        continue;
      gchar *props = g_strdup_printf ("%s backend=%s", kElements[e].props, backend);
      TestElement t = test_element_new (kElements[e].factory, props);
      g_free (props);
      for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++) {
        const int w = sizes[s][0], h = sizes[s][1];
        gst_harness_set_src_caps (t.h, i420_caps (w, h));
        for (int f = 0; f < 2; f++) {
          GstBuffer *in = make_blocky_frame (&r, w, h);
          Planes want = fresh_output (&kElements[e], backend, in, w, h);
          GstBuffer *in_copy = gst_buffer_copy_deep (in);
          GstBuffer *out = gst_harness_push_and_pull (t.h, in);
          fail_unless (out != NULL, "%s %s: no output after renegotiating to %dx%d",
              kElements[e].factory, backend, w, h);
          Planes got = read_planes (out, w, h);
          if (strcmp (kElements[e].factory, "v3dvp9lpf") == 0 && s == 0 && f == 0) {
            /* The content is one that the filter changes: the comparison means something. */
            Planes orig = read_planes (in_copy, w, h);
            fail_if (planes_equal_quiet (&orig, &got), "%s: the filter changed nothing",
                kElements[e].factory);
            planes_clear (&orig);
          }
          gst_buffer_unref (in_copy);
          gchar *what = g_strdup_printf ("%s backend=%s, size %d (%dx%d), frame %d, seed 0x%"
              G_GINT64_MODIFIER "x", kElements[e].factory, backend, (int) s, w, h, f, g_seed);
          fail_unless (planes_equal (&got, &want, what), "%s: differs from a fresh element",
              what);
          g_free (what);
          planes_clear (&got);
          planes_clear (&want);
          gst_buffer_unref (out);
        }
      }
      test_element_free (&t);
    }
  }
}
GST_END_TEST;

/* ---- read-only input: a frame the upstream still holds is never written ---- */

GST_START_TEST (test_readonly_input)
{
  Rng r;
  rng_init (&r, g_seed ^ 0x0EAD0411ull);
  const int w = 176, h = 144;
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    gchar *props = g_strdup_printf ("%s backend=cpu", kElements[e].props);
    TestElement t = test_element_new (kElements[e].factory, props);
    g_free (props);
    gst_harness_set_src_caps (t.h, i420_caps (w, h));
    for (int f = 0; f < 3; f++) {
      GstBuffer *in = make_blocky_frame (&r, w, h);
      Planes want = fresh_output (&kElements[e], "cpu", in, w, h);
      Planes before = read_planes (in, w, h);
      /* Like a decoder's reference frame: upstream keeps a reference. */
      GstBuffer *kept = gst_buffer_ref (in);
      GstBuffer *out = gst_harness_push_and_pull (t.h, in);
      fail_unless (out != NULL);
      fail_unless (out != kept, "%s: wrote into a buffer upstream still holds",
          kElements[e].factory);
      Planes after = read_planes (kept, w, h);
      fail_unless (planes_equal (&after, &before, "upstream's frame after the element"));
      Planes got = read_planes (out, w, h);
      fail_unless (planes_equal (&got, &want, "output of a read-only input"));
      fail_unless (gst_memory_is_type (gst_buffer_peek_memory (out, 0), "V3dSharedMemory"),
          "%s: the copy is not in the element's shared-memory pool", kElements[e].factory);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (kept));
      planes_clear (&want);
      planes_clear (&before);
      planes_clear (&after);
      planes_clear (&got);
      gst_buffer_unref (out);
      gst_buffer_unref (kept);
    }
    fail_unless_equals_uint64 (stats_u64 (t.element, "input-copies"), 3);
    test_element_free (&t);
  }
}
GST_END_TEST;

/* ---- QoS: a frame already too late for the sink is dropped, not processed ---- */

GST_START_TEST (test_qos)
{
  Rng r;
  rng_init (&r, g_seed ^ 0x0005ull);
  const int w = 160, h = 96;
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    TestElement t = test_element_new (kElements[e].factory, kElements[e].props);
    gboolean qos = FALSE;
    g_object_get (t.element, "qos", &qos, NULL);
    fail_unless (qos, "%s: QoS off by default", kElements[e].factory);
    gst_harness_set_src_caps (t.h, i420_caps (w, h));
    /* Frame 0 at 0 s goes through. */
    GstBuffer *b = make_blocky_frame (&r, w, h);
    GST_BUFFER_PTS (b) = 0;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    gst_buffer_unref (gst_harness_push_and_pull (t.h, b));
    /* The sink reports that frames before 2 s are late. */
    fail_unless (gst_harness_push_upstream_event (t.h, gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW,
                0.5, GST_SECOND, GST_SECOND)));
    const guint64 before = stats_u64 (t.element, "frames");
    b = make_blocky_frame (&r, w, h);
    GST_BUFFER_PTS (b) = GST_SECOND / 2;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (t.h, b), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_in_queue (t.h), 0);
    fail_unless_equals_uint64 (stats_u64 (t.element, "frames"), before);
    /* A frame on time is processed again. */
    b = make_blocky_frame (&r, w, h);
    GST_BUFFER_PTS (b) = 3 * GST_SECOND;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    gst_buffer_unref (gst_harness_push_and_pull (t.h, b));
    if (strcmp (kElements[e].factory, "v3dvp9lpf") == 0)
      fail_unless_equals_uint64 (stats_u64 (t.element, "frames"), before + 1);
    test_element_free (&t);
  }
}
GST_END_TEST;

/* ---- EOS: exactly the frames that went in come out, on every backend ---- */

GST_START_TEST (test_eos_frame_count)
{
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    for (int bi = 0; backends_to_test (bi); bi++) {
      const char *backend = backends_to_test (bi);
      if (!backend_runs (backend))
        continue;
      gchar *desc = g_strdup_printf ("videotestsrc num-buffers=25 pattern=ball ! "
          "video/x-raw,format=I420,width=250,height=130,framerate=30/1 ! %s %s backend=%s ! "
          "fakesink name=sink sync=false", kElements[e].factory, kElements[e].props, backend);
      GstElement *p = make_pipeline (desc);
      PadCount c;
      add_count_probe (p, "sink", &c);
      set_state_sync (p, GST_STATE_PLAYING, desc);
      wait_eos (p, desc);
      fail_unless_equals_int (c.buffers, 25);
      set_state_sync (p, GST_STATE_NULL, desc);
      gst_object_unref (p);
      g_free (desc);
    }
  }
}
GST_END_TEST;

/* ---- flushing seek ---- */

GST_START_TEST (test_flushing_seek)
{
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    gchar *desc = g_strdup_printf ("videotestsrc pattern=ball ! "
        "video/x-raw,format=I420,width=160,height=96,framerate=30/1 ! %s %s ! "
        "fakesink name=sink sync=false", kElements[e].factory, kElements[e].props);
    GstElement *p = make_pipeline (desc);
    PadCount c;
    add_count_probe (p, "sink", &c);
    set_state_sync (p, GST_STATE_PAUSED, desc);
    /* Seek to [2 s, 3 s): 30 frames, then EOS. */
    fail_unless (gst_element_seek (p, 1.0, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET, 2 * GST_SECOND,
            GST_SEEK_TYPE_SET, 3 * GST_SECOND), "%s: seek refused", desc);
    set_state_sync (p, GST_STATE_PLAYING, desc);
    wait_eos (p, desc);
    fail_unless (c.flushed, "%s: no flush reached the sink", desc);
    fail_unless_equals_uint64 (c.first_pts_after_flush, 2 * GST_SECOND);
    fail_unless_equals_int (c.buffers, 30);
    set_state_sync (p, GST_STATE_NULL, desc);
    gst_object_unref (p);
    g_free (desc);
  }
}
GST_END_TEST;

/* ---- state changes at any moment ---- */

GST_START_TEST (test_state_changes)
{
  static const GstState states[] = { GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING };
  Rng r;
  rng_init (&r, g_seed ^ 0x5157A7E5ull);
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    const char *backend = want_gpu () ? "hybrid" : "cpu";
    gchar *desc = g_strdup_printf ("videotestsrc pattern=snow ! "
        "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! %s %s backend=%s ! "
        "fakesink sync=true", kElements[e].factory, kElements[e].props, backend);
    GstElement *p = make_pipeline (desc);
    for (int i = 0; i < 40; i++) {
      GstState s = states[rng_below (&r, 4)];
      gchar *what = g_strdup_printf ("%s, transition %d to %s, seed 0x%" G_GINT64_MODIFIER "x",
          desc, i, gst_element_state_get_name (s), g_seed);
      set_state_sync (p, s, what);
      g_free (what);
      g_usleep (rng_below (&r, 20000));
    }
    set_state_sync (p, GST_STATE_NULL, desc);
    gst_object_unref (p);
    g_free (desc);
  }
}
GST_END_TEST;

/* ---- several instances share one context ---- */

GST_START_TEST (test_instances_share_context)
{
  const char *desc = "videotestsrc num-buffers=12 ! "
      "video/x-raw,format=I420,width=176,height=144,framerate=30/1 ! "
      "v3dvp9lpf name=a level=20 backend=cpu ! v3dvp9lpf name=b level=50 backend=cpu ! "
      "v3dvp9idct name=c backend=cpu ! v3dh264deblock name=d qp=40 backend=cpu ! fakesink";
  GstElement *p = make_pipeline (desc);
  set_state_sync (p, GST_STATE_PLAYING, desc);
  wait_eos (p, desc);
  GstElement *a = gst_bin_get_by_name (GST_BIN (p), "a");
  GstElement *b = gst_bin_get_by_name (GST_BIN (p), "b");
  GstElement *d = gst_bin_get_by_name (GST_BIN (p), "d");
  /* One context: the frames the filters sent to it are counted together (all three kinds of
   * element in one pipeline). */
  guint64 fa = stats_u64 (a, "frames"), fb = stats_u64 (b, "frames"), fd = stats_u64 (d, "frames");
  fail_unless_equals_uint64 (fa, 12);
  fail_unless_equals_uint64 (fb, 12);
  fail_unless_equals_uint64 (fd, 12);
  fail_unless_equals_uint64 (stats_u64 (a, "context-frames"), fa + fb + fd);
  fail_unless_equals_uint64 (stats_u64 (b, "context-frames"), fa + fb + fd);
  fail_unless_equals_uint64 (stats_u64 (d, "context-frames"), fa + fb + fd);
  fail_unless_equals_int (stats_int (a, "cpu-threads"), stats_int (d, "cpu-threads"));
  gst_object_unref (d);
  gst_object_unref (a);
  gst_object_unref (b);
  set_state_sync (p, GST_STATE_NULL, desc);
  gst_object_unref (p);
}
GST_END_TEST;

static GstClockTime pipeline_min_latency (const char *desc);

/* ---- frames in flight: held, processed together, pushed in order; drained, flushed ---- */

GST_START_TEST (test_frames_in_flight)
{
  Rng r;
  rng_init (&r, g_seed ^ 0xF11647ull);
  const int w = 176, h = 144, n = 4;
  const gboolean gpu = want_gpu ();
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    for (int bi = 0; bi < 2; bi++) {
      /* hybrid with a GPU holds frames; cpu ignores the property (nothing to overlap), except
       * the loop filter and H.264 deblocking with 2 threads (a batch's wavefronts run together
       * on the workers). */
      const char *backend = bi == 0 ? "hybrid" : "cpu";
      if (bi == 0 && !gpu)
        continue;
      const gboolean wavefronts = strcmp (kElements[e].factory, "v3dvp9idct") != 0;
      const int held = bi == 0 || wavefronts ? n : 1;
      gchar *props = g_strdup_printf ("%s backend=%s cpu-threads=2 max-frames-in-flight=%d",
          kElements[e].props, backend, n);
      TestElement t = test_element_new (kElements[e].factory, props);
      gst_harness_set_src_caps (t.h, i420_caps (w, h));
      Planes want[6];
      for (int f = 0; f < 6; f++) {
        GstBuffer *in = make_blocky_frame (&r, w, h);
        GST_BUFFER_PTS (in) = f * GST_SECOND / 30;
        want[f] = fresh_output (&kElements[e], "cpu", in, w, h);
        fail_unless_equals_int (gst_harness_push (t.h, in), GST_FLOW_OK);
        /* Outputs come in whole batches of `held` frames. */
        const int out_now = (f + 1) / held * held;
        fail_unless_equals_int (gst_harness_buffers_received (t.h), out_now);
      }
      /* EOS drains the frames still held. */
      fail_unless (gst_harness_push_event (t.h, gst_event_new_eos ()));
      fail_unless_equals_int (gst_harness_buffers_received (t.h), 6);
      for (int f = 0; f < 6; f++) {
        GstBuffer *out = gst_harness_pull (t.h);
        fail_unless (out != NULL);
        fail_unless_equals_uint64 (GST_BUFFER_PTS (out), f * GST_SECOND / 30);
        Planes got = read_planes (out, w, h);
        gchar *what = g_strdup_printf ("%s, frame %d of a batch", props, f);
        fail_unless (planes_equal (&got, &want[f], what));
        g_free (what);
        planes_clear (&got);
        planes_clear (&want[f]);
        gst_buffer_unref (out);
      }
      test_element_free (&t);
      /* A flush drops the frames held. */
      if (held > 1) {
        TestElement t2 = test_element_new (kElements[e].factory, props);
        gst_harness_set_src_caps (t2.h, i420_caps (w, h));
        for (int f = 0; f < 2; f++)
          fail_unless_equals_int (gst_harness_push (t2.h, make_blocky_frame (&r, w, h)),
              GST_FLOW_OK);
        fail_unless (gst_harness_push_event (t2.h, gst_event_new_flush_start ()));
        fail_unless (gst_harness_push_event (t2.h, gst_event_new_flush_stop (TRUE)));
        gst_harness_push_event (t2.h, gst_event_new_segment (&(GstSegment) {
            .format = GST_FORMAT_TIME, .rate = 1.0, .applied_rate = 1.0,
            .stop = GST_CLOCK_TIME_NONE, .duration = GST_CLOCK_TIME_NONE }));
        fail_unless (gst_harness_push_event (t2.h, gst_event_new_eos ()));
        fail_unless_equals_int (gst_harness_buffers_received (t2.h), 0);
        test_element_free (&t2);
      }
      g_free (props);
    }
  }
}
GST_END_TEST;

/* v3dvp9idct with residual metas: a batch goes to the library at once (several GPU jobs queued,
 * whole frames on both sides), and the output equals the scalar backend's. */
static gchar *idct_checksum (const char *props, guint64 *batches, guint64 *bcpu,
    guint64 *bgpu) {
  gchar *desc = g_strdup_printf ("v3dvp9residualsrc num-buffers=16 seed=11 ! "
      "video/x-raw,width=352,height=288,framerate=30/1 ! v3dvp9idct name=el checksum=true %s ! "
      "fakesink", props);
  GstElement *p = make_pipeline (desc);
  set_state_sync (p, GST_STATE_PLAYING, desc);
  wait_eos (p, desc);
  GstElement *el = gst_bin_get_by_name (GST_BIN (p), "el");
  GstStructure *s = NULL;
  g_object_get (el, "stats", &s, NULL);
  fail_unless (s != NULL);
  gchar *sum = g_strdup (gst_structure_get_string (s, "checksum"));
  fail_unless (sum != NULL, "%s: no checksum", desc);
  if (batches)
    gst_structure_get_uint64 (s, "frames-in-flight-batches", batches);
  if (bcpu)
    gst_structure_get_uint64 (s, "blocks-cpu", bcpu);
  if (bgpu)
    gst_structure_get_uint64 (s, "blocks-gpu", bgpu);
  gst_structure_free (s);
  gst_object_unref (el);
  set_state_sync (p, GST_STATE_NULL, desc);
  gst_object_unref (p);
  g_free (desc);
  return sum;
}

GST_START_TEST (test_idct_frames_in_flight)
{
  if (!want_gpu ())
    return;
  gchar *want = idct_checksum ("backend=scalar", NULL, NULL, NULL);
  guint64 batches = 0, bcpu = 0, bgpu = 0;
  gchar *got = idct_checksum ("backend=hybrid max-frames-in-flight=8", &batches, &bcpu, &bgpu);
  fail_unless_equals_string (got, want);
  fail_unless_equals_uint64 (batches, 2);  /* 16 frames in batches of 8 */
  fail_unless (bcpu > 0 && bgpu > 0, "blocks on the CPU %" G_GUINT64_FORMAT ", GPU %"
      G_GUINT64_FORMAT, bcpu, bgpu);
  g_free (want);
  g_free (got);
}
GST_END_TEST;

GST_START_TEST (test_frames_in_flight_latency)
{
  if (!want_gpu ())
    return;
  const char *src = "videotestsrc is-live=true ! "
      "video/x-raw,format=I420,width=160,height=96,framerate=30/1";
  gchar *plain = g_strdup_printf ("%s ! fakesink sync=true", src);
  GstClockTime base = pipeline_min_latency (plain);
  g_free (plain);
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    gchar *desc = g_strdup_printf ("%s ! %s %s backend=hybrid max-frames-in-flight=4 ! "
        "fakesink sync=true", src, kElements[e].factory, kElements[e].props);
    /* Three frames of 1/30 s wait behind the first of a batch. */
    fail_unless_equals_uint64 (pipeline_min_latency (desc),
        base + gst_util_uint64_scale_int (3 * GST_SECOND, 1, 30));
    g_free (desc);
  }
}
GST_END_TEST;

/* ---- periodic statistics: stats-interval, with the scheduler's figures ---- */

GST_START_TEST (test_stats_interval)
{
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    /* 30 frames at 30 frames/s through a synchronising sink: about one second. */
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=30 ! "
        "video/x-raw,format=I420,width=160,height=96,framerate=30/1 ! %s %s name=el "
        "stats-interval=200 ! fakesink sync=true", kElements[e].factory, kElements[e].props);
    GstElement *p = make_pipeline (desc);
    GstBus *bus = gst_element_get_bus (p);
    set_state_sync (p, GST_STATE_PLAYING, desc);
    int periodic = 0;
    for (;;) {
      GstMessage *m = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
      fail_unless (m != NULL, "%s: no EOS", desc);
      if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT) {
        const GstStructure *s = gst_message_get_structure (m);
        if (gst_structure_has_name (s, "v3d-stats")) {
          periodic++;
          fail_unless (gst_structure_has_field (s, "split-gpu-share") &&
              gst_structure_has_field (s, "cpu-throughput") &&
              gst_structure_has_field (s, "gpu-queue-depth") &&
              gst_structure_has_field (s, "frame-time-p99"),
              "%s: v3d-stats without the scheduler's figures", desc);
        }
        gst_message_unref (m);
        continue;
      }
      fail_unless (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "%s: error", desc);
      gst_message_unref (m);
      break;
    }
    /* At 200 ms intervals over about a second, and one more at EOS. */
    fail_unless (periodic >= 4, "%s: %d v3d-stats messages", desc, periodic);
    gst_object_unref (bus);
    set_state_sync (p, GST_STATE_NULL, desc);
    gst_object_unref (p);
    g_free (desc);
  }
}
GST_END_TEST;

/* ---- latency ---- */

static GstClockTime pipeline_min_latency (const char *desc) {
  GstElement *p = make_pipeline (desc);
  set_state_sync (p, GST_STATE_PLAYING, desc);
  GstQuery *q = gst_query_new_latency ();
  fail_unless (gst_element_query (p, q), "%s: latency query not answered", desc);
  gboolean live = FALSE;
  GstClockTime min = 0, max = 0;
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live, "%s: not live", desc);
  gst_query_unref (q);
  set_state_sync (p, GST_STATE_NULL, desc);
  gst_object_unref (p);
  return min;
}

GST_START_TEST (test_latency)
{
  const char *src = "videotestsrc is-live=true ! "
      "video/x-raw,format=I420,width=160,height=96,framerate=30/1";
  gchar *plain = g_strdup_printf ("%s ! fakesink sync=true", src);
  GstClockTime base = pipeline_min_latency (plain);
  g_free (plain);
  for (size_t e = 0; e < G_N_ELEMENTS (kElements); e++) {
    gchar *desc = g_strdup_printf ("%s ! %s %s ! fakesink sync=true", src, kElements[e].factory,
        kElements[e].props);
    /* No frames in flight: the element adds no latency of its own. */
    fail_unless_equals_uint64 (pipeline_min_latency (desc), base);
    g_free (desc);
  }
}
GST_END_TEST;

static Suite *behaviour_suite (void) {
  Suite *s = suite_create ("v3d-behaviour");
  TCase *tc = tcase_create ("general");
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_renegotiate);
  tcase_add_test (tc, test_eos_frame_count);
  tcase_add_test (tc, test_readonly_input);
  tcase_add_test (tc, test_qos);
  tcase_add_test (tc, test_flushing_seek);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_instances_share_context);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_stats_interval);
  tcase_add_test (tc, test_frames_in_flight);
  tcase_add_test (tc, test_frames_in_flight_latency);
  tcase_add_test (tc, test_idct_frames_in_flight);
  return s;
}

int main (int argc, char **argv) {
  gst_check_init (&argc, &argv);
  const char *env = g_getenv ("V3D_TEST_SEED");
  if (env)
    g_seed = g_ascii_strtoull (env, NULL, 0);
  printf ("seed 0x%" G_GINT64_MODIFIER "x (V3D_TEST_SEED)\n", g_seed);
  return gst_check_run_suite (behaviour_suite (), "v3d-behaviour", __FILE__);
}
