// SPDX-License-Identifier: LGPL-2.1-or-later
// vp9-resize-enc: writes a VP9 IVF stream whose frame size changes from frame to frame without
// key frames, so that inter frames predict from references of another size (scaled motion
// compensation). vpxenc has no option for this; libvpx's encoder does it when the configured size
// changes in one-pass encoding without lag, within its limits (a new size at most the first one
// and within a factor 2 of the references). The pictures are a moving synthetic pattern.
// Second mode, "svc": two spatial layers (176x144 and 352x288, one superframe per picture: the
// upper layer predicts from the lower one through scaling) with an intra-only frame inserted on
// the base layer at frame K (libvpx's VP9E_SET_SVC_SPATIAL_LAYER_SYNC), which vpxenc cannot make.
// Third mode, "roi": real-time encoding with a region-of-interest map that moves every frame,
// whose eight segments use every segmentation feature (quantiser and loop filter deltas, the
// skip feature, a fixed reference frame: last, golden or intra) through VP9E_SET_ROI_MAP.
//
// Usage: vp9-resize-enc OUT.ivf FRAMES W0xH0 [FRAME:WxH ...]   (sizes applied from FRAME on)
//        vp9-resize-enc OUT.ivf FRAMES svc K
//        vp9-resize-enc OUT.ivf FRAMES roi
//        vp9-resize-enc OUT.ivf FRAMES sharp S
// Fourth mode, "sharp": key frames only, each rewritten to loop-filter sharpness S (libvpx's
// encoder always writes 0). The sharpness field of a profile-0 key frame's uncompressed header
// without error resilience or a render size sits at bits 79..81 (spec 6.2: marker, profile,
// show_existing_frame, frame_type, show_frame, error_resilient_mode, sync code, color_space,
// color_range, frame size, render_and_frame_size_different, refresh_frame_context,
// frame_parallel_decoding_mode, frame_context_idx, filter_level).
// Built only when libvpx's development files are present (tests/meson.build).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vpx/vp8cx.h>
#include <vpx/vpx_encoder.h>

static void put16(uint8_t *p, unsigned v) { p[0] = v & 255; p[1] = (v >> 8) & 255; }
static void put32(uint8_t *p, unsigned v) { put16(p, v & 0xffff); put16(p + 2, v >> 16); }

// A pattern that moves with t and looks the same at every size (coordinates scaled to 352 wide).
static void fill(vpx_image_t *img, int w, int h, int t) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int X = x * 352 / w, Y = y * 288 / h;
      const int ring = ((X - 176 - 2 * t) * (X - 176 - 2 * t) + (Y - 144 + t) * (Y - 144 + t)) >> 6;
      img->planes[0][y * img->stride[0] + x] = (uint8_t)(((X + 3 * t) ^ (Y + t)) + (ring & 31));
    }
  for (int y = 0; y < (h + 1) / 2; ++y)
    for (int x = 0; x < (w + 1) / 2; ++x) {
      img->planes[1][y * img->stride[1] + x] = (uint8_t)(128 + ((x * 704 / w + t) & 63) - 32);
      img->planes[2][y * img->stride[2] + x] = (uint8_t)(128 + ((y * 576 / h - t) & 63) - 32);
    }
}

static int parse_size(const char *s, int *w, int *h) { return sscanf(s, "%dx%d", w, h) == 2; }

