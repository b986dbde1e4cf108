// SPDX-License-Identifier: LGPL-2.1-or-later
// Test inputs for the VP9 loop filter: thresholds as libvpx derives them from a filter level and
// a sharpness, lines of pixels built to reach each filter regime (off, narrow, narrow with high
// edge variance, flat 7-tap, flat2 15-tap), and an independent classifier saying which filter
// the VP9 specification applies to a line (so tests can prove each regime was reached).
// Integer arithmetic only: a seed gives the same inputs on every platform.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/test_util.h"

namespace v3dtest {
namespace vp9 {

// What an input line is built for.
enum LpfRegime {
  kRegimeOff,     // the filter mask fails (an inner step > I, or the edge step > E)
  kRegimeNormal,  // mask passes, no high edge variance, not flat: narrow filter on p1..q1
  kRegimeHev,     // mask passes, |p1-p0| or |q1-q0| > H: narrow filter on p0, q0 only
  kRegimeFlat,    // p3..q3 flat (within 1 of p0 / q0), p7..p4 or q4..q7 not: 7-tap filter
  kRegimeFlat2,   // p7..q7 flat: 15-tap filter
  kRegimeRandom,  // uniform random pixels
  kNumRegimes
};
const char *lpf_regime_name(int regime);

// Which filter the VP9 loop filter applies to one line (what happened, not what was aimed at).
enum LpfOutcome { kOutNone, kOutNarrow, kOutNarrowHev, kOutFlat7, kOutFlat15, kNumOutcomes };
const char *lpf_outcome_name(int outcome);

struct LpfLimits {
  int E, I, H;  // blimit, limit, thresh
};

// libvpx's thresholds for a filter level (0..63) and sharpness (0..7): vp9_loop_filter_frame_init
// and update_sharpness: I = level >> ((s > 0) + (s > 4)), capped at 9 - s when s > 0, at least 1;
// E = 2 * (level + 2) + I; H = level >> 4.
LpfLimits lpf_limits(int level, int sharpness);

// Thresholds for a test case: mostly from a random level and sharpness, sometimes uniform in
// 0..255 each; with wide = true also values outside 0..255 (the API clamps them).
LpfLimits lpf_pick_limits(Rng &rng, bool wide);

// Fills x[0..15] = p7..q7 with a line aimed at the regime under the thresholds.
void lpf_make_line(Rng &rng, int regime, const LpfLimits &lim, uint8_t x[16]);

// The filter the VP9 specification applies to line x[0..15] = p7..q7 (only p3..q3 looked at
// below 16-wide), with thresholds clamped to 0..255 as the API does.
int lpf_classify(const uint8_t x[16], int filter_width, const LpfLimits &lim);

// Writes len lines around an edge: line l, pixel i (0 = p7 .. 15 = q7) goes to
// dst[l * along + (i - 8) * across] with (across, along) = (1, stride) for dir 0 (vertical edge)
// and (stride, 1) for dir 1. Each line is aimed at regime, except that with probability
// mix_percent % a line takes another random regime (so the lanes of a SIMD vector differ).
void lpf_make_edge(Rng &rng, int regime, int mix_percent, const LpfLimits &lim, uint8_t *dst,
                   ptrdiff_t stride, int dir, int len);

// Reads line l of an edge laid out as above into x[0..15].
void lpf_read_line(const uint8_t *dst, ptrdiff_t stride, int dir, int l, uint8_t x[16]);

}  // namespace vp9
}  // namespace v3dtest
