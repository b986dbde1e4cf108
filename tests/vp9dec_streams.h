/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Streams for the v3dvp9dec tests (tests/test_gst_vp9dec.c): a moving textured Y4M source
 * written here, VP9 streams made from it with vpxenc at test time (IVF or WebM), libvpx's
 * per-frame MD5s (`vpxdec --i420 --md5` with one output file per frame, as tests/vp9_streams.sh
 * does), and IVF files read and written packet by packet (to damage, cut or join streams).
 * Everything is static: include once, after <gst/check/gstcheck.h>.
 */
#ifndef V3D_TESTS_VP9DEC_STREAMS_H
#define V3D_TESTS_VP9DEC_STREAMS_H

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Scratch directory of this process (removed at exit unless V3D_TEST_KEEP is set). */
static gchar *g_tmp_dir;
static GPid g_tmp_owner;

/* atexit: only in the process that made the folder (check's forked tests share it). */
static void remove_tmp_dir(void) {
  if (!g_tmp_dir || g_getenv("V3D_TEST_KEEP") || getpid() != g_tmp_owner) return;
  gchar *argv[] = {(gchar *)"rm", (gchar *)"-rf", g_tmp_dir, NULL};
  g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

static const gchar *tmp_dir(void) {
  if (!g_tmp_dir) {
    g_tmp_dir = g_dir_make_tmp("v3dvp9dec-XXXXXX", NULL);
    g_assert(g_tmp_dir != NULL);
    g_tmp_owner = getpid();
    atexit(remove_tmp_dir);
  }
  return g_tmp_dir;
}

static gchar *tmp_path(const gchar *name) { return g_build_filename(tmp_dir(), name, NULL); }

/* Runs argv (NULL-terminated); returns its stdout (g_free) or NULL after a failure message. */
static gchar *run_tool(gchar **argv) {
  gchar *out = NULL, *err = NULL;
  gint status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                    &error) ||
      !g_spawn_check_wait_status(status, NULL)) {
    gchar *cmd = g_strjoinv(" ", argv);
    fprintf(stderr, "command failed: %s\n%s\n", cmd, error ? error->message : (err ? err : ""));
    g_free(cmd);
    g_clear_error(&error);
    g_free(out);
    g_free(err);
    return NULL;
  }
  g_free(err);
  return out;
}

/* A w x h, n-frame 4:2:0 (chroma444: 4:4:4) Y4M clip at 30 frames/s: a checkerboard with fine
 * texture panning right and down, chroma ramps moving the other way. */
static gchar *write_source(int w, int h, int n, gboolean chroma444) {
  gchar *name = g_strdup_printf("src-%dx%d-%d%s.y4m", w, h, n, chroma444 ? "-444" : "");
  gchar *path = tmp_path(name);
  g_free(name);
  if (g_file_test(path, G_FILE_TEST_EXISTS)) return path;
  FILE *f = fopen(path, "wb");
  g_assert(f != NULL);
  fprintf(f, "YUV4MPEG2 W%d H%d F30:1 Ip A1:1 %s\n", w, h, chroma444 ? "C444" : "C420jpeg");
  const int cw = chroma444 ? w : (w + 1) / 2, ch = chroma444 ? h : (h + 1) / 2;
  guint8 *row = g_malloc(w);
  for (int t = 0; t < n; t++) {
    fputs("FRAME\n", f);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int X = x + 3 * t, Y = y + 2 * t;
        row[x] = (guint8)(((X >> 4) + (Y >> 4)) % 2 * 110 + 50 + ((X * Y) & 31));
      }
      fwrite(row, 1, w, f);
    }
    for (int p = 0; p < 2; p++)
      for (int y = 0; y < ch; y++) {
        for (int x = 0; x < cw; x++)
          row[x] = (guint8)(96 + (((p ? y : x) + (p ? -t : t) * 2) & 63));
        fwrite(row, 1, cw, f);
      }
  }
  g_free(row);
  fclose(f);
  return path;
}

/* Encodes the w x h, n-frame source with vpxenc (extra options: space-separated, may be "")
 * into tmp/NAME (".ivf" or ".webm" chooses the container). Returns the path, or NULL. */
static gchar *encode(const gchar *name, int w, int h, int n, const gchar *extra) {
  gchar *path = tmp_path(name);
  if (g_file_test(path, G_FILE_TEST_EXISTS)) return path;
  const gboolean i444 = strstr(extra, "--profile=1") != NULL;
  gchar *src = write_source(w, h, n, i444);
  gchar *cmd = g_strdup_printf("vpxenc --codec=vp9 %s --quiet --limit=%d --good --cpu-used=4 "
                               "%s %s -o %s %s", g_str_has_suffix(name, ".webm") ? "--webm" :
                               "--ivf", n, i444 ? "--i444" : "", extra, path, src);
  gchar **argv = g_strsplit_set(cmd, " ", -1);
  /* drop empty arguments (doubled spaces) */
  int j = 0;
  for (int i = 0; argv[i]; i++) {
    if (*argv[i]) argv[j++] = argv[i];
    else g_free(argv[i]);
  }
  argv[j] = NULL;
  gchar *out = run_tool(argv);
  g_strfreev(argv);
  g_free(cmd);
  g_free(src);
  if (!out) {
    g_free(path);
    return NULL;
  }
  g_free(out);
  return path;
}

