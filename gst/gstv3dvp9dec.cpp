// SPDX-License-Identifier: LGPL-2.1-or-later
/**
 * SECTION:element-v3dvp9dec
 * @title: v3dvp9dec
 *
 * Decodes VP9 profile 0 (8-bit 4:2:0) into I420 with the v3d VP9 decoder
 * (<v3d/vp9_decoder.h>), whose output equals libvpx's (`vpxdec --i420`) frame for frame; its
 * reconstruction runs on the v3d kernels of the element's #GstV3dVp9Dec:backend.
 *
 * Input is `video/x-vp9` as ivfparse, matroskademux and vp9parse give it: one packet per
 * buffer, a frame or a superframe (alignment super-frame or frame). Other profiles (4:4:4,
 * 4:2:2, 4:4:0, 10/12-bit) are refused in the caps when upstream names the profile, else at the
 * first frame with an element error that names profile and bit depth.
 *
 * Output: each shown frame as I420 in shared memory of the v3d context, without a copy when
 * downstream takes #GstVideoMeta: the decoder's picture itself, read-only (the decoder may still
 * predict from it), with a #GstVideoMeta giving its strides and plane offsets; the memory holds
 * the picture until downstream frees it, also after the decoder is gone. Otherwise the visible
 * planes are copied into a buffer of a #GstV3dBufferPool: downstream's when it offers one (a v3d
 * filter such as v3dvp9lpf then gets writable frames padded for its kernels), else the
 * element's own (GStreamer's default layout); also for elements that claim #GstVideoMeta
 * support but write buffers out as they are (y4menc), and with #GstV3dVp9Dec:zero-copy off. The
 * debug log (v3dvp9dec:4) names the path and why. The caps' width and height are the coded
 * frame size; a stream whose render size differs from the frame size gets the pixel aspect
 * ratio that displays the frame at the render size. A change of frame size (a new key frame, or
 * libvpx's dynamic resizing) renegotiates with the new size.
 *
 * Timestamps: a shown frame keeps the timestamps of the packet it came from. A packet that
 * shows nothing (a hidden alternate reference frame on its own, as vp9parse's alignment=frame
 * gives it) produces no buffer. show_existing_frame packets produce a buffer.
 *
 * Errors: a corrupt packet is a decode error (#GstVideoDecoder:max-errors decides whether it
 * stops the stream: the default, -1, only warns); the element then drops packets until the next
 * key frame or intra-only frame, where libvpx resumes too. Decoding starts there as well at the
 * start of a stream and after a flushing seek; packets before it are dropped (stats field
 * "frames-skipped"). EOS drains the decoder.
 *
 * Backends and the context: as the other v3d elements, the element shares one V3dContext per
 * pipeline through a GstContext of type "v3d.context" (<gst/v3d/v3dcontext.h>); its
 * #GstV3dVp9Dec:backend and #GstV3dVp9Dec:cpu-threads apply to a context it creates. A context
 * of backend auto or hybrid opens its Vulkan device on a thread of its own: the first frames
 * are decoded on a CPU context meanwhile, and decoding moves to the opened context at the next
 * packet (stats "context-opening"). At EOS it posts a "v3d-stats" message with the stats.
 *
 * Rank: below avdec_vp9 (marginal - 1), so that playbin and decodebin keep choosing libvpx's
 * vp9dec or FFmpeg's avdec_vp9 by default; ranks below marginal are not autoplugged. To make
 * playbin prefer this decoder, raise its rank from the environment:
 * `GST_PLUGIN_FEATURE_RANK=v3dvp9dec:MAX gst-play-1.0 in.webm`, or in an application call
 * gst_plugin_feature_set_rank() on the "v3dvp9dec" factory before building the pipeline.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.ivf ! ivfparse ! v3dvp9dec ! videoconvert ! autovideosink
 * ]| Decodes an IVF file (as `vpxenc --ivf` writes) and shows it.
 * |[
 * gst-launch-1.0 filesrc location=in.webm ! matroskademux ! v3dvp9dec backend=cpu ! \
 *     videoconvert ! autovideosink
 * ]| Decodes the VP9 track of a WebM file on the SIMD CPU workers.
 * |[
 * GST_PLUGIN_FEATURE_RANK=v3dvp9dec:MAX gst-play-1.0 in.webm
 * ]| Plays a WebM file with v3dvp9dec chosen by playbin.
 */
#include <gst/video/video.h>
#include <gst/v3d/v3dallocator.h>
#include <v3d/v3d.h>
#include <v3d/vp9_decoder.h>

#include <mutex>
#include <string>
#include <utility>

