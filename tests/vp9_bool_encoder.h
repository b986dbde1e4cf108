// SPDX-License-Identifier: LGPL-2.1-or-later
// A VP9 boolean encoder for tests: the inverse of the spec's 9.2 decoding process, written
// independently of the decoder (bit-serial, carries propagated through the bytes already
// written). finish() pads with zero decisions so that every coded decision is decodable.
#pragma once

#include <cstdint>
#include <vector>

#include "vp9/dec/bool_decoder.h"

namespace v3dtest {

class BoolEncoder {
 public:
  void put(int bit, int prob) {
    const uint32_t split = 1 + (((range_ - 1) * static_cast<uint32_t>(prob)) >> 8);
    if (bit) {
      low_ += split;
      range_ -= split;
    } else {
      range_ = split;
    }
    while (range_ < 128) {
      range_ <<= 1;
      if (low_ & 0x80000000u) carry();
      low_ <<= 1;
      if (--bits_ == 0) {
        out_.push_back(static_cast<uint8_t>(low_ >> 24));
        low_ &= 0xffffff;
        bits_ = 8;
      }
    }
  }
  void put_literal(uint32_t v, int n) {
    for (int i = n - 1; i >= 0; --i) put((v >> i) & 1, 128);
  }
  // Writes symbol `sym` of a spec tree with node probabilities probs.
  void put_tree(const v3d::vp9::TreeIndex *tree, const uint8_t *probs, int sym) {
    std::vector<int> path;
    if (!find(tree, 0, sym, path)) return;
    int i = 0;
    for (int b : path) {
      put(b, probs[i >> 1]);
      i = tree[i + b];
    }
  }
  // Pads with 32 zero decisions at probability 128 (as libvpx's writer does) and emits the
  // remaining bits. Returns the coded bytes.
  std::vector<uint8_t> finish() {
    for (int i = 0; i < 32; ++i) put(0, 128);
    for (int i = 0; i < 32; ++i) {  // shift out the low register
      if (low_ & 0x80000000u) carry();
      low_ <<= 1;
      if (--bits_ == 0) {
        out_.push_back(static_cast<uint8_t>(low_ >> 24));
        low_ &= 0xffffff;
        bits_ = 8;
      }
    }
    return out_;
  }

 private:
  void carry() {
    for (size_t k = out_.size(); k-- > 0;) {
      if (++out_[k] != 0) return;
    }
  }
  static bool find(const v3d::vp9::TreeIndex *tree, int i, int sym, std::vector<int> &path) {
    for (int b = 0; b < 2; ++b) {
      path.push_back(b);
      const int n = tree[i + b];
      if (n <= 0 ? -n == sym : find(tree, n, sym, path)) return true;
      path.pop_back();
    }
    return false;
  }

  std::vector<uint8_t> out_;
  uint32_t low_ = 0;
  uint32_t range_ = 255;
  int bits_ = 24;  // bits until the top byte of low_ is complete
};

}  // namespace v3dtest
