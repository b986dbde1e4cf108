// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dvp9lpf
 * @title: v3dvp9lpf
 *
 * Applies the VP9 loop filter (v3d_vp9_loop_filter_frame, bit-exact with libvpx's decoder) to
 * I420 frames in place, in one of two modes:
 *
 * - With a #GstV3dVp9LfMeta (<gst/v3d/v3dvp9lfmeta.h> of libgstv3d-1.0, attached by a decoder
 *   or an application): the meta's mode-info grid and sharpness describe the frame; the meta
 *   is removed after filtering. An invalid meta is a stream error whose message names the
 *   problem (v3d_last_error()); the frame is not modified.
 * - Without a meta: a deblocking post-filter for any decoded video (low-bitrate MPEG-2, MJPEG,
 *   ...). The element builds, once per caps, a uniform grid: blocks of #GstV3dVp9Lpf:block-size
 *   with transforms of #GstV3dVp9Lpf:tx-size, all at #GstV3dVp9Lpf:level, none skipped, filtered
 *   with #GstV3dVp9Lpf:sharpness. Level 0 passes frames through untouched.
 *
 * The library works on planes holding the frame rounded up to whole 8x8 luma blocks, and reads
 * the samples between the visible edge and that rounded edge. In post-filter mode the element
 * fills them by repeating the last visible column and row before filtering. With a meta, a frame
 * whose planes have that room is filtered as it is (a VP9 decoder leaves its decoded samples
 * there, as libvpx does: bit-exact); frames whose planes lack the room are filtered through a
 * padded copy (stats field "padded-copies"), as in v3dvp9idct, with the edges repeated.
 *
 * Backends (the context is shared with v3dvp9idct): "cpu" runs the SIMD kernels on the CPU
 * workers (a wavefront over superblock rows); "gpu" a Vulkan compute job per frame (frames in
 * the element's shared-memory pool go without copies); "hybrid" splits each frame's planes
 * between the GPU and the CPU from measured throughput; "auto" the CPU wavefront; "scalar" the
 * scalar reference. All give the same frame. At EOS the element posts a "v3d-stats" element
 * message with #GstV3dVp9Lpf:stats.
 *
 * A read-only input frame (a decoder's reference frame) is copied into the element's pool: a
 * frame whose size is a multiple of 8 and whose pool buffer has the room, superblock row by row
 * inside the filter (v3d_vp9_loop_filter_frame_from, while in cache), others at once (stats
 * "input-copies"). With #GstV3dFilter:max-frames-in-flight and several CPU threads or a GPU,
 * frames are held and filtered together (v3d_vp9_loop_filter_frames), in order.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m filesrc location=low.mpg ! decodebin ! videoconvert ! \
 *     v3dvp9lpf level=24 block-size=16x16 tx-size=8x8 ! autovideosink
 * ]|
 */
#include <gst/video/video.h>
#include <gst/v3d/v3dvp9lfmeta.h>
#include <v3d/v3d.h>

#include <vector>

#include "gstv3delements.h"
#include "v3dfilter.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_vp9_lpf_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_lpf_debug

// Properties of this element; backend, cpu-threads and stats are the base class's (v3dfilter.h).
enum {
  PROP_LEVEL = GST_V3D_FILTER_PROP_LAST,
  PROP_SHARPNESS,
  PROP_BLOCK_SIZE,
  PROP_TX_SIZE,
};

// Stats counters (GstV3dFilterClass::counter_names).
enum { COUNT_FRAMES, COUNT_FRAMES_META, COUNT_FRAMES_POST, COUNT_PASSTHROUGH, COUNT_PADDED };
static const gchar *const counter_names[] = {
    "frames",              // filtered: with a meta or as a post-filter
    "frames-with-meta",    //
    "frames-post-filter",  // uniform grid
    "frames-passthrough",  // level 0 and no meta
    "padded-copies",       //
    nullptr};

// Post-filter block sizes: libvpx BLOCK_SIZE values of square blocks (v3d.h, V3dVp9LfInfo).
typedef enum {
  GST_V3D_LPF_BLOCK_8X8 = 3,
  GST_V3D_LPF_BLOCK_16X16 = 6,
  GST_V3D_LPF_BLOCK_32X32 = 9,
  GST_V3D_LPF_BLOCK_64X64 = 12,
} GstV3dLpfBlockSize;

// Post-filter transform sizes: VP9 TX_SIZE.
typedef enum {
  GST_V3D_LPF_TX_4X4 = 0,
  GST_V3D_LPF_TX_8X8 = 1,
  GST_V3D_LPF_TX_16X16 = 2,
  GST_V3D_LPF_TX_32X32 = 3,
} GstV3dLpfTxSize;

#define DEFAULT_PROP_LEVEL 16  // moderate deblocking; 0 = pass-through
#define DEFAULT_PROP_SHARPNESS 0
#define DEFAULT_PROP_BLOCK_SIZE GST_V3D_LPF_BLOCK_8X8
#define DEFAULT_PROP_TX_SIZE GST_V3D_LPF_TX_8X8

#define V3D_LPF_CAPS \
  "video/x-raw, format = (string) I420, width = (int) [ 1, max ], " \
  "height = (int) [ 1, max ], framerate = (fraction) [ 0, max ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_LPF_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_LPF_CAPS));

static GType gst_v3d_lpf_block_size_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_LPF_BLOCK_8X8, "8x8 blocks", "8x8"},
      {GST_V3D_LPF_BLOCK_16X16, "16x16 blocks", "16x16"},
      {GST_V3D_LPF_BLOCK_32X32, "32x32 blocks", "32x32"},
      {GST_V3D_LPF_BLOCK_64X64, "64x64 blocks", "64x64"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dLpfBlockSize", values));
  return static_cast<GType>(type);
}

