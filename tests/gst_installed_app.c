/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An application built against the INSTALLED gst-v3d (tests/gst_installed_lib.sh compiles it
 * with `pkg-config --cflags --libs gstreamer-v3d-1.0` of a `meson install --destdir` tree, no
 * source-tree paths): it shares a V3dContext with the element through the library's
 * gst_v3d_context_new_gst_context, attaches a GstV3dH264DeblockMeta to an I420 frame with
 * gst_buffer_add_v3d_h264_deblock_meta, pushes it through v3dh264deblock (appsrc ! element !
 * appsink) and checks:
 *  - the element came from the installed plugin directory (argv[1]);
 *  - the output equals v3d_h264_deblock_frame of the kernel library on the same frame and grid
 *    (the scalar backend, called here: an independent route to the result the meta asks for);
 *  - the output differs from the input (the grid's QPs filter), and the meta was consumed;
 *  - the element ran on the application's context (stats "backend" = "scalar");
 *  - the pushed buffer, which the application still references, was not written.
 * Prints the seed; SEED=... reproduces a run. Exit 0 on success, 1 on a failed check.
 */
#include <gst/gst.h>
#include <gst/v3d/gstv3d.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <v3d/v3d.h>

#define W 72 /* not a multiple of 16: a partial macroblock column */
#define H 40

static guint64 g_seed;
static int g_failed;

static guint64 rng_next(guint64 *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}
static int rng_below(guint64 *s, int n) { return (int)((rng_next(s) >> 33) % (guint64)n); }

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "FAIL (seed %" G_GUINT64_FORMAT "): %s\n", g_seed, what);
    g_failed = 1;
  }
}

/* A blocky picture: flat 8x8 blocks with small steps between them (what deblocking smooths). */
static void fill_frame(GstVideoFrame *f, guint64 *rng) {
  for (int p = 0; p < 3; p++) {
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA(f, p);
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(f, p);
    const int pw = GST_VIDEO_FRAME_COMP_WIDTH(f, p), ph = GST_VIDEO_FRAME_COMP_HEIGHT(f, p);
    const int bs = p ? 4 : 8;
    int level[32][32];
    for (int by = 0; by < 32; by++)
      for (int bx = 0; bx < 32; bx++) level[by][bx] = 100 + rng_below(rng, 24);
    for (int y = 0; y < ph; y++)
      for (int x = 0; x < pw; x++)
        d[y * stride + x] = (guint8)(level[y / bs][x / bs] + rng_below(rng, 3));
  }
}

