// SPDX-License-Identifier: LGPL-2.1-or-later
// GstV3dFilter's frame path: a subclass's description of a buffer (GstV3dFrameDesc) run through
// its kernel family's library calls, one frame (transform_ip) or a batch (frames in flight).
// See v3dfilter.h.
#include <string>
#include <vector>

#include "v3dfilter_private.h"

#define GST_CAT_DEFAULT gst_v3d_filter_debug

namespace {

// Not a library code: the frame could not be mapped (the element error is posted).
constexpr int kMapFailed = 1;

// ---- The families' library calls ----

// The family processes planes rounded up to whole 8x8 luma blocks (the VP9 families): frames
// whose planes lack that room go through the padded copy of the element's ItxFrameLayout.
bool rounds_to_8x8(gint kernel) {
  return kernel == V3D_KERNEL_VP9_ITX || kernel == V3D_KERNEL_VP9_LPF;
}

template <typename Frame>
void fill_planes(Frame &f, uint8_t *const planes[3], const ptrdiff_t strides[3], int w, int h) {
  for (int p = 0; p < 3; p++) {
    f.planes[p] = planes[p];
    f.strides[p] = strides[p];
  }
  f.width = w;
  f.height = h;
}

void set_planes(gint kernel, GstV3dFrameDesc &d, uint8_t *const planes[3],
                const ptrdiff_t strides[3]) {
  switch (kernel) {
    case V3D_KERNEL_VP9_ITX: fill_planes(d.args.itx, planes, strides, d.width, d.height); break;
    case V3D_KERNEL_VP9_LPF: fill_planes(d.args.lf, planes, strides, d.width, d.height); break;
    case V3D_KERNEL_H264_DEBLOCK:
      fill_planes(d.args.h264, planes, strides, d.width, d.height);
      break;
    default: break;
  }
}

// Checks a frame before its padded copy is made (an invalid frame then costs no copy).
int validate(gint kernel, const GstV3dFrameDesc &d) {
  if (kernel != V3D_KERNEL_VP9_ITX) return V3D_OK;
  const V3dVp9ItxFrame &f = d.args.itx;
  return v3d_vp9_itxfm_validate(d.width, d.height, f.blocks, f.n_blocks, f.n_coeffs);
}

int run_single(gint kernel, V3dContext *ctx, const GstV3dFrameDesc &d) {
  switch (kernel) {
    case V3D_KERNEL_VP9_ITX: {
      const V3dVp9ItxFrame &f = d.args.itx;
      return v3d_vp9_itxfm_add_frame(ctx, f.planes, f.strides, f.width, f.height, f.blocks,
                                     f.n_blocks, f.coeffs, f.n_coeffs);
    }
    case V3D_KERNEL_VP9_LPF: {
      const V3dVp9LfFrame &f = d.args.lf;
      return v3d_vp9_loop_filter_frame(ctx, f.planes, f.strides, f.width, f.height, f.grid,
                                       f.grid_stride, f.sharpness);
    }
    case V3D_KERNEL_H264_DEBLOCK: {
      const V3dH264Frame &f = d.args.h264;
      return v3d_h264_deblock_frame(ctx, f.planes, f.strides, f.width, f.height, f.mbs,
                                    f.mb_stride, f.slices, f.n_slices);
    }
    default: return V3D_ERROR_INVALID_ARGUMENT;
  }
}

// Copy and filter (a read-only source's pixels copied row by row inside the kernel), for the
// families that have it: the loop filter (sizes a multiple of 8: no edge extension) and H.264.
bool can_copy_inside(gint kernel, int w, int h) {
  if (kernel == V3D_KERNEL_VP9_LPF) return w % 8 == 0 && h % 8 == 0;
  return kernel == V3D_KERNEL_H264_DEBLOCK;
}

int run_from(gint kernel, V3dContext *ctx, const GstV3dFrameDesc &d, const GstVideoFrame &src) {
  const uint8_t *planes[3];
  ptrdiff_t strides[3];
  for (int p = 0; p < 3; p++) {
    planes[p] = static_cast<const uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&src, p));
    strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE(&src, p);
  }
  if (kernel == V3D_KERNEL_VP9_LPF) {
    const V3dVp9LfFrame &f = d.args.lf;
    return v3d_vp9_loop_filter_frame_from(ctx, planes, strides, f.planes, f.strides, f.width,
                                          f.height, f.grid, f.grid_stride, f.sharpness);
  }
  const V3dH264Frame &f = d.args.h264;
  return v3d_h264_deblock_frame_from(ctx, planes, strides, f.planes, f.strides, f.width,
                                     f.height, f.mbs, f.mb_stride, f.slices, f.n_slices);
}

