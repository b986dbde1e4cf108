// SPDX-License-Identifier: LGPL-2.1-or-later
// The split controller: which way each frame of one kernel family runs (CPU, GPU, or both), from
// measured times. Not thread-safe: a context's controllers are used under its frame_mutex.
#pragma once

#include <cstddef>
#include <map>
#include <utility>

namespace v3d {

// Adaptive division of one kernel family's work between the CPU workers and the GPU, frame by
// frame. Ways to run a frame: CPU alone, GPU alone, split (a share of the frame's cost to the GPU,
// the rest to the CPU, at the same time) and, where the caller offers it (auto), a lean split:
// the same with one worker fewer, its core left to the GPU's host-side work (better on a Pi 5,
// ../shared/V3D_NOTES.md; worse where cores are many and the GPU has its own memory). The
// controller measures each way's frame time per unit of cost (EMA), runs the fastest, and now
// and then tries the others again (less often the slower they were) so that a change of content
// or load is noticed, within a bounded share of the stream's time (retries of a way that keeps
// losing back off exponentially). Each split's share is balanced from the two sides' own spans
// inside its frames, so that both finish together. Tunables are named constants in
// split_controller.cpp with their reasons.
class SplitController {
 public:
  // Fraction of the next frame's cost to give to the GPU (0..1). fixed >= 0 overrides (and
  // record() then learns nothing). offer_lean: the lean split is one of the ways to choose from.
  double next_share(double fixed, bool offer_lean = false);
  // Whether the frame planned by the last next_share() is a lean split (one worker fewer).
  bool lean() const { return planned_ == kSplitLean; }
  // Whether the frame planned by the last next_share() is the first of its split.
  bool first_split() const { return is_split(planned_) && time_per_cost_[planned_] == 0; }
  // Records the frame planned by the last next_share(): cost on each side (0 = side unused), each
  // side's span (seconds from the frame's start until that side's last result; the GPU's
  // includes its host-side preparation) and the frame's wall time.
  void record(double cpu_cost, double cpu_seconds, double gpu_cost, double gpu_seconds,
              double frame_seconds);
  // The (full) split's current GPU share (for statistics and tests).
  double split_share() const { return share_[0]; }

 private:
  enum Mode { kCpu = 0, kGpu = 1, kSplit = 2, kSplitLean = 3, kModes = 4, kNone = -1 };
  static bool is_split(int m) { return m == kSplit || m == kSplitLean; }
  double share_for(Mode m) const;
  // After a frame of way m and this cost, planned while `best` was the best way (kNone: a first
  // measurement): the exploration budget and m's back-off.
  void account(Mode m, Mode best, double cost, double frame_seconds);
  int frame_ = 0;
  Mode planned_ = kNone;
  double time_per_cost_[kModes] = {0, 0, 0, 0};  // EMA of frame seconds per cost unit; 0 = unmeasured
  int last_run_[kModes] = {-1, -1, -1, -1};       // frame the mode last ran
  int samples_[kModes] = {0, 0, 0, 0};            // frames the mode ran (measurements)
  double cpu_rate_ = 0, gpu_rate_ = 0;            // cost per second of each side alone (EMA)
  // Per split (0: kSplit, 1: kSplitLean): the GPU share, each side's rate in its frames (EMA),
  // and how many of its frames in a row had sides far from finishing together.
  double share_[2] = {0.5, 0.5};
  double split_cpu_rate_[2] = {0, 0}, split_gpu_rate_[2] = {0, 0};
  int rebalance_tries_[2] = {0, 0};
  Mode best_ = kNone;             // the best way when the last next_share() planned (kNone: none)
  int backoff_[kModes] = {0, 0, 0, 0};  // retries in a row that lost (the period's exponent)
  // Time of the frames run since every way was measured, and what the frames that ran another
  // way than the best (exploration) took beyond the best way's expected time, in seconds.
  double run_seconds_ = 0, explore_seconds_ = 0;
};

// The split controllers of one kernel family, one per frame size: the GPU's fixed cost per frame
// makes the best split (and whether splitting pays at all) depend on the size. A stream keeps
// one size; a renegotiation gets a controller of its own (at most kMaxSizes are kept).
// Guarded by the context's frame_mutex.
class SplitBook {
 public:
  SplitController &for_size(int width, int height) {
    if (by_size_.size() >= kMaxSizes && !by_size_.count({width, height})) by_size_.clear();
    return by_size_[{width, height}];
  }

 private:
  static constexpr size_t kMaxSizes = 8;
  std::map<std::pair<int, int>, SplitController> by_size_;
};

}  // namespace v3d
