// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transforms over one frame: validation of a block list, and the CPU application of
// a range of blocks (with clipping at the plane edges). The scheduler (itx_frame_sched.cpp) divides
// a frame's blocks between CPU workers and the GPU with these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "threads/thread_pool.h"
#include "v3d/v3d.h"
#include "gpu/gpu.h"

namespace v3d {
namespace vp9 {

// Plane sizes of a 4:2:0 frame of luma size width x height, rounded up to whole 8x8 luma blocks.
void itx_plane_sizes(int width, int height, int w[3], int h[3]);

// A block's checks that need no other block (plane, size and type, start inside its plane of
// pw x ph, eob, coefficients inside n_coeffs), as one expression with few branches: validation
// runs it on every block of every frame (200,000 blocks in a 1080p frame of 4x4 transforms), and
// the GPU's preparation, which may run before validation has ended, on its blocks (a block
// failing it is not touched, and the job is refused).
inline bool itx_block_ok(const V3dVp9TxBlock &b, const int pw[3], const int ph[3],
                         size_t n_coeffs) {
  const unsigned p = b.plane, s = b.tx_size, t = b.tx_type;
  if ((p > 2) | (s > 3) | (t > 4)) return false;
  const uint32_t area = 16u << (2 * s);
  return ((t != 4) | (s == 0)) & ((s != 3) | (t == 0)) & (b.x < pw[p]) & (b.y < ph[p]) &
         (b.eob <= area) &
         (static_cast<uint64_t>(b.coeff_offset) + area <= static_cast<uint64_t>(n_coeffs));
}

// Checks the blocks (see v3d_vp9_itxfm_add_frame). Returns V3D_OK or the error code, with the
// thread's error message naming the first offending block (for an overlap: one of the two).
// Does not touch any frame. pool (may be nullptr) spreads the work over its threads.
// When chunks is set, it receives, for each run of kItxChunk blocks of the list (the last one
// shorter), how many have work (itx_block_cost > 0) and their total cost: the scheduler builds its
// split from these in parallel instead of walking the list again.
struct ItxChunk {
  size_t active = 0;
  uint64_t cost = 0;
};
// 512: the scheduler cuts a frame's CPU tasks by interpolating inside a chunk, and with 2048 the
// tasks of a mixed frame (costs from 16 to 1024 per block) came out uneven: on the device machine
// CPU-16 on a mixed 1080p frame went from 130-132 to 143-150 Mblock/s with 512 (same host, two
// A/B rounds).
constexpr size_t kItxChunk = 512;
// extra (optional): n_extra more tasks, extra(k) for k = 0..n_extra-1, run in validation's first
// loop beside its own tasks (work that needs no validated block, e.g. the GPU's preparation of
// its share); they run whatever the result.
// beside (optional): run by the calling thread at the start of that loop, before it takes tasks
// (ThreadPool::run's then_tasks; without other threads, before any task), whatever the result:
// e.g. the submission of the GPU's share, which then does not hold up the loop's end.
int itx_validate(int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                 size_t n_coeffs, ThreadPool *pool, std::vector<ItxChunk> *chunks = nullptr,
                 int n_extra = 0, const std::function<void(int)> *extra = nullptr,
                 const std::function<void()> *beside = nullptr);

// One frame's arguments to itx_validate_frames.
struct ItxFrameArgs {
  int width, height;
  const V3dVp9TxBlock *blocks;
  size_t n_blocks, n_coeffs;
};
// Validates frames[0..n) as itx_validate does each (the same results and messages), in three
// loops of pool shared by all of them (marks, the rare pixel-resolution pass, each frame's merge),
// so that every thread is busy also when the frames are fewer than the threads. rcs[f]: frame
// f's result, why[f] its message when it failed; chunks[f] (chunks or chunks[f] may be null):
// its chunk totals.
void itx_validate_frames(size_t n, const ItxFrameArgs *frames, ThreadPool *pool, int *rcs,
                         std::string *why, std::vector<ItxChunk> *const *chunks,
                         int n_extra = 0, const std::function<void(int)> *extra = nullptr,
                         const std::function<void()> *beside = nullptr);

// Relative cost of a block for splitting work (pixels of the block; 0 for eob == 0).
inline uint32_t itx_block_cost(const V3dVp9TxBlock &b) {
  return b.eob ? (16u << (2 * b.tx_size)) : 0;
}

// Applies blocks[index[i]] for i in [begin, end) (all validated) to the frame on the calling
// thread, with the scalar references when use_ref, else the current SIMD table. Blocks
// reaching past a plane's width/height are clipped: only pixels inside the plane are read or
// written. index may be nullptr (then blocks[i] is used).
void itx_apply_cpu(const FramePlanes &frame, const V3dVp9TxBlock *blocks, const uint32_t *index,
                   size_t begin, size_t end, const int16_t *coeffs, bool use_ref);

}  // namespace vp9
}  // namespace v3d
