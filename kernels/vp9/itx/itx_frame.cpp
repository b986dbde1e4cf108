// SPDX-License-Identifier: LGPL-2.1-or-later
#include "vp9/itx/itx_frame.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sched/frame_call.h"
#include "runtime/log.h"
#include "vp9/itx/itx.h"

namespace v3d {
namespace vp9 {
namespace {

// One bit per cell of a plane (a pixel, or a 4x4 cell), rows of 64-bit words: detects blocks of
// one plane that share a cell, whatever their alignment. The range of rows marked since the last
// reset is kept, so that clearing the bitmap and merging it with other tasks' bitmaps touch
// those rows only (a task's blocks, a run of a list in frame order, cover a band of rows). Used
// by one thread at a time. (A flag per row, a byte store beside each block's marks, made the
// compiler reload the bitmap's fields after every store: 7-12 ns per block on one core.)
class Occupancy {
 public:
  // Sizes the bitmap for a w x h plane of cells and clears what the last use marked.
  void reset(int w, int h) {
    const int words = (w + 63) / 64;
    if (words != words_ || h != rows_) {
      words_ = words;
      rows_ = h;
      bits_.assign(static_cast<size_t>(words_) * h, 0);
    } else if (lo_ < hi_) {
      std::fill(bits_.begin() + static_cast<size_t>(lo_) * words_,
                bits_.begin() + static_cast<size_t>(hi_) * words_, 0);
    }
    lo_ = rows_;
    hi_ = 0;
  }
  // The bitmap as plain values, for a loop that marks many blocks (View::mark, then commit()).
  struct View {
    uint64_t *bits;
    int words, lo, hi;
    // Marks the clipped rectangle (w <= 64 cells: a block is at most 32 pixels wide); returns
    // false if any of its cells was marked already. The row range is kept in the view.
    bool mark(int x, int y, int w, int h) {
      lo = std::min(lo, y);
      hi = std::max(hi, y + h);
      const int bit = x & 63;
      uint64_t seen = 0;
      uint64_t *row = bits + static_cast<size_t>(y) * words + (x >> 6);
      if (bit + w <= 64) {  // one word per row (every block aligned to its own size)
        const uint64_t mask = (w == 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1)) << bit;
        for (int r = 0; r < h; r++, row += words) {
          const uint64_t v = *row;
          seen |= v & mask;
          *row = v | mask;
        }
        return seen == 0;
      }
      const uint64_t first = ~uint64_t{0} << bit;
      const int rest = bit + w - 64;  // cells in the second word (w <= 64: at most two words)
      const uint64_t second = rest >= 64 ? ~uint64_t{0} : ((uint64_t{1} << rest) - 1);
      for (int r = 0; r < h; r++, row += words) {
        seen |= (row[0] & first) | (row[1] & second);
        row[0] |= first;
        row[1] |= second;
      }
      return seen == 0;
    }
  };
  View view() { return View{bits_.data(), words_, lo_, hi_}; }
  void commit(const View &v) {
    lo_ = v.lo;
    hi_ = v.hi;
  }

  // ORs the marked rows r with only[r] set into acc (same size); cells that acc had already go
  // into both.
  void merge_into(uint64_t *acc, uint64_t *both, const uint8_t *only) const {
    for (int r = lo_; r < hi_; r++) {
      if (!only[r]) continue;
      const size_t end = static_cast<size_t>(r + 1) * words_;
      for (size_t k = static_cast<size_t>(r) * words_; k < end; k++) {
        both[k] |= acc[k] & bits_[k];
        acc[k] |= bits_[k];
      }
    }
  }
  size_t size() const { return bits_.size(); }
  int words_per_row() const { return words_; }
  int rows() const { return rows_; }
  // The rows that may hold marks: [lo, hi), empty when lo >= hi.
  void marked_rows(int *lo, int *hi) const {
    *lo = lo_;
    *hi = hi_;
  }

