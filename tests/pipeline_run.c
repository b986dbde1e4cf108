// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs one gst-launch-style pipeline to EOS inside an instrumented program, then releases
// everything (pipeline, bus, gst_deinit) so that LeakSanitizer (tools/ci/asan.sh) sees only what
// is really leaked: the LSan run of a short soak pipeline (tests/meson.build, suite 'gst').
// gst-launch-1.0 cannot do this: it is not instrumented and never calls gst_deinit.
//   pipeline_run 'PIPELINE DESCRIPTION'
// Exit status 0 at EOS; 1 on a parse error, an error message on the bus, or no EOS in 600 s.
#include <gst/gst.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s 'PIPELINE'\n", argv[0]);
    return 2;
  }
  gst_init(NULL, NULL);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch(argv[1], &err);
  if (!pipeline || err) {
    fprintf(stderr, "FAIL: pipeline '%s': %s\n", argv[1], err ? err->message : "not created");
    g_clear_error(&err);
    if (pipeline) gst_object_unref(pipeline);
    gst_deinit();
    return 1;
  }
  int rc = 1;
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    fprintf(stderr, "FAIL: the pipeline does not start\n");
  } else {
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *msg = gst_bus_timed_pop_filtered(bus, 600 * GST_SECOND,
                                                 GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!msg) {
      fprintf(stderr, "FAIL: no EOS within 600 s\n");
    } else if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
      gchar *debug = NULL;
      gst_message_parse_error(msg, &err, &debug);
      fprintf(stderr, "FAIL: error from %s: %s (%s)\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
              err->message, debug ? debug : "");
      g_clear_error(&err);
      g_free(debug);
    } else {
      printf("EOS\n");
      rc = 0;
    }
    if (msg) gst_message_unref(msg);
    gst_object_unref(bus);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  gst_deinit();
  return rc;
}
