// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dvp9residualsrc
 * @title: v3dvp9residualsrc
 *
 * A test source of VP9 reconstruction work: I420 "prediction" frames (a smooth gradient or
 * noise) each carrying a valid #GstV3dVp9ResidualMeta, for v3dvp9idct. Everything is
 * deterministic from #GstV3dVp9ResidualSrc:seed and the frame number.
 *
 * Blocks tile each plane without overlap the way VP9 does: the plane (rounded up to whole 8x8
 * luma blocks) is cut into 64x64 (luma) or 32x32 (chroma) squares, split recursively into
 * transform blocks aligned to their size (sizes and types per #GstV3dVp9ResidualSrc:tx-size and
 * #GstV3dVp9ResidualSrc:tx-types); each block is coded with probability
 * #GstV3dVp9ResidualSrc:density. A coded block has a few low-frequency coefficients, the DC up to
 * #GstV3dVp9ResidualSrc:max-coefficient in magnitude and the others smaller with frequency; about
 * a third of the blocks are DC-only (eob 1), the others have eob n*n (always valid).
 *
 * Any size (odd sizes too) through caps; the number of frames through num-buffers. Uses the
 * downstream buffer pool (e.g. v3dvp9idct's shared-memory pool) with #GstVideoMeta when offered.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 v3dvp9residualsrc num-buffers=10 seed=7 tx-size=mixed density=0.8 ! \
 *     video/x-raw,width=1920,height=1088 ! v3dvp9idct ! videoconvert ! autovideosink
 * ]|
 */
#include <gst/base/gstpushsrc.h>
#include <gst/video/video.h>
#include <v3d/v3d.h>

#include <cstring>
#include <vector>

#include "common/rng.h"
#include "common/vp9_itx_blocks.h"
#include "gstv3delements.h"
#include <gst/v3d/v3dvp9meta.h>

GST_DEBUG_CATEGORY_STATIC(gst_v3d_vp9_residual_src_debug);
#define GST_CAT_DEFAULT gst_v3d_vp9_residual_src_debug

typedef enum {
  GST_V3D_TX_SIZE_MODE_MIXED = 0,
  GST_V3D_TX_SIZE_MODE_4X4,
  GST_V3D_TX_SIZE_MODE_8X8,
  GST_V3D_TX_SIZE_MODE_16X16,
  GST_V3D_TX_SIZE_MODE_32X32,
} GstV3dTxSizeMode;

typedef enum {
  GST_V3D_TX_TYPES_DCT = 0,
  GST_V3D_TX_TYPES_MIXED,
  GST_V3D_TX_TYPES_ALL,
} GstV3dTxTypes;

typedef enum {
  GST_V3D_PATTERN_GRADIENT = 0,
  GST_V3D_PATTERN_NOISE,
  GST_V3D_PATTERN_FLAT,
} GstV3dPattern;

static GType gst_v3d_tx_size_mode_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_TX_SIZE_MODE_MIXED, "All sizes, chosen per block", "mixed"},
      {GST_V3D_TX_SIZE_MODE_4X4, "4x4 only", "4x4"},
      {GST_V3D_TX_SIZE_MODE_8X8, "8x8 only", "8x8"},
      {GST_V3D_TX_SIZE_MODE_16X16, "16x16 only", "16x16"},
      {GST_V3D_TX_SIZE_MODE_32X32, "32x32 only", "32x32"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dTxSizeMode", values));
  return static_cast<GType>(type);
}
#define GST_TYPE_V3D_TX_SIZE_MODE (gst_v3d_tx_size_mode_get_type())

static GType gst_v3d_tx_types_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_TX_TYPES_DCT, "DCT_DCT only", "dct"},
      {GST_V3D_TX_TYPES_MIXED, "DCT and ADST in each direction (32x32: DCT only)", "mixed"},
      {GST_V3D_TX_TYPES_ALL, "As mixed, plus WHT_WHT for 4x4 blocks", "all"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dTxTypes", values));
  return static_cast<GType>(type);
}
#define GST_TYPE_V3D_TX_TYPES (gst_v3d_tx_types_get_type())

static GType gst_v3d_pattern_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_PATTERN_GRADIENT, "Smooth gradients moving from frame to frame", "gradient"},
      {GST_V3D_PATTERN_NOISE, "Uniform noise", "noise"},
      {GST_V3D_PATTERN_FLAT, "Mid grey (Y 128, U 128, V 128)", "flat"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstV3dResidualPattern", values));
  return static_cast<GType>(type);
}
#define GST_TYPE_V3D_PATTERN (gst_v3d_pattern_get_type())