 private:
  int words_ = 0, rows_ = 0;
  int lo_ = 0, hi_ = 0;  // rows [lo_, hi_) hold marks (none when lo_ >= hi_)
  std::vector<uint64_t> bits_;
};

// One validation task's marks: a task marks its blocks in bitmaps of its own (no atomics: a
// shared bitmap's atomic ORs were half of validation's time), which are then merged.
struct TaskMarks {
  Occupancy occ[3];
  bool used = false;
  size_t overlap = SIZE_MAX;  // a block overlapping an earlier block of this task
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

namespace {

// Bitmap bytes that one frame's validation tasks may hold at once (FrameCheck::begin).
constexpr size_t kBitmapBudget = size_t{256} << 20;

// The validation of one frame in phases, so that one frame's work can be spread over a pool's
// threads and several frames' can share its loops (itx_validate_frames): begin(), then mark(t)
// for every task t (on any threads, at once), then, when needs_remark(), remark(t) for every t,
// then finish() on one thread.
class FrameCheck {
 public:
  // Checks the frame's arguments and sets up at most max_tasks tasks (one or more chunks of the
  // list each) with bitmaps from marks (kept by the caller between frames). Returns V3D_OK or
  // the error code (with the calling thread's message).
  int begin(const ItxFrameArgs &a, int max_tasks, std::vector<TaskMarks> &marks,
            std::vector<ItxChunk> *chunks) {
    a_ = a;
    n_tasks_ = 0;
    if (!frame_size_ok(a.width, a.height))
      return set_error(V3D_ERROR_INVALID_ARGUMENT, "invalid frame size %dx%d", a.width, a.height);
    if (a.n_blocks && !a.blocks)
      return set_error(V3D_ERROR_INVALID_ARGUMENT, "blocks is NULL but n_blocks is %zu",
                       a.n_blocks);
    itx_plane_sizes(a.width, a.height, pw_, ph_);
    // Per-chunk totals (kItxChunk blocks each) for the scheduler; validation itself runs in at
    // most max_tasks tasks, each a contiguous run of chunks with bitmaps of its own: few bitmaps
    // to clear and merge, and in a list in frame order (a decoder's) each task's blocks cover a
    // band of rows, so the merge reads each bitmap row about once.
    n_chunks_ = (a.n_blocks + kItxChunk - 1) / kItxChunk;
    n_tasks_ = static_cast<int>(std::min<size_t>(n_chunks_, static_cast<size_t>(std::max(1, max_tasks))));
    // Each task has bitmaps of its own, as large as the frame's planes (at pixel resolution when
    // a block is off the 4-pixel grid): at most kBitmapBudget bytes of them in all, so that a huge
    // frame is checked by fewer tasks rather than with gigabytes of bitmaps (a 65536x65536 frame
    // needs ~800 MB per task at pixel resolution).
    size_t task_bytes = 0;
    for (int p = 0; p < 3; p++)
      task_bytes += static_cast<size_t>((pw_[p] + 63) / 64) * 8 * static_cast<size_t>(ph_[p]);
    const size_t by_memory = std::max<size_t>(1, kBitmapBudget / std::max<size_t>(1, task_bytes));
    n_tasks_ = static_cast<int>(std::min<size_t>(static_cast<size_t>(n_tasks_), by_memory));
    chunks_ = chunks;
    if (chunks) chunks->assign(n_chunks_, ItxChunk{});
    if (marks.size() < static_cast<size_t>(n_tasks_)) marks.resize(n_tasks_);
    marks_ = &marks;
    shift_ = 2;
    clear_marks();
    first_bad_.assign(n_tasks_, SIZE_MAX);
    unaligned_.assign(n_tasks_, 0);
    return V3D_OK;
  }
  int tasks() const { return n_tasks_; }