static GType gst_v3d_lpf_tx_size_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_LPF_TX_4X4, "4x4 transforms", "4x4"},
      {GST_V3D_LPF_TX_8X8, "8x8 transforms", "8x8"},
      {GST_V3D_LPF_TX_16X16, "16x16 transforms", "16x16"},
      {GST_V3D_LPF_TX_32X32, "32x32 transforms", "32x32"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dLpfTxSize", values));
  return static_cast<GType>(type);
}

namespace {

// This element's properties; read and written under GST_OBJECT_LOCK.
struct Settings {
  guint level = DEFAULT_PROP_LEVEL;
  guint sharpness = DEFAULT_PROP_SHARPNESS;
  GstV3dLpfBlockSize block_size = DEFAULT_PROP_BLOCK_SIZE;
  GstV3dLpfTxSize tx_size = DEFAULT_PROP_TX_SIZE;
};

// The post-filter's uniform grid, built once per caps (and again when its properties change).
struct UniformGrid {
  std::vector<V3dVp9LfInfo> grid;
  int stride = 0;
  int w = 0, h = 0;
  guint level = 0;
  GstV3dLpfBlockSize block = DEFAULT_PROP_BLOCK_SIZE;
  GstV3dLpfTxSize tx = DEFAULT_PROP_TX_SIZE;
};

}  // namespace

struct GstV3dVp9LpfPrivate {
  Settings settings;   // GST_OBJECT_LOCK
  UniformGrid uniform; // streaming thread only (and set_info/stop)
};

#define GST_TYPE_V3D_VP9_LPF (gst_v3d_vp9_lpf_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9Lpf, gst_v3d_vp9_lpf, GST, V3D_VP9_LPF, GstV3dFilter)

struct _GstV3dVp9Lpf {
  GstV3dFilter parent;
  GstV3dVp9LpfPrivate *priv;
};

G_DEFINE_TYPE(GstV3dVp9Lpf, gst_v3d_vp9_lpf, GST_TYPE_V3D_FILTER)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9lpf, "v3dvp9lpf", GST_RANK_NONE, GST_TYPE_V3D_VP9_LPF)

