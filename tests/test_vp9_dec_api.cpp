// SPDX-License-Identifier: LGPL-2.1-or-later
// The public VP9 decoder API (v3d/vp9_decoder.h) on a vpxenc stream made at test time: every
// picture's MD5 equals vpxdec's, pictures outlive the decoder, a full queue answers
// V3D_ERROR_AGAIN without consuming data, damaged and unsupported data fail with messages naming
// the frame, and decoding resumes at the next key frame; flush forgets the references; both
// residual paths (per block, frame path) give vpxdec's pictures. The feature counters
// (v3d_vp9_decoder_get_counters) against what the test reads from the packets' own bytes
// (superframe indexes, each frame's first header bits) and against the text of
// v3d_vp9_decoder_stats(), on that stream and on one with hidden alt-ref frames; the struct's
// size handshake. Exit 77 (skip) without vpxenc/vpxdec.
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_streams.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"

using v3dtest::check;
using v3dtest::Packet;
using v3dtest::picture_md5;

namespace {

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

// What a packet's bytes say, read here without the library: the frames of a superframe
// (Annex B index: marker byte 0b110mmfff at both ends, frames * (mm + 1) size bytes, little
// endian), and each frame's first uncompressed header bits (spec 6.2, profile 0: frame_marker,
// profile_low_bit, profile_high_bit, show_existing_frame, frame_type, show_frame,
// error_resilient_mode, then intra_only for hidden non-key frames).
struct StreamFacts {
  uint64_t frames = 0, shown_existing = 0, key = 0, intra_only = 0, error_res = 0, hidden = 0;
};

void add_frame_facts(const uint8_t *f, size_t size, StreamFacts *s) {
  if (size < 2) return;
  const bool show_existing = (f[0] >> 3) & 1, non_key = (f[0] >> 2) & 1;
  const bool show = (f[0] >> 1) & 1, error_res = f[0] & 1;
  if (show_existing) {
    ++s->shown_existing;
    return;
  }
  ++s->frames;
  s->key += !non_key;
  s->error_res += error_res;
  s->hidden += !show;
  s->intra_only += non_key && !show && (f[1] >> 7);
}

StreamFacts stream_facts(const std::vector<Packet> &pkts) {
  StreamFacts s;
  for (const Packet &p : pkts) {
    const uint8_t last = p.data[p.size - 1];
    const int n = (last & 7) + 1, mag = ((last >> 3) & 3) + 1;
    const size_t index = 2 + size_t(mag) * n;
    if ((last & 0xe0) == 0xc0 && p.size >= index && p.data[p.size - index] == last) {
      const uint8_t *sz = p.data + p.size - index + 1, *f = p.data;
      for (int i = 0; i < n; ++i, sz += mag) {
        size_t len = 0;
        for (int b = 0; b < mag; ++b) len |= size_t(sz[b]) << (8 * b);
        add_frame_facts(f, len, &s);
        f += len;
      }
    } else {
      add_frame_facts(p.data, p.size, &s);
    }
  }
  return s;
}

// The stats text as "name" -> count ("# name count ..." pairs) and "group.name" -> count
// ("# group name=count ..." lines).
std::map<std::string, uint64_t> parse_stats(const char *text) {
  std::map<std::string, uint64_t> m;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '#') continue;
    std::istringstream in(line.substr(1));
    std::vector<std::string> tok;
    for (std::string t; in >> t;) tok.push_back(t);
    std::string group;
    for (size_t i = 0; i < tok.size(); ++i) {
      const size_t eq = tok[i].find('=');
      if (eq != std::string::npos) {
        m[group + "." + tok[i].substr(0, eq)] = std::stoull(tok[i].substr(eq + 1));
      } else if (i + 1 < tok.size() &&
                 tok[i + 1].find_first_not_of("0123456789") == std::string::npos) {
        m[tok[i]] = std::stoull(tok[i + 1]);
        ++i;
      } else {
        group = tok[i];
      }
    }
  }
  return m;
}

using ull = unsigned long long;

