// SPDX-License-Identifier: LGPL-2.1-or-later
// Helpers of v3dvp9dec (gstv3dvp9dec.cpp) that do not touch the element: the resync-point test
// of a packet, the output video info of a picture, the plane copy and the decoder's counters as
// stats fields. Pure functions, thread-safe.
#pragma once

#include <gst/video/video.h>
#include <v3d/vp9_decoder.h>

namespace v3d {

// TRUE if the packet (a frame, or a superframe whose first frame is checked) starts with a frame
// that decoding may start from, as libvpx's decoder and the library do after an error: a key
// frame or an intra-only frame (uncompressed header, VP9 specification section 6.2). Reads at
// most the first two bytes.
bool vp9dec_is_resync_point(const guint8 *data, gsize size);

// Completes the output info made by gst_video_decoder_set_output_state for a width x height
// picture: the pixel aspect ratio that shows it at its render size (when that differs), and the
// colorimetry of VP9's color_space and color_range (uncompressed header, section 7.2).
void vp9dec_describe_output(GstVideoInfo *info, int width, int height, int render_width,
                            int render_height, int color_space, int color_range);

// Copies the picture's visible planes (luma width x height, chroma rounded up) into out.
void vp9dec_copy_picture(const V3dVp9Picture &pic, GstVideoFrame *out);

// Adds the counters of v3d_vp9_decoder_stats() text ("# name value ..." and
// "# group name=value ...") to s as guint64 fields "vp9-name" / "vp9-group-name", '_' written
// '-'. Unknown shapes are skipped.
void vp9dec_add_decoder_counters(GstStructure *s, const char *text);

}  // namespace v3d
