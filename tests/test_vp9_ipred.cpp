// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 intra prediction, one block (checkasm-style):
//  1. the scalar reference against independent facts: a second implementation written from the
//     VP9 specification's intra prediction process (section 8.5.1: each mode's formulas and
//     recursions as the spec states them, filled in the spec's order) on edges built as libvpx's
//     decoder builds them, hand-computed outputs for a fixed 4x4 and 8x8 input, and the documented
//     reach of libvpx's D45/D63 at n >= 8;
//  2. every SIMD target this CPU has (and "scalar"), every tx size and slot, against the
//     reference: random and extreme edges, odd strides and offsets, a guard border around dst,
//     and the edges placed against inaccessible pages so that a read outside the pixels the mode
//     may read (ipred.h) crashes the test with the case printed.
// V3D_TEST_SEED changes the inputs; V3D_TEST_ITERS scales the iteration counts (default 1).
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <strings.h>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "vp9/ipred/ipred.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::scaled;
using namespace v3d::vp9;

namespace {

constexpr int kMaxN = 32;
const char *const kSlotName[kNumIpredSlots] = {"DC",   "V",    "H",   "D45", "D135",
                                               "D117", "D153", "D207", "D63", "TM",
                                               "DC_LEFT", "DC_TOP", "DC_128"};

uint64_t case_seed(int a, int b, int c, int d) {
  uint64_t h = v3dtest::base_seed();
  for (int v : {a, b, c, d}) h = (h ^ static_cast<uint64_t>(v + 1)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

IpredDsp ref_table() {
  IpredDsp t;
  ipred_dsp_init_ref(&t);
  return t;
}

// One block's edges: a[0] is aboveRow[-1], a[1 + k] aboveRow[k] (k < 2n); l[k] leftCol[k].
struct Edges {
  uint8_t a[1 + 2 * kMaxN];
  uint8_t l[kMaxN];
  const uint8_t *above() const { return a + 1; }
};

enum EdgeKind { kRandom, kZero, kFull, kAlternate, kAboveFull, kLeftFull, kSmooth, kNumKinds };
const char *const kKindName[kNumKinds] = {"random", "all-0", "all-255", "alternating",
                                          "above-255/left-0", "above-0/left-255", "smooth"};

// decoder_shape: above-right as libvpx's decoder fills it for n >= 8 (copies of above[n-1]).
Edges make_edges(Rng &rng, int n, int kind, bool decoder_shape) {
  Edges e;
  int smooth = rng.range(0, 255);
  auto value = [&](int k, bool is_above) -> uint8_t {
    switch (kind) {
      case kZero: return 0;
      case kFull: return 255;
      case kAlternate: return (k & 1) ? 255 : 0;
      case kAboveFull: return is_above ? 255 : 0;
      case kLeftFull: return is_above ? 0 : 255;
      case kSmooth:
        smooth = std::clamp(smooth + rng.range(-3, 3), 0, 255);
        return static_cast<uint8_t>(smooth);
      default: return static_cast<uint8_t>(rng.u32() >> 24);
    }
  };
  for (int k = 0; k < 1 + 2 * n; k++) e.a[k] = value(k, true);
  for (int k = 0; k < n; k++) e.l[k] = value(k, false);
  if (kind == kAboveFull || kind == kLeftFull) e.a[0] = static_cast<uint8_t>(rng.u32() >> 24);
  if (decoder_shape && n >= 8)
    for (int k = n; k < 2 * n; k++) e.a[1 + k] = e.a[n];  // above[k] = above[n-1]
  return e;
}

// ---------------------------------------------------------------------------------------------
// 1. The reference against independent facts.

int round2(int x, int bits) { return (x + (1 << (bits - 1))) >> bits; }

// The spec's prediction process (8-bit): pred[i][j] from aboveRow and leftCol, each mode as its
// formulas and recursions are stated, cells filled in the order the spec lists them.
void spec_predict(int slot, int n, const Edges &e, uint8_t *out) {
  const uint8_t *ar = e.above();
  const uint8_t *lc = e.l;
  int pred[kMaxN][kMaxN];
  int log2n = 2;
  while ((1 << log2n) < n) log2n++;
  switch (slot) {
    case kIpredDc:
    case kIpredDcLeft:
    case kIpredDcTop:
    case kIpredDc128: {
      int sum = 0, avg;
      if (slot == kIpredDc128) {
        avg = 1 << 7;
      } else if (slot == kIpredDc) {
        for (int k = 0; k < n; k++) sum += ar[k] + lc[k];
        avg = (sum + n) >> (log2n + 1);
      } else {
        for (int k = 0; k < n; k++) sum += slot == kIpredDcLeft ? lc[k] : ar[k];
        avg = (sum + (1 << (log2n - 1))) >> log2n;
      }
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) pred[i][j] = avg;
      break;
    }
    case kIpredV:
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) pred[i][j] = ar[j];
      break;
    case kIpredH:
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) pred[i][j] = lc[i];
      break;
    case kIpredTm:
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) pred[i][j] = std::clamp(lc[i] + ar[j] - ar[-1], 0, 255);
      break;
    case kIpredD207:
      for (int j = 0; j < n; j++) pred[n - 1][j] = lc[n - 1];
      for (int i = 0; i < n - 1; i++) pred[i][0] = round2(lc[i] + lc[i + 1], 1);
      for (int i = 0; i < n - 2; i++) pred[i][1] = round2(lc[i] + 2 * lc[i + 1] + lc[i + 2], 2);
      pred[n - 2][1] = round2(lc[n - 2] + 3 * lc[n - 1], 2);
      for (int j = 2; j < n; j++)
        for (int i = n - 2; i >= 0; i--) pred[i][j] = pred[i + 1][j - 2];
      break;
    case kIpredD45:
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          pred[i][j] = i + j + 2 < 2 * n
                           ? round2(ar[i + j] + 2 * ar[i + j + 1] + ar[i + j + 2], 2)
                           : ar[2 * n - 1];
      break;
    case kIpredD63:
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          const int i2 = i / 2;
          pred[i][j] = (i & 1) ? round2(ar[i2 + j] + 2 * ar[i2 + j + 1] + ar[i2 + j + 2], 2)
                               : round2(ar[i2 + j] + ar[i2 + j + 1], 1);
        }
      break;
    case kIpredD117:
      for (int j = 0; j < n; j++) pred[0][j] = round2(ar[j - 1] + ar[j], 1);
      pred[1][0] = round2(lc[0] + 2 * ar[-1] + ar[0], 2);
      for (int j = 1; j < n; j++) pred[1][j] = round2(ar[j - 2] + 2 * ar[j - 1] + ar[j], 2);
      pred[2][0] = round2(ar[-1] + 2 * lc[0] + lc[1], 2);
      for (int i = 3; i < n; i++) pred[i][0] = round2(lc[i - 3] + 2 * lc[i - 2] + lc[i - 1], 2);
      for (int i = 2; i < n; i++)
        for (int j = 1; j < n; j++) pred[i][j] = pred[i - 2][j - 1];
      break;
    case kIpredD135:
      pred[0][0] = round2(lc[0] + 2 * ar[-1] + ar[0], 2);
      for (int j = 1; j < n; j++) pred[0][j] = round2(ar[j - 2] + 2 * ar[j - 1] + ar[j], 2);
      pred[1][0] = round2(ar[-1] + 2 * lc[0] + lc[1], 2);
      for (int i = 2; i < n; i++) pred[i][0] = round2(lc[i - 2] + 2 * lc[i - 1] + lc[i], 2);
      for (int i = 1; i < n; i++)
        for (int j = 1; j < n; j++) pred[i][j] = pred[i - 1][j - 1];
      break;
    case kIpredD153:
      pred[0][0] = round2(lc[0] + ar[-1], 1);
      for (int i = 1; i < n; i++) pred[i][0] = round2(lc[i - 1] + lc[i], 1);
      pred[0][1] = round2(lc[0] + 2 * ar[-1] + ar[0], 2);
      pred[1][1] = round2(ar[-1] + 2 * lc[0] + lc[1], 2);
      for (int i = 2; i < n; i++) pred[i][1] = round2(lc[i - 2] + 2 * lc[i - 1] + lc[i], 2);
      for (int j = 2; j < n; j++) pred[0][j] = round2(ar[j - 3] + 2 * ar[j - 2] + ar[j - 1], 2);
      for (int i = 1; i < n; i++)
        for (int j = 2; j < n; j++) pred[i][j] = pred[i - 1][j - 2];
      break;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) out[i * n + j] = static_cast<uint8_t>(pred[i][j]);
}