V3dVp9DecoderCounters get_counters(V3dVp9Decoder *dec) {
  V3dVp9DecoderCounters c;
  memset(&c, 0xa5, sizeof c);
  c.size = sizeof c;
  const int rc = v3d_vp9_decoder_get_counters(dec, &c);
  check(rc == 0 && c.size == sizeof c, "get_counters: rc %d size %u", rc, c.size);
  return c;
}

// The counters of a decoder that decoded every packet of pkts once, and nothing else, giving
// `pictures` pictures; the stream is 96x64 (one tile per frame).
void check_counters(V3dVp9Decoder *dec, const std::vector<Packet> &pkts, size_t pictures,
                    const char *what) {
  const V3dVp9DecoderCounters c = get_counters(dec);
  const StreamFacts f = stream_facts(pkts);
  check(c.frames == f.frames && f.frames == pictures - f.shown_existing + f.hidden,
        "%s: frames %llu, packets hold %llu (%zu pictures, %llu hidden, %llu shown again)", what,
        ull(c.frames), ull(f.frames), pictures, ull(f.hidden), ull(f.shown_existing));
  check(c.key_frames == f.key && c.key_frames >= 1, "%s: key frames %llu, want %llu", what,
        ull(c.key_frames), ull(f.key));
  check(c.intra_only_frames == f.intra_only && c.show_existing_frames == f.shown_existing &&
            c.error_resilient_frames == f.error_res,
        "%s: intra-only %llu/%llu, show-existing %llu/%llu, error-resilient %llu/%llu", what,
        ull(c.intra_only_frames), ull(f.intra_only), ull(c.show_existing_frames),
        ull(f.shown_existing), ull(c.error_resilient_frames), ull(f.error_res));
  check(c.tiles == c.frames && c.tile_row_frames == 0 && c.loop_filtered_frames <= c.frames,
        "%s: tiles %llu, tile-row frames %llu, loop-filtered %llu", what, ull(c.tiles),
        ull(c.tile_row_frames), ull(c.loop_filtered_frames));
  uint64_t filters = 0, tx = 0;
  for (uint64_t v : c.interp_filters) filters += v;
  for (int t = 0; t < 4; ++t)
    for (int y = 0; y < 5; ++y) {
      tx += c.transforms[t][y];
      if ((y == 4 && t > 0) || (t == 3 && y != 0))
        check(c.transforms[t][y] == 0, "%s: invalid transform [%d][%d] counted", what, t, y);
    }
  check(c.blocks > 0 && c.blocks == c.intra_blocks + c.inter_blocks && c.inter_blocks > 0 &&
            filters == c.inter_blocks && c.compound_blocks <= c.inter_blocks &&
            c.sub8x8_blocks <= c.blocks && c.skip_blocks <= c.blocks && tx > 0,
        "%s: blocks %llu = intra %llu + inter %llu? filters %llu, compound %llu", what,
        ull(c.blocks), ull(c.intra_blocks), ull(c.inter_blocks), ull(filters),
        ull(c.compound_blocks));
  // The text shows the same numbers.
  const std::string text = v3d_vp9_decoder_stats(dec);
  std::map<std::string, uint64_t> m = parse_stats(text.c_str());
  const struct {
    const char *name;
    uint64_t value;
  } scalars[] = {
      {"frames", c.frames}, {"key", c.key_frames}, {"intra-only", c.intra_only_frames},
      {"show-existing", c.show_existing_frames}, {"loop-filtered", c.loop_filtered_frames},
      {"tiles", c.tiles}, {"error-resilient", c.error_resilient_frames},
      {"frame-parallel", c.frame_parallel_frames}, {"lossless", c.lossless_frames},
      {"segmentation", c.segmentation_frames}, {"switchable-filter", c.switchable_filter_frames},
      {"tx-select", c.tx_select_frames}, {"high-precision-mv", c.high_precision_mv_frames},
      {"sharpness", c.sharpness_frames}, {"lf-deltas", c.lf_delta_frames},
      {"tile-rows", c.tile_row_frames},
      {"frame-path-frames", c.frame_path_frames}, {"frame-path-tx", c.frame_path_transforms},
      {"frame-path-gpu-tx", c.frame_path_gpu_transforms},
      {"deferred-intra", c.deferred_intra_blocks}, {"blocks", c.blocks}, {"intra", c.intra_blocks},
      {"inter", c.inter_blocks}, {"sub8x8", c.sub8x8_blocks}, {"skip", c.skip_blocks},
      {"scaled-preds", c.scaled_predictions}, {"edge-emulated-preds", c.edge_emulated_predictions},
      {"seg-predicted", c.seg_predicted_blocks}, {"seg-skip", c.seg_skip_blocks},
      {"seg-ref", c.seg_ref_blocks},
  };
  for (const auto &e : scalars)
    check(m.count(e.name) && m[e.name] == e.value, "%s: text '%s' %llu, struct %llu", what,
          e.name, ull(m[e.name]), ull(e.value));
  // "compound" is in two lines: frames with compound prediction, then compound blocks.
  check(text.find(" compound " + std::to_string(c.compound_frames) + " switchable") !=
                std::string::npos &&
            text.find(" compound " + std::to_string(c.compound_blocks) + " sub8x8") !=
                std::string::npos,
        "%s: compound frames %llu / blocks %llu not in the text", what, ull(c.compound_frames),
        ull(c.compound_blocks));
  static const char *const kTx[4] = {"4x4", "8x8", "16x16", "32x32"};
  static const char *const kType[5] = {"dct_dct", "adst_dct", "dct_adst", "adst_adst", "wht"};
  for (int t = 0; t < 4; ++t)
    for (int y = 0; y < 5; ++y) {
      const std::string k = std::string("tx.") + kTx[t] + "_" + kType[y];
      check((m.count(k) ? m[k] : 0) == c.transforms[t][y], "%s: text %s, struct %llu", what,
            k.c_str(), ull(c.transforms[t][y]));
    }
  static const char *const kIntra[10] = {"dc", "v", "h", "d45", "d135", "d117", "d153", "d207",
                                         "d63", "tm"};
  static const char *const kInter[4] = {"nearest", "near", "zero", "new"};
  static const char *const kFilter[4] = {"regular", "smooth", "sharp", "bilinear"};
  for (int i = 0; i < 10; ++i) {
    const std::string k = std::string("intra-modes.") + kIntra[i];
    check(m.count(k) && m[k] == c.intra_modes[i], "%s: %s", what, k.c_str());
  }
  for (int i = 0; i < 4; ++i) {
    const std::string k = std::string("inter-modes.") + kInter[i];
    const std::string kf = std::string("filters.") + kFilter[i];
    check(m.count(k) && m[k] == c.inter_modes[i], "%s: %s", what, k.c_str());
    check(m.count(kf) && m[kf] == c.interp_filters[i], "%s: %s", what, kf.c_str());
  }
}

