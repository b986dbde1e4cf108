// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dvp9lpf
 * @title: v3dvp9lpf
 *
 * Applies the VP9 loop filter (v3d_vp9_loop_filter_frame, bit-exact with libvpx's decoder) to
 * I420 frames in place, in one of two modes:
 *
 * - With a #GstV3dVp9LfMeta (v3dvp9lfmeta.h, attached by a decoder or an application): the
 *   meta's mode-info grid and sharpness describe the frame; the meta is removed after filtering.
 *   An invalid meta is a stream error whose message names the problem (v3d_last_error()); the
 *   frame is not modified.
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
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m filesrc location=low.mpg ! decodebin ! videoconvert ! \
 *     v3dvp9lpf level=24 block-size=16x16 tx-size=8x8 ! autovideosink
 * ]|
 */
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <mutex>
#include <string>
#include <vector>

#include "gstv3delements.h"
#include "v3dfilter.h"
#include "v3dfilter_common.h"
#include "v3dframe.h"
#include <gst/v3d/v3dvp9lfmeta.h>

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

// This element's properties; guarded by GstV3dVp9LpfPrivate::settings_lock.
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
  std::mutex settings_lock;
  Settings settings;
  // Streaming thread only (and stop/finalize).
  v3d::ItxFrameLayout layout;
  UniformGrid uniform;
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
static GstFlowReturn gst_v3d_vp9_lpf_transform_ip(GstBaseTransform *trans, GstBuffer *buf);
static GstFlowReturn gst_v3d_vp9_lpf_process_batch(GstV3dFilter *filter, GstBuffer **buffers,
                                                   guint n);

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

  gst_v3d_filter_class_install_properties(v3d_class, 0,
      "Where the loop filter runs (read when going to READY): cpu (SIMD wavefront), gpu "
      "(Vulkan compute), hybrid (planes split between GPU and CPU, or frames on each side with "
      "max-frames-in-flight), auto (cpu); same result",
      "Statistics (read-only): this element's frames (filtered), frames-with-meta, "
      "frames-post-filter, frames-passthrough, padded-copies, input-copies and input-copy-time "
      "(read-only input frames copied into the element's pool, seconds), process-time (seconds inside "
      "the element for filtered frames), stream-time (first filtered frame's arrival to the "
      "last one's end); and its context's backend, gpu-device, cpu-threads, "
      "context-frames, blocks-cpu, blocks-gpu, cpu-time, gpu-time, gpu-share, copies, "
      "gpu-submissions, shared-memory (gpu: the pool hands out the GPU's memory; plain: ordinary memory, see V3D_SHARED_MEMORY); the scheduler's figures for this kernel family: kernel-frames, split-gpu-share, "
      "cpu-throughput and gpu-throughput (units per busy second), cpu-idle-time, gpu-idle-time, "
      "gpu-queue-depth, gpu-queue-depth-max, frame-time-median and frame-time-p99 (ms)");
  g_object_class_install_property(gobject_class, PROP_LEVEL,
      g_param_spec_uint("level", "Level",
          "Post-filter mode (frames without a GstV3dVp9LfMeta): VP9 filter level of every block "
          "(0 = pass-through)", 0, 63, DEFAULT_PROP_LEVEL, rw_playing));
  g_object_class_install_property(gobject_class, PROP_SHARPNESS,
      g_param_spec_uint("sharpness", "Sharpness",
          "Post-filter mode: VP9 sharpness (higher filters less across strong edges)", 0, 7,
          DEFAULT_PROP_SHARPNESS, rw_playing));
  g_object_class_install_property(gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_enum("block-size", "Block size",
          "Post-filter mode: size of the uniform prediction blocks (edges of blocks get the "
          "strongest filters)", gst_v3d_lpf_block_size_get_type(), DEFAULT_PROP_BLOCK_SIZE,
          rw_playing));
  g_object_class_install_property(gobject_class, PROP_TX_SIZE,
      g_param_spec_enum("tx-size", "Transform size",
          "Post-filter mode: size of the uniform transforms (at most the block size; e.g. 8x8 "
          "for MPEG-2 and JPEG)", gst_v3d_lpf_tx_size_get_type(), DEFAULT_PROP_TX_SIZE,
          rw_playing));
  v3d_class->meta_api = GST_V3D_VP9_LF_META_API_TYPE;
  v3d_class->counter_names = counter_names;
  v3d_class->kernel = V3D_KERNEL_VP9_LPF;
  v3d_class->process_batch = gst_v3d_vp9_lpf_process_batch;
  v3d_class->batches_help_cpu = TRUE;  // the batch's wavefronts run in one loop of the workers
  v3d_class->copies_source = TRUE;

  gst_element_class_set_static_metadata(element_class, "VP9 loop filter",
      "Filter/Effect/Video", "Applies the VP9 loop filter in place: per a GstV3dVp9LfMeta from "
      "a decoder, or as a deblocking post-filter configured by properties", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_set_info);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_stop);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_v3d_vp9_lpf_transform_ip);

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
  delete self->priv;  // releases the padded copy (the base class then releases the context)
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
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_LEVEL: s.level = g_value_get_uint(value); break;
    case PROP_SHARPNESS: s.sharpness = g_value_get_uint(value); break;
    case PROP_BLOCK_SIZE:
      s.block_size = static_cast<GstV3dLpfBlockSize>(g_value_get_enum(value));
      break;
    case PROP_TX_SIZE: s.tx_size = static_cast<GstV3dLpfTxSize>(g_value_get_enum(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
}

static void gst_v3d_vp9_lpf_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec) {
  if (prop_id < GST_V3D_FILTER_PROP_LAST) {
    gst_v3d_filter_get_property(object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_V3D_VP9_LPF(object);
  Settings &s = self->priv->settings;
  std::lock_guard<std::mutex> lock(self->priv->settings_lock);
  switch (prop_id) {
    case PROP_LEVEL: g_value_set_uint(value, s.level); break;
    case PROP_SHARPNESS: g_value_set_uint(value, s.sharpness); break;
    case PROP_BLOCK_SIZE: g_value_set_enum(value, s.block_size); break;
    case PROP_TX_SIZE: g_value_set_enum(value, s.tx_size); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
}

static gboolean gst_v3d_vp9_lpf_set_info(GstVideoFilter *filter, GstCaps *, GstVideoInfo *info,
                                         GstCaps *, GstVideoInfo *) {
  auto *self = GST_V3D_VP9_LPF(filter);
  self->priv->uniform = UniformGrid();
  return gst_v3d_filter_configure_layout(GST_V3D_FILTER(self), &self->priv->layout, info);
}

static gboolean gst_v3d_vp9_lpf_stop(GstBaseTransform *trans) {
  auto *self = GST_V3D_VP9_LPF(trans);
  self->priv->layout.reset();
  self->priv->uniform = UniformGrid();
  return TRUE;
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

// The grid, its stride and the sharpness for buf: from its meta (checked to cover the frame), or
// the uniform post-filter grid of the settings s. Posts the element error it names on failure.
static GstFlowReturn frame_grid(GstV3dVp9Lpf *self, const Settings &s, GstV3dVp9LfMeta *meta,
                                const V3dVp9LfInfo **grid_out, int *stride_out,
                                int *sharpness_out) {
  v3d::ItxFrameLayout &layout = self->priv->layout;
  const int w = layout.width(), h = layout.height();
  const V3dVp9LfInfo *grid;
  int grid_stride, sharpness;
  if (meta) {
    grid = meta->grid;
    grid_stride = meta->grid_stride;
    sharpness = meta->sharpness;
    // The library cannot see the array's size: check it covers the grid rows here.
    const gsize need = grid_stride > 0 ? static_cast<gsize>(grid_stride) * ((h + 7) / 8) : 0;
    if (grid_stride < (w + 7) / 8 || meta->n_entries < need) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 loop filter meta: grid of %" G_GSIZE_FORMAT " entries with stride %d "
           "does not cover a %dx%d frame (%d x %d entries needed)", meta->n_entries,
           grid_stride, w, h, (w + 7) / 8, (h + 7) / 8), (nullptr));
      return GST_FLOW_ERROR;
    }
  } else {
    if (s.tx_size > (s.block_size / 3)) {  // BLOCK_8X8 (3) holds TX_8X8 (1) at most, ...
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("tx-size larger than block-size (%d vs %d)", 4 << s.tx_size,
           8 << (s.block_size / 3 - 1)), (nullptr));
      return GST_FLOW_ERROR;
    }
    const UniformGrid &g = uniform_grid(self, s, w, h);
    grid = g.grid.data();
    grid_stride = g.stride;
    sharpness = static_cast<int>(s.sharpness);
  }
  *grid_out = grid;
  *stride_out = grid_stride;
  *sharpness_out = sharpness;
  return GST_FLOW_OK;
}

