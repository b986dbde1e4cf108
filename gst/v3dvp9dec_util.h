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

// Adds the decoder's counters (v3d_vp9_decoder_get_counters) to s as guint64 fields named after
// v3d_vp9_decoder_stats()'s text: "vp9-NAME" for its "NAME count" pairs (vp9-frames, vp9-key,
// ..., vp9-compound for compound blocks), "vp9-GROUP-NAME" for its "GROUP name=count" lines
// (vp9-tx-4x4-dct-dct, vp9-intra-modes-dc, vp9-inter-modes-new, vp9-filters-sharp), '_'
// written '-'; and vp9-compound-frames for the frames with compound prediction allowed. Every
// valid transform size and type is there, zero or not.
void vp9dec_add_decoder_counters(GstStructure *s, const V3dVp9DecoderCounters &c);

// The element's own counters, since it last started.
struct Vp9DecElementCounters {
  guint64 decoded = 0;  // packets decoded without error
  guint64 shown = 0;    // buffers pushed
  guint64 copied = 0;   // buffers pushed whose pixels were copied (the copy path)
  guint64 hidden = 0;   // packets decoded that showed nothing
  guint64 skipped = 0;  // packets dropped while waiting for a resync point
  guint64 errors = 0;   // packets the decoder refused
};

// A new "v3d-stats" structure: the element's counters (frames-decoded, frames-shown,
// frames-copied, frames-hidden, frames-skipped, errors), context-opening, and the decoder's
// counters (vp9dec_add_decoder_counters). The caller adds the context's fields.
GstStructure *vp9dec_stats_structure(const Vp9DecElementCounters &c, bool context_opening,
                                     const V3dVp9DecoderCounters &dc);

}  // namespace v3d
