// SPDX-License-Identifier: LGPL-2.1-or-later
// The loop-filter statistics of the VP9 decoder's in-loop filter count the time spent filtering,
// not the time a filter row waits for the row above (vp9/dec/tile_sched.cpp).
//
// Method: V3D_FAULT=lpf-stall (runtime/fault.h) makes the first filter row sleep 300 ms after
// its first superblock, as a descheduled thread would; on a 2-thread context the other thread
// decodes the rest of the frame (64x320: 5 superblock rows, one tile column) and then takes filter
// row 1, which waits on row 0 for most of that time. The stall is row 0's own time, so the
// family's cpu_busy_seconds is at least 300 ms; counting the wait as well would bring it near
// 600 ms, so it must stay below 450 ms. The pictures equal vpxdec's. Exit 77 (skip) without
// vpxenc, vpxdec or ffmpeg.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_streams.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"

using v3dtest::check;
using v3dtest::Packet;

namespace {

constexpr double kStall = 0.300;  // seconds: the sleep of V3D_FAULT=lpf-stall

}  // namespace

int main() {
  v3dtest::base_seed();
  // Before the library's first fault check, which reads the variable once.
  setenv("V3D_FAULT", "lpf-stall", 1);
  if (!v3dtest::have_tools("vpxenc vpxdec ffmpeg")) return 77;
  const v3dtest::ScratchDir scratch("v3d-vp9lfstats");
  if (scratch.path().empty()) return 1;
  const std::string &dir = scratch.path();
  const std::vector<std::string> ref =
      v3dtest::make_stream(dir, "s", 64, 320, 3, "--lag-in-frames=0");
  const v3dtest::Bytes file = v3dtest::read_all(dir + "/s.ivf");
  const std::vector<Packet> pkts = v3dtest::ivf_packets(file);
  if (!check(pkts.size() == 3 && ref.size() == 3, "%zu packets, %zu reference MD5s",
             pkts.size(), ref.size()))
    return v3dtest::finish();

  V3dContext *ctx = v3d_context_new("simd", 2);
  if (!check(ctx != nullptr, "no simd context: %s", v3d_last_error())) return v3dtest::finish();
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, nullptr);
  V3dKernelStats before, after;
  v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_LPF, &before);
  for (size_t i = 0; i < pkts.size(); ++i) {
    check(v3d_vp9_decoder_send_data(dec, pkts[i].data, pkts[i].size, int64_t(i)) == 0,
          "packet %zu: %s", i, v3d_last_error());
    V3dVp9Picture pic;
    while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
      check(v3dtest::picture_md5(pic) == ref[size_t(pic.pts)], "picture %lld differs from vpxdec",
            static_cast<long long>(pic.pts));
      v3d_vp9_picture_unref(&pic);
    }
  }
  V3dVp9DecoderCounters c;
  c.size = sizeof c;
  check(v3d_vp9_decoder_get_counters(dec, &c) == 0, "get_counters failed");
  v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_LPF, &after);
  const double busy = after.cpu_busy_seconds - before.cpu_busy_seconds;
  const unsigned long long frames = after.frames - before.frames;
  printf("loop-filter time of %llu frames: %.1f ms (stall %.0f ms)\n", frames, busy * 1e3,
         kStall * 1e3);
  check(c.loop_filtered_frames > 0 && frames == c.loop_filtered_frames,
        "%llu loop-filter frames recorded, the decoder filtered %llu", frames,
        static_cast<unsigned long long>(c.loop_filtered_frames));
  check(busy >= kStall, "filter time %.1f ms lacks the stalled row's %.0f ms", busy * 1e3,
        kStall * 1e3);
  check(busy < 1.5 * kStall,
        "filter time %.1f ms: over %.0f ms, so a row's wait for the stalled row above counted",
        busy * 1e3, 1.5 * kStall * 1e3);
  v3d_vp9_decoder_free(dec);
  v3d_context_free(ctx);
  return v3dtest::finish();
}