#include "gstv3delements.h"
#include "v3dfilter.h"
#include "v3dfilter_context.h"
#include "v3dvp9dec_output.h"
#include "v3dvp9dec_startup.h"
#include "v3dvp9dec_util.h"

GST_DEBUG_CATEGORY(gst_v3d_vp9_dec_debug);  // also v3dvp9dec_output.cpp, _startup.cpp
#define GST_CAT_DEFAULT gst_v3d_vp9_dec_debug

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CPU_THREADS,
  PROP_STATS,
  PROP_ZERO_COPY,
};

#define DEFAULT_PROP_BACKEND GST_V3D_BACKEND_AUTO
#define DEFAULT_PROP_CPU_THREADS 0
#define DEFAULT_PROP_ZERO_COPY TRUE

// Ranks below avdec_vp9 (GST_RANK_MARGINAL in gst-libav) by one: never autoplugged unless
// raised (GST_PLUGIN_FEATURE_RANK), see the documentation block.
#define V3D_VP9_DEC_RANK (GST_RANK_MARGINAL - 1)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-vp9, profile = (string) 0, "
                    "alignment = (string) { super-frame, frame }"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC,
    GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("I420")));

namespace {

struct Settings {
  GstV3dBackend backend = DEFAULT_PROP_BACKEND;
  guint cpu_threads = DEFAULT_PROP_CPU_THREADS;
  bool zero_copy = DEFAULT_PROP_ZERO_COPY;
};

// What the element counted since it last started (stats fields of the same names).
}  // namespace

struct GstV3dVp9DecPrivate {
  Settings settings;  // GST_OBJECT_LOCK
  v3d::ElementContext context;
  // Backend auto or hybrid: the element's own context opens in the background
  // (v3dvp9dec_startup.h), and the decoder starts on startup_ctx (CPU; guarded by lock).
  v3d::ContextOpener opener;
  V3dContext *startup_ctx = nullptr;
  gint64 opened_us = 0;  // when open() ran (the first frame's latency is logged from there)
  // The decoder and the counters: decoder calls and stats snapshots (any thread) take it; never
  // held while calling into GStreamer.
  std::mutex lock;
  V3dVp9Decoder *dec = nullptr;
  v3d::Vp9DecElementCounters counters;
  V3dVp9DecoderCounters decoder_counters = {};  // the last decoder's counters after stop
  // Streaming thread (GstVideoDecoder's stream lock).
  GstVideoCodecState *input_state = nullptr;
  v3d::Vp9DecOutputFormat output;
  // Drop packets until a key frame or intra-only frame: at start, after flushes and errors.
  bool wait_key = true;
  v3d::Vp9DecOutputMode output_mode;  // what the last allocation query decided
  GstAllocator *allocator = nullptr;   // wraps pictures on the zero-copy path (start..stop)
};

#define GST_TYPE_V3D_VP9_DEC (gst_v3d_vp9_dec_get_type())
G_DECLARE_FINAL_TYPE(GstV3dVp9Dec, gst_v3d_vp9_dec, GST, V3D_VP9_DEC, GstVideoDecoder)

struct _GstV3dVp9Dec {
  GstVideoDecoder parent;
  GstV3dVp9DecPrivate *priv;
};

G_DEFINE_TYPE(GstV3dVp9Dec, gst_v3d_vp9_dec, GST_TYPE_VIDEO_DECODER)
GST_ELEMENT_REGISTER_DEFINE(v3dvp9dec, "v3dvp9dec", V3D_VP9_DEC_RANK, GST_TYPE_V3D_VP9_DEC)

static void gst_v3d_vp9_dec_finalize(GObject *object);
static void gst_v3d_vp9_dec_set_property(GObject *object, guint prop_id, const GValue *value,
                                         GParamSpec *pspec);
static void gst_v3d_vp9_dec_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec);
static void gst_v3d_vp9_dec_set_context(GstElement *element, GstContext *context);
static gboolean gst_v3d_vp9_dec_open(GstVideoDecoder *vdec);
static gboolean gst_v3d_vp9_dec_close(GstVideoDecoder *vdec);
static gboolean gst_v3d_vp9_dec_start(GstVideoDecoder *vdec);
static gboolean gst_v3d_vp9_dec_stop(GstVideoDecoder *vdec);
static gboolean gst_v3d_vp9_dec_set_format(GstVideoDecoder *vdec, GstVideoCodecState *state);
static gboolean gst_v3d_vp9_dec_flush(GstVideoDecoder *vdec);
static GstFlowReturn gst_v3d_vp9_dec_drain(GstVideoDecoder *vdec);
static GstFlowReturn gst_v3d_vp9_dec_finish(GstVideoDecoder *vdec);
static GstFlowReturn gst_v3d_vp9_dec_handle_frame(GstVideoDecoder *vdec,
                                                  GstVideoCodecFrame *frame);