int run_many(gint kernel, V3dContext *ctx, const std::vector<GstV3dFrameDesc> &descs) {
  std::vector<V3dVp9ItxFrame> itx;
  std::vector<V3dVp9LfFrame> lf;
  std::vector<V3dH264Frame> h264;
  for (const GstV3dFrameDesc &d : descs) {
    if (kernel == V3D_KERNEL_VP9_ITX) itx.push_back(d.args.itx);
    if (kernel == V3D_KERNEL_VP9_LPF) lf.push_back(d.args.lf);
    if (kernel == V3D_KERNEL_H264_DEBLOCK) h264.push_back(d.args.h264);
  }
  switch (kernel) {
    case V3D_KERNEL_VP9_ITX: return v3d_vp9_itxfm_add_frames(ctx, itx.data(), itx.size());
    case V3D_KERNEL_VP9_LPF: return v3d_vp9_loop_filter_frames(ctx, lf.data(), lf.size());
    case V3D_KERNEL_H264_DEBLOCK: return v3d_h264_deblock_frames(ctx, h264.data(), h264.size());
    default: return V3D_ERROR_INVALID_ARGUMENT;
  }
}

// ---- Planes ----

bool is_nv12(GstV3dFilter *self) {
  return GST_VIDEO_INFO_FORMAT(&GST_VIDEO_FILTER(self)->in_info) == GST_VIDEO_FORMAT_NV12;
}

// NV12's chroma scratch planes of a slot: 0 for a frame run alone, 1 + i for frame i of a batch.
v3d::ChromaScratch &chroma_slot(GstV3dFilter *self, guint slot) {
  auto &chroma = gst_v3d_filter_impl(self)->scratch.chroma;
  while (chroma.size() <= slot) chroma.push_back(std::make_unique<v3d::ChromaScratch>());
  return *chroma[slot];
}

// The planes the library gets for a mapped frame: its own (direct), the padded copy, NV12's luma
// in place and chroma split into the slot's scratch planes; then the edge extension desc asks
// for. Returns V3D_OK, or V3D_ERROR_NO_MEMORY with why.
int planes_for(GstV3dFilter *self, V3dContext *ctx, const GstVideoFrame &frame,
               const GstV3dFrameDesc &d, bool direct, guint slot, uint8_t *planes[3],
               ptrdiff_t strides[3], std::string &why) {
  const gint kernel = GST_V3D_FILTER_GET_CLASS(self)->kernel;
  if (rounds_to_8x8(kernel)) {
    gst_v3d_filter_impl(self)->scratch.layout.planes_for(frame, direct, planes, strides);
  } else {
    for (guint p = 0; p < 3; p++) {
      const bool have = p < GST_VIDEO_FRAME_N_PLANES(&frame);
      planes[p] = have ? static_cast<uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)) : nullptr;
      strides[p] = have ? GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p) : 0;
    }
  }
  if (is_nv12(self)) {
    v3d::ChromaScratch &chroma = chroma_slot(self, slot);
    if (!chroma.ensure(ctx, d.width, d.height)) {
      why = "could not allocate the NV12 chroma scratch planes";
      return V3D_ERROR_NO_MEMORY;
    }
    chroma.split(frame, d.width, d.height, planes, strides);
  }
  // Only the area outside the visible one is written (an invalid frame leaves that untouched).
  if (d.extend_always || (d.extend_padded && !direct))
    v3d::extend_to_8x8(planes, strides, d.width, d.height);
  return V3D_OK;
}

// After a successful call: the padded copy's or the chroma planes' pixels back into the frame.
void settle_planes(GstV3dFilter *self, GstVideoFrame &frame, const GstV3dFrameDesc &d,
                   bool direct, guint slot) {
  if (!direct) gst_v3d_filter_impl(self)->scratch.layout.copy_back(frame);
  if (is_nv12(self)) chroma_slot(self, slot).merge(frame, d.width, d.height);
}