void test_spec_model() {
  const IpredDsp ref = ref_table();
  for (int tx = 0; tx < 4; tx++) {
    const int n = 4 << tx;
    for (int slot = 0; slot < kNumIpredSlots; slot++) {
      int bad = 0, count = 0;
      uint64_t first_bad = 0;
      for (int kind = 0; kind < kNumKinds; kind++) {
        const int iters = kind == kRandom || kind == kSmooth ? scaled(200) : 4;
        for (int it = 0; it < iters; it++) {
          const uint64_t seed = case_seed(1000 + tx, slot, kind, it);
          Rng rng(seed);
          const Edges e = make_edges(rng, n, kind, true);
          uint8_t want[kMaxN * kMaxN], got[kMaxN * kMaxN];
          spec_predict(slot, n, e, want);
          ref.pred[tx][slot](got, n, e.above(), e.l);
          if (memcmp(want, got, n * n) != 0 && bad++ == 0) first_bad = seed;
          count++;
        }
      }
      check(bad == 0, "reference %s %dx%d differs from the spec's process on %d of %d edges "
            "(first case seed 0x%" PRIx64 ")", kSlotName[slot], n, n, bad, count, first_bad);
    }
  }
}

// Outputs computed by hand from the spec's formulas (section 8.5.1) for one fixed 4x4 input:
// aboveRow[-1] = 50, aboveRow[0..7] = 10 200 31 97 255 0 128 77, leftCol = 180 3 66 240.
struct Golden4 {
  int slot;
  uint8_t px[4][4];
};
const Golden4 kGolden4[] = {
    {kIpredD45, {{110, 90, 120, 152}, {90, 120, 152, 96}, {120, 152, 96, 83}, {152, 96, 83, 77}}},
    {kIpredD135, {{73, 68, 110, 90}, {103, 73, 68, 110}, {63, 103, 73, 68}, {94, 63, 103, 73}}},
    {kIpredD117, {{30, 105, 116, 64}, {73, 68, 110, 90}, {103, 30, 105, 116}, {63, 73, 68, 110}}},
    {kIpredD153, {{115, 73, 68, 110}, {92, 103, 115, 73}, {35, 63, 92, 103}, {153, 94, 35, 63}}},
    {kIpredD207, {{92, 63, 35, 94}, {35, 94, 153, 197}, {153, 197, 240, 240}, {240, 240, 240, 240}}},
    {kIpredD63, {{105, 116, 64, 176}, {110, 90, 120, 152}, {116, 64, 176, 128}, {90, 120, 152, 96}}},
};

