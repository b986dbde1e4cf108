// SPDX-License-Identifier: LGPL-2.1-or-later
// Inputs for the H.264 deblocking tests: the standard's threshold tables and edge builders that
// make the filters fire (or sit exactly at a threshold), per case class.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/test_util.h"

namespace v3dtest {
namespace h264 {

// Table 8-16 (alpha', beta' by indexA / indexB) and Table 8-17 (tC0 by indexA and bS 1..3).
extern const uint8_t kAlpha[52];
extern const uint8_t kBeta[52];
extern const uint8_t kTc0[52][3];

enum CaseClass {
  kClassSmooth = 0,   // filterSamplesFlag true on most lines, ap/aq random
  kClassApAq,         // ap / aq true or false per line, strong-filter condition both ways
  kClassBoundary,     // |p0-q0|, |p1-p0|, |q1-q0|, |p2-p0|, |q2-q0| at threshold - 1 or threshold
  kClassRandom,       // uniform random pixels
  kNumClasses
};
const char *class_name(int c);

// Writes one line across the edge: v[0..7] = p3 p2 p1 p0 q0 q1 q2 q3, built for the class.
void make_line(Rng &rng, int cls, int alpha, int beta, uint8_t v[8]);

}  // namespace h264
}  // namespace v3dtest