// The size handshake: a shorter struct gets the whole fields inside its size only, a longer one
// the library's, and a size below the header is refused.
void check_counters_size(V3dVp9Decoder *dec) {
  const V3dVp9DecoderCounters full = get_counters(dec);
  const uint32_t short_size = offsetof(V3dVp9DecoderCounters, blocks);
  const uint64_t kUntouched = 0xa5a5a5a5a5a5a5a5ull;
  V3dVp9DecoderCounters c;
  memset(&c, 0xa5, sizeof c);
  c.size = short_size;
  check(v3d_vp9_decoder_get_counters(dec, &c) == 0 && c.size == short_size &&
            c.frames == full.frames && c.tile_row_frames == full.tile_row_frames &&
            c.blocks == kUntouched,
        "short struct: size %u, frames %llu, blocks %llx", c.size, ull(c.frames), ull(c.blocks));
  c.size = short_size + 5;  // not a whole field more
  check(v3d_vp9_decoder_get_counters(dec, &c) == 0 && c.size == short_size &&
            c.blocks == kUntouched,
        "size inside a field: size %u", c.size);
  struct Longer {
    V3dVp9DecoderCounters c;
    uint64_t later[4];
  } l;
  memset(&l, 0x5a, sizeof l);
  l.c.size = sizeof l;
  check(v3d_vp9_decoder_get_counters(dec, &l.c) == 0 &&
            l.c.size == sizeof(V3dVp9DecoderCounters) && l.c.blocks == full.blocks &&
            l.later[0] == 0x5a5a5a5a5a5a5a5aull,
        "longer struct: size %u", l.c.size);
  c.size = 4;
  check(v3d_vp9_decoder_get_counters(dec, &c) == V3D_ERROR_INVALID_ARGUMENT, "size 4 accepted");
  check(v3d_vp9_decoder_get_counters(dec, nullptr) == V3D_ERROR_INVALID_ARGUMENT &&
            v3d_vp9_decoder_get_counters(nullptr, &c) == V3D_ERROR_INVALID_ARGUMENT,
        "NULL accepted");
}

