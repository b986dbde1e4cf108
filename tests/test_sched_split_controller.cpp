// SPDX-License-Identifier: LGPL-2.1-or-later
// The scheduler's per-frame controller (v3d::SplitController, kernels/sched/split_controller.h) against
// simulated CPU and GPU sides whose speeds the test knows: on random machines (rates, a GPU's
// fixed cost per submission, how much the two sides slow each other down when they run together,
// noise) it must run frames no slower on average than the faster side alone would, balance the
// split when splitting pays, and follow a change of speeds. The simulation is the independent
// reference: the best achievable frame time is computed from the model, not from the controller.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/test_util.h"
#include "sched/context.h"

using v3dtest::check;
using v3dtest::Rng;

namespace {

// A machine: cost units per second of each side alone, the GPU's fixed cost per frame it takes
// part in, the slowdown of each side while both run (shared memory bus, shared cores), noise,
// and serial time per frame outside both sides (validation, building the split).
struct Machine {
  double cpu_rate, gpu_rate, gpu_fixed, cpu_slow, gpu_slow, noise, serial = 0;
  // A shared host's stalls: with odds spike_odds a frame has one side, or both, slowed by a
  // factor up to spike_max (another tenant took the cores or the memory bus for a while: the
  // device machine's hosts showed single frames 2-10x their median).
  double spike_odds = 0, spike_max = 1;