static gboolean gst_v3d_vp9_dec_decide_allocation(GstVideoDecoder *vdec, GstQuery *query);
static gboolean gst_v3d_vp9_dec_src_query(GstVideoDecoder *vdec, GstQuery *query);
static gboolean gst_v3d_vp9_dec_sink_query(GstVideoDecoder *vdec, GstQuery *query);
static GstStructure *gst_v3d_vp9_dec_make_stats(GstV3dVp9Dec *self);

static void gst_v3d_vp9_dec_class_init(GstV3dVp9DecClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstVideoDecoderClass *vdec_class = GST_VIDEO_DECODER_CLASS(klass);
  const auto rw_ready = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                 GST_PARAM_MUTABLE_READY);
  const auto rw_playing = static_cast<GParamFlags>((rw_ready & ~GST_PARAM_MUTABLE_READY) |
                                                   GST_PARAM_MUTABLE_PLAYING);

  gobject_class->finalize = gst_v3d_vp9_dec_finalize;
  gobject_class->set_property = gst_v3d_vp9_dec_set_property;
  gobject_class->get_property = gst_v3d_vp9_dec_get_property;

  /**
   * GstV3dVp9Dec:backend:
   *
   * Where the decoder's reconstruction kernels run: "auto", "scalar" (reference code), "cpu"
   * (SIMD on the CPU workers), "gpu" or "hybrid" (with a Vulkan device); every backend gives the
   * same pictures. Read when going to READY, for the context the element creates or the shared
   * context it accepts (an element asking for a backend other than "auto" ignores a shared
   * context made for another one; <gst/v3d/v3dcontext.h>). Entropy decoding always runs on the
   * streaming thread.
   */
  g_object_class_install_property(gobject_class, PROP_BACKEND,
      g_param_spec_enum("backend", "Backend",
          "Where the decoder's kernels run (auto = GPU and CPU workers if a GPU is there)",
          GST_TYPE_V3D_BACKEND, DEFAULT_PROP_BACKEND, rw_ready));
  /**
   * GstV3dVp9Dec:cpu-threads:
   *
   * CPU worker threads of a context this element creates (a shared context keeps its
   * creator's). 0: $V3D_CPU_THREADS if set, else the online cores minus one (the streaming
   * thread works too), for backend=auto with a GPU all online cores; at least 1.
   */
  g_object_class_install_property(gobject_class, PROP_CPU_THREADS,
      g_param_spec_uint("cpu-threads", "CPU threads",
          "CPU worker threads of a context this element creates (0 = automatic)", 0, 1024,
          DEFAULT_PROP_CPU_THREADS, rw_ready));
  /**
   * GstV3dVp9Dec:stats:
   *
   * A "v3d-stats" structure, also posted as an element message at EOS. Fields, counted since
   * the element last started: frames-decoded (packets decoded without error; a superframe
   * counts once), frames-shown (buffers pushed), frames-copied (buffers pushed whose pixels
   * were copied: 0 on the zero-copy path), frames-hidden (decoded packets that showed
   * nothing), frames-skipped (packets dropped while waiting for a key frame or intra-only frame:
   * at the start, after a flush or an error), errors (packets the decoder refused),
   * context-opening (TRUE while the context of backend auto or hybrid is still opening in the
   * background and the decoder runs on a CPU context: backend "simd"); the decoder's feature
   * counters (v3d_vp9_decoder_get_counters) as "vp9-NAME" (guint64; NAME as
   * v3d_vp9_decoder_stats() prints it, e.g. vp9-frames, vp9-key, vp9-show-existing,
   * vp9-compound (blocks), vp9-compound-frames, vp9-scaled-preds, vp9-tx-4x4-dct-dct,
   * vp9-intra-modes-tm); and the
   * context's backend, gpu-device, cpu-threads, context-frames, blocks-cpu, blocks-gpu, cpu-time
   * and gpu-time (seconds), gpu-share, copies, gpu-submissions and shared-memory, as in the
   * other v3d elements.
   */
  g_object_class_install_property(gobject_class, PROP_STATS,
      g_param_spec_boxed("stats", "Statistics",
          "Frame and error counters, decoder and context figures (read-only; fields in the docs)",
          GST_TYPE_STRUCTURE, static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  /**
   * GstV3dVp9Dec:zero-copy:
   *
   * Hand the decoder's pictures downstream without copying them (read-only buffers with a
   * GstVideoMeta) when downstream supports GstVideoMeta and offers no v3d pool; FALSE: always
   * copy into a v3d pool buffer (for an element downstream that claims GstVideoMeta support but
   * ignores its strides). Read at each allocation query.
   */
  g_object_class_install_property(gobject_class, PROP_ZERO_COPY,
      g_param_spec_boolean("zero-copy", "Zero copy",
          "Output the decoder's pictures without copies when downstream supports GstVideoMeta "
          "(FALSE = always copy into a v3d pool buffer)", DEFAULT_PROP_ZERO_COPY, rw_playing));

  gst_element_class_set_static_metadata(element_class, "VP9 decoder on v3d kernels",
      "Codec/Decoder/Video", "Decodes VP9 profile 0 with reconstruction on SIMD CPU workers "
      "and Vulkan compute, bit-exact with libvpx", "gst-v3d developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  element_class->set_context = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_set_context);

  vdec_class->open = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_open);
  vdec_class->close = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_close);
  vdec_class->start = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_start);
  vdec_class->stop = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_stop);
  vdec_class->set_format = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_set_format);
  vdec_class->flush = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_flush);
  vdec_class->drain = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_drain);
  vdec_class->finish = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_finish);
  vdec_class->handle_frame = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_handle_frame);
  vdec_class->decide_allocation = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_decide_allocation);
  vdec_class->src_query = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_src_query);
  vdec_class->sink_query = GST_DEBUG_FUNCPTR(gst_v3d_vp9_dec_sink_query);

  gst_type_mark_as_plugin_api(GST_TYPE_V3D_BACKEND, static_cast<GstPluginAPIFlags>(0));
  GST_DEBUG_CATEGORY_INIT(gst_v3d_vp9_dec_debug, "v3dvp9dec", 0, "VP9 decoder on v3d kernels");
  // v3d::ElementContext logs in the filter base class's category, made in its class_init.
  g_type_class_unref(g_type_class_ref(GST_TYPE_V3D_FILTER));
}

