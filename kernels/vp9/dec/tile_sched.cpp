// SPDX-License-Identifier: LGPL-2.1-or-later
// The order in which one frame's tiles are decoded and, on the CPU backend, loop filtered.
//
// Units of work: one superblock row of one tile column (its worker keeps the bool decoder and
// contexts between rows, so a column's rows run in order, one at a time), and one superblock
// row of the loop filter (lpf_filter_sb over the row, the lpf family's own per-superblock
// process). Threads take the filter row when it is ready and the filter row above is done, else
// the tile column that is furthest behind, else a ready filter row behind one still running; so
// the frame is decoded roughly row by row across tile columns, the filter follows a row or two
// behind while the rows are still in cache, and a thread waits on another's filter row only
// when it has nothing else to do.
//
// When a filter row is ready: intra prediction reads the current frame's unfiltered pixels, and
// the filter of superblock row r writes pixel rows 64r-8 .. 64r+63 (luma; chroma with 32); the
// decoding of row r+1 reads pixel row 64r+63 (the row above its blocks) and nothing of rows
// r or above otherwise; rows r+2 and below read no pixel the filter of row r writes. So filter
// row r may start once every tile column has decoded rows 0 .. r+1 (libvpx's decoder keeps the
// same lag of one superblock row). The filter itself reads the loop-filter grid of rows up to
// r, complete by then.
//
// Filter rows among themselves: row r's superblock c waits until row r-1 has finished
// superblock min(c+1, last), the wavefront of lpf_frame_wavefront (lpf_frame.cpp says why this
// gives the sequential order's result). Rows are claimed in order, so the row waited for was
// claimed earlier by a running thread and waits only on rows above it: no deadlock.
//
// Statistics: the in-loop filter is one frame of the loop-filter family on the decoder's context
// (record_cpu_frame, as the whole-frame path records its frames), its units the frame's 8x8
// blocks, its time the time spent filtering, summed over the threads that ran filter rows: a
// row's time less its waits for the row above (the rows overlap the decoding, so the filter has
// no wall time of its own, and a wait is time the filter could not work, as the statistics'
// busy time and units per second mean elsewhere).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "runtime/fault.h"
#include "sched/context.h"
#include "sched/frame_call.h"
#include "threads/store_load.h"
#include "vp9/dec/tile_internal.h"
#include "vp9/lpf/lpf.h"
#include "vp9/lpf/lpf_frame.h"

namespace v3d {
namespace vp9 {
namespace {

// Spec get_tile_offset for tile rows, in superblock rows.
int tile_row_start_sb(int idx, int mi_rows, int log2) {
  const int sbs = (mi_rows + 7) >> 3;
  return std::min((idx * sbs) >> log2, sbs);
}

class FrameSchedule {
 public:
  FrameSchedule(TileDecoder::Impl &d, const FrameHeader &h, const std::vector<TileData> &tiles,
                const LpfFrame *lf)
      : d_(d), tiles_(tiles), lf_(lf), tile_cols_(1 << h.tile_cols_log2),
        sb_rows_((h.mi_rows + 7) >> 3), sb_cols_((h.mi_cols + 7) >> 3), limit_(sb_rows_),
        next_row_(size_t(tile_cols_), 0), busy_(size_t(tile_cols_), 0),
        lf_cols_(new std::atomic<int>[size_t(sb_rows_)]) {
    const int tile_rows = 1 << h.tile_rows_log2;
    first_tile_.assign(size_t(sb_rows_) + 1, -1);
    tile_row_end_.assign(size_t(tile_rows), sb_rows_);
    for (int tr = 0; tr < tile_rows; ++tr) {
      const int s = tile_row_start_sb(tr, h.mi_rows, h.tile_rows_log2);
      // Tile rows without superblock rows (tiny frames) still start their tile, before the
      // next tile row that has rows: the first row of a span begins tile rows
      // first_tile_[row] .. tile_row_of(row).
      if (first_tile_[size_t(s)] < 0) first_tile_[size_t(s)] = tr;
      tile_row_end_[size_t(tr)] = tile_row_start_sb(tr + 1, h.mi_rows, h.tile_rows_log2);
      if (tr + 1 == tile_rows) tile_row_end_[size_t(tr)] = sb_rows_;
    }
    tile_row_of_.assign(size_t(sb_rows_), 0);
    for (int tr = 0; tr < tile_rows; ++tr)
      for (int r = tile_row_start_sb(tr, h.mi_rows, h.tile_rows_log2);
           r < tile_row_end_[size_t(tr)]; ++r)
        tile_row_of_[size_t(r)] = tr;
    for (int r = 0; r < sb_rows_; ++r) lf_cols_[size_t(r)].store(0, std::memory_order_relaxed);
  }

