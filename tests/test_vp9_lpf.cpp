// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter, one edge (checkasm-style):
//  1. the scalar reference against an independent statement of the spec's decisions
//     (vp9_lpf_inputs.cpp's classifier): a line the mask rejects stays untouched, and no pixel
//     outside the filter's reach (p2..q2, p6..q6, p1..q1) ever changes; with counts, per input
//     regime, of which filter fired, failing if a regime was never reached;
//  2. every SIMD target this CPU has (and "scalar"), every (dir, width, len), against the
//     reference: lines built for each regime (mixed with other regimes in some lines, so the
//     lanes of a vector differ), uniform random lines, thresholds from libvpx's level/sharpness
//     formulas and uniform over 0..255 (and beyond, which the API clamps), odd strides,
//     unaligned dst, and a guard border around the region that must stay untouched.
// V3D_TEST_SEED changes the inputs; V3D_TEST_ITERS scales the iteration counts (default 1).
#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "common/vp9_lpf_inputs.h"

using v3dtest::check;
using v3dtest::Rng;
using namespace v3dtest::vp9;

namespace {

using v3dtest::scaled;

uint64_t case_seed(int a, int b, int c, int d, int e) {
  uint64_t h = v3dtest::base_seed();
  for (int v : {a, b, c, d, e}) h = (h ^ static_cast<uint64_t>(v + 1)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

const int kWidths[3] = {4, 8, 16};
constexpr int kGuard = 3;  // untouched pixels checked on every side of the region

// One edge in a buffer with a guard border: lines laid out as in lpf_make_edge around dst.
struct EdgeBuf {
  std::vector<uint8_t> mem;
  uint8_t *dst = nullptr;
  ptrdiff_t stride = 0;
  int dir = 0, len = 0;

  // Builds the buffer for a case (random stride, alignment and guard contents, then the edge).
  void make(Rng &rng, int regime, const LpfLimits &lim, int dir_, int len_) {
    dir = dir_;
    len = len_;
    const int cols = (dir == 0 ? 16 : len) + 2 * kGuard, rows = (dir == 0 ? len : 16) + 2 * kGuard;
    stride = cols + rng.range(0, 37);  // odd strides too
    const int offset = rng.range(0, 31);
    mem.resize(static_cast<size_t>(rows) * stride + offset + 64);
    for (uint8_t &b : mem) b = static_cast<uint8_t>(rng.u32() >> 24);
    const int above = dir == 0 ? 0 : 8, left = dir == 0 ? 8 : 0;  // pixels before q0's line
    dst = mem.data() + offset + (kGuard + above) * stride + kGuard + left;
    lpf_make_edge(rng, regime, regime == kRegimeRandom ? 0 : 25, lim, dst, stride, dir, len);
  }
};

// Outcome counts of the reference's inputs: [width][regime][outcome].
int64_t g_counts[3][kNumRegimes][kNumOutcomes];

// Part 1 for one case: the reference's edits against the classifier. Returns true if all good.
bool check_reference_case(const EdgeBuf &before, const EdgeBuf &after, int wi, int regime,
                          const LpfLimits &lim) {
  const int width = kWidths[wi], reach = width == 16 ? 7 : width == 8 ? 3 : 2;
  bool ok = true;
  for (int l = 0; l < before.len; l++) {
    uint8_t x[16], y[16];
    lpf_read_line(before.dst, before.stride, before.dir, l, x);
    lpf_read_line(after.dst, after.stride, after.dir, l, y);
    const int out = lpf_classify(x, width, lim);
    g_counts[wi][regime][out]++;
    // Pixels that may change for this outcome: none, p1..q1 (p0..q0 with hev), p2..q2, p6..q6.
    const int r = out == kOutNone ? 0 : out == kOutNarrow ? 2 : out == kOutNarrowHev ? 1
                  : out == kOutFlat7 ? 3 : 7;
    for (int i = 0; i < 16; i++)
      if (x[i] != y[i] && (i < 8 - r || i >= 8 + r || r > reach)) ok = false;
  }
  // Nothing outside the lines' pixels changes (guard border and the rest of the buffer).
  const ptrdiff_t across = before.dir == 0 ? 1 : before.stride;
  const ptrdiff_t along = before.dir == 0 ? before.stride : 1;
  std::vector<uint8_t> a(before.mem), b(after.mem);
  for (int l = 0; l < before.len; l++)
    for (int i = 0; i < 16; i++) {
      const ptrdiff_t o = (before.dst - before.mem.data()) + l * along + (i - 8) * across;
      a[o] = b[o] = 0;
    }
  return ok && a == b;
}

// Runs every (dir, width, len, regime) case on the current target against the reference.
// reference_checks: also run part 1 (once, on the first target).
int run_target(const char *target, bool reference_checks, int *cases) {
  int failed = 0;
  for (int dir = 0; dir < 2; dir++)
    for (int wi = 0; wi < 3; wi++)
      for (int len : {8, 16})
        for (int regime = 0; regime < kNumRegimes; regime++) {
          const int iters = scaled(regime == kRegimeRandom ? 1000 : 600);
          for (int it = 0; it < iters; it++) {
            const uint64_t seed = case_seed(dir, wi, len, regime, it);
            Rng rng(seed);
            const LpfLimits lim = lpf_pick_limits(rng, regime == kRegimeRandom);
            EdgeBuf orig;
            orig.make(rng, regime, lim, dir, len);
            EdgeBuf ref = orig, got = orig;
            ref.dst = ref.mem.data() + (orig.dst - orig.mem.data());
            got.dst = got.mem.data() + (orig.dst - orig.mem.data());
            v3d_vp9_loop_filter_edge_ref(ref.dst, ref.stride, dir, kWidths[wi], len, lim.E, lim.I,
                                         lim.H);
            v3d_vp9_loop_filter_edge(got.dst, got.stride, dir, kWidths[wi], len, lim.E, lim.I,
                                     lim.H);
            (*cases)++;
            const char *what = nullptr;
            if (reference_checks && !check_reference_case(orig, ref, wi, regime, lim))
              what = "reference edits differ from the spec's decisions";
            else if (got.mem != ref.mem)
              what = "differs from the reference";
            failed += what != nullptr;
            if (what || (*cases & 63) == 0) {  // every failure, and a sample of the passes
              check(what == nullptr,
                    "%s: dir %d width %d len %d regime %s iter %d (E %d I %d H %d, stride %td): "
                    "%s (case seed 0x%" PRIx64 ")",
                    target, dir, kWidths[wi], len, lpf_regime_name(regime), it, lim.E, lim.I,
                    lim.H, orig.stride, what ? what : "", seed);
            }
          }
        }
  return failed;
}

// Every regime reached its intended outcome, and every outcome possible at each width happened.
void check_counts() {
  static const int kIntended[kNumRegimes] = {kOutNone, kOutNarrow, kOutNarrowHev, kOutFlat7,
                                             kOutFlat15, -1};
  for (int wi = 0; wi < 3; wi++) {
    printf("reference, width %2d: lines per regime -> filter applied\n", kWidths[wi]);
    int64_t total[kNumOutcomes] = {};
    for (int r = 0; r < kNumRegimes; r++) {
      printf("  %-7s", lpf_regime_name(r));
      for (int o = 0; o < kNumOutcomes; o++) {
        printf(" %s %" PRId64 "%s", lpf_outcome_name(o), g_counts[wi][r][o],
               o + 1 < kNumOutcomes ? "," : "\n");
        total[o] += g_counts[wi][r][o];
      }
      int want = kIntended[r];
      if (want > kOutNarrowHev && kWidths[wi] == 4) want = kOutNarrow;  // no flat filter at 4
      if (want == kOutFlat15 && kWidths[wi] == 8) want = kOutFlat7;
      if (want >= 0)
        check(g_counts[wi][r][want] > 0, "width %d: regime %s never reached filter '%s'",
              kWidths[wi], lpf_regime_name(r), lpf_outcome_name(want));
    }
    const int max_out =
        kWidths[wi] == 4 ? kOutNarrowHev : kWidths[wi] == 8 ? kOutFlat7 : kOutFlat15;
    for (int o = 0; o <= max_out; o++)
      check(total[o] > 0, "width %d: filter '%s' never applied", kWidths[wi], lpf_outcome_name(o));
  }
}

// Invalid arguments do nothing; thresholds outside 0..255 act as clamped.
void test_arguments() {
  Rng rng(case_seed(9, 9, 9, 9, 9));
  uint8_t buf[64 * 40], copy[sizeof(buf)];
  for (uint8_t &b : buf) b = static_cast<uint8_t>(rng.u32() >> 24);
  memcpy(copy, buf, sizeof(buf));
  const int bad[][3] = {{2, 8, 16}, {-1, 8, 16}, {0, 6, 16}, {1, 0, 8}, {0, 8, 12}, {1, 16, 0}};
  for (const auto &a : bad) {
    v3d_vp9_loop_filter_edge(buf + 20 * 64 + 20, 64, a[0], a[1], a[2], 255, 255, 0);
    v3d_vp9_loop_filter_edge_ref(buf + 20 * 64 + 20, 64, a[0], a[1], a[2], 255, 255, 0);
    check(memcmp(buf, copy, sizeof(buf)) == 0, "dir %d width %d len %d must do nothing", a[0],
          a[1], a[2]);
  }
  v3d_vp9_loop_filter_edge(nullptr, 64, 0, 8, 8, 10, 10, 10);  // must not crash
  for (int dir = 0; dir < 2; dir++) {
    uint8_t a[sizeof(buf)], b[sizeof(buf)];
    memcpy(a, copy, sizeof(a));
    memcpy(b, copy, sizeof(b));
    v3d_vp9_loop_filter_edge_ref(a + 20 * 64 + 20, 64, dir, 16, 16, 1000, 300, -5);
    v3d_vp9_loop_filter_edge_ref(b + 20 * 64 + 20, 64, dir, 16, 16, 255, 255, 0);
    check(memcmp(a, b, sizeof(a)) == 0, "dir %d: E, I, H outside 0..255 must act as clamped", dir);
    // The same through the dispatched entry point, whose fast path takes only E, I, H in range.
    memcpy(a, copy, sizeof(a));
    memcpy(b, copy, sizeof(b));
    v3d_vp9_loop_filter_edge(a + 20 * 64 + 20, 64, dir, 16, 16, 1000, 300, -5);
    v3d_vp9_loop_filter_edge(b + 20 * 64 + 20, 64, dir, 16, 16, 255, 255, 0);
    check(memcmp(a, b, sizeof(a)) == 0, "dir %d: dispatched E, I, H outside 0..255 must clamp",
          dir);
  }
}

}  // namespace

int main() {
  test_arguments();
  const char *names[32];
  const int nt = std::min(v3d_cpu_targets(names, 32), 32);
  for (int t = 0; t < nt; t++) {
    const int rc = v3d_cpu_force_target(names[t]);
    if (!check(rc == 0, "v3d_cpu_force_target(%s) = %d", names[t], rc)) continue;
    check(strcasecmp(v3d_cpu_target(), names[t]) == 0, "target is %s, wanted %s",
          v3d_cpu_target(), names[t]);
    int cases = 0;
    const int failed = run_target(names[t], t == 0, &cases);
    check(failed == 0, "target %s: %d of %d cases failed", names[t], failed, cases);
    printf("target %-8s %d cases, %d failed\n", names[t], cases, failed);
  }
  v3d_cpu_force_target(nullptr);
  check_counts();
  return v3dtest::finish();
}
