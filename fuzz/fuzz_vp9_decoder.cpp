// SPDX-License-Identifier: LGPL-2.1-or-later
// libFuzzer target: the whole VP9 decoder (v3d/vp9_decoder.h) on damaged streams. The input is
// either an IVF file (seeds: vpxenc streams, which the fuzzer then damages) or, when it does not
// start with "DKIF", a sequence of packets, each a 16-bit little-endian size and that many bytes.
// Inputs of odd length take the frame-level residual path (V3D_VP9_RESIDUALS_FRAME).
// Properties: no crash, leak or sanitizer finding; every call returns 0 or a documented error
// code; every picture's planes are readable over its size and no larger than the frame size
// limit.
#include <cstring>

#include "fuzz_input.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"
#include "vp9/dec/ivf.h"

namespace {

// Frames up to 512x512: enough for every partition and tile layout, small enough to stay fast.
constexpr uint64_t kFrameSizeLimit = 512 * 512;

V3dContext *context() {
  static V3dContext *ctx = v3d_context_new("scalar", 1);
  return ctx;
}

void drain(V3dVp9Decoder *dec) {
  V3dVp9Picture pic;
  while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
    V3D_FUZZ_CHECK(
        pic.width > 0 && pic.height > 0 && uint64_t(pic.width) * pic.height <= kFrameSizeLimit,
        "picture %dx%d", pic.width, pic.height);
    unsigned sum = 0;
    for (int p = 0; p < 3; ++p) {
      const int w = p ? (pic.width + 1) / 2 : pic.width, h = p ? (pic.height + 1) / 2 : pic.height;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) sum += pic.planes[p][y * pic.strides[p] + x];
    }
    (void)sum;
    v3d_vp9_picture_unref(&pic);
  }
}

void send(V3dVp9Decoder *dec, const uint8_t *data, size_t size) {
  const int rc = v3d_vp9_decoder_send_data(dec, data, size, 0);
  V3D_FUZZ_CHECK(rc == 0 || rc == V3D_ERROR_INVALID_DATA || rc == V3D_ERROR_UNSUPPORTED ||
                     rc == V3D_ERROR_INVALID_ARGUMENT,
                 "send_data returned %d (%s)", rc, v3d_last_error());
  drain(dec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  V3dVp9DecoderSettings s;
  v3d_vp9_decoder_default_settings(&s);
  s.frame_size_limit = kFrameSizeLimit;
  // Half the inputs (by length) through the frame-level residual path, which the scalar
  // context would not take by itself.
  s.residuals = (size & 1) ? V3D_VP9_RESIDUALS_FRAME : V3D_VP9_RESIDUALS_PER_BLOCK;
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(context(), &s);
  v3d::vp9::IvfReader ivf;
  v3d::vp9::IvfHeader hdr;
  std::string err;
  if (size >= 4 && std::memcmp(data, "DKIF", 4) == 0) {
    if (ivf.open(data, size, hdr, err)) {
      const uint8_t *frame;
      size_t n;
      uint64_t pts;
      for (int i = 0; i < 64 && ivf.next(frame, n, pts, err) == 1; ++i) send(dec, frame, n);
    }
  } else {
    v3dfuzz::Input in(data, size);
    size_t pos = 0;
    while (in.left() >= 2) {
      const size_t n = in.u16();
      pos = size - in.left();
      if (n == 0 || n > in.left()) break;
      send(dec, data + pos, n);
      for (size_t k = 0; k < n; ++k) in.u8();
    }
  }
  v3d_vp9_decoder_free(dec);
  return 0;
}
