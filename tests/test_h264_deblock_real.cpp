// SPDX-License-Identifier: LGPL-2.1-or-later
// Real-data check of v3d_h264_deblock_frame: an all-intra H.264 stream decoded twice by an
// independent decoder (FFmpeg), once with its loop filter skipped and once normally. Intra
// prediction uses unfiltered samples, so deblocking the first with the intra pattern (bS 4 on
// macroblock edges, 3 on internal ones), the stream's QP and offsets must give the second byte for
// byte. Run by tests/h264_real_data.sh, which makes the streams.
//
//   test_h264_deblock_real UNFILTERED.yuv FILTERED.yuv WIDTH HEIGHT QP CHROMA_QP_OFFSET
//                          FILTER_OFFSET_A FILTER_OFFSET_B [TRANSFORM_8X8]
// The .yuv files hold I420 frames (FFmpeg's rawvideo yuv420p). Every backend this machine has
// (scalar, simd on 1 and V3D_TEST_THREADS threads, gpu, hybrid, auto) must turn every frame of
// the first into the second; the planes are given padded strides, as GStreamer's often are.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/test_util.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"

using v3dtest::check;

namespace {

bool read_all(const char *path, std::vector<uint8_t> *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  uint8_t chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) out->insert(out->end(), chunk, chunk + n);
  fclose(f);
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 9) {
    fprintf(stderr,
            "usage: %s UNFILTERED.yuv FILTERED.yuv WIDTH HEIGHT QP CHROMA_QP_OFFSET "
            "FILTER_OFFSET_A FILTER_OFFSET_B [TRANSFORM_8X8]\n",
            argv[0]);
    return 2;
  }
  const int W = atoi(argv[3]), H = atoi(argv[4]), qp = atoi(argv[5]), cqp = atoi(argv[6]);
  const int off_a = atoi(argv[7]), off_b = atoi(argv[8]);
  const bool t8x8 = argc > 9 && atoi(argv[9]) != 0;
  std::vector<uint8_t> unf, flt;
  if (!read_all(argv[1], &unf) || !read_all(argv[2], &flt)) {
    fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[2]);
    return 2;
  }
  const int cw = (W + 1) / 2, ch = (H + 1) / 2;
  const size_t frame_size = static_cast<size_t>(W) * H + 2 * static_cast<size_t>(cw) * ch;
  if (unf.size() != flt.size() || unf.empty() || unf.size() % frame_size) {
    fprintf(stderr, "file sizes %zu / %zu are not equal whole numbers of %dx%d I420 frames\n",
            unf.size(), flt.size(), W, H);
    return 2;
  }
  const int frames = static_cast<int>(unf.size() / frame_size);
  v3dtest::h264::Grid g =
      v3dtest::h264::make_uniform_grid(W, H, qp, cqp, off_a, off_b, true, 0, t8x8);
  const char *names[] = {"scalar", "simd", "simd", "gpu", "hybrid", "auto"};
  const int t = v3dtest::test_threads();
  const int threads[] = {1, 1, t, t, t, 0};
  int frames_changed = 0;
  for (int b = 0; b < 6; b++) {
    V3dContext *ctx = v3d_context_new(names[b], threads[b]);
    if (!ctx) {
      printf("backend %s unavailable here: %s\n", names[b], v3d_last_error());
      continue;
    }
    int exact = 0;
    for (int f = 0; f < frames; f++) {
      v3dtest::h264::Picture pic(W, H, 4 + f % 5);
      const uint8_t *u = unf.data() + f * frame_size, *want = flt.data() + f * frame_size;
      const uint8_t *wp[3] = {want, want + W * H, want + W * H + cw * ch};
      const uint8_t *up[3] = {u, u + W * H, u + W * H + cw * ch};
      for (int p = 0; p < 3; p++)
        for (int y = 0; y < pic.h[p]; y++)
          memcpy(pic.data[p] + y * pic.stride[p], up[p] + y * pic.w[p], pic.w[p]);
      if (b == 0) frames_changed += memcmp(u, want, frame_size) != 0;
      const int rc = v3d_h264_deblock_frame(ctx, pic.data, pic.stride, W, H, g.mbs.data(),
                                            g.mb_stride, g.slices.data(), 1);
      if (!check(rc == 0, "%s: frame %d: returned %d (%s)", names[b], f, rc, v3d_last_error()))
        continue;
      int first_p = -1, first_x = 0, first_y = 0;
      long diffs = 0;
      for (int p = 0; p < 3; p++)
        for (int y = 0; y < pic.h[p]; y++)
          for (int x = 0; x < pic.w[p]; x++)
            if (pic.data[p][y * pic.stride[p] + x] != wp[p][y * pic.w[p] + x]) {
              if (first_p < 0) first_p = p, first_x = x, first_y = y;
              diffs++;
            }
      exact += check(diffs == 0 && pic.guards_intact(),
                     "%s (%d threads): frame %d: %ld samples differ from the decoder's, first "
                     "plane %d x %d y %d%s",
                     names[b], v3d_context_cpu_threads(ctx), f, diffs, first_p, first_x, first_y,
                     pic.guards_intact() ? "" : "; guard border written");
    }
    printf("%s (%d threads): %d of %d frames exact\n", v3d_context_backend(ctx),
           v3d_context_cpu_threads(ctx), exact, frames);
    v3d_context_free(ctx);
  }
  // The decoder's filter must have changed the frames, or the check proves nothing.
  printf("%dx%d qp %d chroma offset %d, FilterOffsetA %d, B %d: %d frames, %d changed by the "
         "decoder's loop filter\n",
         W, H, qp, cqp, off_a, off_b, frames, frames_changed);
  check(frames_changed == frames, "only %d of %d frames changed by the decoder's loop filter",
        frames_changed, frames);
  return v3dtest::finish();
}
