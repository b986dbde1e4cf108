// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 streams for the decoder tests (tests/test_vp9_dec_*.cpp): a scratch folder, clips made with
// ffmpeg's testsrc2 and encoded with vpxenc at test time, libvpx's per-frame MD5s
// (`vpxdec --i420 --md5`, one output file per frame, as tests/vp9_streams.sh does), IVF files
// read into packets and written back, and a decoded picture's MD5 in vpxdec's form. The tools
// are run through the shell; a test calls have_tools() first and exits 77 (skip) without them.
// Header-only use of the library (v3d/vp9_decoder.h's picture, vp9/dec/ivf.h's reader).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "v3d/vp9_decoder.h"

namespace v3dtest {

using Bytes = std::vector<uint8_t>;

// Runs cmd through the shell; true when it exits 0.
bool sh(const std::string &cmd);

// True when every program of the space-separated `programs` is on PATH; otherwise prints
// "SKIP: <program> not found" for the first missing one and returns false.
bool have_tools(const char *programs);

// A folder /tmp/<prefix>-XXXXXX made at construction and removed with its files at
// destruction (kept when V3D_TEST_KEEP is set). path() is empty when it could not be made.
class ScratchDir {
 public:
  explicit ScratchDir(const char *prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return path_; }
  // path() + "/" + name
  std::string operator/(const std::string &name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// The whole file (empty when it cannot be read).
Bytes read_all(const std::string &path);

// Encodes dir/NAME.ivf with vpxenc (VP9, IVF, `frames` frames, extra options `opts`, may be
// empty) from dir/NAME.y4m, a w x h, 30 frames/s 4:2:0 clip of ffmpeg's testsrc2 made first
// (at least 64 x 64 and scaled down for smaller sizes: testsrc2's smallest). False when a tool
// failed.
bool encode_testsrc(const std::string &dir, const std::string &name, int w, int h, int frames,
                    const std::string &opts);

// libvpx's MD5 of every shown frame of the IVF file at `ivf` (32 hex digits each, in display
// order). failed null: empty when vpxdec failed; else the frames before vpxdec stopped at a
// frame it failed to decode, and *failed says whether it did. Its frame files are written
// beside `ivf` and removed.
std::vector<std::string> vpxdec_md5s(const std::string &ivf, bool *failed = nullptr);

// encode_testsrc, then vpxdec_md5s of dir/NAME.ivf; empty after a failure.
std::vector<std::string> make_stream(const std::string &dir, const std::string &name, int w,
                                     int h, int frames, const std::string &opts);

// One packet of an IVF file held elsewhere (a view: valid while the file's bytes are).
struct Packet {
  const uint8_t *data;
  size_t size;
};

// The packets of the IVF file held in `file`, up to the first damaged one; empty when it is
// not an IVF file.
std::vector<Packet> ivf_packets(const Bytes &file);

// An IVF file at `path`: the 32-byte file header `header` with its frame count set to
// pkts.size(), then each packet with pts 0, 1, 2, ...
void write_ivf(const std::string &path, Bytes header, const std::vector<Bytes> &pkts);

// The MD5 of a picture's visible 4:2:0 planes (Y, U, V rows without their padding), as
// `vpxdec --i420 --md5` prints it per frame.
std::string picture_md5(const V3dVp9Picture &pic);

}  // namespace v3dtest
