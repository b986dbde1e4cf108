// SPDX-License-Identifier: LGPL-2.1-or-later
// Helpers of v3dvp9dec. See v3dvp9dec_util.h.
#include "v3dvp9dec_util.h"

#include <cstring>
#include <string>

namespace v3d {

bool vp9dec_is_resync_point(const guint8 *data, gsize size) {
  if (!data || size == 0) return false;
  // Uncompressed header (section 6.2), most significant bit first: frame_marker (2 bits,
  // 0b10), profile_low_bit, profile_high_bit, reserved_zero (profile 3 only),
  // show_existing_frame, frame_type (0 = KEY_FRAME), show_frame, error_resilient_mode, then
  // for a non-key frame intra_only when show_frame is 0.
  gsize bit = 0;
  auto read = [&](bool *ok) {
    if (bit >= size * 8) {
      *ok = false;
      return 0u;
    }
    const unsigned v = (data[bit / 8] >> (7 - bit % 8)) & 1u;
    bit++;
    return v;
  };
  bool ok = true;
  const unsigned marker = read(&ok) << 1 | read(&ok);
  const unsigned profile = read(&ok) | read(&ok) << 1;
  if (profile == 3) read(&ok);
  const unsigned show_existing = read(&ok);
  const unsigned frame_type = read(&ok);
  if (!ok || marker != 2 || show_existing) return false;
  if (frame_type == 0) return true;
  const unsigned show_frame = read(&ok);
  read(&ok);  // error_resilient_mode
  const unsigned intra_only = show_frame ? 0u : read(&ok);
  return ok && intra_only;
}

void vp9dec_describe_output(GstVideoInfo *info, int width, int height, int render_width,
                            int render_height, int color_space, int color_range) {
  if (render_width > 0 && render_height > 0 &&
      (render_width != width || render_height != height)) {
    // Pixels of (render_width / width) : (render_height / height) show the frame at its
    // render size.
    gint64 n = static_cast<gint64>(render_width) * height;
    gint64 d = static_cast<gint64>(render_height) * width;
    while (n > G_MAXINT || d > G_MAXINT) {
      n >>= 1;
      d >>= 1;
    }
    const gint gn = static_cast<gint>(n), gd = static_cast<gint>(d);
    gint a = gn, c = gd;
    while (c) {  // reduce by the gcd
      gint t = a % c;
      a = c;
      c = t;
    }
    GST_VIDEO_INFO_PAR_N(info) = a ? gn / a : 1;
    GST_VIDEO_INFO_PAR_D(info) = a ? gd / a : 1;
  }
  // color_space (section 7.2): 1 BT.601, 2 BT.709, 3 SMPTE-170, 4 SMPTE-240, 5 BT.2020;
  // 0 unknown, 6 reserved, 7 sRGB (not in 4:2:0).
  const char *name = nullptr;
  switch (color_space) {
    case 1:
    case 3: name = GST_VIDEO_COLORIMETRY_BT601; break;
    case 2: name = GST_VIDEO_COLORIMETRY_BT709; break;
    case 4: name = GST_VIDEO_COLORIMETRY_SMPTE240M; break;
    case 5: name = GST_VIDEO_COLORIMETRY_BT2020; break;
    default: break;
  }
  GstVideoColorimetry c;
  if (name && gst_video_colorimetry_from_string(&c, name)) info->colorimetry = c;
  if (color_range == 1)
    info->colorimetry.range = GST_VIDEO_COLOR_RANGE_0_255;
  else if (color_range == 0 && name)
    info->colorimetry.range = GST_VIDEO_COLOR_RANGE_16_235;
}

void vp9dec_copy_picture(const V3dVp9Picture &pic, GstVideoFrame *out) {
  for (int p = 0; p < 3; p++) {
    const int w = p ? (pic.width + 1) / 2 : pic.width;
    const int h = p ? (pic.height + 1) / 2 : pic.height;
    auto *dst = static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(out, p));
    const gsize dst_stride = static_cast<gsize>(GST_VIDEO_FRAME_PLANE_STRIDE(out, p));
    const guint8 *src = pic.planes[p];
    for (int y = 0; y < h; y++)
      memcpy(dst + y * dst_stride, src + static_cast<ptrdiff_t>(y) * pic.strides[p], w);
  }
}

