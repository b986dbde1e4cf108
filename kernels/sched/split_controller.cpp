// SPDX-License-Identifier: LGPL-2.1-or-later
#include "sched/split_controller.h"

#include <algorithm>

namespace v3d {
namespace {

// Tunables of the first scheduler.
// Smoothing of measured times: 0.25 follows a change of content within a few frames while one
// noisy frame moves an estimate by at most a quarter of its error.
constexpr double kRateSmoothing = 0.25;
// The split's share never goes below this (nor above 1 - it): a side given less would cost its
// fixed overhead (a GPU submission is ~33 us on a Pi 5) for next to no work; if even this share
// is slower than one side alone, the controller runs that side alone instead.
constexpr double kMinShare = 0.03;
// Re-balancing of the split: the share moves this fraction of the way to where the two sides,
// at the rates they had side by side (smoothed), finish together. Measured in
// tests/test_split_controller.cpp: 1 converges fastest; 0.5 left the split short of its best on
// machines whose GPU slows down a lot next to the CPU (fewer split frames to learn from).
constexpr double kShareStep = 1.0;
// A way of running frames other than the fastest is tried again after kExplorePeriod frames, or
// later when it was slower: a way r times as slow as the best is retried every (r - 1) /
// kExploreBudget frames, so each retry costs kExploreBudget (0.5 %) of the frame time on average;
// a GPU 30x slower than the CPU is retried every 5800 frames (about 4 minutes at 25 frames/s).
constexpr int kExplorePeriod = 24;
// A split whose sides' spans differed by more than kBalanceTolerance is retried after
// kRebalancePeriod frames at its new share, at most kRebalanceTries times in a row.
constexpr double kBalanceTolerance = 1.25;
constexpr int kRebalancePeriod = 4;
constexpr int kRebalanceTries = 4;
constexpr double kExploreBudget = 0.005;
// Bounds on exploration over a stream, so that auto stays within a few percent of the faster side
// alone whatever the estimates (a way whose retries measure worse than it runs, e.g. a GPU slow
// to wake after sitting idle, moves its estimate by at most kStallCap per retry): a way retried
// and still slower than the best by more than kBackoffRatio waits twice as long before its next
// retry, up to 2^kMaxBackoff times its period (one about as fast, or faster, starts over); and once
// every way is measured, retries wait while what they cost beyond the best way's expected time
// exceeds kExploreShare of the time of all frames.
constexpr int kMaxBackoff = 6;
constexpr double kBackoffRatio = 1.1;
constexpr double kExploreShare = 0.02;
// Shared hosts stall: the device machine's showed single frames at 2-10x their median (another
// tenant on the cores or the memory bus), and a plain average let one such frame double a way's
// estimate, so that the controller ran a 3x slower way for frames on end. A measurement moves an
// estimate by at most a factor kStallCap before smoothing (a real slowdown is followed within a
// dozen frames); a way's first estimate is the better of its first kFirstSamples measurements (a
// way measured once within kConfirmRatio of the best is measured again after kRebalancePeriod
// frames), and while it has fewer than kTrustSamples measurements, one better than its estimate
// by more than kStallCap replaces it.
constexpr double kStallCap = 1.25;
// A split is chosen over the faster side alone only when its estimate is faster by more than
// kSplitMargin: a split's frames vary more (two sides, a GPU latency, a meeting point), and a
// split measured within the hosts' noise of the CPU alone won on noise now and then (device
// machine, transforms one frame per call, 43 frames: auto ran 7-16 splits, 16-37 %, whose median
// call took 18-30 % longer than its CPU-alone frames'; auto 91-98 % of CPU-16 over 17 workloads).
constexpr double kSplitMargin = 0.03;
constexpr double kConfirmRatio = 4;
constexpr int kFirstSamples = 2;
constexpr int kTrustSamples = 4;

}  // namespace

double SplitController::share_for(Mode m) const {
  if (m == kCpu) return 0;
  if (m == kGpu) return 1;
  return share_[m - kSplit];
}

double SplitController::next_share(double fixed, bool offer_lean) {
  if (fixed >= 0) {
    planned_ = kNone;
    return std::min(1.0, fixed);
  }
  const int n_modes = offer_lean ? kModes : kSplitLean;
  // Measure each way once: CPU alone, GPU alone, then the splits at the two sides' rates.
  Mode m = kNone;
  best_ = kNone;  // none until every way is measured
  for (int i = 0; i < n_modes && m == kNone; i++)
    if (time_per_cost_[i] == 0) m = static_cast<Mode>(i);
  if (m == kNone) {
    int best = time_per_cost_[kGpu] < time_per_cost_[kCpu] ? kGpu : kCpu;
    const double single = time_per_cost_[best];
    for (int i = kSplit; i < n_modes; i++)
      if (time_per_cost_[i] < single * (1 - kSplitMargin) && time_per_cost_[i] < time_per_cost_[best])
        best = i;
    m = static_cast<Mode>(best);
    best_ = m;
    // Try the slower ways again now and then, each when its time has come (the most overdue
    // first): every kExplorePeriod frames for one about as fast as the best, less often the
    // slower it was, so that each retry costs at most kExploreBudget of the frame time on average.
    double most_overdue = 0;
    for (int i = 0; i < n_modes; i++) {
      if (i == best) continue;
      const double ratio = time_per_cost_[i] / time_per_cost_[best];
      double period = std::max<double>(kExplorePeriod, (ratio - 1) / kExploreBudget) *
                      static_cast<double>(1 << backoff_[i]);
      // A split measured while its sides were far from finishing together has been rebalanced
      // since: try the new share soon (a few times at most), its measurement was not of it —
      // unless even both sides' combined rate (the best a balanced split could do, serial work
      // aside) loses to the best way: then rebalancing cannot make it pay (e.g. H.264's split by
      // whole planes, which cannot balance a GPU 12x slower than the workers).
      // (These few retries follow a measurement; the others are what the budget bounds.)
      if (samples_[i] < kFirstSamples && ratio <= kConfirmRatio) period = kRebalancePeriod;
      const int v = i - kSplit;
      if (is_split(i) && rebalance_tries_[v] > 0 && rebalance_tries_[v] <= kRebalanceTries &&
          1.0 / (split_cpu_rate_[v] + split_gpu_rate_[v]) < time_per_cost_[best])
        period = kRebalancePeriod;
      if (period != kRebalancePeriod && explore_seconds_ > kExploreShare * run_seconds_) continue;
      const double overdue = (frame_ - last_run_[i]) / period;
      if (overdue >= 1 && overdue > most_overdue) {
        most_overdue = overdue;
        m = static_cast<Mode>(i);
      }
    }
  }
  planned_ = m;
  return share_for(m);
}

void SplitController::record(double cpu_cost, double cpu_seconds, double gpu_cost,
                             double gpu_seconds, double frame_seconds) {
  const double total = cpu_cost + gpu_cost;
  const Mode m = planned_, best = best_;
  planned_ = kNone;
  best_ = kNone;
  if (m == kNone || total <= 0 || frame_seconds <= 0) return;
  last_run_[m] = frame_;
  frame_++;
  const int n = samples_[m]++;  // the way's measurements before this one
  const bool keep_best = n > 0 && n < kFirstSamples, young = n < kTrustSamples;
  // Moves estimate v (a rate in cost per second when higher_better, else a time in seconds per
  // cost) towards measurement x, first limited to a factor kStallCap of v either way: a stalled
  // frame, or a lucky one of a way whose frames vary a lot (a split's), moves it a little. While
  // the way is young, a measurement better by more than kStallCap replaces the estimate (its
  // first measurements may have been stalled); keep: the better of the two is kept (a way's first
  // measurements: stalls only ever slow a frame down).
  auto update = [young](double &v, double x, bool higher_better, bool keep) {
    const bool much_better = higher_better ? x > v * kStallCap : x < v / kStallCap;
    if (v == 0 || (young && much_better)) v = x;
    else if (keep) v = higher_better ? std::max(v, x) : std::min(v, x);
    else v += kRateSmoothing * (std::clamp(x, v / kStallCap, v * kStallCap) - v);
  };
  if (cpu_cost > 0 && gpu_cost == 0 && cpu_seconds > 0)
    update(cpu_rate_, cpu_cost / cpu_seconds, true, keep_best);
  if (gpu_cost > 0 && cpu_cost == 0 && gpu_seconds > 0)
    update(gpu_rate_, gpu_cost / gpu_seconds, true, keep_best);
  if (is_split(m) && cpu_cost > 0 && gpu_cost > 0 && cpu_seconds > 0 && gpu_seconds > 0) {
    const int v = m - kSplit;
    // Both sides' rates as they ran side by side (sharing memory bandwidth and cores): the next
    // split takes the share at which they finish together, and is expected to take what both
    // sides together do at these rates (an unbalanced frame says little about a balanced one).
    update(split_cpu_rate_[v], cpu_cost / cpu_seconds, true, false);
    update(split_gpu_rate_[v], gpu_cost / gpu_seconds, true, false);
    share_[v] += kShareStep * (split_gpu_rate_[v] / (split_gpu_rate_[v] + split_cpu_rate_[v]) - share_[v]);
    // The split's estimate is what it measured (a prediction from the rates proved optimistic on
    // the device machine: the split kept being chosen and kept measuring slower). A measurement
    // at a share far from balance replaces the estimate rather than averaging into it (raising it
    // by at most kStallCap); while the sides were far from finishing together, next_share()
    // retries the rebalanced split soon.
    const double measured = frame_seconds / total;
    const double imbalance = std::max(cpu_seconds, gpu_seconds) / std::min(cpu_seconds, gpu_seconds);
    double &est = time_per_cost_[m];
    if (!keep_best && rebalance_tries_[v] > 0) est = std::min(measured, est * kStallCap);
    else update(est, measured, false, keep_best);
    rebalance_tries_[v] = imbalance > kBalanceTolerance ? rebalance_tries_[v] + 1 : 0;
  } else {
    update(time_per_cost_[m], frame_seconds / total, false, keep_best);
    // First splits: from the standalone rates.
    for (int v = 0; v < 2; v++)
      if (time_per_cost_[kSplit + v] == 0 && cpu_rate_ > 0 && gpu_rate_ > 0)
        share_[v] = gpu_rate_ / (gpu_rate_ + cpu_rate_);
  }
  for (double &sh : share_) sh = std::min(1 - kMinShare, std::max(kMinShare, sh));
  account(m, best, total, frame_seconds);
}

void SplitController::account(Mode m, Mode best, double cost, double frame_seconds) {
  if (best == kNone) return;  // measuring the ways for the first time
  run_seconds_ += frame_seconds;
  if (m == best) return;
  // What the retry cost beyond the best way's expected time for the frame.
  explore_seconds_ += std::max(0.0, frame_seconds - time_per_cost_[best] * cost);
  // A retry that left the way clearly slower than the best backs it off; one that left it about
  // as fast (noise decides between them, and retrying costs next to nothing) or made it the best
  // starts it over.
  if (time_per_cost_[m] > time_per_cost_[best] * kBackoffRatio)
    backoff_[m] = std::min(backoff_[m] + 1, kMaxBackoff);
  else
    backoff_[m] = 0;
}

}  // namespace v3d
