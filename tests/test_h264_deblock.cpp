// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking, one edge (checkasm-style): every SIMD target this CPU has (and "scalar"),
// every filter (luma bS 1-3 / luma bS 4 / chroma bS 1-3 / chroma bS 4) and direction, against
// the scalar reference, on lines built per case class (h264_deblock_inputs.cpp) so that the
// filters fire, sit at each threshold, take ap/aq and the strong-filter condition both ways, and
// on uniform random lines. alpha/beta from Table 8-16 over indexA/indexB 0..51 (and a few
// outside 0..255, which the API clamps), tC0 from Table 8-17 per 4 (2) pixel group, with -1
// groups. Random strides (odd ones, and multiples of 4 that are not of 16), unaligned pix, and a
// guard border: nothing outside p2..q2 (luma) / p0..q0 (chroma) may change.
// Counts, per filter and class, the lines the reference changed; fails if a class never fired.
// No threads (this test runs under qemu-user too). V3D_TEST_SEED changes the inputs;
// V3D_TEST_ITERS scales the iteration counts.
#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <vector>

#include "common/test_util.h"
#include "common/h264_deblock_inputs.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;
using namespace v3dtest::h264;

namespace {

using v3dtest::scaled;

uint64_t case_seed(int a, int b, int c, int d) {
  uint64_t h = v3dtest::base_seed();
  for (int v : {a, b, c, d}) h = (h ^ static_cast<uint64_t>(v + 1)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

enum Filter { kLuma, kLumaIntra, kChroma, kChromaIntra, kNumFilters };
const char *const kFilterNames[kNumFilters] = {"luma", "luma_intra", "chroma", "chroma_intra"};
bool is_luma(int f) { return f == kLuma || f == kLumaIntra; }

void call(int f, bool ref, uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta,
          const int8_t tc0[4]) {
  switch (f) {
    case kLuma:
      (ref ? v3d_h264_loop_filter_luma_ref : v3d_h264_loop_filter_luma)(pix, stride, dir, alpha, beta, tc0);
      break;
    case kLumaIntra:
      (ref ? v3d_h264_loop_filter_luma_intra_ref : v3d_h264_loop_filter_luma_intra)(pix, stride, dir, alpha, beta);
      break;
    case kChroma:
      (ref ? v3d_h264_loop_filter_chroma_ref : v3d_h264_loop_filter_chroma)(pix, stride, dir, alpha, beta, tc0);
      break;
    default:
      (ref ? v3d_h264_loop_filter_chroma_intra_ref : v3d_h264_loop_filter_chroma_intra)(pix, stride, dir, alpha, beta);
      break;
  }
}

constexpr int kGuard = 4;  // guard pixels on every side of the region read

// One edge in a buffer with a guard border.
struct Edge {
  std::vector<uint8_t> mem;
  size_t q0 = 0;  // offset of pix in mem
  ptrdiff_t stride = 0;
  int dir = 0, len = 0, half = 0;  // len lines, half = pixels read on each side

  uint8_t *pix() { return mem.data() + q0; }
  // Offset of sample i (0..2*half-1: p(half-1) .. q(half-1)) of line l.
  size_t at(int l, int i) const {
    const ptrdiff_t across = dir == 0 ? 1 : stride, along = dir == 0 ? stride : 1;
    return static_cast<size_t>(static_cast<ptrdiff_t>(q0) + l * along + (i - half) * across);
  }
};

struct Params {
  int alpha, beta;
  int8_t tc0[4];
};

Params pick_params(Rng &rng, int f) {
  Params p;
  const int ia = rng.range(0, 7) ? rng.range(16, 51) : rng.range(0, 51);
  const int ib = rng.range(0, 7) ? rng.range(16, 51) : rng.range(0, 51);
  p.alpha = kAlpha[ia];
  p.beta = kBeta[ib];
  const int odd = rng.range(0, 63);
  if (odd == 0) p.alpha = rng.range(256, 1000);  // clamped to 255
  if (odd == 1) p.beta = rng.range(256, 1000);
  if (odd == 2) p.alpha = -rng.range(1, 300);  // clamped to 0: nothing happens
  if (odd == 3) p.beta = rng.range(19, 255);   // beyond the table, still valid
  for (int g = 0; g < 4; g++) {
    const int bs = rng.range(1, 3);
    p.tc0[g] = rng.range(0, 5) == 0 ? -1 : static_cast<int8_t>(kTc0[ia][bs - 1]);
  }
  (void)f;
  return p;
}

// Builds a buffer: random stride (odd, or a multiple of 4 not of 16), offset and contents, the
// lines of the edge built for the class.
Edge make_edge(Rng &rng, int f, int dir, int cls, const Params &p) {
  Edge e;
  e.dir = dir;
  e.len = is_luma(f) ? 16 : 8;
  e.half = is_luma(f) ? 4 : 2;
  const int cols = (dir == 0 ? 2 * e.half : e.len) + 2 * kGuard;
  const int rows = (dir == 0 ? e.len : 2 * e.half) + 2 * kGuard;
  if (rng.range(0, 1)) {
    e.stride = cols + rng.range(0, 37);
  } else {
    e.stride = (cols + 3) / 4 * 4 + 4 * rng.range(0, 8);
    if (e.stride % 16 == 0) e.stride += 4;
  }
  const int offset = rng.range(0, 31);
  e.mem.resize(static_cast<size_t>(rows) * e.stride + offset + 64);
  for (uint8_t &b : e.mem) b = static_cast<uint8_t>(rng.u32() >> 24);
  const int above = dir == 0 ? 0 : e.half, left = dir == 0 ? e.half : 0;
  e.q0 = static_cast<size_t>(offset + (kGuard + above) * e.stride + kGuard + left);
  for (int l = 0; l < e.len; l++) {
    uint8_t v[8];
    make_line(rng, cls, p.alpha, p.beta, v);
    for (int i = 0; i < 2 * e.half; i++) e.mem[e.at(l, i)] = v[i + 4 - e.half];
  }
  return e;
}

// [filter][class]: lines the reference changed, of lines seen.
int64_t g_fired[kNumFilters][kNumClasses], g_lines[kNumFilters][kNumClasses];
// Luma: lines where p1 or q1 changed (ap / aq); luma intra: lines where p2 or q2 changed
// (strong filter) and lines changed without (weak): both ways of each condition.
int64_t g_luma_ap, g_luma_no_ap, g_intra_strong, g_intra_weak;

// Reference checks: nothing outside the writable samples changed. Counts the firing.
bool check_reference(const Edge &before, const Edge &after, int f, int cls) {
  const int writable = is_luma(f) ? 3 : 1;  // p2..q2, p0..q0
  std::vector<uint8_t> a(before.mem), b(after.mem);
  for (int l = 0; l < before.len; l++) {
    bool changed = false;
    for (int i = 0; i < 2 * before.half; i++) {
      const size_t o = before.at(l, i);
      const int dist = i < before.half ? before.half - 1 - i : i - before.half;  // 0 = p0/q0
      if (a[o] != b[o]) {
        changed = true;
        if (dist < writable) a[o] = b[o] = 0;
      }
    }
    g_lines[f][cls]++;
    g_fired[f][cls] += changed;
    if (f == kLuma && changed) {
      const bool ap = before.mem[before.at(l, 2)] != after.mem[before.at(l, 2)] ||
                      before.mem[before.at(l, 5)] != after.mem[before.at(l, 5)];
      (ap ? g_luma_ap : g_luma_no_ap)++;
    }
    if (f == kLumaIntra && changed) {
      const bool strong = before.mem[before.at(l, 1)] != after.mem[before.at(l, 1)] ||
                          before.mem[before.at(l, 6)] != after.mem[before.at(l, 6)] ||
                          before.mem[before.at(l, 2)] != after.mem[before.at(l, 2)] ||
                          before.mem[before.at(l, 5)] != after.mem[before.at(l, 5)];
      (strong ? g_intra_strong : g_intra_weak)++;
    }
  }
  // a and b now differ only where a change was not allowed.
  return a == b;
}

int run_target(const char *target, bool reference_checks, int *cases) {
  int failed = 0;
  for (int f = 0; f < kNumFilters; f++)
    for (int dir = 0; dir < 2; dir++)
      for (int cls = 0; cls < kNumClasses; cls++) {
        const int iters = scaled(400);
        for (int it = 0; it < iters; it++) {
          const uint64_t seed = case_seed(f, dir, cls, it);
          Rng rng(seed);
          const Params p = pick_params(rng, f);
          const Edge orig = make_edge(rng, f, dir, cls, p);
          Edge ref = orig, got = orig;
          call(f, true, ref.pix(), ref.stride, dir, p.alpha, p.beta, p.tc0);
          call(f, false, got.pix(), got.stride, dir, p.alpha, p.beta, p.tc0);
          (*cases)++;
          const char *what = nullptr;
          if (reference_checks && !check_reference(orig, ref, f, cls))
            what = "reference changed pixels outside the writable samples";
          else if (got.mem != ref.mem)
            what = "differs from the reference";
          failed += what != nullptr;
          if (what || (*cases & 63) == 0)
            check(what == nullptr,
                  "%s: %s dir %d class %s iter %d (alpha %d beta %d tc0 %d %d %d %d, stride %td): "
                  "%s (case seed 0x%" PRIx64 ")",
                  target, kFilterNames[f], dir, class_name(cls), it, p.alpha, p.beta, p.tc0[0],
                  p.tc0[1], p.tc0[2], p.tc0[3], orig.stride, what ? what : "", seed);
        }
      }
  return failed;
}

void check_counts() {
  for (int f = 0; f < kNumFilters; f++) {
    printf("reference %-12s lines changed / lines:", kFilterNames[f]);
    for (int c = 0; c < kNumClasses; c++) {
      printf(" %s %" PRId64 "/%" PRId64, class_name(c), g_fired[f][c], g_lines[f][c]);
      check(g_fired[f][c] > 0, "%s: class %s never fired", kFilterNames[f], class_name(c));
    }
    printf("\n");
  }
  printf("luma lines with p1/q1 changed %" PRId64 ", without %" PRId64
         "; luma_intra strong %" PRId64 ", weak only %" PRId64 "\n",
         g_luma_ap, g_luma_no_ap, g_intra_strong, g_intra_weak);
  check(g_luma_ap > 0 && g_luma_no_ap > 0, "luma: ap/aq not taken both ways");
  check(g_intra_strong > 0 && g_intra_weak > 0, "luma_intra: strong filter not taken both ways");
}

// alpha = 0, beta = 0, negative ones, invalid dir, NULL: nothing changes; > 255 acts as 255.
void test_arguments() {
  Rng rng(case_seed(9, 9, 9, 9));
  uint8_t buf[64 * 40], copy[sizeof(buf)];
  for (uint8_t &b : buf) b = static_cast<uint8_t>(128 + (rng.u32() >> 29));  // all fire
  memcpy(copy, buf, sizeof(buf));
  const int8_t tc0[4] = {2, 2, 2, 2};
  for (int f = 0; f < kNumFilters; f++)
    for (int ref = 0; ref < 2; ref++) {
      for (int dir = 0; dir < 2; dir++) {
        const int ab[][2] = {{0, 18}, {255, 0}, {-3, 18}, {255, -1}};
        for (const auto &x : ab) call(f, ref, buf + 20 * 64 + 20, 64, dir, x[0], x[1], tc0);
      }
      call(f, ref, buf + 20 * 64 + 20, 64, 2, 255, 18, tc0);
      call(f, ref, buf + 20 * 64 + 20, 64, -1, 255, 18, tc0);
      call(f, ref, nullptr, 64, 0, 255, 18, tc0);
      check(memcmp(buf, copy, sizeof(buf)) == 0, "%s%s: must do nothing", kFilterNames[f],
            ref ? "_ref" : "");
      for (int dir = 0; dir < 2; dir++) {
        uint8_t a[sizeof(buf)], b[sizeof(buf)];
        memcpy(a, copy, sizeof(a));
        memcpy(b, copy, sizeof(b));
        call(f, ref, a + 20 * 64 + 20, 64, dir, 1000, 300, tc0);
        call(f, ref, b + 20 * 64 + 20, 64, dir, 255, 255, tc0);
        check(memcmp(a, b, sizeof(a)) == 0 && memcmp(a, copy, sizeof(a)) != 0,
              "%s%s dir %d: alpha, beta above 255 must act as 255", kFilterNames[f],
              ref ? "_ref" : "", dir);
      }
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
    int cases = 0;
    const int failed = run_target(names[t], t == 0, &cases);
    check(failed == 0, "target %s: %d of %d cases failed", names[t], failed, cases);
    printf("target %-8s %d cases, %d failed\n", names[t], cases, failed);
  }
  v3d_cpu_force_target(nullptr);
  check_counts();
  return v3dtest::finish();
}
