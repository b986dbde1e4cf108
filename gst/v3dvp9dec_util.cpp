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

static std::string field_name(const std::string &group, const std::string &name) {
  std::string f = "vp9-" + (group.empty() ? name : group + "-" + name);
  for (char &ch : f)
    if (ch == '_') ch = '-';
  return f;
}

static bool parse_count(const char *s, guint64 *v) {
  if (!*s) return false;
  char *end = nullptr;
  *v = g_ascii_strtoull(s, &end, 10);
  return end && *end == '\0';
}

void vp9dec_add_decoder_counters(GstStructure *s, const char *text) {
  if (!text) return;
  gchar **lines = g_strsplit(text, "\n", -1);
  for (gchar **line = lines; *line; line++) {
    if ((*line)[0] != '#') continue;
    gchar **tok = g_strsplit_set(*line + 1, " \t", -1);
    std::string group;
    for (int i = 0; tok[i]; i++) {
      const char *t = tok[i];
      if (!*t) continue;
      guint64 v;
      if (const char *eq = strchr(t, '=')) {  // group name=value
        if (parse_count(eq + 1, &v))
          gst_structure_set(s, field_name(group, std::string(t, eq - t)).c_str(), G_TYPE_UINT64,
                            v, nullptr);
      } else if (tok[i + 1] && parse_count(tok[i + 1], &v)) {  // name value
        gst_structure_set(s, field_name("", t).c_str(), G_TYPE_UINT64, v, nullptr);
        i++;
      } else {
        group = t;  // label of the name=value pairs that follow
      }
    }
    g_strfreev(tok);
  }
  g_strfreev(lines);
}

}  // namespace v3d
