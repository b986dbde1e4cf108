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

// One bit per cell of a plane (a pixel, or a 4x4 cell), rows of 64-bit words: detects blocks of
// one plane that share a cell, whatever their alignment. Used by one thread at a time.
class Occupancy {
 public:
  void reset(int w, int h) {
    words_ = (w + 63) / 64;
    bits_.assign(static_cast<size_t>(words_) * h, 0);
  }
  // Marks the clipped rectangle; returns false if any of its cells was marked already.
  bool mark(int x, int y, int w, int h) {
    uint64_t seen = 0;
    for (int r = y; r < y + h; r++) {
      uint64_t *row = &bits_[static_cast<size_t>(r) * words_];
      for (int c = x; c < x + w;) {
        const int bit = c & 63;
        const int n = 64 - bit < x + w - c ? 64 - bit : x + w - c;
        const uint64_t mask = (n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << bit;
        seen |= row[c >> 6] & mask;
        row[c >> 6] |= mask;
        c += n;
      }
    }
    return seen == 0;
  }
  size_t size() const { return bits_.size(); }
  uint64_t word(size_t i) const { return bits_[i]; }
  int words_per_row() const { return words_; }

 private:
  int words_ = 0;
  std::vector<uint64_t> bits_;
};

// Each thread's marks during one validation: a thread marks the blocks of its tasks in its own
// bitmaps (no atomics: a shared bitmap's atomic ORs were half of validation's time), and the
// bitmaps are then checked against each other.
struct ThreadMarks {
  Occupancy occ[3];
  bool used = false;
  size_t overlap = SIZE_MAX;  // a block overlapping another block of this thread
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

}  // namespace

int itx_validate(int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                 size_t n_coeffs, ThreadPool *pool, std::vector<ItxChunk> *chunks) {
  if (width <= 0 || height <= 0 || width > 65536 || height > 65536)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "invalid frame size %dx%d", width, height);
  if (n_blocks && !blocks)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "blocks is NULL but n_blocks is %zu", n_blocks);
  int pw[3], ph[3];
  itx_plane_sizes(width, height, pw, ph);
  // Tasks of kItxChunk blocks (~10 ns a block: 20 us a task, well above a hand-off's cost, and
  // enough tasks for 16 threads on a 1080p frame).
  const int n_tasks = static_cast<int>((n_blocks + kItxChunk - 1) / kItxChunk);
  const bool parallel = pool && pool->size() > 1 && n_tasks > 1;
  auto run = [&](const std::function<void(int, int, size_t, size_t)> &body) {
    auto task = [&](int t, int thread) {
      body(t, thread, t * kItxChunk, std::min(n_blocks, (t + 1) * kItxChunk));
    };
    if (parallel) pool->run(n_tasks, task);
    else
      for (int t = 0; t < n_tasks; t++) task(t, 0);
  };
  if (chunks) chunks->assign(n_tasks, ItxChunk{});

  // Per-thread bitmaps, kept by the calling thread between frames (workers reach them through
  // marks, since a thread_local named inside the lambda would be each worker's own).
  thread_local std::vector<ThreadMarks> tls_marks;
  std::vector<ThreadMarks> &marks = tls_marks;
  const int n_threads = parallel ? pool->size() : 1;
  if (marks.size() < static_cast<size_t>(n_threads)) marks.resize(n_threads);
  int shift = 2;
  for (int t = 0; t < n_threads; t++) {
    marks[t].used = false;
    marks[t].overlap = SIZE_MAX;
  }
  auto mark = [&](size_t i, int thread) {
    ThreadMarks &m = marks[thread];
    if (!m.used) {  // first block of this thread: clear its bitmaps
      for (int p = 0; p < 3; p++) m.occ[p].reset(pw[p] >> shift, ph[p] >> shift);
      m.used = true;
    }
    const V3dVp9TxBlock &b = blocks[i];
    const int n = 4 << b.tx_size;
    const int w = b.x + n > pw[b.plane] ? pw[b.plane] - b.x : n;
    const int h = b.y + n > ph[b.plane] ? ph[b.plane] - b.y : n;
    if (!m.occ[b.plane].mark(b.x >> shift, b.y >> shift, w >> shift, h >> shift))
      m.overlap = std::min(m.overlap, i);
  };
  // Whether two threads marked one cell: then the first block in list order covering such a
  // cell is the one reported.
  auto cross_thread_overlap = [&]() -> size_t {
    for (int p = 0; p < 3; p++) {
      size_t words = 0;
      int per_row = 1;
      for (int t = 0; t < n_threads; t++)
        if (marks[t].used) {
          words = marks[t].occ[p].size();
          per_row = marks[t].occ[p].words_per_row();
        }
      for (size_t k = 0; k < words; k++) {
        uint64_t acc = 0, both = 0;
        for (int t = 0; t < n_threads; t++) {
          if (!marks[t].used) continue;
          const uint64_t v = marks[t].occ[p].word(k);
          both |= acc & v;
          acc |= v;
        }
        if (!both) continue;
        const int x = (static_cast<int>(k % per_row) * 64 + __builtin_ctzll(both)) << shift;
        const int y = static_cast<int>(k / per_row) << shift;
        for (size_t i = 0; i < n_blocks; i++) {
          const V3dVp9TxBlock &b = blocks[i];
          const int n = 4 << b.tx_size;
          if (b.plane == p && b.x <= x && x < b.x + n && b.y <= y && y < b.y + n) return i;
        }
      }
    }
    return SIZE_MAX;
  };

  // One pass: the checks of each block alone, its cost, and occupancy. Blocks on a 4-pixel grid
  // (every VP9 block is) are marked at 4x4-cell resolution, exact for them because the planes'
  // sizes are multiples of 4 too. A block off the grid is not marked here: if there is one, a
  // second pass marks every block pixel by pixel. A block failing its own checks is reported
  // before any overlap (the first in list order, whichever thread found it).
  std::vector<size_t> first_bad(n_tasks, SIZE_MAX);
  std::vector<int> unaligned(n_tasks, 0);
  run([&](int t, int thread, size_t begin, size_t end) {
    int misaligned = 0;
    size_t active = 0;
    uint64_t cost = 0;
    for (size_t i = begin; i < end; i++) {
      const V3dVp9TxBlock &b = blocks[i];
      if (check_block(b, i, pw, ph, n_coeffs, false)) {
        first_bad[t] = i;
        return;
      }
      const uint32_t c = itx_block_cost(b);
      active += c != 0;
      cost += c;
      if ((b.x | b.y) & 3) misaligned = 1;
      else mark(i, thread);
    }
    unaligned[t] = misaligned;
    if (chunks) (*chunks)[t] = ItxChunk{active, cost};
  });
  for (int t = 0; t < n_tasks; t++)
    if (first_bad[t] != SIZE_MAX)
      return check_block(blocks[first_bad[t]], first_bad[t], pw, ph, n_coeffs, true);

  if (std::any_of(unaligned.begin(), unaligned.end(), [](int u) { return u != 0; })) {
    shift = 0;
    for (int t = 0; t < n_threads; t++) {
      marks[t].used = false;
      marks[t].overlap = SIZE_MAX;
    }
    run([&](int, int thread, size_t begin, size_t end) {
      for (size_t i = begin; i < end; i++) mark(i, thread);
    });
  }
  size_t overlap = cross_thread_overlap();
  for (int t = 0; t < n_threads; t++) overlap = std::min(overlap, marks[t].overlap);
  if (overlap != SIZE_MAX) {
    const size_t i = overlap;
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
