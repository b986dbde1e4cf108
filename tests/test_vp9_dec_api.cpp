// SPDX-License-Identifier: LGPL-2.1-or-later
// The public VP9 decoder API (v3d/vp9_decoder.h) on a vpxenc stream made at test time: every
// picture's MD5 equals vpxdec's, pictures outlive the decoder, a full queue answers
// V3D_ERROR_AGAIN without consuming data, damaged and unsupported data fail with messages naming
// the frame, and decoding resumes at the next key frame; flush forgets the references; both
// residual paths (per block, frame path) give vpxdec's pictures. Exit 77
// (skip) without vpxenc/vpxdec.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../tools/md5.h"
#include "common/test_util.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"
#include "vp9/dec/ivf.h"

using v3dtest::check;

namespace {

std::vector<uint8_t> read_all(const std::string &path) {
  std::vector<uint8_t> d;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return d;
  uint8_t buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) d.insert(d.end(), buf, buf + n);
  fclose(f);
  return d;
}

std::string md5_of(const V3dVp9Picture &p) {
  v3dtool::Md5 m;
  for (int pl = 0; pl < 3; ++pl) {
    const int w = pl ? (p.width + 1) / 2 : p.width, h = pl ? (p.height + 1) / 2 : p.height;
    for (int y = 0; y < h; ++y) m.update(p.planes[pl] + y * p.strides[pl], size_t(w));
  }
  return m.hex();
}

struct Packet {
  const uint8_t *data;
  size_t size;
};