void test_golden() {
  const IpredDsp ref = ref_table();
  Edges e{};
  const uint8_t above[9] = {50, 10, 200, 31, 97, 255, 0, 128, 77};
  const uint8_t left[4] = {180, 3, 66, 240};
  memcpy(e.a, above, 9);
  memcpy(e.l, left, 4);
  for (const Golden4 &g : kGolden4) {
    uint8_t got[16], model[16];
    ref.pred[0][g.slot](got, 4, e.above(), e.l);
    spec_predict(g.slot, 4, e, model);
    check(memcmp(got, g.px, 16) == 0, "reference %s 4x4 on the fixed input differs from the "
          "hand-computed values", kSlotName[g.slot]);
    check(memcmp(model, g.px, 16) == 0, "the test's spec model %s 4x4 differs from the "
          "hand-computed values", kSlotName[g.slot]);
  }
  // 8x8, above = 0 255 0 255 .., above-right copies of above[7] = 255 (the decoder's fill):
  // D45 row 0 averages triples to 128 until k = 6 (0, 255, 255 -> 191), then 255; D63 row 0
  // averages pairs (128, last 255+255 -> 255), row 1 triples like D45's row 0.
  Edges e8{};
  for (int k = 0; k < 16; k++) e8.a[1 + k] = (k & 1) || k >= 8 ? 255 : 0;
  const uint8_t d45_row0[8] = {128, 128, 128, 128, 128, 128, 191, 255};
  const uint8_t d45_row1[8] = {128, 128, 128, 128, 128, 191, 255, 255};
  const uint8_t d63_row0[8] = {128, 128, 128, 128, 128, 128, 128, 255};
  uint8_t got[64];
  ref.pred[1][kIpredD45](got, 8, e8.above(), e8.l);
  check(memcmp(got, d45_row0, 8) == 0 && memcmp(got + 8, d45_row1, 8) == 0 &&
            std::all_of(got + 56, got + 64, [](uint8_t v) { return v == 255; }),
        "reference D45 8x8 on the fixed input differs from the hand-computed values");
  ref.pred[1][kIpredD63](got, 8, e8.above(), e8.l);
  check(memcmp(got, d63_row0, 8) == 0 && memcmp(got + 8, d45_row0, 8) == 0,
        "reference D63 8x8 on the fixed input differs from the hand-computed values");
}

