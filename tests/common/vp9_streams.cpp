// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 streams for the decoder tests. See vp9_streams.h.
#include "common/vp9_streams.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <stdlib.h>

#include "../../tools/md5.h"
#include "vp9/dec/ivf.h"

namespace v3dtest {

bool sh(const std::string &cmd) { return system(cmd.c_str()) == 0; }

bool have_tools(const char *programs) {
  std::istringstream in(programs);
  std::string p;
  while (in >> p) {
    if (!sh("command -v " + p + " >/dev/null 2>&1")) {
      printf("SKIP: %s not found\n", p.c_str());
      return false;
    }
  }
  return true;
}

ScratchDir::ScratchDir(const char *prefix) {
  std::string tmpl = std::string("/tmp/") + prefix + "-XXXXXX";
  if (mkdtemp(&tmpl[0])) path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  if (getenv("V3D_TEST_KEEP")) {
    printf("note: %s kept (V3D_TEST_KEEP)\n", path_.c_str());
    return;
  }
  if (!sh("rm -rf '" + path_ + "'")) printf("note: %s left behind\n", path_.c_str());
}

Bytes read_all(const std::string &path) {
  Bytes d;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return d;
  uint8_t buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) d.insert(d.end(), buf, buf + n);
  fclose(f);
  return d;
}

bool encode_testsrc(const std::string &dir, const std::string &name, int w, int h, int frames,
                    const std::string &opts) {
  const std::string src = dir + "/" + name + ".y4m", ivf = dir + "/" + name + ".ivf";
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  const std::string scale =
      w < 64 || h < 64 ? " -vf scale=" + std::to_string(w) + ":" + std::to_string(h) : "";
  const std::string gen = "ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=" +
                          std::to_string(w < 64 ? 64 : w) + "x" + std::to_string(h < 64 ? 64 : h) +
                          ":rate=30" + scale + " -frames:v " + std::to_string(frames) +
                          " -pix_fmt yuv420p " + src;
  const std::string enc = "vpxenc --codec=vp9 --quiet --ivf --limit=" + std::to_string(frames) +
                          " " + opts + " -o " + ivf + " " + src + " >/dev/null 2>&1";
  return sh(gen) && sh(enc);
}

std::vector<std::string> vpxdec_md5s(const std::string &ivf, bool *failed) {
  std::vector<std::string> md5s;
  const std::string list = ivf + ".md5", log = ivf + ".log";
  const bool ok = sh("vpxdec --i420 --md5 -o " + ivf + "-%4.i420 " + ivf + " > " + list + " 2> " +
                     log);
  sh("rm -f " + ivf + "-*.i420");
  if (failed) *failed = sh("grep -q 'Failed to decode' " + log);
  else if (!ok) return md5s;
  FILE *f = fopen(list.c_str(), "r");
  char line[256];
  while (f && fgets(line, sizeof(line), f))
    if (std::string(line).size() > 32) md5s.emplace_back(line, 32);
  if (f) fclose(f);
  return md5s;
}

std::vector<std::string> make_stream(const std::string &dir, const std::string &name, int w,
                                     int h, int frames, const std::string &opts) {
  if (!encode_testsrc(dir, name, w, h, frames, opts)) return {};
  return vpxdec_md5s(dir + "/" + name + ".ivf");
}

std::vector<Packet> ivf_packets(const Bytes &file) {
  v3d::vp9::IvfReader ivf;
  v3d::vp9::IvfHeader hdr;
  std::string err;
  std::vector<Packet> pkts;
  if (ivf.open(file.data(), file.size(), hdr, err)) {
    Packet p;
    uint64_t pts;
    while (ivf.next(p.data, p.size, pts, err) == 1) pkts.push_back(p);
  }
  return pkts;
}

void write_ivf(const std::string &path, Bytes header, const std::vector<Bytes> &pkts) {
  for (int i = 0; i < 4; ++i) header[24 + i] = uint8_t(pkts.size() >> (8 * i));
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) return;
  fwrite(header.data(), 1, header.size(), f);
  uint64_t pts = 0;
  for (const Bytes &p : pkts) {
    uint8_t h[12];
    for (int i = 0; i < 4; ++i) h[i] = uint8_t(p.size() >> (8 * i));
    for (int i = 0; i < 8; ++i) h[4 + i] = uint8_t(pts >> (8 * i));
    ++pts;
    fwrite(h, 1, 12, f);
    fwrite(p.data(), 1, p.size(), f);
  }
  fclose(f);
}

std::string picture_md5(const V3dVp9Picture &pic) {
  v3dtool::Md5 m;
  for (int pl = 0; pl < 3; ++pl) {
    const int w = pl ? (pic.width + 1) / 2 : pic.width, h = pl ? (pic.height + 1) / 2 : pic.height;
    for (int y = 0; y < h; ++y) m.update(pic.planes[pl] + y * pic.strides[pl], size_t(w));
  }
  return m.hex();
}

}  // namespace v3dtest