enum {
  PROP_0,
  PROP_SEED,
  PROP_TX_SIZE,
  PROP_TX_TYPES,
  PROP_DENSITY,
  PROP_MAX_COEFFICIENT,
  PROP_PATTERN,
};

#define DEFAULT_PROP_SEED 0
#define DEFAULT_PROP_TX_SIZE GST_V3D_TX_SIZE_MODE_MIXED
#define DEFAULT_PROP_TX_TYPES GST_V3D_TX_TYPES_MIXED
#define DEFAULT_PROP_DENSITY 0.5
#define DEFAULT_PROP_MAX_COEFFICIENT 1000
#define DEFAULT_PROP_PATTERN GST_V3D_PATTERN_GRADIENT

#define V3D_SRC_CAPS \
  "video/x-raw, format = (string) I420, width = (int) [ 1, 65536 ], " \
  "height = (int) [ 1, 65536 ], framerate = (fraction) [ 0, max ]"

static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(V3D_SRC_CAPS));

namespace {

struct Settings {
  guint seed = DEFAULT_PROP_SEED;
  GstV3dTxSizeMode tx_size = DEFAULT_PROP_TX_SIZE;
  GstV3dTxTypes tx_types = DEFAULT_PROP_TX_TYPES;
  gdouble density = DEFAULT_PROP_DENSITY;
  guint max_coefficient = DEFAULT_PROP_MAX_COEFFICIENT;
  GstV3dPattern pattern = DEFAULT_PROP_PATTERN;
};

// Streaming state; touched by the streaming thread and start/set_caps only.
struct State {
  GstVideoInfo info;
  bool configured = false;
  guint64 frame = 0;
};

// The block list: the test library's generator (tests/common/vp9_itx_blocks.h), shared with the
// kernel tests and v3d-bench. Superblocks split recursively, each block coded with probability
// density, sparse low-frequency coefficients.
v3dtest::vp9::Blocks make_frame_blocks(const Settings &s, int width, int height,
                                       v3dtest::Rng &rng) {
  v3dtest::vp9::BlockSpec spec;
  spec.layout = v3dtest::vp9::Layout::kQuadtree;
  spec.tx_size =
      s.tx_size == GST_V3D_TX_SIZE_MODE_MIXED ? -1 : s.tx_size - GST_V3D_TX_SIZE_MODE_4X4;
  spec.tx_type = s.tx_types == GST_V3D_TX_TYPES_DCT ? 0 : -1;
  spec.wht_one_in = s.tx_types == GST_V3D_TX_TYPES_ALL ? 5 : 0;
  spec.coded = s.density;
  const int max_dc = static_cast<int>(s.max_coefficient);
  return v3dtest::vp9::make_blocks(rng, width, height, spec,
                                   [max_dc](v3dtest::Rng &r, const V3dVp9TxBlock &b, int16_t *c) {
                                     return v3dtest::vp9::sparse_coeffs(r, b, c, max_dc);
                                   });
}

void fill_prediction(GstVideoFrame *frame, GstV3dPattern pattern, guint64 n, v3dtest::Rng &rng) {
  const int W = GST_VIDEO_FRAME_WIDTH(frame), H = GST_VIDEO_FRAME_HEIGHT(frame);
  for (int p = 0; p < 3; p++) {
    auto *data = static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(frame, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(frame, p);
    const int w = GST_VIDEO_FRAME_COMP_WIDTH(frame, p), h = GST_VIDEO_FRAME_COMP_HEIGHT(frame, p);
    const int shift = p ? 1 : 0;
    for (int y = 0; y < h; y++) {
      guint8 *row = data + static_cast<gsize>(y) * stride;
      switch (pattern) {
        case GST_V3D_PATTERN_FLAT:
          memset(row, 128, w);
          break;
        case GST_V3D_PATTERN_NOISE:
          for (int x = 0; x < w; x++) row[x] = static_cast<guint8>(rng.next() >> 56);
          break;
        case GST_V3D_PATTERN_GRADIENT:
        default:
          for (int x = 0; x < w; x++) {
            int X = x << shift, Y = y << shift;
            int v = p == 0   ? 48 + X * 128 / W + Y * 48 / H + static_cast<int>(n * 3 % 32)
                    : p == 1 ? 112 + X * 32 / W
                             : 112 + Y * 32 / H;
            row[x] = static_cast<guint8>(v);
          }
          break;
      }
    }
  }
}

}  // namespace

struct GstV3dVp9ResidualSrcPrivate {
  Settings settings;  // GST_OBJECT_LOCK
  State state;        // streaming thread (and caps, start)
};

#define GST_TYPE_V3D_VP9_RESIDUAL_SRC (gst_v3d_vp9_residual_src_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9ResidualSrc, gst_v3d_vp9_residual_src, GST, V3D_VP9_RESIDUAL_SRC,
                     GstPushSrc)

