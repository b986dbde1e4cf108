// SPDX-License-Identifier: LGPL-2.1-or-later
// MD5 (RFC 1321) for the tools' output checksums, which are compared with vpxdec --md5.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace v3dtool {

class Md5 {
 public:
  void update(const uint8_t *p, size_t n) {
    total_ += n;
    if (fill_) {
      const size_t take = n < 64 - fill_ ? n : 64 - fill_;
      std::memcpy(buf_ + fill_, p, take);
      fill_ += take;
      p += take;
      n -= take;
      if (fill_ < 64) return;
      block(buf_);
      fill_ = 0;
    }
    for (; n >= 64; p += 64, n -= 64) block(p);
    std::memcpy(buf_, p, n);
    fill_ = n;
  }
  // The digest as 32 lowercase hex digits; the object is spent afterwards.
  std::string hex() {
    const uint64_t bits = total_ * 8;
    const uint8_t pad = 0x80;
    update(&pad, 1);
    const uint8_t zero[64] = {};
    update(zero, (fill_ <= 56 ? 56 - fill_ : 120 - fill_));
    uint8_t len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(bits >> (8 * i));
    update(len, 8);
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (uint32_t v : h_)
      for (int i = 0; i < 4; ++i) {
        const uint8_t b = static_cast<uint8_t>(v >> (8 * i));
        out += digits[b >> 4];
        out += digits[b & 15];
      }
    return out;
  }

 private:
  static uint32_t rol(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }
  void block(const uint8_t *p) {
    // Per-round shift amounts and the sine-derived constants of RFC 1321.
    static const int s[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                              5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                              4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                              6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    static uint32_t k[64];
    static bool init = [] {
      for (int i = 0; i < 64; ++i) {
        // floor(|sin(i + 1)| * 2^32), computed once.
        double v = __builtin_sin(static_cast<double>(i + 1));
        if (v < 0) v = -v;
        k[i] = static_cast<uint32_t>(v * 4294967296.0);
      }
      return true;
    }();
    (void)init;
    uint32_t m[16];
    for (int i = 0; i < 16; ++i)
      m[i] = p[4 * i] | p[4 * i + 1] << 8 | p[4 * i + 2] << 16 |
             static_cast<uint32_t>(p[4 * i + 3]) << 24;
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
    for (int i = 0; i < 64; ++i) {
      uint32_t f;
      int g;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const uint32_t t = d;
      d = c;
      c = b;
      b = b + rol(a + f + k[i] + m[g], s[i]);
      a = t;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
  }

  uint32_t h_[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  uint8_t buf_[64];
  size_t fill_ = 0;
  uint64_t total_ = 0;
};

}  // namespace v3dtool