static void gst_v3d_vp9_dec_init(GstV3dVp9Dec *self) {
  self->priv = new GstV3dVp9DecPrivate();
  GstVideoDecoder *vdec = GST_VIDEO_DECODER(self);
  gst_video_decoder_set_packetized(vdec, TRUE);
  gst_video_decoder_set_needs_format(vdec, TRUE);
  gst_video_decoder_set_use_default_pad_acceptcaps(vdec, TRUE);
  // Caps without profile or alignment (ivfparse, matroskademux) intersect the template.
  GST_PAD_SET_ACCEPT_TEMPLATE(GST_VIDEO_DECODER_SINK_PAD(self));
  GST_PAD_SET_ACCEPT_INTERSECT(GST_VIDEO_DECODER_SINK_PAD(self));
}

static void gst_v3d_vp9_dec_finalize(GObject *object) {
  auto *self = GST_V3D_VP9_DEC(object);
  if (self->priv->dec) v3d_vp9_decoder_free(self->priv->dec);
  if (self->priv->allocator) gst_object_unref(self->priv->allocator);
  if (self->priv->startup_ctx) v3d_context_free(self->priv->startup_ctx);
  if (self->priv->input_state) gst_video_codec_state_unref(self->priv->input_state);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(gst_v3d_vp9_dec_parent_class)->finalize(object);
}

