// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 boolean (arithmetic) decoder, spec section 9.2.
//
// Exactness: every decision equals the spec's read_bool(); the window only changes how many bytes
// are loaded at a time. Bytes past the end of the buffer read as zeros and are never loaded from
// memory. has_error() reports, with the same timing as libvpx's vpx_reader_has_error(), that the
// decoder has consumed bits past the end of the data, which libvpx treats as a corrupt tile.
//
// Not thread-safe; one instance per tile (or header). Cheap to copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace v3d::vp9 {

// A tree as in the spec's tree tables (section 9.3): tree[i] > 0 is the index of the next node
// pair, tree[i] <= 0 is a leaf holding -symbol. Node pair i uses probability probs[i >> 1].
using TreeIndex = int8_t;

class BoolDecoder {
 public:
  // Window width in bits; the arithmetic decoder's 8-bit value lives in its top byte.
  static constexpr int kWindow = 64;
  // Added to count_ once the data is exhausted, so that no further refills happen.
  static constexpr int kLotsOfBits = 0x40000000;

  // init_bool(sz) followed by the marker bit. Returns false when size is 0 or the marker bit
  // (the first read_bool(128)) is 1; the decoder is then unusable.
  bool init(const uint8_t *data, size_t size) {
    pos_ = data;
    end_ = data + size;
    value_ = 0;
    count_ = -8;
    range_ = 255;
    if (size == 0 || data == nullptr) return false;
    refill();
    return read_bool(128) == 0;
  }

  // read_bool(p): one decision with probability p/256 of a 0. p in 1..255 (0 is treated as the
  // spec's arithmetic does: split = 1).
  inline int read_bool(int prob) {
    if (count_ < 0) refill();
    const uint32_t split = 1 + (((range_ - 1) * static_cast<uint32_t>(prob)) >> 8);
    const uint64_t big_split = static_cast<uint64_t>(split) << (kWindow - 8);
    uint32_t range;
    int bit;
    if (value_ >= big_split) {
      range = range_ - split;
      value_ -= big_split;
      bit = 1;
    } else {
      range = split;
      bit = 0;
    }
    // Renormalise: shift until range >= 128 (range is 1..255 here, never 0).
    const int shift = __builtin_clz(range) - 24;
    range_ = range << shift;
    value_ <<= shift;
    count_ -= shift;
    return bit;
  }

  inline int read_bit() { return read_bool(128); }

  // read_literal(n): n bits, most significant first, each with probability 128. n <= 31.
  inline uint32_t read_literal(int n) {
    uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 1) | static_cast<uint32_t>(read_bool(128));
    return v;
  }

  // Reads a symbol with a spec tree (section 9.3.1); probs[i >> 1] is node i's probability.
  inline int read_tree(const TreeIndex *tree, const uint8_t *probs) {
    int i = 0;
    while ((i = tree[i + read_bool(probs[i >> 1])]) > 0) {
    }
    return -i;
  }

  // True once bits past the end of the data have entered the decoder's value (libvpx's
  // vpx_reader_has_error): the data is truncated or corrupt.
  bool has_error() const { return count_ > kWindow && count_ < kLotsOfBits; }

  // Where the coded data ends as far as this decoder has read it (libvpx's vpx_reader_find_end):
  // the first byte none of whose bits entered the arithmetic decoder's 8-bit value, the end of
  // the buffer once the data ran out. libvpx looks for another frame from there in packets
  // without a superframe index.
  const uint8_t *find_end() const {
    if (count_ > 8 && count_ < kWindow) return pos_ - (count_ - 1) / 8;
    return pos_;
  }

  // Number of padding bits left (spec exit_bool's BoolMaxBits): the bits of the buffer the
  // arithmetic decoder has not shifted in yet. Negative when it has read past the end.
  int64_t bits_left() const {
    const int64_t loaded = count_ > kWindow ? int64_t{count_} - kLotsOfBits : count_;
    return static_cast<int64_t>(end_ - pos_) * 8 + loaded;
  }

 private:
  // Loads whole bytes below the valid bits of the window. Called when count_ < 0 (fewer than 8
  // bits wait below the top byte).
  void refill() {
    int shift =
        kWindow - 8 - (count_ + 8);  // bit position of the next byte's least significant bit
    const size_t bytes_left = static_cast<size_t>(end_ - pos_);
    if (bytes_left > sizeof(uint64_t)) {
      // Fast path: one big-endian load, keep the whole bytes that fit.
      uint64_t be;
      std::memcpy(&be, pos_, sizeof(be));
      be = __builtin_bswap64(be);
      const int bytes = (shift >> 3) + 1;
      value_ |= (be >> (kWindow - 8 * bytes)) << (shift & 7);
      pos_ += bytes;
      count_ += 8 * bytes;
      return;
    }
    // Near the end: byte by byte. When the remaining bytes cannot fill the window, take them all
    // and mark the data exhausted (the rest of the window stays zero).
    const int bits_over = shift + 8 - static_cast<int>(bytes_left * 8);
    int stop = 0;
    if (bits_over >= 0) {
      count_ += kLotsOfBits;
      stop = bits_over;
    }
    while (shift >= stop && pos_ < end_) {
      count_ += 8;
      value_ |= static_cast<uint64_t>(*pos_++) << shift;
      shift -= 8;
    }
  }

  uint64_t value_ = 0;
  int count_ = -8;  // valid bits in the window below the top 8; < 0: refill before decoding
  uint32_t range_ = 255;
  const uint8_t *pos_ = nullptr;
  const uint8_t *end_ = nullptr;
};

}  // namespace v3d::vp9