static void gst_v3d_vp9_lpf_finalize(GObject *object);
static void gst_v3d_vp9_lpf_set_property(GObject *object, guint prop_id, const GValue *value,
                                         GParamSpec *pspec);
static void gst_v3d_vp9_lpf_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec);
static gboolean gst_v3d_vp9_lpf_set_info(GstVideoFilter *filter, GstCaps *incaps,
                                         GstVideoInfo *in_info, GstCaps *outcaps,
                                         GstVideoInfo *out_info);
static gboolean gst_v3d_vp9_lpf_stop(GstBaseTransform *trans);
static GstFlowReturn gst_v3d_vp9_lpf_describe(GstV3dFilter *filter, GstBuffer *buf,
                                              GstV3dFrameDesc *desc);

static void gst_v3d_vp9_lpf_class_init(GstV3dVp9LpfClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);
  GstV3dFilterClass *v3d_class = GST_V3D_FILTER_CLASS(klass);
  const auto rw_playing = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                   GST_PARAM_MUTABLE_PLAYING);

  gobject_class->finalize = gst_v3d_vp9_lpf_finalize;
  gobject_class->set_property = gst_v3d_vp9_lpf_set_property;
  gobject_class->get_property = gst_v3d_vp9_lpf_get_property;

  /**
   * GstV3dVp9Lpf:backend:
   *
   * "cpu" runs the SIMD wavefront over superblock rows on the CPU workers; "gpu" a Vulkan
   * compute job per frame (frames in the element's shared-memory pool go without copies);
   * "hybrid" splits each frame's planes between the GPU and the CPU from measured throughput,
   * or with #GstV3dFilter:max-frames-in-flight gives each side whole frames; "auto" the CPU
   * wavefront; "scalar" the scalar reference. All give the same frame.
   *
   * GstV3dVp9Lpf:stats:
   *
   * Besides the common fields (#GstV3dFilter:stats): frames (filtered, with a meta or as a
   * post-filter), frames-with-meta, frames-post-filter, frames-passthrough (level 0 and no
   * meta), padded-copies (frames filtered through the padded copy).
   */
  gst_v3d_filter_class_install_properties(v3d_class, 0,
      "Where the loop filter runs (read when going to READY; auto = cpu)");
  /**
   * GstV3dVp9Lpf:level:
   *
   * Post-filter mode (frames without a #GstV3dVp9LfMeta): the VP9 filter level of every block,
   * 0..63 (libvpx's scale: higher filters more). 0 passes such frames through untouched.
   */
  g_object_class_install_property(gobject_class, PROP_LEVEL,
      g_param_spec_uint("level", "Level",
          "Post-filter: VP9 filter level of every block (0 = pass-through)", 0, 63,
          DEFAULT_PROP_LEVEL, rw_playing));
  /**
   * GstV3dVp9Lpf:sharpness:
   *
   * Post-filter mode: the VP9 sharpness, 0..7; higher values filter less across strong edges
   * (a frame with a meta uses the meta's).
   */
  g_object_class_install_property(gobject_class, PROP_SHARPNESS,
      g_param_spec_uint("sharpness", "Sharpness",
          "Post-filter: VP9 sharpness (0 = VP9's default; higher filters strong edges less)", 0,
          7, DEFAULT_PROP_SHARPNESS, rw_playing));
  /**
   * GstV3dVp9Lpf:block-size:
   *
   * Post-filter mode: the size of the uniform prediction blocks; the edges of blocks get the
   * strongest filters.
   */
  g_object_class_install_property(gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_enum("block-size", "Block size",
          "Post-filter: size of the uniform prediction blocks, in pixels",
          gst_v3d_lpf_block_size_get_type(), DEFAULT_PROP_BLOCK_SIZE, rw_playing));
  /**
   * GstV3dVp9Lpf:tx-size:
   *
   * Post-filter mode: the size of the uniform transforms, at most #GstV3dVp9Lpf:block-size (a
   * larger one is a LIBRARY/SETTINGS error at the next frame); 8x8 suits MPEG-2 and JPEG.
   */
  g_object_class_install_property(gobject_class, PROP_TX_SIZE,
      g_param_spec_enum("tx-size", "Transform size",
          "Post-filter: size of the uniform transforms, in pixels (at most block-size)",
          gst_v3d_lpf_tx_size_get_type(), DEFAULT_PROP_TX_SIZE, rw_playing));
  v3d_class->describe = gst_v3d_vp9_lpf_describe;
  v3d_class->kernel = V3D_KERNEL_VP9_LPF;
  v3d_class->what = "VP9 loop filter";
  v3d_class->meta_name = "VP9 loop filter meta";
  v3d_class->meta_api = GST_V3D_VP9_LF_META_API_TYPE;
  v3d_class->counter_names = counter_names;
  v3d_class->padded_counter = COUNT_PADDED;
  v3d_class->batches_help_cpu = TRUE;  // the batch's wavefronts run in one loop of the workers
  v3d_class->copies_source = TRUE;

  gst_element_class_set_static_metadata(element_class, "VP9 loop filter",
      "Filter/Effect/Video", "Applies the VP9 loop filter in place: per a GstV3dVp9LfMeta from "
      "a decoder, or as a deblocking post-filter configured by properties", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_set_info);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_stop);

  gst_type_mark_as_plugin_api(gst_v3d_lpf_block_size_get_type(),
                              static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(gst_v3d_lpf_tx_size_get_type(), static_cast<GstPluginAPIFlags>(0));
  // The meta's API type is registered up front, so that decoders can find it by name.
  g_type_ensure(GST_V3D_VP9_LF_META_API_TYPE);
  (void)GST_V3D_VP9_LF_META_INFO;
  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_lpf_debug, "v3dvp9lpf", 0, "VP9 loop filter");
}