  // One pass: the checks of each block alone, its cost, and occupancy. Blocks on a 4-pixel grid
  // (every VP9 block is) are marked at 4x4-cell resolution, exact for them because the planes'
  // sizes are multiples of 4 too. A block off the grid is not marked here: if there is one, a
  // second pass (remark) marks every block pixel by pixel.
  void mark(int t) {
    TaskMarks &m = (*marks_)[t];
    begin_marks(m);
    size_t c0, c1;
    task_chunks(t, &c0, &c1);
    // Loop invariants in locals: the bitmaps' words are uint64_t, the type of size_t, so the
    // compiler took every store to them as a possible store to this object's fields and reloaded
    // those per block.
    const V3dVp9TxBlock *const blocks = a_.blocks;
    const size_t n_blocks = a_.n_blocks, n_coeffs = a_.n_coeffs;
    const int pw[3] = {pw_[0], pw_[1], pw_[2]}, ph[3] = {ph_[0], ph_[1], ph_[2]};
    const int cw[3] = {pw[0] >> 2, pw[1] >> 2, pw[2] >> 2};
    const int ch[3] = {ph[0] >> 2, ph[1] >> 2, ph[2] >> 2};
    Occupancy::View view[3] = {m.occ[0].view(), m.occ[1].view(), m.occ[2].view()};
    ItxChunk *const chunk_out = chunks_ ? chunks_->data() : nullptr;
    size_t overlap = m.overlap, bad = SIZE_MAX;
    int misaligned = 0;
    for (size_t c = c0; c < c1 && bad == SIZE_MAX; c++) {
      size_t active = 0;
      uint64_t cost = 0;
      const size_t end = std::min(n_blocks, (c + 1) * kItxChunk);
      for (size_t i = c * kItxChunk; i < end; i++) {
        const V3dVp9TxBlock b = blocks[i];
        if (!itx_block_ok(b, pw, ph, n_coeffs)) {
          bad = i;
          break;
        }
        const uint32_t cb = itx_block_cost(b);
        active += cb != 0;
        cost += cb;
        if ((b.x | b.y) & 3) {
          misaligned = 1;
          continue;
        }
        // In 4x4 cells, clipped to the plane (whose sizes are multiples of 4).
        const int p = b.plane, n = 1 << b.tx_size, cx = b.x >> 2, cy = b.y >> 2;
        const int w = std::min(n, cw[p] - cx), h = std::min(n, ch[p] - cy);
        if (!view[p].mark(cx, cy, w, h)) overlap = std::min(overlap, i);
      }
      if (chunk_out && bad == SIZE_MAX) chunk_out[c] = ItxChunk{active, cost};
    }
    for (int p = 0; p < 3; p++) m.occ[p].commit(view[p]);
    m.overlap = overlap;
    if (bad != SIZE_MAX) {
      first_bad_[t] = bad;
      return;
    }
    unaligned_[t] = misaligned;
  }

  // Whether a block off the 4-pixel grid needs the pixel-resolution pass (and no block failed
  // its own checks, which finish() reports first); if so, the marks are cleared for it.
  bool needs_remark() {
    if (std::any_of(first_bad_.begin(), first_bad_.end(), [](size_t i) { return i != SIZE_MAX; }) ||
        std::none_of(unaligned_.begin(), unaligned_.end(), [](int u) { return u != 0; }))
      return false;
    shift_ = 0;
    clear_marks();
    return true;
  }
  void remark(int t) {
    TaskMarks &m = (*marks_)[t];
    begin_marks(m);
    size_t c0, c1;
    task_chunks(t, &c0, &c1);
    Occupancy::View view[3] = {m.occ[0].view(), m.occ[1].view(), m.occ[2].view()};
    const size_t end = std::min(a_.n_blocks, c1 * kItxChunk);
    for (size_t i = c0 * kItxChunk; i < end; i++) {
      const V3dVp9TxBlock &b = a_.blocks[i];
      const int n = 4 << b.tx_size;
      const int w = b.x + n > pw_[b.plane] ? pw_[b.plane] - b.x : n;
      const int h = b.y + n > ph_[b.plane] ? ph_[b.plane] - b.y : n;
      if (!view[b.plane].mark(b.x, b.y, w, h)) m.overlap = std::min(m.overlap, i);
    }
    for (int p = 0; p < 3; p++) m.occ[p].commit(view[p]);
  }