struct _GstV3dVp9ResidualSrc {
  GstPushSrc parent;
  GstV3dVp9ResidualSrcPrivate *priv;
};

G_DEFINE_TYPE(GstV3dVp9ResidualSrc, gst_v3d_vp9_residual_src, GST_TYPE_PUSH_SRC)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9residualsrc, "v3dvp9residualsrc", GST_RANK_NONE,
                            GST_TYPE_V3D_VP9_RESIDUAL_SRC)

static void gst_v3d_vp9_residual_src_finalize(GObject *object);
static void gst_v3d_vp9_residual_src_set_property(GObject *object, guint prop_id,
                                                  const GValue *value, GParamSpec *pspec);
static void gst_v3d_vp9_residual_src_get_property(GObject *object, guint prop_id, GValue *value,
                                                  GParamSpec *pspec);
static GstCaps *gst_v3d_vp9_residual_src_fixate(GstBaseSrc *src, GstCaps *caps);
static gboolean gst_v3d_vp9_residual_src_set_caps(GstBaseSrc *src, GstCaps *caps);
static gboolean gst_v3d_vp9_residual_src_start(GstBaseSrc *src);
static gboolean gst_v3d_vp9_residual_src_decide_allocation(GstBaseSrc *src, GstQuery *query);
static GstFlowReturn gst_v3d_vp9_residual_src_fill(GstPushSrc *src, GstBuffer *buf);

static void gst_v3d_vp9_residual_src_class_init(GstV3dVp9ResidualSrcClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS(klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS(klass);
  const auto flags = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                              GST_PARAM_MUTABLE_PLAYING);

  gobject_class->finalize = gst_v3d_vp9_residual_src_finalize;
  gobject_class->set_property = gst_v3d_vp9_residual_src_set_property;
  gobject_class->get_property = gst_v3d_vp9_residual_src_get_property;

  /**
   * GstV3dVp9ResidualSrc:seed:
   *
   * Seed of the frames and blocks: the same seed gives the same stream (frame n depends only on
   * the seed, n and the other properties).
   */
  g_object_class_install_property(gobject_class, PROP_SEED,
      g_param_spec_uint("seed", "Seed", "Seed of the frames and blocks (0 is a seed like any)",
                        0, G_MAXUINT, DEFAULT_PROP_SEED, flags));
  /**
   * GstV3dVp9ResidualSrc:tx-size:
   *
   * Transform block sizes: "mixed" chooses a size per block (a recursive split of each 64x64
   * luma or 32x32 chroma square), or one size for every block.
   */
  g_object_class_install_property(gobject_class, PROP_TX_SIZE,
      g_param_spec_enum("tx-size", "Transform size", "Transform block sizes, in pixels",
                        GST_TYPE_V3D_TX_SIZE_MODE, DEFAULT_PROP_TX_SIZE, flags));
  /**
   * GstV3dVp9ResidualSrc:tx-types:
   *
   * Transform types: DCT_DCT only; DCT and ADST in each direction (32x32 blocks: DCT only); or
   * those plus WHT_WHT for 4x4 blocks (lossless VP9).
   */
  g_object_class_install_property(gobject_class, PROP_TX_TYPES,
      g_param_spec_enum("tx-types", "Transform types", "Transform types used",
                        GST_TYPE_V3D_TX_TYPES, DEFAULT_PROP_TX_TYPES, flags));
  /**
   * GstV3dVp9ResidualSrc:density:
   *
   * The probability that a transform block is coded, i.e. the expected fraction of the frame
   * covered by blocks: 0 gives metas without blocks, 1 covers every plane.
   */
  g_object_class_install_property(gobject_class, PROP_DENSITY,
      g_param_spec_double("density", "Density",
                          "Fraction 0..1 of transform blocks coded (0 = no blocks)", 0.0, 1.0,
                          DEFAULT_PROP_DENSITY, flags));
  /**
   * GstV3dVp9ResidualSrc:max-coefficient:
   *
   * The largest DC coefficient magnitude; the other coefficients are smaller with frequency.
   * 0 makes every coefficient zero (the blocks are still there).
   */
  g_object_class_install_property(gobject_class, PROP_MAX_COEFFICIENT,
      g_param_spec_uint("max-coefficient", "Maximum coefficient",
                        "Largest DC coefficient magnitude (0 = all coefficients zero)", 0, 32767,
                        DEFAULT_PROP_MAX_COEFFICIENT, flags));
  /**
   * GstV3dVp9ResidualSrc:pattern:
   *
   * The prediction picture the residual is added to: a smooth gradient, noise, or mid grey.
   */
  g_object_class_install_property(gobject_class, PROP_PATTERN,
      g_param_spec_enum("pattern", "Pattern", "Prediction picture", GST_TYPE_V3D_PATTERN,
                        DEFAULT_PROP_PATTERN, flags));

  gst_element_class_set_static_metadata(element_class, "VP9 residual test source",
      "Source/Video", "Test frames carrying a valid random GstV3dVp9ResidualMeta",
      "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &src_template);

  basesrc_class->fixate = GST_DEBUG_FUNCPTR(gst_v3d_vp9_residual_src_fixate);
  basesrc_class->set_caps = GST_DEBUG_FUNCPTR(gst_v3d_vp9_residual_src_set_caps);
  basesrc_class->start = GST_DEBUG_FUNCPTR(gst_v3d_vp9_residual_src_start);
  basesrc_class->decide_allocation = GST_DEBUG_FUNCPTR(gst_v3d_vp9_residual_src_decide_allocation);
  pushsrc_class->fill = GST_DEBUG_FUNCPTR(gst_v3d_vp9_residual_src_fill);

  gst_type_mark_as_plugin_api(GST_TYPE_V3D_TX_SIZE_MODE, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_V3D_TX_TYPES, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_V3D_PATTERN, static_cast<GstPluginAPIFlags>(0));
  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_residual_src_debug, "v3dvp9residualsrc", 0,
                          "VP9 residual test source");
}