static void gst_v3d_vp9_lpf_init(GstV3dVp9Lpf *self) {
  self->priv = new GstV3dVp9LpfPrivate();
}

static void gst_v3d_vp9_lpf_finalize(GObject *object) {
  auto *self = GST_V3D_VP9_LPF(object);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_vp9_lpf_parent_class)->finalize(object);
}

static void gst_v3d_vp9_lpf_set_property(GObject *object, guint prop_id, const GValue *value,
                                         GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_set_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_VP9_LPF(object);
  Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_LEVEL: s.level = g_value_get_uint(value); break;
    case PROP_SHARPNESS: s.sharpness = g_value_get_uint(value); break;
    case PROP_BLOCK_SIZE:
      s.block_size = static_cast<GstV3dLpfBlockSize>(g_value_get_enum(value));
      break;
    case PROP_TX_SIZE: s.tx_size = static_cast<GstV3dLpfTxSize>(g_value_get_enum(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_v3d_vp9_lpf_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_get_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_VP9_LPF(object);
  const Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_LEVEL: g_value_set_uint(value, s.level); break;
    case PROP_SHARPNESS: g_value_set_uint(value, s.sharpness); break;
    case PROP_BLOCK_SIZE: g_value_set_enum(value, s.block_size); break;
    case PROP_TX_SIZE: g_value_set_enum(value, s.tx_size); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static gboolean gst_v3d_vp9_lpf_set_info(GstVideoFilter *filter, GstCaps *incaps,
                                         GstVideoInfo *in_info, GstCaps *outcaps,
                                         GstVideoInfo *out_info) {
  GST_V3D_VP9_LPF(filter)->priv->uniform = UniformGrid();
  return GST_VIDEO_FILTER_CLASS(gst_v3d_vp9_lpf_parent_class)
      ->set_info(filter, incaps, in_info, outcaps, out_info);
}

static gboolean gst_v3d_vp9_lpf_stop(GstBaseTransform *trans) {
  GST_V3D_VP9_LPF(trans)->priv->uniform = UniformGrid();
  return GST_BASE_TRANSFORM_CLASS(gst_v3d_vp9_lpf_parent_class)->stop(trans);
}

// The post-filter's grid for the current caps and settings; rebuilt when they changed.
static const UniformGrid &uniform_grid(GstV3dVp9Lpf *self, const Settings &s, int w, int h) {
  UniformGrid &g = self->priv->uniform;
  if (g.w == w && g.h == h && g.level == s.level && g.block == s.block_size &&
      g.tx == s.tx_size && !g.grid.empty())
    return g;
  g.w = w;
  g.h = h;
  g.level = s.level;
  g.block = s.block_size;
  g.tx = s.tx_size;
  g.stride = (w + 7) / 8;
  g.grid.assign(static_cast<size_t>(g.stride) * ((h + 7) / 8), V3dVp9LfInfo{});
  for (V3dVp9LfInfo &e : g.grid) {
    e.filter_level = static_cast<uint8_t>(s.level);
    e.block_size = static_cast<uint8_t>(s.block_size);
    e.tx_size = static_cast<uint8_t>(s.tx_size);
    e.skip_inter = 0;
  }
  GST_DEBUG_OBJECT(self, "uniform grid %dx%d: level %u, block %d, tx %d", g.stride,
                   (h + 7) / 8, s.level, s.block_size, s.tx_size);
  return g;
}

// With a meta: its grid (checked to cover the frame: the library cannot see the array's size)
// and sharpness; edges repeated only on the padded copy (a decoder's frame with room keeps the
// samples the decoder left past the visible edge, as libvpx does). Without one: the uniform grid
// of the properties, edges repeated; level 0 leaves the frame as it is.
static GstFlowReturn gst_v3d_vp9_lpf_describe(GstV3dFilter *filter, GstBuffer *buf,
                                              GstV3dFrameDesc *desc) {
  auto *self = GST_V3D_VP9_LPF(filter);
  GST_OBJECT_LOCK(self);
  const Settings s = self->priv->settings;
  GST_OBJECT_UNLOCK(self);
  const GstVideoInfo *info = &GST_VIDEO_FILTER(self)->in_info;
  const int w = GST_VIDEO_INFO_WIDTH(info), h = GST_VIDEO_INFO_HEIGHT(info);
  auto *meta = gst_buffer_get_v3d_vp9_lf_meta(buf);
  if (!meta && s.level == 0) {
    desc->action = GstV3dFrameDesc::PASS;
    desc->count(COUNT_PASSTHROUGH);
    return GST_FLOW_OK;
  }
  desc->width = w;
  desc->height = h;
  V3dVp9LfFrame &f = desc->args.lf;
  if (meta) {
    const gsize need =
        meta->grid_stride > 0 ? static_cast<gsize>(meta->grid_stride) * ((h + 7) / 8) : 0;
    if (meta->grid_stride < (w + 7) / 8 || meta->n_entries < need) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 loop filter meta: grid of %" G_GSIZE_FORMAT " entries with stride %d "
           "does not cover a %dx%d frame (%d x %d entries needed)", meta->n_entries,
           meta->grid_stride, w, h, (w + 7) / 8, (h + 7) / 8), (nullptr));
      return GST_FLOW_ERROR;
    }
    desc->meta = &meta->meta;
    desc->extend_padded = true;
    f.grid = meta->grid;
    f.grid_stride = meta->grid_stride;
    f.sharpness = meta->sharpness;
  } else {
    if (s.tx_size > (s.block_size / 3)) {  // BLOCK_8X8 (3) holds TX_8X8 (1) at most, ...
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("tx-size larger than block-size (%d vs %d)", 4 << s.tx_size,
           8 << (s.block_size / 3 - 1)), (nullptr));
      return GST_FLOW_ERROR;
    }
    const UniformGrid &g = uniform_grid(self, s, w, h);
    desc->extend_always = true;
    f.grid = g.grid.data();
    f.grid_stride = g.stride;
    f.sharpness = static_cast<int>(s.sharpness);
  }
  desc->count(COUNT_FRAMES);
  desc->count(meta ? COUNT_FRAMES_META : COUNT_FRAMES_POST);
  return GST_FLOW_OK;
}