/* libvpx's MD5 of each shown frame of a stream (IVF or WebM), in display order (g_ptr_array
 * of gchar *). */
static GPtrArray *vpxdec_md5s(const gchar *stream) {
  gchar *base = g_path_get_basename(stream);
  gchar *pattern = g_strdup_printf("%s/ref-%s-%%4.i420", tmp_dir(), base);
  gchar *argv[] = {(gchar *)"vpxdec", (gchar *)"--i420", (gchar *)"--md5", (gchar *)"-o",
                   pattern, (gchar *)stream, NULL};
  gchar *out = run_tool(argv);
  GPtrArray *md5 = g_ptr_array_new_with_free_func(g_free);
  if (out) {
    gchar **lines = g_strsplit(out, "\n", -1);
    for (int i = 0; lines[i]; i++)
      if (strlen(lines[i]) >= 32) g_ptr_array_add(md5, g_strndup(lines[i], 32));
    g_strfreev(lines);
  }
  g_free(out);
  g_free(pattern);
  g_free(base);
  return md5;
}

/* An IVF file in memory: the 32-byte header and the packets. */
typedef struct {
  guint8 header[32];
  GPtrArray *packets; /* GBytes */
  GArray *pts;        /* guint64, in the header's time base */
} Ivf;

static guint32 rd32(const guint8 *p) { return p[0] | p[1] << 8 | p[2] << 16 | (guint32)p[3] << 24; }
static void wr32(guint8 *p, guint32 v) {
  for (int i = 0; i < 4; i++) p[i] = (guint8)(v >> (8 * i));
}

static gboolean ivf_read(const gchar *path, Ivf *ivf) {
  gchar *data = NULL;
  gsize size = 0;
  if (!g_file_get_contents(path, &data, &size, NULL) || size < 32) return FALSE;
  const guint8 *d = (const guint8 *)data;
  memcpy(ivf->header, d, 32);
  ivf->packets = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
  ivf->pts = g_array_new(FALSE, FALSE, sizeof(guint64));
  gsize pos = 32;
  while (pos + 12 <= size) {
    guint32 n = rd32(d + pos);
    guint64 pts = rd32(d + pos + 4) | (guint64)rd32(d + pos + 8) << 32;
    if (pos + 12 + n > size) break;
    g_ptr_array_add(ivf->packets, g_bytes_new(d + pos + 12, n));
    g_array_append_val(ivf->pts, pts);
    pos += 12 + n;
  }
  g_free(data);
  return TRUE;
}

static G_GNUC_UNUSED void ivf_write(const gchar *path, const Ivf *ivf) {
  FILE *f = fopen(path, "wb");
  g_assert(f != NULL);
  guint8 header[32];
  memcpy(header, ivf->header, 32);
  wr32(header + 24, ivf->packets->len);
  fwrite(header, 1, 32, f);
  for (guint i = 0; i < ivf->packets->len; i++) {
    gsize n = 0;
    const guint8 *p = g_bytes_get_data(g_ptr_array_index(ivf->packets, i), &n);
    guint8 fh[12];
    guint64 pts = g_array_index(ivf->pts, guint64, i);
    wr32(fh, (guint32)n);
    wr32(fh + 4, (guint32)pts);
    wr32(fh + 8, (guint32)(pts >> 32));
    fwrite(fh, 1, 12, f);
    fwrite(p, 1, n, f);
  }
  fclose(f);
}

static void ivf_clear(Ivf *ivf) {
  g_ptr_array_unref(ivf->packets);
  g_array_unref(ivf->pts);
}

/* Whether packet i starts with a key frame (frame_marker, profile bits, show_existing_frame,
 * frame_type: VP9 specification section 6.2). Written here independently of the element. */
static G_GNUC_UNUSED gboolean ivf_is_key(const Ivf *ivf, guint i) {
  gsize n = 0;
  const guint8 *p = g_bytes_get_data(g_ptr_array_index(ivf->packets, i), &n);
  if (n == 0 || (p[0] & 0xC0) != 0x80) return FALSE;
  int profile = (p[0] >> 5 & 1) | (p[0] >> 4 & 1) << 1;
  int bit = profile == 3 ? 2 : 3; /* show_existing_frame */
  return !(p[0] >> bit & 1) && !(p[0] >> (bit - 1) & 1);
}

#endif /* V3D_TESTS_VP9DEC_STREAMS_H */