void vp9dec_add_decoder_counters(GstStructure *s, const V3dVp9DecoderCounters &c) {
  const struct {
    const char *name;
    guint64 value;
  } scalars[] = {
      {"vp9-frames", c.frames},
      {"vp9-key", c.key_frames},
      {"vp9-intra-only", c.intra_only_frames},
      {"vp9-show-existing", c.show_existing_frames},
      {"vp9-loop-filtered", c.loop_filtered_frames},
      {"vp9-tiles", c.tiles},
      {"vp9-error-resilient", c.error_resilient_frames},
      {"vp9-frame-parallel", c.frame_parallel_frames},
      {"vp9-lossless", c.lossless_frames},
      {"vp9-segmentation", c.segmentation_frames},
      {"vp9-compound-frames", c.compound_frames},
      {"vp9-switchable-filter", c.switchable_filter_frames},
      {"vp9-tx-select", c.tx_select_frames},
      {"vp9-high-precision-mv", c.high_precision_mv_frames},
      {"vp9-sharpness", c.sharpness_frames},
      {"vp9-lf-deltas", c.lf_delta_frames},
      {"vp9-tile-rows", c.tile_row_frames},
      {"vp9-blocks", c.blocks},
      {"vp9-intra", c.intra_blocks},
      {"vp9-inter", c.inter_blocks},
      {"vp9-compound", c.compound_blocks},
      {"vp9-sub8x8", c.sub8x8_blocks},
      {"vp9-skip", c.skip_blocks},
      {"vp9-scaled-preds", c.scaled_predictions},
      {"vp9-edge-emulated-preds", c.edge_emulated_predictions},
      {"vp9-seg-predicted", c.seg_predicted_blocks},
      {"vp9-seg-skip", c.seg_skip_blocks},
      {"vp9-seg-ref", c.seg_ref_blocks},
      {"vp9-frame-path-frames", c.frame_path_frames},
      {"vp9-frame-path-tx", c.frame_path_transforms},
      {"vp9-frame-path-gpu-tx", c.frame_path_gpu_transforms},
      {"vp9-deferred-intra", c.deferred_intra_blocks},
  };
  for (const auto &f : scalars) gst_structure_set(s, f.name, G_TYPE_UINT64, f.value, nullptr);
  static const char *const kTxSize[4] = {"4x4", "8x8", "16x16", "32x32"};
  static const char *const kTxType[5] = {"dct-dct", "adst-dct", "dct-adst", "adst-adst", "wht"};
  for (int t = 0; t < 4; t++)
    for (int y = 0; y < 5; y++) {
      // The WHT is 4x4 only; 32x32 is DCT_DCT only.
      if ((y == 4 && t != 0) || (t == 3 && y != 0)) continue;
      const std::string name = std::string("vp9-tx-") + kTxSize[t] + "-" + kTxType[y];
      gst_structure_set(s, name.c_str(), G_TYPE_UINT64, static_cast<guint64>(c.transforms[t][y]),
                        nullptr);
    }
  auto add_group = [s](const char *group, const char *const *names, const uint64_t *values,
                       int n) {
    for (int i = 0; i < n; i++) {
      const std::string name = std::string("vp9-") + group + "-" + names[i];
      gst_structure_set(s, name.c_str(), G_TYPE_UINT64, static_cast<guint64>(values[i]), nullptr);
    }
  };
  static const char *const kIntra[10] = {"dc",   "v",    "h",    "d45", "d135",
                                         "d117", "d153", "d207", "d63", "tm"};
  static const char *const kInter[4] = {"nearest", "near", "zero", "new"};
  static const char *const kFilter[4] = {"regular", "smooth", "sharp", "bilinear"};
  add_group("intra-modes", kIntra, c.intra_modes, 10);
  add_group("inter-modes", kInter, c.inter_modes, 4);
  add_group("filters", kFilter, c.interp_filters, 4);
}

GstStructure *vp9dec_stats_structure(const Vp9DecElementCounters &c, bool context_opening,
                                     const V3dVp9DecoderCounters &dc) {
  GstStructure *s = gst_structure_new("v3d-stats",
      "frames-decoded", G_TYPE_UINT64, c.decoded,
      "frames-shown", G_TYPE_UINT64, c.shown,
      "frames-copied", G_TYPE_UINT64, c.copied,
      "frames-hidden", G_TYPE_UINT64, c.hidden,
      "frames-skipped", G_TYPE_UINT64, c.skipped,
      "errors", G_TYPE_UINT64, c.errors,
      "context-opening", G_TYPE_BOOLEAN, context_opening ? TRUE : FALSE,
      nullptr);
  vp9dec_add_decoder_counters(s, dc);
  return s;
}

}  // namespace v3d