  // The result: a block failing its own checks is reported before any overlap (the first in
  // list order, whichever task found it); then an overlap, within a task or across tasks.
  int finish() {
    for (int t = 0; t < n_tasks_; t++)
      if (first_bad_[t] != SIZE_MAX)
        return check_block(a_.blocks[first_bad_[t]], first_bad_[t], pw_, ph_, a_.n_coeffs, true);
    size_t overlap = cross_task_overlap();
    for (int t = 0; t < n_tasks_; t++) overlap = std::min(overlap, (*marks_)[t].overlap);
    if (overlap == SIZE_MAX) return V3D_OK;
    const size_t i = overlap;
    const V3dVp9TxBlock &b = a_.blocks[i];
    int n = 4 << b.tx_size;
    int w = std::min(n, pw_[b.plane] - b.x), h = std::min(n, ph_[b.plane] - b.y);
    long j = find_owner(a_.blocks, a_.n_blocks, i, b.plane, b.x, b.y, w, h);
    return set_error(V3D_ERROR_BLOCK_OVERLAP,
                     "block %zu (plane %u, x %u, y %u, %dx%d) overlaps block %ld", i, b.plane,
                     b.x, b.y, n, n, j);
  }

 private:
  void task_chunks(int t, size_t *first, size_t *last) const {
    *first = n_chunks_ * t / n_tasks_;
    *last = n_chunks_ * (t + 1) / n_tasks_;
  }
  void clear_marks() {
    for (int t = 0; t < n_tasks_; t++) {
      (*marks_)[t].used = false;
      (*marks_)[t].overlap = SIZE_MAX;
    }
  }
  void begin_marks(TaskMarks &m) {
    if (m.used) return;
    for (int p = 0; p < 3; p++) m.occ[p].reset(pw_[p] >> shift_, ph_[p] >> shift_);
    m.used = true;
  }
  // Cells marked by two tasks: the first such cell in raster order, then the first block in list
  // order covering it, is reported.
  size_t cross_task_overlap() const {
    if (n_tasks_ < 2) return SIZE_MAX;
    const std::vector<TaskMarks> &marks = *marks_;
    thread_local std::vector<uint64_t> acc, both;
    thread_local std::vector<int> cover;
    thread_local std::vector<uint8_t> shared;
    for (int p = 0; p < 3; p++) {
      const int per_row = marks[0].occ[p].words_per_row(), rows = marks[0].occ[p].rows();
      // Rows marked by two or more tasks (from each task's range of marked rows): only there can
      // blocks of two tasks share a cell, so only those rows are merged and scanned. A list in
      // frame order gives each task a band of rows, and bands meet in a few rows: merging every
      // task's bitmap whole, on one thread, took 16-30 us of a 1080p frame on the device machine.
      cover.assign(static_cast<size_t>(rows) + 1, 0);
      for (int t = 0; t < n_tasks_; t++) {
        if (!marks[t].used) continue;
        int lo, hi;
        marks[t].occ[p].marked_rows(&lo, &hi);
        if (lo >= hi) continue;
        cover[lo]++;
        cover[hi]--;
      }
      shared.assign(rows, 0);
      bool any = false;
      for (int r = 0, depth = 0; r < rows; r++) {
        depth += cover[r];
        shared[r] = depth >= 2;
        any |= depth >= 2;
      }
      if (!any) continue;
      const size_t words = marks[0].occ[p].size();
      acc.assign(words, 0);
      both.assign(words, 0);
      for (int t = 0; t < n_tasks_; t++)
        if (marks[t].used) marks[t].occ[p].merge_into(acc.data(), both.data(), shared.data());
      for (int r = 0; r < rows; r++) {
        if (!shared[r]) continue;
        for (size_t k = static_cast<size_t>(r) * per_row; k < static_cast<size_t>(r + 1) * per_row; k++) {
          if (!both[k]) continue;
          const int x = (static_cast<int>(k % per_row) * 64 + __builtin_ctzll(both[k])) << shift_;
          const int y = r << shift_;
          for (size_t i = 0; i < a_.n_blocks; i++) {
            const V3dVp9TxBlock &b = a_.blocks[i];
            const int n = 4 << b.tx_size;
            if (b.plane == p && b.x <= x && x < b.x + n && b.y <= y && y < b.y + n) return i;
          }
        }
      }
    }
    return SIZE_MAX;
  }

