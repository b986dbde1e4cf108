// SPDX-License-Identifier: LGPL-2.1-or-later
// IVF container reader over a buffer (header-only, for the tools and tests): a 32-byte file
// header ("DKIF", version 0, header size, fourcc, width, height, rate, scale, frame count), then
// per frame a 12-byte header (size, 64-bit pts; little endian) and the frame's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace v3d::vp9 {

struct IvfHeader {
  char fourcc[5] = {};
  uint16_t width = 0, height = 0;
  uint32_t rate = 0, scale = 0, frame_count = 0;
};

class IvfReader {
 public:
  // Checks the file header. False with a message when it is not an IVF file.
  bool open(const uint8_t *data, size_t size, IvfHeader &header, std::string &error) {
    data_ = data;
    size_ = size;
    if (size < 32 || std::memcmp(data, "DKIF", 4) != 0) {
      error = "not an IVF file (no DKIF signature)";
      return false;
    }
    const uint16_t header_size = le16(data + 6);
    if (le16(data + 4) != 0 || header_size < 32 || header_size > size) {
      error = "unsupported IVF version or header size";
      return false;
    }
    std::memcpy(header.fourcc, data + 8, 4);
    header.width = le16(data + 12);
    header.height = le16(data + 14);
    header.rate = le32(data + 16);
    header.scale = le32(data + 20);
    header.frame_count = le32(data + 24);
    pos_ = header_size;
    return true;
  }
  // Next frame: 1 with frame/frame_size/pts set, 0 at the end, -1 with a message when the
  // frame header or frame is truncated.
  int next(const uint8_t *&frame, size_t &frame_size, uint64_t &pts, std::string &error) {
    if (pos_ == size_) return 0;
    if (size_ - pos_ < 12) {
      error = "truncated IVF frame header at byte " + std::to_string(pos_);
      return -1;
    }
    const uint32_t n = le32(data_ + pos_);
    pts = le32(data_ + pos_ + 4) | static_cast<uint64_t>(le32(data_ + pos_ + 8)) << 32;
    if (n > size_ - pos_ - 12) {
      error = "truncated IVF frame at byte " + std::to_string(pos_) + " (" + std::to_string(n) +
              " bytes announced, " + std::to_string(size_ - pos_ - 12) + " left)";
      return -1;
    }
    frame = data_ + pos_ + 12;
    frame_size = n;
    pos_ += 12 + static_cast<size_t>(n);
    return 1;
  }

 private:
  static uint16_t le16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
  static uint32_t le32(const uint8_t *p) {
    return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
  }
  const uint8_t *data_ = nullptr;
  size_t size_ = 0, pos_ = 0;
};

}  // namespace v3d::vp9