  // One thread's share: takes units until none is left.
  void run();

  // After every run() returned: the time spent filtering (the filter rows' time less their
  // waits for the row above), summed over the threads, in seconds.
  double filter_seconds() const { return lf_seconds_; }

  // After every run() returned: false with *error set when a tile failed.
  bool result(std::string *error) const {
    if (fail_row_ < 0) return true;
    if (error) *error = fail_msg_;
    return false;
  }

 private:
  bool decode_unit(int col, int sb_row, std::string *err);
  double filter_row(int sb_row);
  double wait_above(const std::atomic<int> &above, int need);
  int rows_decoded() const {
    int n = sb_rows_;
    for (int c = 0; c < tile_cols_; ++c) n = std::min(n, next_row_[size_t(c)]);
    return n;
  }

  TileDecoder::Impl &d_;
  const std::vector<TileData> &tiles_;
  const LpfFrame *lf_;  // null: no filter here
  const int tile_cols_, sb_rows_, sb_cols_;
  std::vector<int> tile_row_of_;   // per superblock row
  std::vector<int> first_tile_;    // per superblock row: first tile row it begins, or -1
  std::vector<int> tile_row_end_;  // per tile row: its end in superblock rows

  // Guarded by mu_.
  std::mutex mu_;
  std::condition_variable cv_;
  int limit_;                  // superblock rows a column may start (lowered by a failure)
  std::vector<int> next_row_;  // per tile column: the next superblock row to decode
  std::vector<char> busy_;     // per tile column: a thread decodes it now
  int lf_next_ = 0;            // next filter row to take
  int lf_finished_ = 0;        // filter rows done
  double lf_seconds_ = 0;      // time spent filtering, all threads together
  int fail_tile_row_ = 0, fail_col_ = 0, fail_row_ = -1;
  std::string fail_msg_;

