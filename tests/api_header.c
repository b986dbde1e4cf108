/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One public header alone, compiled as C11 with every warning an error (tests/meson.build builds
 * this file once per header, setting V3D_TEST_HEADER to it and V3D_TEST_FN to this copy's
 * function). The function uses the header's types and functions, and returns which v3d/ headers
 * the one included pulled in (a bit per include guard), for test_api to check.
 */
#include V3D_TEST_HEADER

int V3D_TEST_FN(void);

int V3D_TEST_FN(void) {
  int seen = 0;
#ifdef V3D_COMMON_H
  {
    V3dLogFunc f = 0;
    const char *(*name)(int) = v3d_error_name;
    seen |= f == 0 && name != 0 && V3D_ERROR_INVALID_SETTINGS < 0 ? 1 : 0;
  }
#endif
#ifdef V3D_CPU_H
  {
    int (*targets)(const char **, int) = v3d_cpu_targets;
    seen |= targets ? 2 : 0;
  }
#endif
#ifdef V3D_CONTEXT_H
  {
    V3dSettings s;
    V3dStats st;
    V3dKernelStats ks;
    void (*defaults)(V3dSettings *) = v3d_default_settings;
    int (*open)(V3dContext **, const V3dSettings *) = v3d_open;
    s.cpu_threads = 0;
    st.frames = 0;
    ks.frames = 0;
    seen |= defaults && open && s.cpu_threads + (int)st.frames + (int)ks.frames == 0 ? 4 : 0;
  }
#endif
#ifdef V3D_VP9_ITX_H
  {
    V3dVp9TxBlock b;
    V3dVp9ItxFrame f;
    int (*frames)(V3dContext *, const V3dVp9ItxFrame *, size_t) = v3d_vp9_itx_frames;
    b.eob = 0;
    f.n_blocks = 0;
    seen |= frames && b.eob + f.n_blocks == 0 ? 8 : 0;
  }
#endif
#ifdef V3D_VP9_LPF_H
  {
    V3dVp9LfInfo i;
    V3dVp9LpfInfo j;
    V3dVp9LpfFrame f;
    int (*frames)(V3dContext *, const V3dVp9LfFrame *, size_t) = v3d_vp9_lpf_frames;
    i.filter_level = 0;
    j.filter_level = 0;
    f.grid = &i;
    seen |= frames && f.grid->filter_level + j.filter_level == 0 ? 16 : 0;
  }
#endif
#ifdef V3D_H264_DEBLOCK_H
  {
    V3dH264MbInfo m;
    V3dH264DeblockFrame f;
    int (*frames)(V3dContext *, const V3dH264Frame *, size_t) = v3d_h264_deblock_frames;
    m.qp = 0;
    f.mbs = &m;
    seen |= frames && f.mbs->qp == 0 ? 32 : 0;
  }
#endif
#ifdef V3D_V3D_H
  seen |= 64;
#endif
#ifdef V3D_VP9_DECODER_H
  {
    V3dVp9DecoderSettings s;
    V3dVp9Picture p;
    int (*send)(V3dVp9Decoder *, const uint8_t *, size_t, int64_t) = v3d_vp9_decoder_send_data;
    s.max_queued_pictures = 0;
    p.width = 0;
    seen |= send && s.max_queued_pictures + p.width == 0 ? 128 : 0;
  }
#endif
  return seen;
}