bool map_frame(GstV3dFilter *self, GstVideoFrame *frame, GstBuffer *buf) {
  if (gst_video_frame_map(frame, &GST_VIDEO_FILTER(self)->in_info, buf, GST_MAP_READWRITE))
    return true;
  GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("Could not map the frame for writing"), (nullptr));
  return false;
}

// ---- Errors and accounting ----

V3dContext *frame_context(GstV3dFilter *self) {
  V3dContext *ctx = gst_v3d_filter_ref_context(self);
  if (!ctx) GST_ELEMENT_ERROR(self, CORE, STATE_CHANGE, (nullptr), ("no v3d context"));
  return ctx;
}

// A library call failed with rc: a resource failure (GPU, memory, unavailable) is
// RESOURCE/FAILED; refused input is an invalid meta (STREAM/DECODE) when a frame had one, else
// refused settings (LIBRARY/SETTINGS).
void post_error(GstV3dFilter *self, int rc, const std::string &why, bool meta,
                const std::string &debug) {
  GstV3dFilterClass *klass = GST_V3D_FILTER_GET_CLASS(self);
  if (rc == V3D_ERROR_GPU || rc == V3D_ERROR_NO_MEMORY || rc == V3D_ERROR_UNAVAILABLE) {
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("%s failed: %s", klass->what, v3d_error_name(rc)),
                      ("%s; %s", why.c_str(), debug.c_str()));
  } else if (meta) {
    GST_ELEMENT_ERROR(self, STREAM, DECODE,
        ("Invalid %s (%s): %s", klass->meta_name, v3d_error_name(rc), why.c_str()),
        ("%s", debug.c_str()));
  } else {
    GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
        ("%s refused the settings (%s): %s", klass->what, v3d_error_name(rc), why.c_str()),
        ("%s", debug.c_str()));
  }
}

// A frame done: its meta removed, its counters (and the base's padded and chroma counters)
// added, its time counted when t_start >= 0, its pixels digested when `digest` (a batch digests
// its frames at its end, in their order).
void finish_frame(GstV3dFilter *self, GstBuffer *buf, const GstV3dFrameDesc &d, bool padded,
                  gint64 t_start, bool digest) {
  GstV3dFilterClass *klass = GST_V3D_FILTER_GET_CLASS(self);
  if (d.meta) gst_buffer_remove_meta(buf, d.meta);
  GstV3dFilterCount counts[G_N_ELEMENTS(d.counts) + 2];
  guint n = 0;
  for (guint i = 0; i < d.n_counts; i++) counts[n++] = d.counts[i];
  if (padded && klass->padded_counter >= 0)
    counts[n++] = {static_cast<guint>(klass->padded_counter), 1};
  if (is_nv12(self) && klass->chroma_counter >= 0)
    counts[n++] = {static_cast<guint>(klass->chroma_counter), 1};
  gst_v3d_filter_count_frame(self, counts, n, t_start);
  if (digest) gst_v3d_filter_update_checksum(self, buf);
}

std::string frame_debug(const GstV3dFrameDesc &d) {
  gchar *s = g_strdup_printf("%dx%d frame%s", d.width, d.height, d.meta ? " with a meta" : "");
  std::string r = s;
  g_free(s);
  return r;
}

