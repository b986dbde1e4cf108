// SPDX-License-Identifier: LGPL-2.1-or-later
// The one guard-border helper of the tests and fuzz targets: three planes of 8-bit samples, each
// inside its own allocation with a border of `guard` bytes on every side (rows above and below,
// bytes left and right of each row) holding kGuardByte, so that any write outside a plane shows
// up. Strides are padded: plane p's rows are w + 2 * guard + extra_stride + p bytes long, so the
// three strides differ and some are odd. Memory is plain, or from v3d_shared_alloc() (the GPU's
// zero-copy path) when a context is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "v3d/v3d.h"

namespace v3dtest {

class GuardedPlanes {
 public:
  static constexpr uint8_t kGuardByte = 0xA5;

  // widths[p] x heights[p]: plane p's processed area (>= 0 each).
  GuardedPlanes(const int widths[3], const int heights[3], int guard_bytes, int extra_stride = 0,
                V3dContext *shared_ctx = nullptr);
  // A plain-memory copy with the same layout and bytes (guards included).
  GuardedPlanes(const GuardedPlanes &o);
  GuardedPlanes(GuardedPlanes &&o) noexcept;
  GuardedPlanes &operator=(const GuardedPlanes &) = delete;
  ~GuardedPlanes();

  // Every byte of o (guards included); o has the same layout (else abort()).
  void copy_from(const GuardedPlanes &o);
  void copy_plane_from(const GuardedPlanes &o, int p);
  // Whole allocations equal (guards included)? On a difference: its plane and position relative
  // to the plane (negative or past w/h inside the guard).
  bool same_as(const GuardedPlanes &o, int *plane, int *x, int *y) const;
  bool same_plane(const GuardedPlanes &o, int p) const;
  // Every byte outside the planes still holds kGuardByte.
  bool guards_intact() const;

  // Plane p's whole allocation (guards included).
  uint8_t *bytes(int p) { return base_[p]; }
  const uint8_t *bytes(int p) const { return base_[p]; }
  size_t size(int p) const { return size_[p]; }
  std::vector<uint8_t> plane_bytes(int p) const { return {base_[p], base_[p] + size_[p]}; }

  int guard;
  int w[3], h[3];
  ptrdiff_t stride[3];
  uint8_t *data[3];  // plane p's first sample

 private:
  void allocate(V3dContext *shared_ctx);
  V3dContext *shared_ctx_ = nullptr;
  size_t size_[3];
  uint8_t *base_[3];
  std::vector<uint8_t> plain_[3];
};

// The planes of a 4:2:0 frame of width x height: chroma (width + 1) / 2 x (height + 1) / 2; with
// round8, luma rounded up to whole 8x8 blocks (as the VP9 entry points see a frame) and chroma
// half of that.
struct Dims420 {
  int w[3], h[3];
  Dims420(int width, int height, bool round8 = false) {
    if (round8) {
      width = (width + 7) & ~7;
      height = (height + 7) & ~7;
    }
    for (int p = 0; p < 3; p++) {
      w[p] = p ? (width + 1) / 2 : width;
      h[p] = p ? (height + 1) / 2 : height;
    }
  }
};

// Log callback that drops the library's messages (fuzzers and fault tests stay readable).
inline void quiet_log(int, const char *, void *) {}

}  // namespace v3dtest