static void gst_v3d_vp9_dec_set_property(GObject *object, guint prop_id, const GValue *value,
                                         GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_DEC(object);
  Settings &s = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_BACKEND: s.backend = static_cast<GstV3dBackend>(g_value_get_enum(value)); break;
    case PROP_CPU_THREADS: s.cpu_threads = g_value_get_uint(value); break;
    case PROP_ZERO_COPY: s.zero_copy = g_value_get_boolean(value) != FALSE; break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_v3d_vp9_dec_get_property(GObject *object, guint prop_id, GValue *value,
                                         GParamSpec *pspec) {
  auto *self = GST_V3D_VP9_DEC(object);
  if (prop_id == PROP_STATS) {
    g_value_take_boxed(value, gst_v3d_vp9_dec_make_stats(self));
    return;
  }
  GST_OBJECT_LOCK(self);
  const Settings s = self->priv->settings;
  GST_OBJECT_UNLOCK(self);
  switch (prop_id) {
    case PROP_BACKEND: g_value_set_enum(value, s.backend); break;
    case PROP_CPU_THREADS: g_value_set_uint(value, s.cpu_threads); break;
    case PROP_ZERO_COPY: g_value_set_boolean(value, s.zero_copy); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
}

static Settings gst_v3d_vp9_dec_settings(GstV3dVp9Dec *self) {
  GST_OBJECT_LOCK(self);
  const Settings s = self->priv->settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

// Adopts a "v3d.context" made for a compatible backend while the element holds none.
static void gst_v3d_vp9_dec_set_context(GstElement *element, GstContext *context) {
  auto *self = GST_V3D_VP9_DEC(element);
  self->priv->context.offer(element, context, gst_v3d_vp9_dec_settings(self).backend);
  GST_ELEMENT_CLASS(gst_v3d_vp9_dec_parent_class)->set_context(element, context);
}

// NULL->READY: a shared context, else one of the element's own. For auto and hybrid (which
// open a Vulkan device) that one opens on a thread of its own while the decoder starts on a CPU
// context (v3dvp9dec_startup.h), so the device's opening is not on the way to the first frame.
static gboolean gst_v3d_vp9_dec_open(GstVideoDecoder *vdec) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  GstV3dVp9DecPrivate *p = self->priv;
  const Settings s = gst_v3d_vp9_dec_settings(self);
  v3d::ElementContextOptions opts;
  opts.backend = s.backend;
  opts.cpu_threads = s.cpu_threads;
  p->opened_us = g_get_monotonic_time();
  const bool may_open_gpu = s.backend == GST_V3D_BACKEND_AUTO ||
                            s.backend == GST_V3D_BACKEND_HYBRID;
  if (!may_open_gpu || p->context.find_shared(GST_ELEMENT(self)))
    return p->context.ensure(GST_ELEMENT(self), opts);
  V3dContext *cpu = v3d::vp9dec_startup_context(opts);
  if (!cpu) return p->context.ensure(GST_ELEMENT(self), opts);
  p->opener.start(opts);
  GST_INFO_OBJECT(self, "opening the \"%s\" context in the background; the first frames run "
                  "on a CPU context", gst_v3d_backend_to_string(s.backend));
  std::lock_guard<std::mutex> lock(p->lock);
  if (p->startup_ctx) v3d_context_free(p->startup_ctx);
  p->startup_ctx = cpu;
  return TRUE;
}

static gboolean gst_v3d_vp9_dec_close(GstVideoDecoder *vdec) {
  GstV3dVp9DecPrivate *p = GST_V3D_VP9_DEC(vdec)->priv;
  p->opener.cancel();  // waits for a device still opening
  V3dContext *cpu;
  {
    std::lock_guard<std::mutex> lock(p->lock);
    cpu = std::exchange(p->startup_ctx, nullptr);
  }
  if (cpu) v3d_context_free(cpu);
  p->context.drop();
  return TRUE;
}

// A reference to the context the element works on now: its own or shared one, else the CPU
// context of the start-up (v3dvp9dec_startup.h); nullptr if none.
static V3dContext *gst_v3d_vp9_dec_ref_context(GstV3dVp9Dec *self) {
  GstV3dVp9DecPrivate *p = self->priv;
  if (V3dContext *ctx = p->context.ref()) return ctx;
  std::lock_guard<std::mutex> lock(p->lock);
  return p->startup_ctx ? v3d_context_ref(p->startup_ctx) : nullptr;
}

// Once the context opening in the background is ready (or failed: then the start-up CPU context
// becomes the element's), moves the decoder, the wrapping and the copy path's pool to it.
static void gst_v3d_vp9_dec_adopt_opened(GstV3dVp9Dec *self) {
  GstV3dVp9DecPrivate *p = self->priv;
  std::unique_lock<std::mutex> lock(p->lock);
  V3dContext *startup = p->startup_ctx ? v3d_context_ref(p->startup_ctx) : nullptr;
  lock.unlock();
  V3dContext *ctx = v3d::vp9dec_adopt_opened(GST_ELEMENT(self), p->opener, p->context,
                                             gst_v3d_vp9_dec_settings(self).backend, startup);
  if (startup) v3d_context_free(startup);
  if (!ctx) return;
  // What is downstream keeps the start-up context alive until freed.
  GstAllocator *old = std::exchange(p->allocator, gst_v3d_allocator_new(ctx));
  if (old) gst_object_unref(old);
  gst_pad_mark_reconfigure(GST_VIDEO_DECODER_SRC_PAD(self));  // a pool of ctx
  lock.lock();
  if (p->dec) v3d_vp9_decoder_set_context(p->dec, ctx);
  if ((startup = std::exchange(p->startup_ctx, nullptr))) v3d_context_free(startup);
  v3d_context_free(ctx);
}

static gboolean gst_v3d_vp9_dec_start(GstVideoDecoder *vdec) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  GstV3dVp9DecPrivate *p = self->priv;
  if (p->opener.pending()) gst_v3d_vp9_dec_adopt_opened(self);
  V3dContext *ctx = gst_v3d_vp9_dec_ref_context(self);
  if (!ctx) {
    GST_ELEMENT_ERROR(self, CORE, STATE_CHANGE, ("No v3d context"), (nullptr));
    return FALSE;
  }
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, nullptr);
  if (p->allocator) gst_object_unref(p->allocator);
  p->allocator = gst_v3d_allocator_new(ctx);
  v3d_context_free(ctx);  // the decoder and the allocator hold their own references
  if (!dec) {
    GST_ELEMENT_ERROR(self, LIBRARY, INIT, ("Could not create the VP9 decoder"),
                      ("v3d_vp9_decoder_new: %s", v3d_last_error()));
    return FALSE;
  }
  {
    std::lock_guard<std::mutex> lock(p->lock);
    if (p->dec) v3d_vp9_decoder_free(p->dec);
    p->dec = dec;
    p->counters = v3d::Vp9DecElementCounters();
    p->decoder_counters = V3dVp9DecoderCounters();
  }
  p->output = v3d::Vp9DecOutputFormat();
  p->wait_key = true;
  p->output_mode = v3d::Vp9DecOutputMode();
  return TRUE;
}