// The loop-filter family's statistics of ctx since `before`, after a decoder on ctx decoded the
// 96x64 stream (12 x 8 blocks of 8x8 a frame): one frame per loop-filtered frame of the
// decoder's counters, its blocks on the CPU side, some CPU time.
void check_lf_stats(V3dContext *ctx, const V3dKernelStats &before, const V3dVp9DecoderCounters &c,
                    int residuals) {
  V3dKernelStats after;
  check(v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_LPF, &after) == V3D_OK,
        "get_kernel_stats failed");
  const uint64_t frames = after.frames - before.frames;
  const uint64_t units = after.units_cpu - before.units_cpu;
  check(c.loop_filtered_frames > 0 && frames == c.loop_filtered_frames &&
            units == frames * 12 * 8 && after.units_gpu == before.units_gpu &&
            after.cpu_busy_seconds > before.cpu_busy_seconds,
        "residuals %d: loop-filter stats: %llu frames, %llu units (decoder: %llu frames "
        "filtered)", residuals, ull(frames), ull(units), ull(c.loop_filtered_frames));
}

// A stream with hidden alt-ref frames (in superframes): the counters after its first packet
// (a key frame: intra blocks only) and after all of it; flush keeps them.
void test_counters_hidden(V3dContext *ctx, const std::string &dir) {
  if (!check(v3dtest::encode_testsrc(dir, "arf", 96, 64, 24,
                                     "--auto-alt-ref=1 --lag-in-frames=16"),
             "making the alt-ref stream failed"))
    return;
  const v3dtest::Bytes file = v3dtest::read_all(dir + "/arf.ivf");
  const std::vector<Packet> pkts = v3dtest::ivf_packets(file);
  check(stream_facts(pkts).hidden > 0, "the alt-ref stream has no hidden frame");
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, nullptr);
  size_t pictures = 0;
  V3dVp9Picture pic;
  for (size_t i = 0; i < pkts.size(); ++i) {
    const int rc = v3d_vp9_decoder_send_data(dec, pkts[i].data, pkts[i].size, int64_t(i));
    check(rc == 0, "alt-ref packet %zu: %s", i, v3d_last_error());
    while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
      ++pictures;
      v3d_vp9_picture_unref(&pic);
    }
    if (i == 0) {
      const V3dVp9DecoderCounters c = get_counters(dec);
      uint64_t inter_modes = 0;
      for (uint64_t v : c.inter_modes) inter_modes += v;
      check(c.frames == 1 && c.key_frames == 1 && c.blocks > 0 && c.intra_blocks == c.blocks &&
                c.inter_blocks == 0 && inter_modes == 0,
            "key frame: frames %llu blocks %llu intra %llu inter %llu", ull(c.frames),
            ull(c.blocks), ull(c.intra_blocks), ull(c.inter_blocks));
    }
  }
  check(pictures == 24, "alt-ref stream: %zu pictures, want 24", pictures);
  check_counters(dec, pkts, pictures, "alt-ref stream");
  const uint64_t frames = get_counters(dec).frames;
  v3d_vp9_decoder_flush(dec);
  check(get_counters(dec).frames == frames, "flush changed the counters");
  v3d_vp9_decoder_free(dec);
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (!v3dtest::have_tools("vpxenc vpxdec ffmpeg")) return 77;
  const v3dtest::ScratchDir scratch("v3d-vp9api");
  if (scratch.path().empty()) return 1;
  const std::string &dir = scratch.path();
  // 16 frames with a key frame every 8 (the second key frame is where decoding resumes).
  const std::vector<std::string> ref =
      v3dtest::make_stream(dir, "s", 96, 64, 16, "--kf-max-dist=8 --kf-min-dist=8 "
                           "--lag-in-frames=0");
  const v3dtest::Bytes file = v3dtest::read_all(dir + "/s.ivf");
  const std::vector<Packet> pkts = v3dtest::ivf_packets(file);
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
  check_counters(dec, pkts, held.size(), "key frames every 8");
  check(get_counters(dec).key_frames == 2, "key frames %llu, want 2",
        ull(get_counters(dec).key_frames));
  check_counters_size(dec);
  // The pictures stay valid after the decoder is gone.
  v3d_vp9_decoder_free(dec);
  check(held.size() == ref.size(), "%zu pictures, want %zu", held.size(), ref.size());
  for (size_t i = 0; i < held.size() && i < ref.size(); ++i) {
    check(picture_md5(held[i]) == ref[i], "picture %zu: MD5 differs from vpxdec", i);
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
      check(picture_md5(pic) == ref[i], "after the error: picture of packet %zu differs", i);
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
  test_counters_hidden(ctx, dir);
  v3d_context_free(ctx);

  // Residual paths: each gives vpxdec's pictures; the frame path takes every inter frame (14 of
  // 16: two key frames) and says so in the counters; an unknown value is refused. The context's
  // loop-filter statistics count every filtered frame and its 8x8 blocks on both paths: per
  // block, the cpu backend filters every frame in the loop; on the frame path, the key frames
  // in the loop and the inter frames through the whole-frame entry.
  ctx = v3d_context_new("simd", 2);
  for (int residuals : {V3D_VP9_RESIDUALS_PER_BLOCK, V3D_VP9_RESIDUALS_FRAME}) {
    v3d_vp9_decoder_default_settings(&s);
    s.residuals = residuals;
    dec = v3d_vp9_decoder_new(ctx, &s);
    V3dKernelStats lf_before;
    v3d_context_get_kernel_stats(ctx, V3D_KERNEL_VP9_LPF, &lf_before);
    for (size_t i = 0; i < pkts.size(); ++i) {
      check(v3d_vp9_decoder_send_data(dec, pkts[i].data, pkts[i].size, int64_t(i)) == 0,
            "residuals %d: packet %zu: %s", residuals, i, v3d_last_error());
      if (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
        check(picture_md5(pic) == ref[i], "residuals %d: picture %zu differs from vpxdec",
              residuals, i);
        v3d_vp9_picture_unref(&pic);
      }
    }
    const std::string stats = v3d_vp9_decoder_stats(dec);
    const char *want = residuals == V3D_VP9_RESIDUALS_FRAME ? "# frame-path-frames 14 frame-path-tx "
                                                            : "# frame-path-frames 0 frame-path-tx 0 ";
    check(stats.find(want) != std::string::npos, "residuals %d: counters lack '%s':\n%s",
          residuals, want, stats.c_str());
    check_lf_stats(ctx, lf_before, get_counters(dec), residuals);
    v3d_vp9_decoder_free(dec);
  }
  v3d_vp9_decoder_default_settings(&s);
  s.residuals = 3;
  dec = v3d_vp9_decoder_new(ctx, &s);
  check(dec == nullptr && std::string(v3d_last_error()).find("residuals") != std::string::npos,
        "residuals 3 accepted");
  v3d_vp9_decoder_free(dec);
  v3d_context_free(ctx);
  return v3dtest::finish();
}
