// SPDX-License-Identifier: LGPL-2.1-or-later
// Byte reader shared by the libFuzzer targets: turns the fuzzer's bytes into bounded integers.
// Past the end of the input every read returns 0 (so a short input is still a valid case, and
// the fuzzer's mutations of one byte change one decision).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace v3dfuzz {

class Input {
 public:
  Input(const uint8_t *data, size_t size) : p_(data), end_(data + size) {}
  uint8_t u8() { return p_ < end_ ? *p_++ : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
  uint32_t u32() { return u16() | (static_cast<uint32_t>(u16()) << 16); }
  int16_t s16() { return static_cast<int16_t>(u16()); }
  // Uniform-ish in [lo, hi] (hi - lo < 65536).
  int range(int lo, int hi) { return lo + static_cast<int>(u16() % static_cast<unsigned>(hi - lo + 1)); }
  size_t left() const { return static_cast<size_t>(end_ - p_); }

 private:
  const uint8_t *p_;
  const uint8_t *end_;
};

// A failed property: print it and abort, so libFuzzer saves the input as a crash.
#define V3D_FUZZ_CHECK(cond, ...)                                       \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "fuzz check failed: %s: ", #cond);                \
      fprintf(stderr, __VA_ARGS__);                                     \
      fprintf(stderr, "\n");                                            \
      abort();                                                          \
    }                                                                   \
  } while (0)

}  // namespace v3dfuzz
