// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/itx_frame.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "core/log.h"
#include "vp9/itx.h"

namespace v3d {
namespace vp9 {
namespace {

// One bit per pixel of a plane, rows of 64-bit words: detects blocks of one plane that share a
// pixel, whatever their alignment.
class Occupancy {
 public:
  void reset(int w, int h) {
    words_ = (w + 63) / 64;
    bits_.assign(static_cast<size_t>(words_) * h, 0);
  }
  // Marks the clipped rectangle; returns false if any of its pixels was marked already.
  // atomic: several threads mark at once.
  bool mark(int x, int y, int w, int h, bool atomic) {
    bool ok = true;
    for (int r = y; r < y + h; r++) {
      uint64_t *row = &bits_[static_cast<size_t>(r) * words_];
      for (int c = x; c < x + w;) {
        int bit = c & 63;
        int n = 64 - bit < x + w - c ? 64 - bit : x + w - c;
        uint64_t mask = (n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << bit;
        uint64_t old;
        if (atomic) {
          old = __atomic_fetch_or(&row[c >> 6], mask, __ATOMIC_RELAXED);
        } else {
          old = row[c >> 6];
          row[c >> 6] = old | mask;
        }
        if (old & mask) ok = false;
        c += n;
      }
    }
    return ok;
  }

 private:
  int words_ = 0;
  std::vector<uint64_t> bits_;
};

// Finds another block of the same plane that shares a pixel with the rectangle (only for the
// error message), -1 if none.
long find_owner(const V3dVp9TxBlock *blocks, size_t n_blocks, size_t self, int plane, int x, int y,
                int w, int h) {
  for (size_t j = 0; j < n_blocks; j++) {
    if (j == self) continue;
    const V3dVp9TxBlock &o = blocks[j];
    int n = 4 << o.tx_size;
    if (o.plane == plane && o.x < x + w && x < o.x + n && o.y < y + h && y < o.y + n)
      return static_cast<long>(j);
  }
  return -1;
}

}  // namespace

void itx_plane_sizes(int width, int height, int w[3], int h[3]) {
  w[0] = (width + 7) & ~7;
  h[0] = (height + 7) & ~7;
  w[1] = w[2] = w[0] / 2;
  h[1] = h[2] = h[0] / 2;
}

namespace {

// The checks of one block that need no other block. Returns V3D_OK or the error code; sets the
// calling thread's error message only when report is true.
int check_block(const V3dVp9TxBlock &b, size_t i, const int pw[3], const int ph[3],
                size_t n_coeffs, bool report) {
  if (b.plane > 2)
    return report ? set_error(V3D_ERROR_BAD_PLANE, "block %zu: plane %u (must be 0, 1 or 2)", i,
                              b.plane)
                  : V3D_ERROR_BAD_PLANE;
  if (!valid_tx(b.tx_size, b.tx_type))
    return report ? set_error(V3D_ERROR_BAD_TRANSFORM, "block %zu: invalid tx_size %u / tx_type %u",
                              i, b.tx_size, b.tx_type)
                  : V3D_ERROR_BAD_TRANSFORM;
  const int n = 4 << b.tx_size;
  if (b.x >= pw[b.plane] || b.y >= ph[b.plane])
    return report ? set_error(V3D_ERROR_BLOCK_OUTSIDE,
                              "block %zu: starts at (%u,%u), outside plane %u (%dx%d)", i, b.x, b.y,
                              b.plane, pw[b.plane], ph[b.plane])
                  : V3D_ERROR_BLOCK_OUTSIDE;
  if (b.eob > static_cast<uint32_t>(n * n))
    return report ? set_error(V3D_ERROR_BAD_EOB, "block %zu: eob %u > %d", i, b.eob, n * n)
                  : V3D_ERROR_BAD_EOB;
  if (static_cast<uint64_t>(b.coeff_offset) + static_cast<uint64_t>(n * n) > n_coeffs)
    return report ? set_error(V3D_ERROR_COEFFS_OUT_OF_RANGE,
                              "block %zu: coefficients %u..%u past n_coeffs %zu", i,
                              b.coeff_offset, b.coeff_offset + n * n - 1, n_coeffs)
                  : V3D_ERROR_COEFFS_OUT_OF_RANGE;
  return V3D_OK;
}

// Validation work is cut into this many blocks per task: large enough that a task's cost
// (~5 ns a block) outweighs handing it to a worker.
constexpr size_t kValidateChunk = 16384;

}  // namespace

int itx_validate(int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                 size_t n_coeffs, ThreadPool *pool) {
  if (width <= 0 || height <= 0 || width > 65536 || height > 65536)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "invalid frame size %dx%d", width, height);
  if (n_blocks && !blocks)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "blocks is NULL but n_blocks is %zu", n_blocks);
  int pw[3], ph[3];
  itx_plane_sizes(width, height, pw, ph);
  const int n_tasks = static_cast<int>((n_blocks + kValidateChunk - 1) / kValidateChunk);
  const bool parallel = pool && pool->size() > 1 && n_tasks > 1;
  auto run = [&](const std::function<void(int, size_t, size_t)> &body) {
    auto task = [&](int t, int) {
      body(t, t * kValidateChunk, std::min(n_blocks, (t + 1) * kValidateChunk));
    };
    if (parallel) pool->run(n_tasks, task);
    else
      for (int t = 0; t < n_tasks; t++) task(t, 0);
  };

