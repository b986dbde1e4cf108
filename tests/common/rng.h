// SPDX-License-Identifier: LGPL-2.1-or-later
// The one pseudo-random generator of the tests, fuzz targets, v3d-bench and v3dvp9residualsrc:
// xorshift64*, small and deterministic on every platform, so a seed names the same inputs on x86
// and on aarch64 under qemu. No GStreamer, no kernel headers: the plugin links it too.
#pragma once

#include <cmath>
#include <cstdint>

namespace v3dtest {

class Rng {
 public:
  // Seed 0 would stay 0 for ever: it is replaced by a fixed non-zero state.
  explicit Rng(uint64_t seed) : s_(seed ? seed : 0x9E3779B97F4A7C15ull) {}
  uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545F4914F6CDD1Dull;
  }
  uint32_t u32() { return static_cast<uint32_t>(next() >> 32); }
  // Uniform in [lo, hi].
  int range(int lo, int hi) {
    return lo + static_cast<int>(u32() % static_cast<uint32_t>(hi - lo + 1));
  }
  // Uniform in [0, n); 0 when n is 0.
  uint32_t below(uint32_t n) { return n ? u32() % n : 0; }
  // Uniform in [0, 1).
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
  // A standard normal deviate (Box-Muller; two draws).
  double gauss() {
    const double u = uniform() + 1e-12, v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * 3.14159265358979323846 * v);
  }

 private:
  uint64_t s_;
};

// A well-mixed 64-bit value of x (the splitmix64 finaliser): derives independent seeds from a
// seed and an index (frame number, case number) without correlated streams.
inline uint64_t mix_seed(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace v3dtest
