// SPDX-License-Identifier: LGPL-2.1-or-later
// Plain most-significant-bit-first reader for the VP9 uncompressed header (spec 4.9 f(n)).
// Reading past the end yields zeros and sets overrun(); callers check it once at the end.
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d::vp9 {

class BitReader {
 public:
  BitReader(const uint8_t *data, size_t size) : data_(data), size_bits_(size * 8) {}

  int f1() {
    if (pos_ >= size_bits_) {
      overrun_ = true;
      ++pos_;
      return 0;
    }
    const int bit = (data_[pos_ >> 3] >> (7 - (pos_ & 7))) & 1;
    ++pos_;
    return bit;
  }
  // f(n), n <= 32.
  uint32_t f(int n) {
    uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 1) | static_cast<uint32_t>(f1());
    return v;
  }
  // su(n) as libvpx's signed literal: n magnitude bits, then the sign.
  int su(int n) {
    const int v = static_cast<int>(f(n));
    return f1() ? -v : v;
  }
  size_t bit_pos() const { return pos_; }
  size_t byte_pos() const { return (pos_ + 7) >> 3; }
  bool overrun() const { return overrun_; }

 private:
  const uint8_t *data_;
  size_t size_bits_;
  size_t pos_ = 0;
  bool overrun_ = false;
};

}  // namespace v3d::vp9
