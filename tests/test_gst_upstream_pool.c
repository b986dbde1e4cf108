/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which real upstream elements decode (or produce) straight into the v3d buffer pool: each
 * upstream chain feeds v3dvp9lpf (CPU backend), and a probe on the filter's sink pad counts the
 * buffers whose every memory is GPU-visible shared memory (GST_V3D_SHARED_MEMORY_TYPE,
 * "V3dSharedMemory"). Frames that arrive in other memory cost the GPU path a staging copy in and
 * out (V3dStats.copies); frames in the pool cost nothing.
 *
 * Expected (GStreamer 1.22, Debian 12), and asserted: videotestsrc, avdec_h264, avdec_vp9 and
 * avdec_mpeg2video honour the pool for every frame. vp9dec (libvpx) and rawvideoparse do not
 * (rawvideoparse hands out pieces of its input buffers; vp9dec wraps libvpx's own frame
 * buffers): they are measured and printed, not asserted. A chain whose elements are not
 * installed is reported as skipped; exit 77 when none can run.
 *
 * Inputs are made here: videotestsrc, encoders of the chain (x264enc, vp9enc), and for MPEG-2
 * ffmpeg's mpeg2video (GStreamer 1.22's avenc_mpeg2video rejects every frame rate).
 */
#include <gst/gst.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 320
#define HEIGHT 240
#define FRAMES 10

typedef struct {
  int total, shared;
} Counts;

static GstPadProbeReturn count_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  Counts *c = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gboolean all = gst_buffer_n_memory (buf) > 0;
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++)
    if (!gst_memory_is_type (gst_buffer_peek_memory (buf, i), "V3dSharedMemory"))
      all = FALSE;
  c->total++;
  if (all)
    c->shared++;
  (void) pad;
  return GST_PAD_PROBE_OK;
}

/* Runs "<chain> ! v3dvp9lpf name=f backend=cpu ! fakesink"; FALSE on an error message. */
static gboolean run_chain (const char *chain, Counts *c) {
  gchar *desc = g_strdup_printf ("%s ! v3dvp9lpf name=f backend=cpu ! fakesink", chain);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline) {
    fprintf (stderr, "  cannot build: %s\n", err ? err->message : "?");
    g_clear_error (&err);
    return FALSE;
  }
  GstElement *f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  GstPad *pad = gst_element_get_static_pad (f, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, c, NULL);
  gst_object_unref (pad);
  gst_object_unref (f);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (msg && !ok) {
    GError *e = NULL;
    gst_message_parse_error (msg, &e, NULL);
    fprintf (stderr, "  pipeline error: %s\n", e ? e->message : "?");
    g_clear_error (&e);
  } else if (!msg) {
    fprintf (stderr, "  timed out\n");
  }
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return ok;
}

static gboolean have_elements (const char *const *names) {
  for (; *names; names++) {
    GstElementFactory *f = gst_element_factory_find (*names);
    if (!f)
      return FALSE;
    gst_object_unref (f);
  }
  return TRUE;
}

/* Makes the MPEG-2 clip with ffmpeg; FALSE when ffmpeg is missing or fails. */
static gboolean make_mpeg2 (const char *path) {
  gchar *cmd = g_strdup_printf ("ffmpeg -nostdin -loglevel error -y -f lavfi "
      "-i testsrc2=size=%dx%d:rate=25 -frames:v %d -c:v mpeg2video -b:v 200k '%s'",
      WIDTH, HEIGHT, FRAMES, path);
  int rc = system (cmd);
  g_free (cmd);
  return rc == 0 && g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Makes a raw I420 clip with GStreamer itself. */
static gboolean make_raw (const char *path) {
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d ! video/x-raw,format=I420,"
      "width=%d,height=%d ! filesink location=\"%s\"", FRAMES, WIDTH, HEIGHT, path);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!p) {
    g_clear_error (&err);
    return FALSE;
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean ok = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
  if (m)
    gst_message_unref (m);
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return ok;
}

int main (int argc, char **argv) {
  gst_init (&argc, &argv);
  gchar *dir = g_dir_make_tmp ("v3d-upstream-XXXXXX", NULL);
  gchar *m2v = g_build_filename (dir, "clip.m2v", NULL);
  gchar *yuv = g_build_filename (dir, "clip.yuv", NULL);
  gboolean have_m2v = make_mpeg2 (m2v), have_yuv = make_raw (yuv);
  const gchar *src = "videotestsrc num-buffers=10 ! video/x-raw,format=I420,width=320,"
      "height=240,framerate=25/1";

  struct {
    const char *upstream;
    const char *needs[4];
    gboolean must_share; /* every frame must arrive in the v3d pool */
    gchar *chain;
    gboolean input_ok;
  } cases[] = {
    { "videotestsrc", { "videotestsrc", NULL }, TRUE,
      g_strdup (src), TRUE },
    { "avdec_h264", { "x264enc", "h264parse", "avdec_h264", NULL }, TRUE,
      g_strdup_printf ("%s ! x264enc ! h264parse ! avdec_h264", src), TRUE },
    { "avdec_vp9", { "vp9enc", "avdec_vp9", NULL }, TRUE,
      g_strdup_printf ("%s ! vp9enc ! avdec_vp9", src), TRUE },
    { "avdec_mpeg2video", { "mpegvideoparse", "avdec_mpeg2video", NULL }, TRUE,
      g_strdup_printf ("filesrc location=\"%s\" ! mpegvideoparse ! avdec_mpeg2video", m2v),
      have_m2v },
    { "vp9dec", { "vp9enc", "vp9dec", NULL }, FALSE,
      g_strdup_printf ("%s ! vp9enc ! vp9dec", src), TRUE },
    { "rawvideoparse", { "rawvideoparse", NULL }, FALSE,
      g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse width=%d height=%d format=i420",
          yuv, WIDTH, HEIGHT), have_yuv },
  };
  int failed = 0, ran = 0;
  printf ("%-18s %8s %14s %s\n", "upstream", "frames", "in v3d pool", "GPU path");
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++) {
    Counts c = { 0, 0 };
    if (!have_elements (cases[i].needs) || !cases[i].input_ok) {
      printf ("%-18s skipped (elements or input tool missing)\n", cases[i].upstream);
      g_free (cases[i].chain);
      continue;
    }
    gboolean ok = run_chain (cases[i].chain, &c);
    ran++;
    /* What is not in shared memory the GPU path imports (VK_EXT_external_memory_host, where the
     device has it) or else copies in before and out after. */
    printf ("%-18s %8d %8d (%3.0f%%) %s\n", cases[i].upstream, c.total, c.shared,
        c.total ? 100.0 * c.shared / c.total : 0.0,
        c.total && c.shared == c.total ? "0" : "imported, or copied in and out");
    if (!ok || c.total != FRAMES) {
      printf ("FAIL %s: pipeline did not deliver %d frames (%d)\n", cases[i].upstream, FRAMES,
          c.total);
      failed++;
    } else if (cases[i].must_share && c.shared != c.total) {
      printf ("FAIL %s: %d of %d frames outside the v3d pool\n", cases[i].upstream,
          c.total - c.shared, c.total);
      failed++;
    }
    g_free (cases[i].chain);
  }
  g_unlink (m2v);
  g_unlink (yuv);
  g_rmdir (dir);
  g_free (m2v);
  g_free (yuv);
  g_free (dir);
  printf ("%d passed, %d failed\n", ran - failed, failed);
  if (ran == 0)
    return 77;
  return failed ? 1 : 0;
}