// Runs one described frame. src: the read-only source whose pixels buf still lacks (taken), or
// NULL. digest: add the output to the running MD5 (see finish_frame).
GstFlowReturn run_described(GstV3dFilter *self, GstBuffer *buf, GstV3dFrameDesc &d,
                            GstBuffer *src, gint64 t_start, bool digest) {
  GstV3dFilterClass *klass = GST_V3D_FILTER_GET_CLASS(self);
  const GstVideoInfo &info = GST_VIDEO_FILTER(self)->in_info;
  if (d.action == GstV3dFrameDesc::PASS) {
    const gboolean ok = !src || gst_v3d_filter_copy_source(self, src, buf);
    if (src) gst_buffer_unref(src);
    if (!ok) return GST_FLOW_ERROR;
    gst_v3d_filter_count_frame(self, d.counts, d.n_counts, -1);
    if (digest) gst_v3d_filter_update_checksum(self, buf);
    return GST_FLOW_OK;
  }
  V3dContext *ctx = frame_context(self);
  if (!ctx) {
    if (src) gst_buffer_unref(src);
    return GST_FLOW_ERROR;
  }
  const bool direct =
      !rounds_to_8x8(klass->kernel) || gst_v3d_filter_impl(self)->scratch.layout.has_room(buf);
  std::string why;
  int rc = direct ? V3D_OK : validate(klass->kernel, d);
  if (rc != V3D_OK) why = v3d_last_error();
  // A read-only source: copied inside the kernel when the frame allows it, else here at once.
  GstVideoFrame src_frame;
  bool inside = false;
  if (src) {
    inside = rc == V3D_OK && direct && !is_nv12(self) && d.width == GST_VIDEO_INFO_WIDTH(&info) &&
             d.height == GST_VIDEO_INFO_HEIGHT(&info) &&
             can_copy_inside(klass->kernel, d.width, d.height) &&
             gst_video_frame_map(&src_frame, &info, src, GST_MAP_READ);
    const gboolean ok = inside || gst_v3d_filter_copy_source(self, src, buf);
    gst_buffer_unref(src);  // a mapped frame keeps its own reference
    if (!ok) {
      v3d_context_free(ctx);
      return GST_FLOW_ERROR;
    }
  }
  GstVideoFrame frame;
  if (rc == V3D_OK && !map_frame(self, &frame, buf)) rc = kMapFailed;
  if (rc == V3D_OK) {
    uint8_t *planes[3];
    ptrdiff_t strides[3];
    rc = planes_for(self, ctx, frame, d, direct, 0, planes, strides, why);
    if (rc == V3D_OK) {
      set_planes(klass->kernel, d, planes, strides);
      rc = inside ? run_from(klass->kernel, ctx, d, src_frame) : run_single(klass->kernel, ctx, d);
      if (rc != V3D_OK) why = v3d_last_error();
      if (inside) gst_v3d_filter_impl(self)->input.count_copy(0);  // its time is the kernel's
    }
    if (rc == V3D_OK) settle_planes(self, frame, d, direct, 0);
    gst_video_frame_unmap(&frame);
  }
  if (inside) gst_video_frame_unmap(&src_frame);
  v3d_context_free(ctx);
  if (rc == kMapFailed) return GST_FLOW_ERROR;
  if (rc != V3D_OK) {
    post_error(self, rc, why, d.meta != nullptr, frame_debug(d));
    return GST_FLOW_ERROR;
  }
  finish_frame(self, buf, d, !direct, t_start, digest);
  return GST_FLOW_OK;
}

bool check_negotiated(GstV3dFilter *self) {
  if (GST_VIDEO_FILTER(self)->negotiated) return true;
  GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, (nullptr), ("no caps set before the first buffer"));
  return false;
}

}  // namespace

GstFlowReturn gst_v3d_filter_run_one(GstV3dFilter *self, GstBuffer *buf) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  if (!check_negotiated(self)) {
    impl->input.drop_pending();
    return GST_FLOW_NOT_NEGOTIATED;
  }
  const gint64 t_start = g_get_monotonic_time();
  GstV3dFrameDesc d;
  const GstFlowReturn ret = GST_V3D_FILTER_GET_CLASS(self)->describe(self, buf, &d);
  GstBuffer *src = impl->input.take_source(buf);
  if (ret != GST_FLOW_OK) {
    if (src) gst_buffer_unref(src);
    return ret;
  }
  return run_described(self, buf, d, src, t_start, true);
}