static void gst_v3d_vp9_residual_src_init(GstV3dVp9ResidualSrc *self) {
  self->priv = new GstV3dVp9ResidualSrcPrivate();
  gst_base_src_set_format(GST_BASE_SRC(self), GST_FORMAT_TIME);
}

static void gst_v3d_vp9_residual_src_finalize(GObject *object) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(object);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_vp9_residual_src_parent_class)->finalize(object);
}

static void gst_v3d_vp9_residual_src_set_property(GObject *object, guint prop_id,
                                                  const GValue *value, GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(object);
  Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_SEED: s.seed = g_value_get_uint(value); break;
    case PROP_TX_SIZE: s.tx_size = static_cast<GstV3dTxSizeMode>(g_value_get_enum(value)); break;
    case PROP_TX_TYPES: s.tx_types = static_cast<GstV3dTxTypes>(g_value_get_enum(value)); break;
    case PROP_DENSITY: s.density = g_value_get_double(value); break;
    case PROP_MAX_COEFFICIENT: s.max_coefficient = g_value_get_uint(value); break;
    case PROP_PATTERN: s.pattern = static_cast<GstV3dPattern>(g_value_get_enum(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_v3d_vp9_residual_src_get_property(GObject *object, guint prop_id, GValue *value,
                                                  GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(object);
  const Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_SEED: g_value_set_uint(value, s.seed); break;
    case PROP_TX_SIZE: g_value_set_enum(value, s.tx_size); break;
    case PROP_TX_TYPES: g_value_set_enum(value, s.tx_types); break;
    case PROP_DENSITY: g_value_set_double(value, s.density); break;
    case PROP_MAX_COEFFICIENT: g_value_set_uint(value, s.max_coefficient); break;
    case PROP_PATTERN: g_value_set_enum(value, s.pattern); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static GstCaps *gst_v3d_vp9_residual_src_fixate(GstBaseSrc *src, GstCaps *caps) {
  caps = gst_caps_make_writable(caps);
  GstStructure *s = gst_caps_get_structure(caps, 0);
  gst_structure_fixate_field_nearest_int(s, "width", 320);
  gst_structure_fixate_field_nearest_int(s, "height", 240);
  gst_structure_fixate_field_nearest_fraction(s, "framerate", 30, 1);
  return GST_BASE_SRC_CLASS(gst_v3d_vp9_residual_src_parent_class)->fixate(src, caps);
}

static gboolean gst_v3d_vp9_residual_src_set_caps(GstBaseSrc *src, GstCaps *caps) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(src);
  State &st = self->priv->state;
  if (!gst_video_info_from_caps(&st.info, caps)) return FALSE;
  st.configured = true;
  gst_base_src_set_blocksize(src, GST_VIDEO_INFO_SIZE(&st.info));
  return TRUE;
}

static gboolean gst_v3d_vp9_residual_src_start(GstBaseSrc *src) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(src);
  self->priv->state.frame = 0;
  self->priv->state.configured = false;
  return TRUE;
}

// Takes downstream's pool (v3dvp9idct offers its shared-memory pool) or a video pool, with
// GstVideoMeta when downstream supports it (then planes may be padded/strided).
static gboolean gst_v3d_vp9_residual_src_decide_allocation(GstBaseSrc *src, GstQuery *query) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(src);
  GstCaps *caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) return FALSE;
  GstBufferPool *pool = nullptr;
  guint size = GST_VIDEO_INFO_SIZE(&info), min = 0, max = 0;
  const bool update = gst_query_get_n_allocation_pools(query) > 0;
  if (update) gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, &min, &max);
  if (!pool) pool = gst_video_buffer_pool_new();
  size = MAX(size, static_cast<guint>(GST_VIDEO_INFO_SIZE(&info)));
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, min, max);
  if (gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr))
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(pool, config)) {
    // The pool changed the config (e.g. size for padding): accept it if it still fits.
    config = gst_buffer_pool_get_config(pool);
    if (!gst_buffer_pool_config_validate_params(config, caps, size, min, max) ||
        !gst_buffer_pool_set_config(pool, config)) {
      GST_ELEMENT_ERROR(self, RESOURCE, SETTINGS, ("Could not configure the buffer pool"),
                        (nullptr));
      gst_object_unref(pool);
      return FALSE;
    }
  }
  config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_get_params(config, nullptr, &size, nullptr, nullptr);
  gst_structure_free(config);
  GST_DEBUG_OBJECT(self, "using pool %" GST_PTR_FORMAT " (buffers of %u bytes)", pool, size);
  if (update)
    gst_query_set_nth_allocation_pool(query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool(query, pool, size, min, max);
  gst_object_unref(pool);
  return GST_BASE_SRC_CLASS(gst_v3d_vp9_residual_src_parent_class)->decide_allocation(src, query);
}