// A read-only input frame's pixels, copied row by row inside the loop filter (source mapped in
// *src_frame) when buf has room for the processed area and no edge extension is needed; else
// copied here at once. Returns FALSE after an element error.
static gboolean take_source(GstV3dVp9Lpf *self, GstBuffer *buf, GstVideoFrame *src_frame,
                            bool *fused) {
  GstV3dFilter *filter = GST_V3D_FILTER(self);
  *fused = false;
  GstBuffer *src = gst_v3d_filter_take_source(filter, buf);
  if (!src) return TRUE;
  v3d::ItxFrameLayout &layout = self->priv->layout;
  gboolean ok = TRUE;
  if (layout.width() % 8 == 0 && layout.height() % 8 == 0 && layout.has_room(buf) &&
      gst_video_frame_map(src_frame, &GST_VIDEO_FILTER(self)->in_info, src, GST_MAP_READ))
    *fused = true;
  else
    ok = gst_v3d_filter_copy_source(filter, src, buf);
  gst_buffer_unref(src);  // a mapped frame keeps its own reference
  return ok;
}

static GstFlowReturn gst_v3d_vp9_lpf_transform_ip(GstBaseTransform *trans, GstBuffer *buf) {
  auto *self = GST_V3D_VP9_LPF(trans);
  GstV3dFilter *filter = GST_V3D_FILTER(self);
  v3d::ItxFrameLayout &layout = self->priv->layout;
  if (!gst_v3d_filter_check_negotiated(filter)) return GST_FLOW_NOT_NEGOTIATED;
  const int w = layout.width(), h = layout.height();
  Settings s;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    s = self->priv->settings;
  }
  auto *meta = gst_buffer_get_v3d_vp9_lf_meta(buf);
  GstVideoFrame src_frame;
  bool fused = false;
  if (!take_source(self, buf, &src_frame, &fused)) return GST_FLOW_ERROR;
  // Whatever returns below must not leave buf without its pixels.
  auto settle = [&]() -> gboolean {
    if (!fused) return TRUE;
    fused = false;
    GstBuffer *src = src_frame.buffer;
    gst_buffer_ref(src);
    gst_video_frame_unmap(&src_frame);
    gboolean ok = gst_v3d_filter_copy_source(filter, src, buf);
    gst_buffer_unref(src);
    return ok;
  };
  if (!meta && s.level == 0) {
    if (!settle()) return GST_FLOW_ERROR;
    gst_v3d_filter_count(filter, {{COUNT_PASSTHROUGH, 1}});
    return GST_FLOW_OK;
  }
  const gint64 t_start = g_get_monotonic_time();
  const V3dVp9LfInfo *grid;
  int grid_stride, sharpness;
  GstFlowReturn gret = frame_grid(self, s, meta, &grid, &grid_stride, &sharpness);
  if (gret != GST_FLOW_OK) {
    settle();
    return gret;
  }
  V3dContext *ctx = gst_v3d_filter_frame_context(filter);
  if (!ctx) {
    settle();
    return GST_FLOW_ERROR;
  }
  GstVideoFrame frame;
  if (!gst_v3d_filter_map_frame(filter, &frame, buf)) {
    v3d_context_free(ctx);
    settle();
    return GST_FLOW_ERROR;
  }
  const bool direct = layout.has_room(buf);
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  layout.planes_for(frame, direct, planes, strides);
  // Post-filter mode, and the padded copy: the area past the visible edge repeats the edge. A
  // decoder's frame with room keeps what the decoder put there (libvpx's decoded samples). The
  // extension only writes outside the visible area (invalid grids leave that untouched).
  if (!meta || !direct) v3d::extend_to_8x8(planes, strides, w, h);  // nothing when fused
  int rc;
  if (fused) {
    // Copy and filter: each superblock row of the read-only source is copied just before it is
    // filtered (its time is the kernel's).
    const uint8_t *src[3];
    ptrdiff_t src_strides[3];
    for (int p = 0; p < 3; p++) {
      src[p] = static_cast<const uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&src_frame, p));
      src_strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE(&src_frame, p);
    }
    rc = v3d_vp9_loop_filter_frame_from(ctx, src, src_strides, planes, strides, w, h, grid,
                                        grid_stride, sharpness);
    gst_video_frame_unmap(&src_frame);
    fused = false;
    gst_v3d_filter_count_source_copy(filter, 0);
  } else {
    rc = v3d_vp9_loop_filter_frame(ctx, planes, strides, w, h, grid, grid_stride, sharpness);
  }
  std::string why = rc ? v3d_last_error() : "";
  if (rc == V3D_OK && !direct) layout.copy_back(frame);
  gst_video_frame_unmap(&frame);
  v3d_context_free(ctx);

  if (rc != V3D_OK) {
    if (gst_v3d_filter_resource_error(filter, rc, "VP9 loop filter", why)) {
    } else if (meta) {
      GST_ELEMENT_ERROR(self, STREAM, DECODE,
          ("Invalid VP9 loop filter meta (%s): %s", v3d_error_name(rc), why.c_str()),
          ("frame %dx%d, grid stride %d, sharpness %d", w, h, grid_stride, sharpness));
    } else {
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("VP9 loop filter refused the settings (%s): %s", v3d_error_name(rc), why.c_str()),
          (nullptr));
    }
    return GST_FLOW_ERROR;
  }
  if (meta) gst_buffer_remove_meta(buf, &meta->meta);
  gst_v3d_filter_count(filter,
                       {{COUNT_FRAMES, 1}, {meta ? COUNT_FRAMES_META : COUNT_FRAMES_POST, 1},
                        {COUNT_PADDED, direct ? 0u : 1u}},
                       t_start);
  return GST_FLOW_OK;
}