// A 64x64 key frame's uncompressed header of profile 1 (4:2:2) or 2 (10-bit 4:2:0), followed
// by a compressed header and tile data of a few zero bytes.
std::vector<uint8_t> key_frame_header(int profile) {
  std::vector<uint8_t> out;
  int nbits = 0;
  auto put = [&](uint32_t v, int n) {
    for (int i = n - 1; i >= 0; --i) {
      if (nbits % 8 == 0) out.push_back(0);
      out.back() |= uint8_t(((v >> i) & 1) << (7 - nbits % 8));
      ++nbits;
    }
  };
  put(2, 2);                                   // frame_marker
  put(profile & 1, 1), put(profile >> 1, 1);   // profile
  put(0, 1), put(0, 1), put(1, 1), put(0, 1);  // show_existing, key frame, shown, not resilient
  put(0x498342, 24);                           // sync code
  if (profile >= 2) put(0, 1);                 // ten_or_twelve_bit: 10
  put(2, 3), put(0, 1);                        // BT.709, studio swing
  if (profile == 1) put(1, 1), put(0, 1), put(0, 1);  // 4:2:2, reserved
  put(63, 16), put(63, 16), put(0, 1);                // 64x64, render size the same
  put(1, 1), put(1, 1), put(0, 2);                    // refresh context, frame parallel, context 0
  put(10, 6), put(0, 3), put(0, 1);                   // loop filter
  put(60, 8), put(0, 3);                              // base_q_idx, no deltas
  put(0, 1);                                          // no segmentation
  put(0, 1);                                          // one tile row (one tile column at 64 wide)
  put(4, 16);                                         // compressed header of 4 bytes
  out.resize(out.size() + 12, 0);
  return out;
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (system("command -v vpxenc >/dev/null 2>&1 && command -v vpxdec >/dev/null 2>&1 && "
             "command -v ffmpeg >/dev/null 2>&1") != 0) {
    printf("SKIP: vpxenc, vpxdec or ffmpeg not found\n");
    return 77;
  }
  char tmpl[] = "/tmp/v3d-vp9api-XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const std::string dir = tmpl;
  // 16 frames with a key frame every 8 (the second key frame is where decoding resumes).
  const std::string cmd =
      "cd " + dir +
      " && ffmpeg -loglevel error -f lavfi -i testsrc2=size=96x64:rate=30 -frames:v 16 "
      "-pix_fmt yuv420p src.y4m && vpxenc --codec=vp9 --quiet --ivf --limit=16 --kf-max-dist=8 "
      "--kf-min-dist=8 --lag-in-frames=0 -o s.ivf src.y4m >/dev/null 2>&1 && vpxdec --i420 --md5 "
      "-o f-%4.i420 s.ivf | cut -d' ' -f1 > ref.txt";
  if (!check(system(cmd.c_str()) == 0, "making the stream failed")) return v3dtest::finish();
  std::vector<std::string> ref;
  {
    FILE *f = fopen((dir + "/ref.txt").c_str(), "r");
    char line[64];
    while (f && fgets(line, sizeof(line), f)) ref.emplace_back(line, 32);
    if (f) fclose(f);
  }
  const std::vector<uint8_t> file = read_all(dir + "/s.ivf");
  v3d::vp9::IvfReader ivf;
  v3d::vp9::IvfHeader hdr;
  std::string err;
  std::vector<Packet> pkts;
  if (ivf.open(file.data(), file.size(), hdr, err)) {
    Packet p;
    uint64_t pts;
    while (ivf.next(p.data, p.size, pts, err) == 1) pkts.push_back(p);
  }
  if (!check(pkts.size() == 16 && ref.size() == 16, "%zu packets, %zu reference MD5s", pkts.size(),
             ref.size()))
    return v3dtest::finish();

  V3dContext *ctx = v3d_context_new("scalar", 1);
  V3dVp9DecoderSettings s;
  v3d_vp9_decoder_default_settings(&s);
  s.max_queued_pictures = 2;
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, &s);

  // All packets, two at a time: the third send must wait for get_picture.
  std::vector<V3dVp9Picture> held;
  size_t next = 0;
  while (next < pkts.size()) {
    int rc = v3d_vp9_decoder_send_data(dec, pkts[next].data, pkts[next].size, int64_t(next));
    if (rc == V3D_ERROR_AGAIN) {
      check(next % 2 == 0, "AGAIN with %zu pictures queued", next % 2);
      V3dVp9Picture pic;
      while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) held.push_back(pic);
      continue;
    }
    check(rc == 0, "packet %zu: %s", next, v3d_last_error());
    ++next;
  }
  V3dVp9Picture pic;
  while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) held.push_back(pic);
  check(v3d_vp9_decoder_get_picture(dec, &pic) == V3D_ERROR_AGAIN, "empty queue not AGAIN");
  // The pictures stay valid after the decoder is gone.
  v3d_vp9_decoder_free(dec);
  check(held.size() == ref.size(), "%zu pictures, want %zu", held.size(), ref.size());
  for (size_t i = 0; i < held.size() && i < ref.size(); ++i) {
    check(md5_of(held[i]) == ref[i], "picture %zu: MD5 differs from vpxdec", i);
    check(held[i].pts == int64_t(i) && held[i].width == 96 && held[i].height == 64,
          "picture %zu: pts %lld size %dx%d", i, (long long)held[i].pts, held[i].width,
          held[i].height);
    v3d_vp9_picture_unref(&held[i]);
    check(held[i].ref == nullptr && held[i].planes[0] == nullptr, "unref did not clear");
  }

  // Damage: packet 3 truncated -> error naming frame 3; packets 4..7 need a key frame; packet 8
  // (key frame) and the rest decode as vpxdec's.
  dec = v3d_vp9_decoder_new(ctx, nullptr);
  for (size_t i = 0; i < pkts.size(); ++i) {
    const size_t size = i == 3 ? pkts[i].size / 3 : pkts[i].size;
    const int rc = v3d_vp9_decoder_send_data(dec, pkts[i].data, size, int64_t(i));
    const std::string msg = rc < 0 ? v3d_last_error() : "";
    if (i == 3)
      check(rc == V3D_ERROR_INVALID_DATA && msg.find("frame 3") != std::string::npos,
            "truncated packet: rc %d, message '%s'", rc, msg.c_str());
    else if (i > 3 && i < 8)
      check(rc == V3D_ERROR_INVALID_DATA && msg.find("key frame") != std::string::npos,
            "packet %zu after an error: rc %d, message '%s'", i, rc, msg.c_str());
    else
      check(rc == 0, "packet %zu: rc %d %s", i, rc, msg.c_str());
    if (rc == 0 && v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
      check(md5_of(pic) == ref[i], "after the error: picture of packet %zu differs", i);
      v3d_vp9_picture_unref(&pic);
    }
  }
  // Flush: the next inter frame has no references.
  v3d_vp9_decoder_flush(dec);
  check(v3d_vp9_decoder_send_data(dec, pkts[9].data, pkts[9].size, 0) == V3D_ERROR_INVALID_DATA,
        "inter frame after flush accepted");
  // Profiles 1 and 2: refused, the message naming profile and bit depth.
  for (int profile = 1; profile <= 2; ++profile) {
    const std::vector<uint8_t> key = key_frame_header(profile);
    const int rc = v3d_vp9_decoder_send_data(dec, key.data(), key.size(), 0);
    const std::string msg = v3d_last_error();
    const std::string want = profile == 1 ? "profile 1 (8-bit)" : "profile 2 (10-bit)";
    check(rc == V3D_ERROR_UNSUPPORTED && msg.find(want) != std::string::npos,
          "profile %d: rc %d '%s'", profile, rc, msg.c_str());
  }
  check(v3d_vp9_decoder_send_data(dec, pkts[0].data, 0, 0) == V3D_ERROR_INVALID_ARGUMENT,
        "empty packet accepted");
  v3d_vp9_decoder_free(dec);
  v3d_context_free(ctx);

  // Residual paths: each gives vpxdec's pictures; the frame path takes every inter frame (14 of
  // 16: two key frames) and says so in the counters; an unknown value is refused.
  ctx = v3d_context_new("simd", 2);
  for (int residuals : {V3D_VP9_RESIDUALS_PER_BLOCK, V3D_VP9_RESIDUALS_FRAME}) {
    v3d_vp9_decoder_default_settings(&s);
    s.residuals = residuals;
    dec = v3d_vp9_decoder_new(ctx, &s);
    for (size_t i = 0; i < pkts.size(); ++i) {
      check(v3d_vp9_decoder_send_data(dec, pkts[i].data, pkts[i].size, int64_t(i)) == 0,
            "residuals %d: packet %zu: %s", residuals, i, v3d_last_error());
      if (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
        check(md5_of(pic) == ref[i], "residuals %d: picture %zu differs from vpxdec", residuals, i);
        v3d_vp9_picture_unref(&pic);
      }
    }
    const std::string stats = v3d_vp9_decoder_stats(dec);
    const char *want = residuals == V3D_VP9_RESIDUALS_FRAME ? "# frame-path frames 14 tx "
                                                            : "# frame-path frames 0 tx 0 ";
    check(stats.find(want) != std::string::npos, "residuals %d: counters lack '%s':\n%s",
          residuals, want, stats.c_str());
    v3d_vp9_decoder_free(dec);
  }
  v3d_vp9_decoder_default_settings(&s);
  s.residuals = 3;
  dec = v3d_vp9_decoder_new(ctx, &s);
  check(dec == nullptr && std::string(v3d_last_error()).find("residuals") != std::string::npos,
        "residuals 3 accepted");
  v3d_vp9_decoder_free(dec);
  v3d_context_free(ctx);
  system(("rm -rf " + dir).c_str());
  return v3dtest::finish();
}
