// SPDX-License-Identifier: LGPL-2.1-or-later
// The output side of v3dvp9dec (gstv3dvp9dec.cpp): how shown pictures become buffers, chosen at
// each allocation query.
//
//   zero copy  the decoder's picture itself: its memory (shared memory of the v3d context)
//              wrapped read-only in a GstMemory of the v3d allocator that holds the picture's
//              reference until the buffer and every buffer sharing its memory are freed, with a
//              GstVideoMeta carrying the picture's offsets and strides. Taken when downstream
//              lists GST_VIDEO_META_API_TYPE in the allocation query, offers no v3d pool, no
//              element known to ignore GstVideoMeta is downstream and #GstV3dVp9Dec:zero-copy
//              is on.
//   copy       the picture's visible planes copied into a buffer of a GstV3dBufferPool:
//              downstream's when it offers one (a v3d filter then gets writable frames padded
//              for its kernels), else the element's own (GStreamer's default I420 layout, plus a
//              GstVideoMeta when downstream supports it).
//
// Threads: the streaming thread (GstVideoDecoder's stream lock), except where a function says.
#pragma once

#include <gst/video/video.h>
#include <v3d/vp9_decoder.h>

namespace v3d {

// The size and colour of the negotiated output.
struct Vp9DecOutputFormat {
  int width = 0, height = 0, render_width = 0, render_height = 0;
  int color_space = -1, color_range = -1;
  bool operator==(const Vp9DecOutputFormat &o) const {
    return width == o.width && height == o.height && render_width == o.render_width &&
           render_height == o.render_height && color_space == o.color_space &&
           color_range == o.color_range;
  }
};

// Negotiates the output (I420 of the picture's frame size; aspect and colorimetry from its render
// size and colour, vp9dec_describe_output) when pic's differ from *current or the source pad has
// no caps; *current is updated. GST_FLOW_OK, or FLUSHING / NOT_NEGOTIATED.
GstFlowReturn vp9dec_update_output(GstVideoDecoder *vdec, const V3dVp9Picture &pic,
                                   GstVideoCodecState *input_state, Vp9DecOutputFormat *current);

// What the last allocation query decided.
struct Vp9DecOutputMode {
  bool zero_copy = false;       // wrap pictures (else copy into the negotiated pool)
  bool add_video_meta = false;  // copy path, own pool: add a GstVideoMeta to each buffer
};

// GstVideoDecoder::decide_allocation of v3dvp9dec: configures the pool the copy path uses (the
// base class needs one either way) and decides the output path. ctx: the element's context
// (referenced by a pool it creates); allow_zero_copy: #GstV3dVp9Dec:zero-copy. Logs the path
// and the reason at INFO level. FALSE after an element error.
bool vp9dec_decide_allocation(GstElement *element, GstQuery *query, V3dContext *ctx,
                              bool allow_zero_copy, Vp9DecOutputMode *mode);

// The name of an element downstream of src, past elements that only pass the allocation query
// on (queues, capsfilter, identity), that lists GST_VIDEO_META_API_TYPE in allocation queries
// but writes buffers out as they are, ignoring GstVideoMeta offsets and strides (y4menc), or
// nullptr. The caller frees the string (g_free).
gchar *vp9dec_downstream_ignoring_video_meta(GstPad *src);

// A buffer that shows pic without a copy (the zero-copy path): takes over pic's reference
// (cleared) and releases it, on whichever thread frees the memory last. allocator: a
// GstV3dAllocator. nullptr, pic untouched, when pic's planes do not lie in one block in the
// order Y, U, V (the layout of <v3d/vp9_decoder.h>).
GstBuffer *vp9dec_wrap_picture(GstAllocator *allocator, V3dVp9Picture *pic);

// The copy path: copies pic's visible planes into frame->output_buffer (allocated from the
// negotiated pool here), adding a GstVideoMeta when mode says so. pic stays the caller's.
// GST_FLOW_OK, the pool's flow return, or GST_FLOW_ERROR after an element error.
GstFlowReturn vp9dec_copy_to_output(GstVideoDecoder *vdec, GstVideoCodecFrame *frame,
                                    const V3dVp9Picture &pic, const Vp9DecOutputMode &mode);

}  // namespace v3d