// Frames in flight: the frames to filter whose planes have room for the 8x8 rounding go to the
// library in one v3d_vp9_loop_filter_frames call (hybrid: whole frames on the GPU and on the CPU
// workers at once); the others (pass-through, or a padded copy needed) one by one.
static GstFlowReturn gst_v3d_vp9_lpf_process_batch(GstV3dFilter *filter, GstBuffer **buffers,
                                                   guint n) {
  auto *self = GST_V3D_VP9_LPF(filter);
  v3d::ItxFrameLayout &layout = self->priv->layout;
  if (!gst_v3d_filter_check_negotiated(filter)) return GST_FLOW_NOT_NEGOTIATED;
  const int w = layout.width(), h = layout.height();
  Settings s;
  {
    std::lock_guard<std::mutex> lock(self->priv->settings_lock);
    s = self->priv->settings;
  }
  const gint64 t_start = g_get_monotonic_time();
  std::vector<GstBuffer *> batched;
  std::vector<bool> with_meta;
  std::vector<GstVideoFrame> mapped;
  std::vector<V3dVp9LfFrame> frames;
  GstFlowReturn ret = GST_FLOW_OK;
  for (guint i = 0; i < n && ret == GST_FLOW_OK; i++) {
    auto *meta = gst_buffer_get_v3d_vp9_lf_meta(buffers[i]);
    if ((!meta && s.level == 0) || !layout.has_room(buffers[i])) {
      ret = gst_v3d_vp9_lpf_transform_ip(GST_BASE_TRANSFORM(self), buffers[i]);
      continue;
    }
    V3dVp9LfFrame fr{};
    ret = frame_grid(self, s, meta, &fr.grid, &fr.grid_stride, &fr.sharpness);
    if (ret != GST_FLOW_OK) break;
    mapped.emplace_back();
    if (!gst_v3d_filter_map_frame(filter, &mapped.back(), buffers[i])) {
      mapped.pop_back();
      ret = GST_FLOW_ERROR;
      break;
    }
    layout.planes_for(mapped.back(), true, fr.planes, fr.strides);
    if (!meta) v3d::extend_to_8x8(fr.planes, fr.strides, w, h);
    fr.width = w;
    fr.height = h;
    frames.push_back(fr);
    batched.push_back(buffers[i]);
    with_meta.push_back(meta != nullptr);
  }
  if (ret == GST_FLOW_OK && !frames.empty()) {
    V3dContext *ctx = gst_v3d_filter_frame_context(filter);
    const int rc =
        ctx ? v3d_vp9_loop_filter_frames(ctx, frames.data(), frames.size()) : V3D_ERROR_UNAVAILABLE;
    const std::string why = rc ? v3d_last_error() : "";
    if (ctx) v3d_context_free(ctx);
    if (rc != V3D_OK) {
      if (!gst_v3d_filter_resource_error(filter, rc, "VP9 loop filter", why))
        GST_ELEMENT_ERROR(self, STREAM, DECODE,
            ("Invalid VP9 loop filter input (%s): %s", v3d_error_name(rc), why.c_str()),
            ("a batch of %zu frames in flight", frames.size()));
      ret = GST_FLOW_ERROR;
    }
  }
  for (GstVideoFrame &f : mapped) gst_video_frame_unmap(&f);
  if (ret != GST_FLOW_OK) return ret;
  for (size_t i = 0; i < batched.size(); i++) {
    if (auto *meta = gst_buffer_get_v3d_vp9_lf_meta(batched[i]))
      gst_buffer_remove_meta(batched[i], &meta->meta);
    // The batch's time counts once, with its last frame.
    gst_v3d_filter_count(filter,
                         {{COUNT_FRAMES, 1}, {with_meta[i] ? COUNT_FRAMES_META : COUNT_FRAMES_POST, 1}},
                         i + 1 == batched.size() ? t_start : -1);
  }
  return GST_FLOW_OK;
}
