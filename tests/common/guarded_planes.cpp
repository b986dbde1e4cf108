// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/guarded_planes.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace v3dtest {

GuardedPlanes::GuardedPlanes(const int widths[3], const int heights[3], int guard_bytes,
                             int extra_stride, V3dContext *shared_ctx)
    : guard(guard_bytes) {
  for (int p = 0; p < 3; p++) {
    w[p] = widths[p];
    h[p] = heights[p];
    stride[p] = w[p] + 2 * guard + extra_stride + p;
    size_[p] = static_cast<size_t>(stride[p]) * (h[p] + 2 * guard);
  }
  allocate(shared_ctx);
  for (int p = 0; p < 3; p++) memset(base_[p], kGuardByte, size_[p]);
}

GuardedPlanes::GuardedPlanes(const GuardedPlanes &o) : guard(o.guard) {
  for (int p = 0; p < 3; p++) {
    w[p] = o.w[p];
    h[p] = o.h[p];
    stride[p] = o.stride[p];
    size_[p] = o.size_[p];
  }
  allocate(nullptr);
  copy_from(o);
}

GuardedPlanes::GuardedPlanes(GuardedPlanes &&o) noexcept : guard(o.guard) {
  shared_ctx_ = o.shared_ctx_;
  o.shared_ctx_ = nullptr;
  for (int p = 0; p < 3; p++) {
    w[p] = o.w[p];
    h[p] = o.h[p];
    stride[p] = o.stride[p];
    size_[p] = o.size_[p];
    plain_[p] = std::move(o.plain_[p]);  // keeps the data pointer: the buffer moves whole
    base_[p] = o.base_[p];
    data[p] = o.data[p];
    o.base_[p] = o.data[p] = nullptr;
    o.size_[p] = 0;
  }
}

GuardedPlanes::~GuardedPlanes() {
  if (shared_ctx_)
    for (uint8_t *b : base_) v3d_shared_free(b);
}

void GuardedPlanes::allocate(V3dContext *shared_ctx) {
  shared_ctx_ = shared_ctx;
  for (int p = 0; p < 3; p++) {
    if (shared_ctx_) {
      base_[p] = static_cast<uint8_t *>(v3d_shared_alloc(shared_ctx_, size_[p] ? size_[p] : 1));
      if (!base_[p]) {
        fprintf(stderr, "v3d_shared_alloc(%zu) failed: %s\n", size_[p], v3d_last_error());
        abort();
      }
    } else {
      plain_[p].resize(size_[p] ? size_[p] : 1);
      base_[p] = plain_[p].data();
    }
    data[p] = base_[p] + guard * stride[p] + guard;
  }
}

void GuardedPlanes::copy_plane_from(const GuardedPlanes &o, int p) {
  if (o.size_[p] != size_[p] || o.stride[p] != stride[p] || o.guard != guard) {
    fprintf(stderr, "GuardedPlanes::copy_plane_from: layouts differ\n");
    abort();
  }
  memcpy(base_[p], o.base_[p], size_[p]);
}

void GuardedPlanes::copy_from(const GuardedPlanes &o) {
  for (int p = 0; p < 3; p++) copy_plane_from(o, p);
}

bool GuardedPlanes::same_plane(const GuardedPlanes &o, int p) const {
  return size_[p] == o.size_[p] && memcmp(base_[p], o.base_[p], size_[p]) == 0;
}

bool GuardedPlanes::same_as(const GuardedPlanes &o, int *plane, int *x, int *y) const {
  for (int p = 0; p < 3; p++) {
    if (same_plane(o, p)) continue;
    *plane = p;
    *x = *y = 0;
    const size_t n = size_[p] < o.size_[p] ? size_[p] : o.size_[p];
    for (size_t k = 0; k < n; k++)
      if (base_[p][k] != o.base_[p][k]) {
        *x = static_cast<int>(k % stride[p]) - guard;
        *y = static_cast<int>(k / stride[p]) - guard;
        break;
      }
    return false;
  }
  return true;
}

bool GuardedPlanes::guards_intact() const {
  auto all_guard = [](const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
      if (b[i] != kGuardByte) return false;
    return true;
  };
  for (int p = 0; p < 3; p++) {
    const size_t s = static_cast<size_t>(stride[p]);
    const uint8_t *b = base_[p];
    const size_t below = (guard + h[p]) * s;
    if (!all_guard(b, guard * s) || !all_guard(b + below, size_[p] - below)) return false;
    for (int y = 0; y < h[p]; y++) {
      const uint8_t *row = b + (guard + y) * s;
      if (!all_guard(row, guard) || !all_guard(row + guard + w[p], s - guard - w[p]))
        return false;
    }
  }
  return true;
}

}  // namespace v3dtest
