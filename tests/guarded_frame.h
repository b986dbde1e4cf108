// SPDX-License-Identifier: LGPL-2.1-or-later
// A 4:2:0 frame inside a guard border, for the frame-level fuzz targets and fault tests: the planes (processed
// area w x h each) lie in one allocation per plane with kGuard bytes of guard on every side and
// an odd padded stride; guard bytes hold kGuardByte, so any write outside a plane shows up.
// Memory: plain (std::vector) or from v3d_shared_alloc() (the GPU's zero-copy path).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "v3d/v3d.h"

namespace v3dtest {

class GuardedFrame {
 public:
  static constexpr int kGuard = 32;
  static constexpr uint8_t kGuardByte = 0xA5;

  // w[p], h[p]: the planes' processed areas (>= 1). shared_ctx: allocate with v3d_shared_alloc.
  GuardedFrame(const int w[3], const int h[3], V3dContext *shared_ctx = nullptr)
      : shared_ctx_(shared_ctx) {
    for (int p = 0; p < 3; p++) {
      w_[p] = w[p];
      h_[p] = h[p];
      stride_[p] = w[p] + 2 * kGuard + 3 + p;
      size_[p] = static_cast<size_t>(stride_[p]) * (h[p] + 2 * kGuard);
      if (shared_ctx_) {
        base_[p] = static_cast<uint8_t *>(v3d_shared_alloc(shared_ctx_, size_[p]));
      } else {
        plain_[p].resize(size_[p]);
        base_[p] = plain_[p].data();
      }
      memset(base_[p], kGuardByte, size_[p]);
      planes[p] = base_[p] + kGuard * stride_[p] + kGuard;
      strides[p] = stride_[p];
    }
  }
  ~GuardedFrame() {
    if (shared_ctx_)
      for (uint8_t *b : base_) v3d_shared_free(b);
  }
  GuardedFrame(const GuardedFrame &) = delete;
  GuardedFrame &operator=(const GuardedFrame &) = delete;

  void copy_from(const GuardedFrame &o) {
    for (int p = 0; p < 3; p++) memcpy(base_[p], o.base_[p], size_[p]);
  }
  // Whole allocations equal (guards included)? On a difference, where (plane, x, y of the plane).
  bool same_as(const GuardedFrame &o, int *plane, long *x, long *y) const {
    for (int p = 0; p < 3; p++) {
      if (memcmp(base_[p], o.base_[p], size_[p]) == 0) continue;
      for (size_t k = 0; k < size_[p]; k++)
        if (base_[p][k] != o.base_[p][k]) {
          *plane = p;
          *y = static_cast<long>(k / stride_[p]) - kGuard;
          *x = static_cast<long>(k % stride_[p]) - kGuard;
          return false;
        }
    }
    return true;
  }
  bool guards_intact() const {
    auto all_guard = [](const uint8_t *b, size_t n) {
      for (size_t i = 0; i < n; i++)
        if (b[i] != kGuardByte) return false;
      return true;
    };
    for (int p = 0; p < 3; p++) {
      const size_t stride = static_cast<size_t>(stride_[p]);
      const uint8_t *b = base_[p];
      if (!all_guard(b, kGuard * stride)) return false;                                  // above
      if (!all_guard(b + (kGuard + h_[p]) * stride, size_[p] - (kGuard + h_[p]) * stride))  // below
        return false;
      for (int y = 0; y < h_[p]; y++) {
        const uint8_t *row = b + (kGuard + y) * stride;
        if (!all_guard(row, kGuard) || !all_guard(row + kGuard + w_[p], stride - kGuard - w_[p]))
          return false;
      }
    }
    return true;
  }

  uint8_t *planes[3];
  ptrdiff_t strides[3];

 private:
  V3dContext *shared_ctx_;
  int w_[3], h_[3];
  ptrdiff_t stride_[3];
  size_t size_[3];
  uint8_t *base_[3];
  std::vector<uint8_t> plain_[3];
};

// Log callback that drops the library's messages (the fuzzer's output stays readable).
inline void quiet_log(int, const char *, void *) {}

}  // namespace v3dtest