  // Filter progress: superblocks done per filter row (written by the row's thread only), and
  // the sleep of a filter row waiting for the one above (lf_waiters_: threads asleep or about
  // to sleep there).
  std::unique_ptr<std::atomic<int>[]> lf_cols_;
  std::mutex lf_mu_;
  std::condition_variable lf_cv_;
  std::atomic<int> lf_waiters_{0};
  static constexpr int kSpins = 200;  // pause rounds (about 10 us) before sleeping
  // V3D_FAULT=lpf-stall: how long the stalled filter row sleeps (runtime/fault.h).
  static constexpr std::chrono::milliseconds kStall{300};
};

bool FrameSchedule::decode_unit(int col, int sb_row, std::string *err) {
  TileWorker &w = *d_.workers[size_t(col)];
  const int tr = tile_row_of_[size_t(sb_row)];
  for (int t = first_tile_[size_t(sb_row)]; t >= 0 && t <= tr; ++t) {
    const TileData &td = tiles_[size_t(t) * tile_cols_ + col];
    if (!w.begin_tile(t, col, td.data, td.size, err)) return false;
  }
  return w.decode_sb_row(tr, col, sb_row * 8, err);
}

// Returns once `above` reaches `need`; the seconds waited.
double FrameSchedule::wait_above(const std::atomic<int> &above, int need) {
  const Clock::time_point t0 = Clock::now();
  // A short spin (the row above is usually a superblock ahead), then sleep: a thread that
  // yields instead waits a whole time slice behind other processes on a busy machine.
  for (int spins = 0; above.load(std::memory_order_acquire) < need; ++spins) {
    if (spins < kSpins) {
      cpu_relax();
      continue;
    }
    std::unique_lock<std::mutex> lock(lf_mu_);
    lf_waiters_.fetch_add(1, std::memory_order_seq_cst);
    lf_cv_.wait(lock, [&] { return above.load(std::memory_order_acquire) >= need; });
    lf_waiters_.fetch_sub(1, std::memory_order_relaxed);
    break;
  }
  return seconds_since(t0);
}

// Filters superblock row sb_row; returns the seconds spent filtering (the clock is read only
// around the row and around the waits, not per superblock).
double FrameSchedule::filter_row(int sb_row) {
  const Clock::time_point t0 = Clock::now();
  double waited = 0;
  const LpfDsp &dsp = lpf_dsp();
  std::atomic<int> *above = sb_row > 0 ? &lf_cols_[size_t(sb_row) - 1] : nullptr;
  std::atomic<int> &mine = lf_cols_[size_t(sb_row)];
  for (int c = 0; c < sb_cols_; ++c) {
    if (above) {
      const int need = std::min(c + 2, sb_cols_);
      if (above->load(std::memory_order_acquire) < need) waited += wait_above(*above, need);
    }
    lpf_filter_sb(*lf_, dsp, sb_row, c);
    if (c == 0 && fault_hit(Fault::kLpfStall)) std::this_thread::sleep_for(kStall);
    store_before_load(mine, c + 1);
    if (lf_waiters_.load(std::memory_order_seq_cst) > 0) {
      // Under lf_mu_, so that a waiter between its check and its sleep cannot miss this.
      std::lock_guard<std::mutex> lock(lf_mu_);
      lf_cv_.notify_all();
    }
  }
  return seconds_since(t0) - waited;
}

void FrameSchedule::run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    // The filter first when its row above is done (its rows form a chain, and what it filters
    // was decoded last); a filter row behind one still running only when no column is free,
    // since it waits on that row as it goes.
    const bool lf_ready = lf_ && fail_row_ < 0 && lf_next_ < sb_rows_ &&
                          rows_decoded() >= std::min(lf_next_ + 2, sb_rows_);
    int col = -1;
    for (int c = 0; c < tile_cols_; ++c) {
      if (busy_[size_t(c)] || next_row_[size_t(c)] >= limit_) continue;
      if (col < 0 || next_row_[size_t(c)] < next_row_[size_t(col)]) col = c;
    }
    if (lf_ready && (lf_finished_ == lf_next_ || col < 0)) {
      const int r = lf_next_++;
      lock.unlock();
      const double seconds = filter_row(r);
      lock.lock();
      lf_seconds_ += seconds;
      ++lf_finished_;  // rows finish in order: each waits for the one above to finish
      continue;
    }
    if (col >= 0) {
      const int row = next_row_[size_t(col)];
      busy_[size_t(col)] = 1;
      lock.unlock();
      std::string err;
      const bool ok = decode_unit(col, row, &err);
      lock.lock();
      busy_[size_t(col)] = 0;
      next_row_[size_t(col)] = row + 1;
      if (!ok) {
        // Stop at the end of this tile row; report the first failing tile in tile order.
        const int tr = tile_row_of_[size_t(row)];
        next_row_[size_t(col)] = sb_rows_;
        limit_ = std::min(limit_, tile_row_end_[size_t(tr)]);
        if (fail_row_ < 0 || tr < fail_tile_row_ || (tr == fail_tile_row_ && col < fail_col_)) {
          fail_tile_row_ = tr;
          fail_col_ = col;
          fail_row_ = row;
          fail_msg_ = err;
        }
      }
      cv_.notify_all();
      continue;
    }
    bool any_busy = false;
    for (char b : busy_) any_busy |= b != 0;
    if (!any_busy) break;  // nothing left that a running unit could make ready
    cv_.wait(lock);
  }
  cv_.notify_all();
}

}  // namespace

bool decode_tiles(TileDecoder::Impl &d, const TileFrameInput &in,
                  const std::vector<TileData> &tiles, ThreadPool *pool, bool in_loop_filter,
                  std::string *error) {
  const FrameHeader &h = *in.hdr;
  LpfFrame lf;
  if (in_loop_filter)
    lpf_frame_setup(in.cur.planes, in.cur.strides, h.frame_width, h.frame_height,
                    d.lf_grid.data(), h.mi_cols, h.lf.sharpness_level, &lf);
  FrameSchedule s(d, h, tiles, in_loop_filter ? &lf : nullptr);
  const int tile_cols = 1 << h.tile_cols_log2;
  if (pool && pool->size() > 1 && (tile_cols > 1 || in_loop_filter)) {
    PoolHot hot(*pool);
    pool->run(pool->size(), [&](int, int) { s.run(); });
  } else {
    s.run();
  }
  if (!s.result(error)) return false;
  if (in_loop_filter)
    record_cpu_frame(in.lf_context, V3D_KERNEL_VP9_LPF,
                     uint64_t(lf.grid.mi_rows) * uint64_t(lf.grid.mi_cols), s.filter_seconds());
  return true;
}

}  // namespace vp9
}  // namespace v3d