static GstFlowReturn gst_v3d_vp9_residual_src_fill(GstPushSrc *src, GstBuffer *buf) {
  auto *self = GST_V3D_VP9_RESIDUAL_SRC(src);
  State &st = self->priv->state;
  if (!st.configured) return GST_FLOW_NOT_NEGOTIATED;
  GST_OBJECT_LOCK(self);
  const Settings s = self->priv->settings;
  GST_OBJECT_UNLOCK(self);
  const guint64 n = st.frame++;
  const gint w = GST_VIDEO_INFO_WIDTH(&st.info), h = GST_VIDEO_INFO_HEIGHT(&st.info);
  // Two independent streams, so the blocks do not depend on the pattern; no state shared between
  // frames, so frame n is the same whatever came before.
  const guint64 key = (static_cast<guint64>(s.seed) << 32) ^ (n * 0xD1B54A32D192ED03ull);
  v3dtest::Rng pixel_rng(v3dtest::mix_seed(key ^ 0x5851F42D4C957F2Dull));
  v3dtest::Rng rng(v3dtest::mix_seed(key));

  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &st.info, buf, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("Could not map the frame"), (nullptr));
    return GST_FLOW_ERROR;
  }
  fill_prediction(&frame, s.pattern, n, pixel_rng);
  gst_video_frame_unmap(&frame);

  // Blocks over the planes as v3d_vp9_itxfm_add_frame sees them (8x8-rounded luma).
  const v3dtest::vp9::Blocks bl = make_frame_blocks(s, w, h, rng);
  GBytes *blocks_bytes = g_bytes_new(bl.blocks.data(), bl.blocks.size() * sizeof(V3dVp9TxBlock));
  GBytes *coeffs_bytes = g_bytes_new(bl.coeffs.data(), bl.coeffs.size() * sizeof(gint16));
  gst_buffer_add_v3d_vp9_residual_meta_take(buf, blocks_bytes, coeffs_bytes);

  if (GST_VIDEO_INFO_FPS_N(&st.info) > 0) {
    GstClockTime dur = gst_util_uint64_scale_int(GST_SECOND, GST_VIDEO_INFO_FPS_D(&st.info),
                                                 GST_VIDEO_INFO_FPS_N(&st.info));
    GST_BUFFER_PTS(buf) = n * dur;
    GST_BUFFER_DURATION(buf) = dur;
  } else {
    GST_BUFFER_PTS(buf) = n == 0 ? 0 : GST_CLOCK_TIME_NONE;
  }
  GST_BUFFER_DTS(buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_OFFSET(buf) = n;
  GST_BUFFER_OFFSET_END(buf) = n + 1;
  GST_LOG_OBJECT(self, "frame %" G_GUINT64_FORMAT ": %zu blocks, %zu coefficients", n,
                 bl.blocks.size(), bl.coeffs.size());
  return GST_FLOW_OK;
}