  ItxFrameArgs a_{};
  int pw_[3] = {}, ph_[3] = {};
  size_t n_chunks_ = 0;
  int n_tasks_ = 0;
  int shift_ = 2;
  std::vector<ItxChunk> *chunks_ = nullptr;
  std::vector<TaskMarks> *marks_ = nullptr;
  std::vector<size_t> first_bad_;  // per task: its first block failing its own checks
  std::vector<int> unaligned_;     // per task: whether it has a block off the 4-pixel grid
};

}  // namespace

constexpr int kValidateTasksPerThread = 3;

void itx_validate_frames(size_t n, const ItxFrameArgs *frames, ThreadPool *pool, int *rcs,
                         std::string *why, std::vector<ItxChunk> *const *chunks, int n_extra,
                         const std::function<void(int)> *extra,
                         const std::function<void()> *beside) {
  // The tasks' bitmaps per frame, kept by the calling thread between calls (workers reach them
  // through the checks, since a thread_local named inside a task would be each worker's own).
  thread_local std::vector<std::vector<TaskMarks>> tls_marks;
  if (tls_marks.size() < n) tls_marks.resize(n);
  std::vector<FrameCheck> checks(n);
  // Tasks of every frame in one list: kValidateTasksPerThread per thread, each frame getting its
  // share (with one task per thread, a thread that woke 10-40 us late on the device machine
  // still took the last task and ended the loop that much later; smaller tasks leave it less).
  const int threads = pool ? pool->size() : 1;
  const int total = threads > 1 ? threads * kValidateTasksPerThread : 1;
  const int per_frame = std::max(1, static_cast<int>((total + n - 1) / std::max<size_t>(n, 1)));
  std::vector<std::pair<size_t, int>> tasks;
  for (size_t f = 0; f < n; f++) {
    rcs[f] = checks[f].begin(frames[f], per_frame, tls_marks[f], chunks ? chunks[f] : nullptr);
    if (rcs[f]) why[f] = v3d_last_error();
    else
      for (int t = 0; t < checks[f].tasks(); t++) tasks.emplace_back(f, t);
  }
  // A loop of count tasks; the caller runs side (if any) first, then takes tasks.
  auto run = [&](size_t count, const std::function<void(int)> &body,
                 const std::function<void()> *side = nullptr) {
    if (pool && (count > 1 || side)) {
      pool->run(static_cast<int>(count), [&](int k, int) { body(k); }, side, 0, true);
    } else {
      if (side) (*side)();
      for (size_t k = 0; k < count; k++) body(static_cast<int>(k));
    }
  };
  // The extra tasks first: the threads take them while the marking tasks are still many.
  const int n_more = extra ? std::max(0, n_extra) : 0;
  run(tasks.size() + n_more, [&](int k) {
    if (k < n_more) (*extra)(k);
    else checks[tasks[k - n_more].first].mark(tasks[k - n_more].second);
  }, beside);
  std::vector<std::pair<size_t, int>> again;
  for (size_t f = 0; f < n; f++)
    if (!rcs[f] && checks[f].needs_remark())
      for (int t = 0; t < checks[f].tasks(); t++) again.emplace_back(f, t);
  run(again.size(), [&](int k) { checks[again[k].first].remark(again[k].second); });
  // Each frame's result (the merge of its tasks' bitmaps) as a task of its own; a message is the
  // thread's that found it.
  run(n, [&](int f) {
    if (rcs[f]) return;
    rcs[f] = checks[f].finish();
    if (rcs[f]) why[f] = v3d_last_error();
  });
}

int itx_validate(int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                 size_t n_coeffs, ThreadPool *pool, std::vector<ItxChunk> *chunks, int n_extra,
                 const std::function<void(int)> *extra, const std::function<void()> *beside) {
  // One frame: every phase that can fail runs on the calling thread (begin, and the one frame's
  // finish), so the thread's message is the frame's.
  const ItxFrameArgs args{width, height, blocks, n_blocks, n_coeffs};
  int rc = V3D_OK;
  std::string why;
  itx_validate_frames(1, &args, pool, &rc, &why, &chunks, n_extra, extra, beside);
  return rc;
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