/* Copies the visible planes of f into out (packed), returns the byte count. */
static gsize pack(const GstVideoFrame *f, guint8 *out) {
  gsize n = 0;
  for (int p = 0; p < 3; p++) {
    const guint8 *d = GST_VIDEO_FRAME_PLANE_DATA(f, p);
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(f, p);
    const int pw = GST_VIDEO_FRAME_COMP_WIDTH(f, p), ph = GST_VIDEO_FRAME_COMP_HEIGHT(f, p);
    for (int y = 0; y < ph; y++, n += pw) memcpy(out + n, d + (gsize)y * stride, pw);
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INSTALLED_PLUGIN_DIR\n", argv[0]);
    return 2;
  }
  const char *seed_env = getenv("SEED");
  g_seed = seed_env ? g_ascii_strtoull(seed_env, NULL, 0) : (guint64)g_get_real_time();
  printf("seed %" G_GUINT64_FORMAT "\n", g_seed);
  guint64 rng = g_seed | 1;
  gst_init(&argc, &argv);

  GstElementFactory *factory = gst_element_factory_find("v3dh264deblock");
  check(factory != NULL, "v3dh264deblock not found");
  if (!factory) return 1;
  GstPlugin *plugin = gst_plugin_feature_get_plugin(GST_PLUGIN_FEATURE(factory));
  const gchar *file = plugin ? gst_plugin_get_filename(plugin) : NULL;
  printf("plugin %s\n", file ? file : "?");
  check(file && g_str_has_prefix(file, argv[1]), "the element is not the installed plugin's");
  if (plugin) gst_object_unref(plugin);
  gst_object_unref(factory);

  /* The input frame and its meta: random QP (20..51) and bS per macroblock edge, two slices. */
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, W, H);
  GstBuffer *in = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&info), NULL);
  GstVideoFrame f;
  gst_video_frame_map(&f, &info, in, GST_MAP_WRITE);
  fill_frame(&f, &rng);
  gst_video_frame_unmap(&f);
  const int mb_w = (W + 15) / 16, mb_h = (H + 15) / 16;
  V3dH264MbInfo *mbs = g_new0(V3dH264MbInfo, mb_w * mb_h);
  for (int i = 0; i < mb_w * mb_h; i++) {
    mbs[i].qp = (uint8_t)(20 + rng_below(&rng, 32));
    mbs[i].transform_8x8 = (uint8_t)rng_below(&rng, 2);
    mbs[i].slice = (uint16_t)(i >= mb_w ? 1 : 0);
    for (int dir = 0; dir < 2; dir++)
      for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++)
          mbs[i].bs[dir][e][s] = (uint8_t)(e == 0 ? 1 + rng_below(&rng, 4) : rng_below(&rng, 4));
  }
  V3dH264SliceInfo slices[2];
  memset(slices, 0, sizeof(slices));
  slices[1].filter_offset_a = 4;
  slices[1].filter_offset_b = -2;
  slices[1].chroma_qp_index_offset = 2;
  slices[1].second_chroma_qp_index_offset = 2;
  check(gst_buffer_add_v3d_h264_deblock_meta(in, W, H, mbs, mb_w * mb_h, mb_w, slices, 2) != NULL,
        "gst_buffer_add_v3d_h264_deblock_meta");
  check(gst_buffer_get_v3d_h264_deblock_meta(in) != NULL, "the meta is not on the buffer");

  /* The reference: the kernel library's scalar backend on a copy of the frame. */
  const gsize frame_bytes = (gsize)W * H + 2 * (gsize)((W + 1) / 2) * ((H + 1) / 2);
  guint8 *orig = g_malloc(frame_bytes), *expect = g_malloc(frame_bytes);
  guint8 *got = g_malloc0(frame_bytes);
  GstBuffer *ref = gst_buffer_copy_deep(in);
  gst_video_frame_map(&f, &info, ref, GST_MAP_READWRITE);
  pack(&f, orig);
  V3dContext *ref_ctx = v3d_context_new("scalar", 1);
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  for (int p = 0; p < 3; p++) {
    planes[p] = GST_VIDEO_FRAME_PLANE_DATA(&f, p);
    strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE(&f, p);
  }
  check(ref_ctx && v3d_h264_deblock_frame(ref_ctx, planes, strides, W, H, mbs, mb_w, slices, 2) ==
                       V3D_OK, "v3d_h264_deblock_frame (reference)");
  pack(&f, expect);
  gst_video_frame_unmap(&f);
  gst_buffer_unref(ref);
  if (ref_ctx) v3d_context_free(ref_ctx);
  check(memcmp(orig, expect, frame_bytes) != 0, "the grid does not change the frame (test input)");

  /* The pipeline, on the application's context. */
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch(
      "appsrc name=src format=time ! v3dh264deblock name=d ! appsink name=sink sync=false", &err);
  check(pipe != NULL, err ? err->message : "gst_parse_launch");
  if (!pipe) return 1;
  V3dContext *app_ctx = v3d_context_new("scalar", 1);
  GstContext *gctx = gst_v3d_context_new_gst_context(app_ctx, "scalar"); /* takes app_ctx */
  gst_element_set_context(pipe, gctx);
  gst_context_unref(gctx);
  GstElement *src = gst_bin_get_by_name(GST_BIN(pipe), "src");
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
  GstElement *deblock = gst_bin_get_by_name(GST_BIN(pipe), "d");
  GstCaps *caps = gst_video_info_to_caps(&info);
  gst_caps_set_simple(caps, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  g_object_set(src, "caps", caps, NULL);
  gst_caps_unref(caps);
  gst_element_set_state(pipe, GST_STATE_PLAYING);
  GST_BUFFER_PTS(in) = 0;
  GST_BUFFER_DURATION(in) = GST_SECOND / 30;
  GstFlowReturn flow = GST_FLOW_ERROR;
  g_signal_emit_by_name(src, "push-buffer", in, &flow); /* appsrc takes its own reference */
  check(flow == GST_FLOW_OK, "push-buffer");
  g_signal_emit_by_name(src, "end-of-stream", &flow);
  GstSample *sample = NULL;
  g_signal_emit_by_name(sink, "pull-sample", &sample);
  check(sample != NULL, "no output frame (see the pipeline's error above)");
  if (sample) {
    GstBuffer *out = gst_sample_get_buffer(sample);
    check(gst_buffer_get_v3d_h264_deblock_meta(out) == NULL, "the meta was not consumed");
    gst_video_frame_map(&f, &info, out, GST_MAP_READ);
    pack(&f, got);
    gst_video_frame_unmap(&f);
    check(memcmp(got, expect, frame_bytes) == 0, "output differs from v3d_h264_deblock_frame's");
    check(memcmp(got, orig, frame_bytes) != 0, "output equals the input: nothing deblocked");
    gst_sample_unref(sample);
  }
  GstStructure *stats = NULL;
  g_object_get(deblock, "stats", &stats, NULL);
  const gchar *backend = stats ? gst_structure_get_string(stats, "backend") : NULL;
  guint64 with_meta = 0;
  if (stats) gst_structure_get_uint64(stats, "frames-with-meta", &with_meta);
  printf("stats backend %s, frames-with-meta %" G_GUINT64_FORMAT "\n", backend ? backend : "?",
         with_meta);
  check(g_strcmp0(backend, "scalar") == 0, "the element did not use the application's context");
  check(with_meta == 1, "frames-with-meta != 1");
  if (stats) gst_structure_free(stats);

  /* The application's reference: the element must have filtered a copy, not this buffer. */
  gst_video_frame_map(&f, &info, in, GST_MAP_READ);
  pack(&f, got);
  gst_video_frame_unmap(&f);
  check(memcmp(got, orig, frame_bytes) == 0, "the element wrote a buffer the application holds");
  check(gst_buffer_get_v3d_h264_deblock_meta(in) != NULL, "the meta left the application's buffer");

  gst_element_set_state(pipe, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(deblock);
  gst_object_unref(pipe);
  gst_buffer_unref(in);
  g_free(mbs);
  g_free(orig);
  g_free(expect);
  g_free(got);
  gst_deinit();
  printf("%s\n", g_failed ? "FAILED" : "OK");
  return g_failed;
}