static gboolean gst_v3d_vp9_dec_stop(GstVideoDecoder *vdec) {
  GstV3dVp9DecPrivate *p = GST_V3D_VP9_DEC(vdec)->priv;
  V3dVp9Decoder *dec;
  {
    std::lock_guard<std::mutex> lock(p->lock);
    dec = p->dec;
    p->dec = nullptr;
    if (dec) {
      p->decoder_counters.size = sizeof(p->decoder_counters);
      v3d_vp9_decoder_get_counters(dec, &p->decoder_counters);
    }
  }
  // Buffers still downstream hold their pictures (and the allocator) themselves.
  v3d_vp9_decoder_free(dec);
  if (p->allocator) gst_object_unref(p->allocator);
  p->allocator = nullptr;
  if (p->input_state) gst_video_codec_state_unref(p->input_state);
  p->input_state = nullptr;
  return TRUE;
}

static gboolean gst_v3d_vp9_dec_set_format(GstVideoDecoder *vdec, GstVideoCodecState *state) {
  GstV3dVp9DecPrivate *p = GST_V3D_VP9_DEC(vdec)->priv;
  GST_DEBUG_OBJECT(vdec, "input caps %" GST_PTR_FORMAT, state->caps);
  if (p->input_state) gst_video_codec_state_unref(p->input_state);
  p->input_state = gst_video_codec_state_ref(state);
  p->output = v3d::Vp9DecOutputFormat();  // renegotiate (frame rate, aspect) at the next picture
  return TRUE;
}

// Drops queued pictures and decoding state; decoding resumes at a key frame or intra-only frame.
static gboolean gst_v3d_vp9_dec_flush(GstVideoDecoder *vdec) {
  GstV3dVp9DecPrivate *p = GST_V3D_VP9_DEC(vdec)->priv;
  GST_DEBUG_OBJECT(vdec, "flush: waiting for a key frame or intra-only frame");
  {
    std::lock_guard<std::mutex> lock(p->lock);
    if (p->dec) v3d_vp9_decoder_flush(p->dec);
  }
  p->wait_key = true;
  return TRUE;
}

// Pushes pic (whose reference it releases) as the output of the frame it came from: the
// picture itself (zero copy) or a copy, as the last allocation query decided.
static GstFlowReturn gst_v3d_vp9_dec_push_picture(GstV3dVp9Dec *self, V3dVp9Picture *pic) {
  GstVideoDecoder *vdec = GST_VIDEO_DECODER(self);
  GstV3dVp9DecPrivate *p = self->priv;
  GstVideoCodecFrame *frame = gst_video_decoder_get_frame(vdec, static_cast<int>(pic->pts));
  if (!frame) {
    GST_WARNING_OBJECT(self, "no frame %" G_GINT64_FORMAT " for a picture", pic->pts);
    v3d_vp9_picture_unref(pic);
    return GST_FLOW_OK;
  }
  GstFlowReturn ret = v3d::vp9dec_update_output(vdec, *pic, p->input_state, &p->output);
  bool copied = false;
  if (ret == GST_FLOW_OK && p->output_mode.zero_copy && p->allocator)
    frame->output_buffer = v3d::vp9dec_wrap_picture(p->allocator, pic);  // takes pic
  if (ret == GST_FLOW_OK && !frame->output_buffer) {
    ret = v3d::vp9dec_copy_to_output(vdec, frame, *pic, p->output_mode);
    copied = true;
  }
  v3d_vp9_picture_unref(pic);  // after a wrap: already cleared
  if (ret != GST_FLOW_OK) {
    gst_video_decoder_release_frame(vdec, frame);
    return ret;
  }
  bool first;
  {
    std::lock_guard<std::mutex> lock(p->lock);
    first = p->counters.shown++ == 0;
    if (copied) p->counters.copied++;
  }
  if (first)
    GST_INFO_OBJECT(self, "first frame out %.1f ms after the element opened",
                    (g_get_monotonic_time() - p->opened_us) / 1e3);
  return gst_video_decoder_finish_frame(vdec, frame);
}