// ipred.h: for n >= 8, D45 and D63 depend on above[0..n+1] only (libvpx takes above[n-1] past
// that); for n = 4 on all of above[0..7].
void test_d45_d63_reach() {
  const IpredDsp ref = ref_table();
  for (int tx = 0; tx < 4; tx++) {
    const int n = 4 << tx;
    for (int slot : {kIpredD45, kIpredD63}) {
      int same = 0, iters = scaled(100);
      for (int it = 0; it < iters; it++) {
        Rng rng(case_seed(2000 + tx, slot, 0, it));
        Edges e = make_edges(rng, n, kRandom, false);
        uint8_t a[kMaxN * kMaxN], b[kMaxN * kMaxN];
        ref.pred[tx][slot](a, n, e.above(), e.l);
        for (int k = n + 2; k < 2 * n; k++) e.a[1 + k] = static_cast<uint8_t>(~e.a[1 + k]);
        ref.pred[tx][slot](b, n, e.above(), e.l);
        same += memcmp(a, b, n * n) == 0;
      }
      if (n == 4)
        check(same < iters, "%s 4x4 ignores above[6..7]", kSlotName[slot]);
      else
        check(same == iters, "%s %dx%d depends on above[n+2..2n-1] in %d of %d cases",
              kSlotName[slot], n, n, iters - same, iters);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Every target against the reference.

// The pixels each slot may read (ipred.h): above[lo..hi] (none when lo > hi), left[0..n-1] or
// nothing.
struct Reach {
  int above_lo, above_hi;
  bool left;
};

Reach slot_reach(int slot, int n) {
  switch (slot) {
    case kIpredDc: return {0, n - 1, true};
    case kIpredV:
    case kIpredDcTop: return {0, n - 1, false};
    case kIpredH:
    case kIpredD207:
    case kIpredDcLeft: return {1, 0, true};
    case kIpredD45:
    case kIpredD63: return {0, 2 * n - 1, false};
    case kIpredDc128: return {1, 0, false};
    default: return {-1, n - 1, true};  // TM, D117, D135, D153
  }
}

// Pages: [guard][above][guard][left][guard]. Edges are copied against one end of their page, so
// that a read past the other end of what the slot may read faults; edges a slot may not read at
// all are passed as pointers into a guard page.
class GuardedEdges {
 public:
  GuardedEdges() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void *p = mmap(nullptr, 5 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ok_ = p != MAP_FAILED;
    if (!ok_) return;
    base_ = static_cast<uint8_t *>(p);
    for (int g : {0, 2, 4}) ok_ = ok_ && mprotect(base_ + g * page_, page_, PROT_NONE) == 0;
  }
  ~GuardedEdges() {
    if (base_) munmap(base_, 5 * page_);
  }
  bool ok() const { return ok_; }

  // Places e's pixels for reach r; at_end: the last readable pixel ends its page, else the first
  // begins it. Returns the above and left pointers to pass.
  void place(const Edges &e, int n, const Reach &r, bool at_end, const uint8_t **above,
             const uint8_t **left) {
    uint8_t *ap = base_ + page_, *lp = base_ + 3 * page_;
    const uint8_t *nowhere = base_ + page_ / 2;  // inside the first guard page
    if (r.above_lo <= r.above_hi) {
      const int count = r.above_hi - r.above_lo + 1;
      uint8_t *first = at_end ? ap + page_ - count : ap;
      memcpy(first, e.above() + r.above_lo, count);
      *above = first - r.above_lo;
    } else {
      *above = nowhere;
    }
    if (r.left) {
      uint8_t *first = at_end ? lp + page_ - n : lp;
      memcpy(first, e.l, n);
      *left = first;
    } else {
      *left = nowhere;
    }
  }

 private:
  size_t page_ = 0;
  uint8_t *base_ = nullptr;
  bool ok_ = false;
};

// What runs now, printed by the fault handler if a kernel reads outside its edges.
char g_case[256];

void on_fault(int) {
  static const char kMsg[] = "FAIL: memory fault (a read outside the edges the mode may read?) in ";
  ssize_t r = write(1, kMsg, sizeof kMsg - 1);
  r = write(1, g_case, strlen(g_case));
  r = write(1, "\n", 1);
  (void)r;
  _exit(1);
}

constexpr int kGuard = 16;  // bytes (and rows) of guard around the block

bool run_case(const char *target, const IpredDsp &dsp, const IpredDsp &ref, GuardedEdges &ge,
              int tx, int slot, int kind, int it) {
  const int n = 4 << tx;
  const uint64_t seed = case_seed(tx, slot, kind, it);
  Rng rng(seed);
  const Edges e = make_edges(rng, n, kind, rng.range(0, 1) == 1);
  const int xoff = kGuard + rng.range(0, 7);
  const ptrdiff_t stride = xoff + n + kGuard + rng.range(0, 17);
  const int rows = n + 2 * kGuard;
  std::vector<uint8_t> init(rows * stride);
  for (auto &v : init) v = static_cast<uint8_t>(rng.u32() >> 24);
  const ptrdiff_t off = kGuard * stride + xoff;

  std::vector<uint8_t> want = init, got = init;
  ref.pred[tx][slot](want.data() + off, stride, e.above(), e.l);
  const uint8_t *above, *left;
  ge.place(e, n, slot_reach(slot, n), it & 1, &above, &left);
  snprintf(g_case, sizeof g_case, "%s %s %dx%d, %s edges, iteration %d (case seed 0x%" PRIx64 ")",
           target, kSlotName[slot], n, n, kKindName[kind], it, seed);
  dsp.pred[tx][slot](got.data() + off, stride, above, left);
  size_t bad = 0;
  while (bad < got.size() && got[bad] == want[bad]) bad++;
  if (bad == got.size()) return true;
  const long y = static_cast<long>(bad / stride) - kGuard;
  const long x = static_cast<long>(bad % stride) - xoff;
  const bool inside = y >= 0 && y < n && x >= 0 && x < n;
  check(false, "%s: pixel (%ld, %ld)%s = %d, reference %d", g_case, y, x,
        inside ? "" : " OUTSIDE the block", got[bad], want[bad]);
  return false;
}

void test_targets() {
  GuardedEdges ge;
  if (!check(ge.ok(), "guard pages: mmap/mprotect failed")) return;
  signal(SIGSEGV, on_fault);
  signal(SIGBUS, on_fault);
  const IpredDsp ref = ref_table();
  const char *names[32];
  const int nt = std::min(v3d_cpu_targets(names, 32), 32);
  static const int kBase[4] = {64, 48, 32, 16};  // iterations per (slot, edge kind) by tx_size
  for (int t = 0; t < nt; t++) {
    const int rc = v3d_cpu_force_target(names[t]);
    if (!check(rc == 0, "v3d_cpu_force_target(%s) = %d", names[t], rc)) continue;
    const IpredDsp &dsp = ipred_dsp();
    // The table follows the forced target: the references alone for "scalar", SIMD otherwise.
    int simd_slots = 0;
    for (int tx = 0; tx < 4; tx++)
      for (int slot = 0; slot < kNumIpredSlots; slot++)
        if (dsp.pred[tx][slot] != ref.pred[tx][slot]) simd_slots++;
    const bool refs_only = strcasecmp(names[t], "scalar") == 0;
    check(refs_only ? simd_slots == 0 : simd_slots > 0, "target %s: %d SIMD slots in the table",
          names[t], simd_slots);
    int cases = 0, failed = 0;
    std::string failed_slots;
    for (int tx = 0; tx < 4; tx++)
      for (int slot = 0; slot < kNumIpredSlots; slot++) {
        const int failed_before = failed;
        for (int kind = 0; kind < kNumKinds; kind++) {
          const int iters = kind == kRandom || kind == kSmooth ? scaled(kBase[tx]) : 4;
          for (int it = 0; it < iters; it++) {
            const bool ok = run_case(names[t], dsp, ref, ge, tx, slot, kind, it);
            if (ok) v3dtest::counter().passed++;
            failed += !ok;
            cases++;
          }
        }
        if (failed > failed_before)
          failed_slots += std::string(" ") + kSlotName[slot] + "/" + std::to_string(4 << tx);
      }
    if (failed) printf("target %s: failing slots/sizes:%s\n", names[t], failed_slots.c_str());
    printf("target %-8s %2d of %d slots SIMD, %d cases, %d failed\n", names[t], simd_slots,
           4 * kNumIpredSlots, cases, failed);
  }
  v3d_cpu_force_target(nullptr);
  signal(SIGSEGV, SIG_DFL);
  signal(SIGBUS, SIG_DFL);
}

}  // namespace

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // everything printed before a memory fault reaches the log
  v3dtest::base_seed();
  test_spec_model();
  test_golden();
  test_d45_d63_reach();
  test_targets();
  return v3dtest::finish();
}