// The frames that the family runs whole and in place go to the library in one call (hybrid:
// whole frames on the GPU and the CPU workers at once; the loop filter's and H.264's wavefronts
// in one loop of the workers); the others (left as they are, or needing the padded copy) one by
// one. NV12 frames each get a pair of chroma scratch planes of their own.
GstFlowReturn gst_v3d_filter_run_batch(GstV3dFilter *self, GstBuffer **buffers, guint n) {
  if (n == 1) return gst_v3d_filter_run_one(self, buffers[0]);
  if (!check_negotiated(self)) return GST_FLOW_NOT_NEGOTIATED;
  GstV3dFilterClass *klass = GST_V3D_FILTER_GET_CLASS(self);
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  const gint64 t_start = g_get_monotonic_time();
  V3dContext *ctx = frame_context(self);
  if (!ctx) return GST_FLOW_ERROR;
  std::vector<GstV3dFrameDesc> descs;
  std::vector<GstBuffer *> batched;
  std::vector<GstVideoFrame> mapped;
  mapped.reserve(n);
  GstFlowReturn ret = GST_FLOW_OK;
  int rc = V3D_OK;
  std::string why;
  for (guint i = 0; i < n && ret == GST_FLOW_OK && rc == V3D_OK; i++) {
    GstV3dFrameDesc d;
    ret = klass->describe(self, buffers[i], &d);
    if (ret != GST_FLOW_OK) break;
    if (d.action == GstV3dFrameDesc::PASS ||
        (rounds_to_8x8(klass->kernel) && !impl->scratch.layout.has_room(buffers[i]))) {
      ret = run_described(self, buffers[i], d, nullptr, g_get_monotonic_time(), false);
      continue;
    }
    mapped.emplace_back();
    if (!map_frame(self, &mapped.back(), buffers[i])) {
      mapped.pop_back();
      ret = GST_FLOW_ERROR;
      break;
    }
    uint8_t *planes[3];
    ptrdiff_t strides[3];
    rc = planes_for(self, ctx, mapped.back(), d, true, 1 + descs.size(), planes, strides, why);
    set_planes(klass->kernel, d, planes, strides);
    descs.push_back(d);
    batched.push_back(buffers[i]);
  }
  if (ret == GST_FLOW_OK && rc == V3D_OK && !descs.empty()) {
    rc = run_many(klass->kernel, ctx, descs);
    if (rc != V3D_OK) why = v3d_last_error();
    for (size_t i = 0; rc == V3D_OK && i < descs.size(); i++)
      settle_planes(self, mapped[i], descs[i], true, 1 + i);
  }
  for (GstVideoFrame &f : mapped) gst_video_frame_unmap(&f);
  v3d_context_free(ctx);
  if (ret != GST_FLOW_OK) return ret;
  if (rc != V3D_OK) {
    bool any_meta = false;
    for (const GstV3dFrameDesc &d : descs) any_meta |= d.meta != nullptr;
    gchar *debug = g_strdup_printf("a batch of %zu frames in flight", descs.size());
    post_error(self, rc, why, any_meta, debug);
    g_free(debug);
    return GST_FLOW_ERROR;
  }
  // The batch's time counts once, with its last frame; the MD5 takes the frames in stream order.
  for (size_t i = 0; i < batched.size(); i++)
    finish_frame(self, batched[i], descs[i], false, i + 1 == batched.size() ? t_start : -1,
                 false);
  for (guint i = 0; i < n; i++) gst_v3d_filter_update_checksum(self, buffers[i]);
  return GST_FLOW_OK;
}

gboolean gst_v3d_filter_configure_frames(GstV3dFilter *self, const GstVideoInfo *info) {
  GstV3dFilterImpl *impl = gst_v3d_filter_impl(self);
  impl->scratch.reset();
  const gint kernel = GST_V3D_FILTER_GET_CLASS(self)->kernel;
  const bool nv12 = GST_VIDEO_INFO_FORMAT(info) == GST_VIDEO_FORMAT_NV12;
  if (!rounds_to_8x8(kernel) && !nv12) return TRUE;
  V3dContext *ctx = gst_v3d_filter_ref_context(self);
  if (!ctx) {
    GST_ERROR_OBJECT(self, "no v3d context");
    return FALSE;
  }
  const int w = GST_VIDEO_INFO_WIDTH(info), h = GST_VIDEO_INFO_HEIGHT(info);
  bool ok = true;
  if (rounds_to_8x8(kernel) && !impl->scratch.layout.configure(*info, ctx)) {
    GST_ERROR_OBJECT(self, "could not allocate the padded frame copy");
    ok = false;
  }
  // NV12: the chroma scratch planes of a frame run alone, for the caps size (a meta with a
  // larger coded size grows them when it comes).
  if (ok && nv12 && !chroma_slot(self, 0).ensure(ctx, w, h)) {
    GST_ERROR_OBJECT(self, "could not allocate the NV12 chroma scratch planes");
    ok = false;
  }
  v3d_context_free(ctx);
  if (ok) GST_DEBUG_OBJECT(self, "configured %dx%d", w, h);
  return ok;
}