// Two spatial layers in one-pass CBR (what libvpx's SVC needs), base layer at half size.
static int setup_svc(vpx_codec_ctx_t *codec, vpx_codec_enc_cfg_t *cfg) {
  cfg->rc_end_usage = VPX_CBR;
  cfg->rc_target_bitrate = 600;
  cfg->ss_number_layers = 2;
  cfg->ts_number_layers = 1;
  cfg->ts_rate_decimator[0] = 1;
  cfg->layer_target_bitrate[0] = 200;
  cfg->layer_target_bitrate[1] = 600;
  cfg->rc_min_quantizer = 2;
  cfg->rc_max_quantizer = 56;
  if (vpx_codec_enc_init(codec, vpx_codec_vp9_cx(), cfg, 0)) return 0;
  vpx_svc_extra_cfg_t sp;
  memset(&sp, 0, sizeof sp);
  for (int i = 0; i < 2; ++i) {
    sp.max_quantizers[i] = 56;
    sp.min_quantizers[i] = 2;
    sp.scaling_factor_num[i] = 1;
    sp.scaling_factor_den[i] = i ? 1 : 2;
    sp.speed_per_layer[i] = 7;
  }
  return !vpx_codec_control(codec, VP9E_SET_SVC, 1) &&
         !vpx_codec_control(codec, VP9E_SET_SVC_PARAMETERS, &sp) &&
         !vpx_codec_control(codec, VP8E_SET_CPUUSED, 7);
}

