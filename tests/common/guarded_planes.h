// SPDX-License-Identifier: LGPL-2.1-or-later
// Three planes of 8-bit samples, each inside a buffer with a guard border of `guard` bytes on
// every side (and optionally a wider stride), the border filled with a known byte: tests write
// into data[] and check that nothing outside the planes changed. Header-only; copies keep their
// own buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace v3dtest {

struct GuardedPlanes {
  static constexpr uint8_t kGuardByte = 0x5A;
  int guard;
  int w[3], h[3];
  ptrdiff_t stride[3];
  std::vector<uint8_t> buf[3];
  uint8_t *data[3];

  GuardedPlanes(const int widths[3], const int heights[3], int guard_bytes, int extra_stride)
      : guard(guard_bytes) {
    for (int p = 0; p < 3; p++) {
      w[p] = widths[p];
      h[p] = heights[p];
      stride[p] = w[p] + 2 * guard + extra_stride;
      buf[p].assign(static_cast<size_t>(stride[p]) * (h[p] + 2 * guard), kGuardByte);
      data[p] = buf[p].data() + guard * stride[p] + guard;
    }
  }
  GuardedPlanes(const GuardedPlanes &o) : guard(o.guard) {
    for (int p = 0; p < 3; p++) {
      w[p] = o.w[p];
      h[p] = o.h[p];
      stride[p] = o.stride[p];
      buf[p] = o.buf[p];
      data[p] = buf[p].data() + (o.data[p] - o.buf[p].data());
    }
  }
  GuardedPlanes &operator=(const GuardedPlanes &) = delete;

  // Whole buffers (guards too); on a difference, its plane and position relative to the plane.
  bool same_as(const GuardedPlanes &o, int *plane, int *x, int *y) const {
    for (int p = 0; p < 3; p++) {
      if (buf[p] == o.buf[p]) continue;
      for (size_t i = 0; i < buf[p].size(); i++)
        if (buf[p][i] != o.buf[p][i]) {
          *plane = p;
          *x = static_cast<int>(i % stride[p]) - guard;
          *y = static_cast<int>(i / stride[p]) - guard;
          return false;
        }
    }
    return true;
  }

  // Every byte outside the planes still holds kGuardByte.
  bool guards_intact() const {
    for (int p = 0; p < 3; p++)
      for (size_t i = 0; i < buf[p].size(); i++) {
        const int x = static_cast<int>(i % stride[p]) - guard;
        const int y = static_cast<int>(i / stride[p]) - guard;
        if ((x < 0 || x >= w[p] || y < 0 || y >= h[p]) && buf[p][i] != kGuardByte) return false;
      }
    return true;
  }
};

}  // namespace v3dtest
