// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 boolean decoder (kernels/vp9/dec/bool_decoder.h) against two independent references: an
// encoder written in the test (decisions, literals and tree symbols round-trip) and a bit-serial
// transcription of the spec's 9.2 decoding process (decisions and BoolMaxBits agree on random
// bytes, also past the end of the buffer). Also: the buffer end (no reads past it, guarded by an
// inaccessible page; missing trailing zero bytes change nothing), has_error(), the marker bit.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/test_util.h"
#include "vp9/dec/bool_decoder.h"
#include "vp9/dec/trees.h"
#include "vp9_bool_encoder.h"

using v3d::vp9::BoolDecoder;
using v3dtest::check;

namespace {

// Spec 9.2, one bit at a time; bits past the end of the data read as 0.
class SpecBoolDecoder {
 public:
  bool init(const uint8_t *d, size_t n) {
    d_ = d;
    n_ = n;
    pos_ = 0;
    value_ = 0;
    for (int i = 0; i < 8; ++i) value_ = (value_ << 1) | bit();
    range_ = 255;
    max_bits_ = 8 * static_cast<int64_t>(n) - 8;
    return read_bool(128) == 0;
  }
  int read_bool(int p) {
    const uint32_t split = 1 + (((range_ - 1) * static_cast<uint32_t>(p)) >> 8);
    int b;
    if (value_ < split) {
      range_ = split;
      b = 0;
    } else {
      range_ -= split;
      value_ -= split;
      b = 1;
    }
    while (range_ < 128) {
      value_ = (value_ << 1) | bit();
      range_ <<= 1;
      --max_bits_;
    }
    return b;
  }
  int64_t max_bits() const { return max_bits_; }