// Segments in vertical bands of 6 8x8 columns that drift right every third frame.
static int set_roi(vpx_codec_ctx_t *codec, int w, int h, int t) {
  static unsigned char map[(4096 / 8) * (4096 / 8)];
  vpx_roi_map_t roi;
  memset(&roi, 0, sizeof roi);
  roi.enabled = 1;
  roi.rows = (unsigned)(h + 7) / 8;
  roi.cols = (unsigned)(w + 7) / 8;
  for (unsigned r = 0; r < roi.rows; ++r)
    for (unsigned c = 0; c < roi.cols; ++c) map[r * roi.cols + c] = (unsigned char)(((c + t / 3) / 6 + r / 12) % 8);
  roi.roi_map = map;
  static const int dq[8] = {0, 20, -15, 0, 0, 0, 0, 10};
  static const int dlf[8] = {0, 0, 0, 12, 0, -8, 0, 0};
  static const int skip[8] = {0, 0, 0, 0, 1, 0, 0, 0};
  static const int ref[8] = {-1, -1, -1, -1, -1, 1, 0, 2};
  memcpy(roi.delta_q, dq, sizeof dq);
  memcpy(roi.delta_lf, dlf, sizeof dlf);
  memcpy(roi.skip, skip, sizeof skip);
  memcpy(roi.ref_frame, ref, sizeof ref);
  return vpx_codec_control(codec, VP9E_SET_ROI_MAP, &roi) == VPX_CODEC_OK;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s OUT.ivf FRAMES W0xH0 [FRAME:WxH ...]\n", argv[0]);
    return 2;
  }
  const int frames = atoi(argv[2]);
  const int svc = strcmp(argv[3], "svc") == 0;
  const int roi = strcmp(argv[3], "roi") == 0;
  const int sharp = strcmp(argv[3], "sharp") == 0;
  const int sharpness = sharp && argc > 4 ? atoi(argv[4]) & 7 : 0;
  const int intra_only_at = svc && argc > 4 ? atoi(argv[4]) : -1;
  int w = 352, h = 288;
  if (!svc && !roi && !sharp && !parse_size(argv[3], &w, &h)) return 2;
  FILE *out = fopen(argv[1], "wb");
  if (!out) return 1;
  vpx_codec_enc_cfg_t cfg;
  vpx_codec_ctx_t codec;
  if (vpx_codec_enc_config_default(vpx_codec_vp9_cx(), &cfg, 0)) return 1;
  cfg.g_w = (unsigned)w;
  cfg.g_h = (unsigned)h;
  cfg.g_timebase.num = 1;
  cfg.g_timebase.den = 30;
  cfg.g_lag_in_frames = 0;
  cfg.g_pass = VPX_RC_ONE_PASS;
  cfg.rc_end_usage = VPX_VBR;
  cfg.rc_target_bitrate = 400;
  cfg.kf_mode = VPX_KF_DISABLED;
  if (sharp) cfg.rc_min_quantizer = 40;  // coarse enough that every frame is loop-filtered
  if (svc ? !setup_svc(&codec, &cfg) : vpx_codec_enc_init(&codec, vpx_codec_vp9_cx(), &cfg, 0) != 0) {
    fprintf(stderr, "encoder init failed\n");
    return 1;
  }
  if (roi && vpx_codec_control(&codec, VP8E_SET_CPUUSED, 7)) return 1;
  // libvpx's default is frame-parallel mode, without backward adaptation: adapt.
  if (vpx_codec_control(&codec, VP9E_SET_FRAME_PARALLEL_DECODING, 0)) return 1;
  uint8_t hdr[32] = {'D', 'K', 'I', 'F'};
  put16(hdr + 6, 32);
  memcpy(hdr + 8, "VP90", 4);
  put16(hdr + 12, (unsigned)w);
  put16(hdr + 14, (unsigned)h);
  put32(hdr + 16, 30);
  put32(hdr + 20, 1);
  put32(hdr + 24, (unsigned)frames);
  fwrite(hdr, 1, 32, out);
  vpx_image_t img;
  if (!vpx_img_alloc(&img, VPX_IMG_FMT_I420, (unsigned)w, (unsigned)h, 16)) return 1;
  for (int t = 0; t <= frames; ++t) {
    if (t == intra_only_at) {
      vpx_svc_spatial_layer_sync_t sync;
      memset(&sync, 0, sizeof sync);
      sync.base_layer_intra_only = 1;
      sync.spatial_layer_sync[0] = sync.spatial_layer_sync[1] = 1;
      if (vpx_codec_control(&codec, VP9E_SET_SVC_SPATIAL_LAYER_SYNC, &sync)) return 1;
    }
    for (int a = 4; a < argc && t < frames && !svc && !roi && !sharp; ++a) {
      int f, nw, nh;
      if (sscanf(argv[a], "%d:%dx%d", &f, &nw, &nh) == 3 && f == t) {
        cfg.g_w = (unsigned)nw;
        cfg.g_h = (unsigned)nh;
        if (vpx_codec_enc_config_set(&codec, &cfg)) {
          fprintf(stderr, "size change to %dx%d refused: %s\n", nw, nh, vpx_codec_error_detail(&codec));
          return 1;
        }
        vpx_img_free(&img);
        if (!vpx_img_alloc(&img, VPX_IMG_FMT_I420, (unsigned)nw, (unsigned)nh, 16)) return 1;
        w = nw;
        h = nh;
      }
    }
    if (t < frames) fill(&img, w, h, t);
    if (roi && t < frames && !set_roi(&codec, w, h, t)) {
      fprintf(stderr, "ROI map refused: %s\n", vpx_codec_error_detail(&codec));
      return 1;
    }
    if (vpx_codec_encode(&codec, t < frames ? &img : NULL, t, 1, sharp ? VPX_EFLAG_FORCE_KF : 0,
                         svc || roi ? VPX_DL_REALTIME : VPX_DL_GOOD_QUALITY)) {
      fprintf(stderr, "encode failed: %s\n", vpx_codec_error_detail(&codec));
      return 1;
    }
    vpx_codec_iter_t it = NULL;
    const vpx_codec_cx_pkt_t *pkt;
    while ((pkt = vpx_codec_get_cx_data(&codec, &it)) != NULL) {
      if (pkt->kind != VPX_CODEC_CX_FRAME_PKT) continue;
      uint8_t fh[12];
      put32(fh, (unsigned)pkt->data.frame.sz);
      put32(fh + 4, (unsigned)pkt->data.frame.pts);
      put32(fh + 8, 0);
      fwrite(fh, 1, 12, out);
      uint8_t *buf = (uint8_t *)pkt->data.frame.buf;
      if (sharp && pkt->data.frame.sz > 11) {
        for (int b = 0; b < 3; ++b) {
          const int bit = 79 + b, v = (sharpness >> (2 - b)) & 1;
          buf[bit >> 3] = (uint8_t)((buf[bit >> 3] & ~(0x80 >> (bit & 7))) | (v << (7 - (bit & 7))));
        }
      }
      fwrite(buf, 1, pkt->data.frame.sz, out);
    }
  }
  vpx_img_free(&img);
  vpx_codec_destroy(&codec);
  fclose(out);
  return 0;
}