  // Frame time at GPU share s, and each side's span, with multiplicative noise.
  void frame(double cost, double s, Rng &rng, double *cpu_span, double *gpu_span,
             double *frame_s) const {
    auto jitter = [&] { return 1 + noise * (2 * rng.uniform() - 1); };
    const bool both = s > 0 && s < 1;
    *cpu_span = s < 1 ? (1 - s) * cost / cpu_rate * (both ? cpu_slow : 1) * jitter() : 0;
    *gpu_span = s > 0 ? (gpu_fixed + s * cost / gpu_rate * (both ? gpu_slow : 1)) * jitter() : 0;
    double serial_s = serial * jitter();
    if (spike_odds > 0 && rng.uniform() < spike_odds) {
      const double k = 1 + (spike_max - 1) * rng.uniform();
      const int which = rng.range(0, 2);  // 0: both sides, 1: the CPU's, 2: the GPU's
      if (which != 2) *cpu_span *= k, serial_s *= k;
      if (which != 1) *gpu_span *= k;
    }
    *frame_s = serial_s + std::max(*cpu_span, *gpu_span);
  }
  // The expected frame time at share s, without noise or stalls: how good the choice was.
  double expected(double cost, double s) const {
    const bool both = s > 0 && s < 1;
    const double c = s < 1 ? (1 - s) * cost / cpu_rate * (both ? cpu_slow : 1) : 0;
    const double g = s > 0 ? gpu_fixed + s * cost / gpu_rate * (both ? gpu_slow : 1) : 0;
    return serial + std::max(c, g);
  }
  // The best expected frame time of a split, over every share (fine grid).
  double best_split(double cost) const {
    double best = HUGE_VAL;
    for (int i = 1; i < 1000; i++) {
      const double s = i / 1000.0;
      best = std::min(best, serial + std::max((1 - s) * cost / cpu_rate * cpu_slow,
                                              gpu_fixed + s * cost / gpu_rate * gpu_slow));
    }
    return best;
  }
  // The best expected frame time over every share and each side alone.
  double best_time(double cost) const {
    return std::min(std::min(cost / cpu_rate, gpu_fixed + cost / gpu_rate) + serial,
                    best_split(cost));
  }
  double best_single(double cost) const {
    return serial + std::min(cost / cpu_rate, gpu_fixed + cost / gpu_rate);
  }
};

// How random_machine() draws the two sides' slowdown next to each other (1 + a or b times a
// uniform number, a with odds 1 in slow_odds + 1) and the serial time per frame (up to
// serial_max of the CPU's time for the frame, on half the machines).
struct MachineDraw {
  int slow_odds;
  double slow_a, slow_b, serial_max;
};

// A random machine and frame cost: CPU rates over 100x, from a GPU 30x slower than the CPU
// (lavapipe on the CPU's own cores) to one 5x faster, a GPU fixed cost per frame up to 0.3 of
// the CPU's frame time, noise up to 5 %.
Machine random_machine(Rng &rng, const MachineDraw &d, double *cost) {
  Machine m;
  m.cpu_rate = 1e6 * (1 + 99 * rng.uniform());
  m.gpu_rate = m.cpu_rate * std::exp(std::log(1 / 30.0) + rng.uniform() * std::log(150.0));
  *cost = 1e5 * (1 + 9 * rng.uniform());
  m.gpu_fixed = rng.uniform() * 0.3 * *cost / m.cpu_rate;
  m.cpu_slow = 1 + (rng.range(0, d.slow_odds) == 0 ? d.slow_a : d.slow_b) * rng.uniform();
  m.gpu_slow = 1 + (rng.range(0, d.slow_odds) == 0 ? d.slow_a : d.slow_b) * rng.uniform();
  m.noise = 0.05 * rng.uniform();
  m.serial = rng.range(0, 1) ? rng.uniform() * d.serial_max * *cost / m.cpu_rate : 0;
  return m;
}

// Runs n frames through the controller; returns the mean frame time over the frames after the
// first `skip` (its probes). *split_frames: how many of those were split; *expected_mean: the mean
// of their expected times (Machine::expected: how good the ways chosen were, without noise).
double run(v3d::SplitController &c, const Machine &m, double cost, int n, int skip, Rng &rng,
           int *split_frames = nullptr, double *expected_mean = nullptr) {
  double sum = 0, expected = 0;
  int counted = 0;
  for (int f = 0; f < n; f++) {
    const double s = c.next_share(-1);
    double cs, gs, fs;
    m.frame(cost, s, rng, &cs, &gs, &fs);
    c.record(s < 1 ? (1 - s) * cost : 0, cs, s > 0 ? s * cost : 0, gs, fs);
    if (f >= skip) {
      sum += fs;
      expected += m.expected(cost, s);
      counted++;
      if (split_frames && s > 0 && s < 1) (*split_frames)++;
    }
  }
  if (expected_mean) *expected_mean = expected / counted;
  return sum / counted;
}

void random_machines(uint64_t seed) {
  Rng rng(seed);
  const int n_machines = v3dtest::scaled(300);
  for (int i = 0; i < n_machines; i++) {
    // Sides slowing each other down up to 4x (1 in 4 machines), else up to 1.5x.
    double cost;
    const Machine m = random_machine(rng, MachineDraw{3, 3, 0.5, 0.5}, &cost);
    v3d::SplitController c;
    const double mean = run(c, m, cost, 400, 10, rng);
    const double single = m.best_single(cost), best = m.best_time(cost);
    // Never slower than the faster side alone (2 % for the noise and the rare retries of the
    // slower ways), and within 12 % of the best split whenever splitting pays.
    check(mean <= single * 1.02,
          "machine %d (seed 0x%llx): mean frame %.4g s above the faster side alone %.4g s "
          "(cpu %.3g gpu %.3g fixed %.3g slow %.2f/%.2f serial %.3g)",
          i, static_cast<unsigned long long>(seed), mean, single, m.cpu_rate, m.gpu_rate,
          m.gpu_fixed, m.cpu_slow, m.gpu_slow, m.serial);
    check(mean <= best * 1.12,
          "machine %d (seed 0x%llx): mean frame %.4g s vs best possible %.4g s (single %.4g; "
          "cpu %.3g gpu %.3g fixed %.3g slow %.2f/%.2f)",
          i, static_cast<unsigned long long>(seed), mean, best, single, m.cpu_rate, m.gpu_rate,
          m.gpu_fixed, m.cpu_slow, m.gpu_slow);
  }
}

// Equal sides that don't disturb each other: the split must settle at half and halve the time.
void balances_equal_sides() {
  Rng rng(v3dtest::base_seed() ^ 0xE0);
  Machine m{1e7, 1e7, 0, 1, 1, 0.02};
  v3d::SplitController c;
  int split = 0;
  const double mean = run(c, m, 1e6, 200, 20, rng, &split);
  check(std::fabs(c.split_share() - 0.5) < 0.05, "equal sides: split share %.3f, expected 0.5",
        c.split_share());
  check(mean < 0.06 * 1.05, "equal sides: mean frame %.4f s, expected about 0.05", mean);
  check(split >= 170, "equal sides: %d of 180 frames split", split);
}

// A GPU that becomes fast in the middle of a stream (another client leaves it): found again by
// the retries of the slower ways.
void follows_a_change() {
  Rng rng(v3dtest::base_seed() ^ 0xE1);
  Machine slow{1e7, 2.5e6, 1e-3, 1, 1, 0.02}, fast{1e7, 3e7, 1e-4, 1, 1, 0.02};
  v3d::SplitController c;
  run(c, slow, 1e6, 200, 0, rng);
  const double after = run(c, fast, 1e6, 800, 400, rng);
  check(after <= fast.best_time(1e6) * 1.12,
        "after the GPU became fast: mean frame %.4g s vs best %.4g s", after,
        fast.best_time(1e6));
}

// A fixed share is obeyed and teaches the controller nothing.
void fixed_share() {
  v3d::SplitController c;
  for (int i = 0; i < 10; i++) {
    const double s = c.next_share(0.25);
    check(s == 0.25, "fixed share: got %.3f", s);
    c.record(0.75, 1, 0.25, 1, 1);
  }
  check(c.next_share(-1) == 0, "after fixed frames, the first adaptive frame probes the CPU");
}

// One controller per frame size: what one size learnt (here: the GPU is useless) does not
// decide for another (where it is fast).
void per_size() {
  Rng rng(v3dtest::base_seed() ^ 0xE2);
  v3d::SplitBook book;
  Machine slow{1e7, 1e5, 1e-3, 1, 1, 0.02}, fast{1e7, 3e7, 1e-5, 1, 1, 0.02};
  run(book.for_size(1920, 1088), slow, 1e6, 100, 0, rng);
  const double mean = run(book.for_size(352, 288), fast, 1e5, 100, 20, rng);
  check(mean <= fast.best_time(1e5) * 1.12, "second size: mean frame %.4g s vs best %.4g s",
        mean, fast.best_time(1e5));
  check(&book.for_size(1920, 1088) != &book.for_size(352, 288), "sizes have their own controllers");
}

// auto's two splits: with every worker, and lean (one worker fewer: less CPU, but the two sides
// disturb each other less). On random machines where either may be the better one, the
// controller offered both must do as well as with the better split alone known in advance.
void lean_or_full(uint64_t seed) {
  Rng rng(seed ^ 0xE3);
  const int n_machines = v3dtest::scaled(200);
  int lean_better = 0;
  for (int i = 0; i < n_machines; i++) {
    // The full split: sides slowing each other down up to 1.3x or up to 2.5x (even odds).
    double cost;
    const Machine full = random_machine(rng, MachineDraw{1, 0.3, 1.5, 0.3}, &cost);
    const int cores = rng.range(2, 16);
    Machine lean = full;
    lean.cpu_rate = full.cpu_rate * (cores - 1) / cores;
    lean.cpu_slow = 1 + (full.cpu_slow - 1) * rng.uniform();
    lean.gpu_slow = 1 + (full.gpu_slow - 1) * rng.uniform();
    lean.gpu_fixed = full.gpu_fixed * rng.uniform();
    // CPU alone runs every worker in both cases: the lean machine's split, the full one's CPU.
    const double lean_best = lean.best_split(cost);
    const double best = std::min(full.best_time(cost), lean_best);
    const double single = full.best_single(cost);
    if (lean_best < full.best_time(cost)) lean_better++;
    v3d::SplitController c;
    double sum = 0;
    int counted = 0;
    for (int f = 0; f < 400; f++) {
      const double sh = c.next_share(-1, true);
      const Machine &m = c.lean() ? lean : full;
      double cs, gs, fs;
      m.frame(cost, sh, rng, &cs, &gs, &fs);
      c.record(sh < 1 ? (1 - sh) * cost : 0, cs, sh > 0 ? sh * cost : 0, gs, fs);
      if (f >= 12) {
        sum += fs;
        counted++;
      }
    }
    const double mean = sum / counted;
    check(mean <= single * 1.02 && mean <= best * 1.12,
          "lean/full machine %d (seed 0x%llx): mean frame %.4g s; faster side alone %.4g s, best "
          "split %.4g s (cores %d, cpu %.3g gpu %.3g fixed %.3g/%.3g slow %.2f/%.2f vs %.2f/%.2f)",
          i, static_cast<unsigned long long>(seed), mean, single, best, cores, full.cpu_rate,
          full.gpu_rate, full.gpu_fixed, lean.gpu_fixed, full.cpu_slow, full.gpu_slow,
          lean.cpu_slow, lean.gpu_slow);
  }
  // The test means something only if both kinds of machine came up.
  check(lean_better > n_machines / 20 && lean_better < n_machines - n_machines / 20,
        "lean/full: the lean split was the better one on %d of %d machines (both kinds wanted)",
        lean_better, n_machines);
}

// A shared host that stalls now and then (1 frame in 12 has a side 2-6x slower) and has up to
// 20 % of noise: the stalls must not steer the controller. Judged by the expected time of the
// ways it chose (without noise or stalls) against the faster side alone: on average over the
// machines within 1 %, on 99 % of them within 3 %, on every one within 50 %. Before the
// estimates were made robust to stalls, 130 of 300 machines were above 3 % and the worst at
// 120-130 %: a stall in the CPU's frames made the controller run a 3x slower GPU for frames on
// end. What remains (about 1 machine in 1,000 above 110 %, the worst seen 135 %): the better
// way's first measurement stalled more than kConfirmRatio (4x) above the best, or both of its
// first two did, so it is not measured again until its retry comes ((ratio - 1) / 0.5 % frames
// later).
void stalling_host(uint64_t seed) {
  Rng rng(seed ^ 0xE4);
  const int n_machines = v3dtest::scaled(300);
  int worst = -1, above = 0;
  double worst_ratio = 0, sum_ratio = 0;
  for (int i = 0; i < n_machines; i++) {
    double cost;
    Machine m = random_machine(rng, MachineDraw{3, 3, 0.5, 0.5}, &cost);
    m.noise = 0.2 * rng.uniform();
    m.spike_odds = 1 / 12.0;
    m.spike_max = 6;
    v3d::SplitController c;
    double expected;
    run(c, m, cost, 400, 10, rng, nullptr, &expected);
    const double ratio = expected / m.best_single(cost);
    sum_ratio += ratio;
    above += ratio > 1.03;
    if (ratio > worst_ratio) worst_ratio = ratio, worst = i;
    check(ratio <= 1.50,
          "stalling host, machine %d (seed 0x%llx): the ways chosen take %.1f %% of the faster "
          "side alone (cpu %.3g gpu %.3g fixed %.3g slow %.2f/%.2f serial %.3g noise %.2f)",
          i, static_cast<unsigned long long>(seed), 100 * ratio, m.cpu_rate, m.gpu_rate,
          m.gpu_fixed, m.cpu_slow, m.gpu_slow, m.serial, m.noise);
  }
  const double mean = sum_ratio / n_machines;
  printf("stalling host: the ways chosen take %.2f %% of the faster side alone on average, the "
         "worst (machine %d) %.1f %%, %d machines above 103 %%\n", 100 * mean, worst,
         100 * worst_ratio, above);
  check(mean <= 1.01, "stalling host (seed 0x%llx): %.2f %% of the faster side alone on average",
        static_cast<unsigned long long>(seed), 100 * mean);
  check(above <= n_machines / 100, "stalling host (seed 0x%llx): %d of %d machines above 103 %%",
        static_cast<unsigned long long>(seed), above, n_machines);
}

// Exploration is bounded over a stream: from the first frame on (its probes included), a long
// stream runs at no less than 0.95x of the best way (mean frame time at most 1/0.95 of it), with
// the lean split offered (auto) or not. Half the machines are random; the other half have the CPU
// alone as their best way and a GPU that is slow to start after it sat idle (clocks, caches, a driver's threads waking: the first frame it takes part in after
// frames without it costs it 3-6x): every retry of a way using the GPU then measures slower than
// the way runs once warm, but one measurement moves an estimate by at most the stall cap, so an
// unbounded controller goes on retrying it every few dozen frames at several times the cost.
void exploration_bounded(uint64_t seed) {
  Rng rng(seed ^ 0xB0);
  const int n_machines = v3dtest::scaled(200), n_frames = 3000;
  double worst = 0;
  for (int i = 0; i < n_machines; i++) {
    double cost;
    Machine m = random_machine(rng, MachineDraw{3, 3, 0.5, 0.5}, &cost);
    const double cold = i % 2 ? 3 + 3 * rng.uniform() : 1;
    if (cold > 1) {
      // The CPU alone is the best way: a GPU 1-1.5x slower than the CPU, sides slowing each other
      // 2-3x when both run. Every frame on another way is exploration.
      m.gpu_rate = m.cpu_rate / (1 + 0.5 * rng.uniform());
      m.cpu_slow = m.gpu_slow = 2 + rng.uniform();
    }
    const bool lean = i % 4 >= 2;
    v3d::SplitController c;
    double sum = 0, last_s = 0;
    for (int f = 0; f < n_frames; f++) {
      const double s = c.next_share(-1, lean);
      double cs, gs, fs;
      m.frame(cost, s, rng, &cs, &gs, &fs);
      const double k = s > 0 && last_s == 0 ? cold : 1;  // the GPU starts cold
      fs += std::max(cs, gs * k) - std::max(cs, gs);
      gs *= k;
      c.record(s < 1 ? (1 - s) * cost : 0, cs, s > 0 ? s * cost : 0, gs, fs);
      // What the choice costs without noise.
      const bool both = s > 0 && s < 1;
      const double ec = s < 1 ? (1 - s) * cost / m.cpu_rate * (both ? m.cpu_slow : 1) : 0;
      const double eg = s > 0 ? (m.gpu_fixed + s * cost / m.gpu_rate * (both ? m.gpu_slow : 1)) * k : 0;
      sum += m.serial + std::max(ec, eg);
      last_s = s;
    }
    const double ratio = sum / n_frames / m.best_time(cost);
    worst = std::max(worst, ratio);
    // Where every other way loses, what is lost is exploration alone: retries that keep losing
    // back off and their time is bounded (without either, 3.5 % on the worst of 100 machines).
    check(ratio <= (cold > 1 ? 1.027 : 1 / 0.95),
          "bounded exploration, machine %d (seed 0x%llx): %d frames at %.1f %% of the best way's "
          "time (cpu %.3g gpu %.3g fixed %.3g slow %.2f/%.2f serial %.3g cold %.1f)", i,
          static_cast<unsigned long long>(seed), n_frames, 100 * ratio, m.cpu_rate, m.gpu_rate,
          m.gpu_fixed, m.cpu_slow, m.gpu_slow, m.serial, cold);
  }
  printf("bounded exploration: the worst of %d streams of %d frames at %.1f %% of the best way's "
         "time\n", n_machines, n_frames, 100 * worst);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  random_machines(seed);
  balances_equal_sides();
  follows_a_change();
  fixed_share();
  per_size();
  lean_or_full(seed);
  stalling_host(seed);
  exploration_bounded(seed);
  return v3dtest::finish();
}