 private:
  uint32_t bit() {
    const size_t i = pos_++;
    return i / 8 < n_ ? (d_[i / 8] >> (7 - i % 8)) & 1 : 0;
  }
  const uint8_t *d_ = nullptr;
  size_t n_ = 0, pos_ = 0;
  uint32_t value_ = 0, range_ = 255;
  int64_t max_bits_ = 0;
};

int random_prob(v3dtest::Rng &rng) {
  switch (rng.range(0, 3)) {
    case 0:
      return rng.range(1, 255);
    case 1:
      return rng.range(1, 8);  // almost always 1
    case 2:
      return rng.range(248, 255);  // almost always 0
    default:
      return 128;
  }
}

enum Kind { kBool, kLiteral, kTree };
struct Symbol {
  Kind kind;
  int prob_or_bits;
  uint32_t value;
  uint8_t probs[9];
};

// Encodes random decisions, literals and intra-mode tree symbols; decodes them back.
void test_round_trip(uint64_t seed) {
  v3dtest::Rng rng(seed);
  const int n = rng.range(1, 3000);
  std::vector<Symbol> syms(n);
  v3dtest::BoolEncoder enc;
  enc.put(0, 128);  // marker bit
  for (Symbol &s : syms) {
    s.kind = static_cast<Kind>(rng.range(0, 2));
    if (s.kind == kBool) {
      s.prob_or_bits = random_prob(rng);
      // Mostly the likely value, as real streams are.
      const bool likely0 = rng.range(0, 255) < s.prob_or_bits;
      s.value = rng.range(0, 9) ? !likely0 : likely0;
      enc.put(s.value, s.prob_or_bits);
    } else if (s.kind == kLiteral) {
      s.prob_or_bits = rng.range(1, 24);
      s.value = rng.u32() & ((1u << s.prob_or_bits) - 1);
      enc.put_literal(s.value, s.prob_or_bits);
    } else {
      for (uint8_t &p : s.probs) p = static_cast<uint8_t>(random_prob(rng));
      s.value = rng.range(0, 9);
      enc.put_tree(v3d::vp9::kIntraModeTree, s.probs, s.value);
    }
  }
  const std::vector<uint8_t> data = enc.finish();
  // Also without the trailing zero bytes: bytes past the end must read as zeros.
  size_t trimmed = data.size();
  while (trimmed > 1 && data[trimmed - 1] == 0) --trimmed;
  for (size_t size : {data.size(), trimmed}) {
    std::vector<uint8_t> buf(data.begin(), data.begin() + size);
    BoolDecoder bd;
    if (!check(bd.init(buf.data(), buf.size()), "round trip seed %llu: init failed",
               (unsigned long long)seed))
      return;
    int bad = -1;
    for (int i = 0; i < n && bad < 0; ++i) {
      const Symbol &s = syms[i];
      uint32_t got;
      if (s.kind == kBool)
        got = bd.read_bool(s.prob_or_bits);
      else if (s.kind == kLiteral)
        got = bd.read_literal(s.prob_or_bits);
      else
        got = bd.read_tree(v3d::vp9::kIntraModeTree, s.probs);
      if (got != s.value) bad = i;
    }
    check(bad < 0, "round trip seed %llu size %zu: symbol %d of %d differs",
          (unsigned long long)seed, size, bad, n);
    // libvpx's vpx_reader_find_end: inside the data, past the symbols (only the encoder's
    // padding, 32 decisions and the flushed low bits, lies beyond).
    if (size == data.size()) {
      const size_t end = size_t(bd.find_end() - buf.data());
      check(end <= size && end + 10 >= size, "round trip seed %llu: find_end %zu of %zu",
            (unsigned long long)seed, end, size);
    }
    // The trimmed stream lacks the zero bytes the decoder shifted in, which libvpx calls an error.
    if (size == data.size()) {
      check(!bd.has_error(), "round trip seed %llu: has_error on a complete stream",
            (unsigned long long)seed);
      check(bd.bits_left() >= 0, "round trip seed %llu: bits_left %lld < 0",
            (unsigned long long)seed, (long long)bd.bits_left());
    }
  }
}

// Random bytes decoded by both decoders with random probabilities, far past the end.
void test_against_spec(uint64_t seed) {
  v3dtest::Rng rng(seed);
  std::vector<uint8_t> buf(rng.range(1, 64));
  for (uint8_t &b : buf) b = static_cast<uint8_t>(rng.u32());
  buf[0] &= 0x7f;  // marker bit 0 (the first decision at 128 is the top bit while value < 128)
  BoolDecoder bd;
  SpecBoolDecoder ref;
  const bool ok = bd.init(buf.data(), buf.size());
  const bool ref_ok = ref.init(buf.data(), buf.size());
  check(ok == ref_ok, "spec seed %llu: init %d, spec %d", (unsigned long long)seed, ok, ref_ok);
  const int n = static_cast<int>(buf.size()) * 8 + 200;
  for (int i = 0; i < n; ++i) {
    const int p = random_prob(rng);
    const int a = bd.read_bool(p), b = ref.read_bool(p);
    if (!check(a == b && bd.bits_left() == ref.max_bits(),
               "spec seed %llu size %zu: decision %d: %d vs spec %d, bits_left %lld vs %lld",
               (unsigned long long)seed, buf.size(), i, a, b, (long long)bd.bits_left(),
               (long long)ref.max_bits()))
      return;
    // has_error() only after the data ran out; certainly once 8 bits past the end are in.
    if (!check(
            !(bd.has_error() && ref.max_bits() >= 0) && !(ref.max_bits() < -8 && !bd.has_error()),
            "spec seed %llu: has_error %d with BoolMaxBits %lld", (unsigned long long)seed,
            bd.has_error(), (long long)ref.max_bits()))
      return;
  }
}

// Data that ends at an inaccessible page: decoding far past the end must not touch it.
void test_guard_page(uint64_t seed) {
  const long page = sysconf(_SC_PAGESIZE);
  auto *mem = static_cast<uint8_t *>(
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (!check(mem != MAP_FAILED, "mmap failed")) return;
  mprotect(mem + page, page, PROT_NONE);
  v3dtest::Rng rng(seed);
  for (int size = 1; size <= 40; ++size) {
    uint8_t *d = mem + page - size;
    for (int i = 0; i < size; ++i) d[i] = static_cast<uint8_t>(rng.u32());
    d[0] &= 0x7f;
    BoolDecoder bd;
    if (!bd.init(d, size)) continue;
    for (int i = 0; i < 100000 && bd.bits_left() > -200; ++i) bd.read_bool(random_prob(rng));
    bd.read_literal(20);
    check(bd.has_error(), "guard size %d: no error after reading far past the end", size);
  }
  munmap(mem, 2 * page);
}

void test_init() {
  BoolDecoder bd;
  uint8_t one = 0x80;  // marker bit 1
  check(!bd.init(&one, 1), "a set marker bit must fail init");
  uint8_t zero = 0x00;
  check(!bd.init(&zero, 0), "an empty buffer must fail init");
  check(bd.init(&zero, 1), "a cleared marker bit must pass init");
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  test_init();
  const int iters = v3dtest::scaled(400);
  for (int i = 0; i < iters; ++i) test_round_trip(seed + i);
  for (int i = 0; i < iters; ++i) test_against_spec(seed * 31 + i);
  test_guard_page(seed);
  return v3dtest::finish();
}