  // Pass 1: per-block checks (and whether every block is on the 4-pixel grid). The first
  // failing block in list order is reported, whichever thread found it.
  std::vector<size_t> first_bad(n_tasks, SIZE_MAX);
  std::vector<int> unaligned(n_tasks, 0);
  run([&](int t, size_t begin, size_t end) {
    int misaligned = 0;
    for (size_t i = begin; i < end; i++) {
      if (check_block(blocks[i], i, pw, ph, n_coeffs, false)) {
        first_bad[t] = i;
        return;
      }
      misaligned |= (blocks[i].x | blocks[i].y) & 3;
    }
    unaligned[t] = misaligned;
  });
  for (int t = 0; t < n_tasks; t++)
    if (first_bad[t] != SIZE_MAX)
      return check_block(blocks[first_bad[t]], first_bad[t], pw, ph, n_coeffs, true);

  // Pass 2: occupancy. Blocks on a 4-pixel grid (every VP9 block is) are checked at 4x4-cell
  // resolution, which is exact for them because the planes' sizes are multiples of 4 too;
  // others pixel by pixel. Threads mark with atomic ORs, so whichever of two overlapping blocks
  // marks second sees the other's bits.
  int shift = 2;
  for (int t = 0; t < n_tasks; t++)
    if (unaligned[t]) shift = 0;
  // The calling thread's bitmaps (reused between frames); workers reach them through occ, since
  // a thread_local named inside the lambda would be each worker's own.
  thread_local Occupancy tls_occ[3];
  Occupancy *occ = tls_occ;
  for (int p = 0; p < 3; p++) occ[p].reset(pw[p] >> shift, ph[p] >> shift);
  run([&](int t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
      const V3dVp9TxBlock &b = blocks[i];
      int n = 4 << b.tx_size;
      int w = b.x + n > pw[b.plane] ? pw[b.plane] - b.x : n;
      int h = b.y + n > ph[b.plane] ? ph[b.plane] - b.y : n;
      if (!occ[b.plane].mark(b.x >> shift, b.y >> shift, w >> shift, h >> shift, parallel)) {
        first_bad[t] = i;
        return;
      }
    }
  });
  for (int t = 0; t < n_tasks; t++) {
    if (first_bad[t] == SIZE_MAX) continue;
    size_t i = first_bad[t];
    const V3dVp9TxBlock &b = blocks[i];
    int n = 4 << b.tx_size;
    int w = std::min(n, pw[b.plane] - b.x), h = std::min(n, ph[b.plane] - b.y);
    long j = find_owner(blocks, n_blocks, i, b.plane, b.x, b.y, w, h);
    return set_error(V3D_ERROR_BLOCK_OVERLAP,
                     "block %zu (plane %u, x %u, y %u, %dx%d) overlaps block %ld", i, b.plane,
                     b.x, b.y, n, n, j);
  }
  return V3D_OK;
}

void itx_apply_cpu(const FramePlanes &frame, const V3dVp9TxBlock *blocks, const uint32_t *index,
                   size_t begin, size_t end, const int16_t *coeffs, bool use_ref) {
  ItxDsp ref;
  if (use_ref) itx_dsp_init_ref(&ref);
  const ItxDsp &dsp = use_ref ? ref : itx_dsp();
  for (size_t i = begin; i < end; i++) {
    const V3dVp9TxBlock &b = blocks[index ? index[i] : i];
    if (!b.eob) continue;
    const int n = 4 << b.tx_size;
    const int p = b.plane;
    uint8_t *dst = frame.data[p] + b.y * frame.stride[p] + b.x;
    const int16_t *c = coeffs + b.coeff_offset;
    ItxAddFn fn = dsp.add[b.tx_size][b.tx_type];
    int w = b.x + n > frame.width[p] ? frame.width[p] - b.x : n;
    int h = b.y + n > frame.height[p] ? frame.height[p] - b.y : n;
    if (w == n && h == n) {
      fn(dst, frame.stride[p], c, static_cast<int>(b.eob));
      continue;
    }
    // Clipped block: work on a copy whose outside part is never written back.
    uint8_t tmp[32 * 32] = {0};
    for (int r = 0; r < h; r++) memcpy(tmp + r * n, dst + r * frame.stride[p], w);
    fn(tmp, n, c, static_cast<int>(b.eob));
    for (int r = 0; r < h; r++) memcpy(dst + r * frame.stride[p], tmp + r * n, w);
  }
}

}  // namespace vp9
}  // namespace v3d

extern "C" int v3d_vp9_itxfm_validate(int width, int height, const V3dVp9TxBlock *blocks,
                                      size_t n_blocks, size_t n_coeffs) {
  v3d::clear_error();
  return v3d::vp9::itx_validate(width, height, blocks, n_blocks, n_coeffs, nullptr);
}