// Pushes every queued picture. *got: whether one came from frame number `frame_number`.
static GstFlowReturn gst_v3d_vp9_dec_push_pending(GstV3dVp9Dec *self, int frame_number,
                                                  bool *got) {
  GstV3dVp9DecPrivate *p = self->priv;
  GstFlowReturn ret = GST_FLOW_OK;
  for (;;) {
    V3dVp9Picture pic = {};
    int rc;
    {
      std::lock_guard<std::mutex> lock(p->lock);
      rc = p->dec ? v3d_vp9_decoder_get_picture(p->dec, &pic) : V3D_ERROR_AGAIN;
    }
    if (rc != V3D_OK) break;
    if (got && pic.pts == frame_number) *got = true;
    if (ret == GST_FLOW_OK)
      ret = gst_v3d_vp9_dec_push_picture(self, &pic);
    else
      v3d_vp9_picture_unref(&pic);  // downstream refused one: drop the rest
  }
  return ret;
}

static GstFlowReturn gst_v3d_vp9_dec_drain(GstVideoDecoder *vdec) {
  return gst_v3d_vp9_dec_push_pending(GST_V3D_VP9_DEC(vdec), -1, nullptr);
}

// EOS: drains, then posts the stats.
static GstFlowReturn gst_v3d_vp9_dec_finish(GstVideoDecoder *vdec) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  GstFlowReturn ret = gst_v3d_vp9_dec_drain(vdec);
  GstStructure *s = gst_v3d_vp9_dec_make_stats(self);
  gchar *str = gst_structure_to_string(s);
  GST_INFO_OBJECT(self, "%s", str);
  g_free(str);
  gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
  return ret;
}

// Sends one packet; the decoder's output queue is drained first when full. Returns the
// library's code, *why its message.
static int gst_v3d_vp9_dec_send(GstV3dVp9Dec *self, const GstMapInfo &map, int frame_number,
                                std::string *why, GstFlowReturn *ret) {
  GstV3dVp9DecPrivate *p = self->priv;
  for (int attempt = 0;; attempt++) {
    int rc;
    {
      std::lock_guard<std::mutex> lock(p->lock);
      rc = v3d_vp9_decoder_send_data(p->dec, map.data, map.size, frame_number);
      if (rc < 0) *why = v3d_last_error();
      if (rc == V3D_OK) p->counters.decoded++;
      if (rc == V3D_ERROR_INVALID_DATA) p->counters.errors++;
    }
    if (rc != V3D_ERROR_AGAIN || attempt > 0) return rc;
    *ret = gst_v3d_vp9_dec_push_pending(self, -1, nullptr);
    if (*ret != GST_FLOW_OK) return rc;
  }
}

static GstFlowReturn gst_v3d_vp9_dec_handle_frame(GstVideoDecoder *vdec,
                                                  GstVideoCodecFrame *frame) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  GstV3dVp9DecPrivate *p = self->priv;
  GstMapInfo map;
  if (!gst_buffer_map(frame->input_buffer, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not map an input buffer"), (nullptr));
    gst_video_decoder_drop_frame(vdec, frame);
    return GST_FLOW_ERROR;
  }
  if (p->wait_key && !v3d::vp9dec_is_resync_point(map.data, map.size)) {
    gst_buffer_unmap(frame->input_buffer, &map);
    GST_DEBUG_OBJECT(self, "frame %u: neither a key frame nor intra-only, dropped",
                     frame->system_frame_number);
    {
      std::lock_guard<std::mutex> lock(p->lock);
      p->counters.skipped++;
    }
    return gst_video_decoder_drop_frame(vdec, frame);
  }
  const int number = static_cast<int>(frame->system_frame_number);
  if (p->opener.pending()) gst_v3d_vp9_dec_adopt_opened(self);
  std::string why;
  GstFlowReturn ret = GST_FLOW_OK;
  const int rc = map.size ? gst_v3d_vp9_dec_send(self, map, number, &why, &ret)
                          : V3D_ERROR_INVALID_DATA;
  gst_buffer_unmap(frame->input_buffer, &map);
  if (ret != GST_FLOW_OK) {
    gst_video_decoder_release_frame(vdec, frame);
    return ret;
  }
  if (rc == V3D_ERROR_INVALID_DATA || rc == V3D_ERROR_INVALID_ARGUMENT) {
    if (why.empty()) why = "empty packet";
    p->wait_key = true;
    GST_VIDEO_DECODER_ERROR(self, 1, STREAM, DECODE, ("Could not decode a VP9 frame: %s",
                            why.c_str()), ("packet %d, %" G_GSIZE_FORMAT " bytes, pts %"
                            GST_TIME_FORMAT, number, gst_buffer_get_size(frame->input_buffer),
                            GST_TIME_ARGS(frame->pts)), ret);
    gst_video_decoder_drop_frame(vdec, frame);
    return ret;
  }
  if (rc == V3D_ERROR_UNSUPPORTED) {
    GST_ELEMENT_ERROR(self, STREAM, CODEC_NOT_FOUND, ("Unsupported VP9 stream: %s", why.c_str()),
                      ("packet %d", number));
    gst_video_decoder_drop_frame(vdec, frame);
    return GST_FLOW_NOT_SUPPORTED;
  }
  if (rc != V3D_OK) {
    GST_ELEMENT_ERROR(self, LIBRARY, FAILED, ("VP9 decoder failure: %s", why.c_str()),
                      ("v3d_vp9_decoder_send_data returned %d at packet %d", rc, number));
    gst_video_decoder_drop_frame(vdec, frame);
    return GST_FLOW_ERROR;
  }
  p->wait_key = false;
  bool shown = false;
  ret = gst_v3d_vp9_dec_push_pending(self, number, &shown);
  if (!shown) {
    // A hidden frame: its picture comes later (show_existing_frame) or only as a reference.
    GST_LOG_OBJECT(self, "packet %d shows nothing", number);
    {
      std::lock_guard<std::mutex> lock(p->lock);
      p->counters.hidden++;
    }
    gst_video_decoder_release_frame(vdec, frame);
  } else {
    gst_video_codec_frame_unref(frame);
  }
  return ret;
}

// The output path and the copy path's pool: v3dvp9dec_output.h.
static gboolean gst_v3d_vp9_dec_decide_allocation(GstVideoDecoder *vdec, GstQuery *query) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  V3dContext *ctx = gst_v3d_vp9_dec_ref_context(self);
  const bool ok = v3d::vp9dec_decide_allocation(GST_ELEMENT(self), query, ctx,
      gst_v3d_vp9_dec_settings(self).zero_copy, &self->priv->output_mode);
  if (ctx) v3d_context_free(ctx);
  return ok;
}

static gboolean gst_v3d_vp9_dec_src_query(GstVideoDecoder *vdec, GstQuery *query) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      self->priv->context.answer_query(GST_ELEMENT(self), query))
    return TRUE;
  return GST_VIDEO_DECODER_CLASS(gst_v3d_vp9_dec_parent_class)->src_query(vdec, query);
}

static gboolean gst_v3d_vp9_dec_sink_query(GstVideoDecoder *vdec, GstQuery *query) {
  auto *self = GST_V3D_VP9_DEC(vdec);
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      self->priv->context.answer_query(GST_ELEMENT(self), query))
    return TRUE;
  return GST_VIDEO_DECODER_CLASS(gst_v3d_vp9_dec_parent_class)->sink_query(vdec, query);
}

static GstStructure *gst_v3d_vp9_dec_make_stats(GstV3dVp9Dec *self) {
  GstV3dVp9DecPrivate *p = self->priv;
  v3d::Vp9DecElementCounters c;
  V3dVp9DecoderCounters dc = {};
  {
    std::lock_guard<std::mutex> lock(p->lock);
    c = p->counters;
    if (p->dec) {
      dc.size = sizeof(dc);
      v3d_vp9_decoder_get_counters(p->dec, &dc);
    } else {
      dc = p->decoder_counters;
    }
  }
  GstStructure *s = v3d::vp9dec_stats_structure(c, p->opener.opening(), dc);
  V3dContext *ctx = gst_v3d_vp9_dec_ref_context(self);
  v3d::add_context_stats(s, ctx);
  if (ctx) v3d_context_free(ctx);
  return s;
}
