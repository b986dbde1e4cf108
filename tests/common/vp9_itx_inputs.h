// SPDX-License-Identifier: LGPL-2.1-or-later
// Test inputs for the VP9 inverse transforms, made the way an encoder makes them: a residual
// (random, smooth, edges, extremes), a forward transform with the scale VP9's inverse expects,
// quantization with a random step (32x32 dequantized values halved, as VP9 does), and an "eob
// cut" that keeps only a prefix of a diagonal scan or a region reaching an optimized
// implementation's fast paths. Everything is integer arithmetic (the basis is rounded once from
// double), so a seed gives the same inputs on every platform (x86, aarch64 under qemu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/test_util.h"

namespace v3dtest {
namespace vp9 {

constexpr int kMaxCoeffs = 32 * 32;

inline int tx_n(int tx_size) { return 4 << tx_size; }
// The 14 valid (tx_size, tx_type) pairs, in a fixed order.
struct TxPair {
  int tx_size, tx_type;
};
constexpr TxPair kTxPairs[] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 0}, {1, 1},
                               {1, 2}, {1, 3}, {2, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 0}};
const char *tx_name(int tx_size, int tx_type);  // "8x8 ADST_DCT"

// Which coefficients survive after quantization.
enum Cut {
  kCutFull,       // none removed
  kCutScan,       // zero everything from a random position of the diagonal scan on
  kCutDcOnly,     // coefficient 0 only
  kCutTopLeft4,   // rows and columns 0..3 (full block for 4x4)
  kCutTopLeft8,   // rows and columns 0..7
  kCutTopLeft16,  // rows and columns 0..15
  kCutFirstRow,   // row 0 only
  kCutFirstCol,   // column 0 only
  kCutSparse,     // a few random coefficients anywhere
  kNumCuts
};
const char *cut_name(int cut);

// Diagonal ("zig-zag-like") scan of an n x n block: raster indices sorted by (i + j, i).
const uint16_t *diag_scan(int tx_size);
// 1 + scan position (diag_scan) of the last non-zero coefficient; 0 if all are zero.
int eob_of(const int16_t *coeffs, int tx_size);

// Where an n x n block's non-zero coefficients lie: eob = 1 + the last one's raster index (only
// a hint to the kernels), extent = the side of the top-left square holding them all (at least
// 1), rmax = the largest sum of |coefficients| of a row.
struct BlockShape {
  int eob, extent, rmax;
};
BlockShape block_shape(const int16_t *coeffs, int n);

// The top-left part of a 32x32 block that default_scan_32x32 visits first, positions 0..239
// (kScan32First20Out, itx_eob_hint.h; test_vp9_dec_tile_tables checks both): (r, c) with
// r / 4 + c / 4 <= 4, inside the 20x20 square. A block non-zero only there keeps the exact-eob
// entry's promise with eob 240, which runs it as the 20x20 square where the target has one.
constexpr int kScan32Prefix20Eob = 240;
inline bool in_scan32_prefix20(int r, int c) { return r / 4 + c / 4 <= 4; }
// The 32x32 DCT_DCT 16-bit path's square a block exercises, as an index into kSquares32: by its
// extent, except that a block of extent 17..20 non-zero only in the prefix above counts as the
// exact-eob entry's 20x20 square (3).
constexpr int kSquares32[6] = {8, 12, 16, 20, 24, 32};
int square32_index(const int16_t *coeffs);

// Largest sum of |row results| over the columns of the reference's row pass of an 8x8, 16x16
// or 32x32 block (the column pass's per-pass L1 check).
int column_sum_max(const TxPair &p, const int16_t *coeffs);

// Residual patterns (values in [-255, 255]).
enum Pattern {
  kPatRandom,    // uniform in [-255, 255]
  kPatSmall,     // uniform in [-a, a], a random in 1..32
  kPatSmooth,    // plane + gentle noise
  kPatEdge,      // two levels split by a random line
  kPatPlus255,   // all +255
  kPatMinus255,  // all -255
  kPatChecker,   // +-255 checkerboard
  kPatStripesH,  // +-255 alternating rows
  kPatStripesV,  // +-255 alternating columns
  kPatSigns,     // random +-255
  kNumPatterns
};
void make_residual(Rng &rng, int tx_size, int pattern, int *residual);

// Dequantized coefficients of residual: forward transform, quantization with steps dc_q, ac_q
// (VP9 8-bit: dc 4..1336, ac 4..1828), rounding offset round64/64 (32 = nearest; encoders use
// less, a dead zone), 32x32 values halved as VP9's dequantization does, clamped so that every
// value fits int16. For WHT_WHT the transform is exact (lossless) and the steps are ignored
// (VP9's lossless quantizer is 4). Returns the eob (diag_scan) of the result.
int quantize_residual(const int *residual, int tx_size, int tx_type, int dc_q, int ac_q,
                      int round64, int16_t *coeffs);
// True when every value a decoder stores while inverse-transforming coeffs (the reference's
// 1-D transforms, both passes) fits int16, as the VP9 specification requires of conformant 8-bit
// streams; slightly stricter (it also bounds a +- b before a multiply by cos64(16)).
bool conformant(const int16_t *coeffs, int tx_size, int tx_type);
// Zeroes the coefficients the cut removes; returns the new eob.
int apply_cut(Rng &rng, int cut, int tx_size, int16_t *coeffs);

// One valid input: random pattern and quantizer, then the cut; never all zero (a DC is added if
// the cut left nothing); drawn again until conformant(). Returns the eob.
int make_valid_coeffs(Rng &rng, int tx_size, int tx_type, int cut, int16_t *coeffs);
// The largest valid magnitudes: an extreme pattern (+-255 levels, checkerboards, stripes,
// random signs) with the smallest quantizer (4, or the next ones until conformant()) and
// nearest rounding. Returns the eob.
int make_extreme_coeffs(Rng &rng, int tx_size, int tx_type, int16_t *coeffs);
// Arbitrary int16 values (any magnitude, special values, random density): not valid VP9, used to
// check that every backend follows the wrapping contract. Returns n*n.
int make_raw_coeffs(Rng &rng, int tx_size, int16_t *coeffs);

// 64-bit FNV-1a.
uint64_t fnv1a(const void *data, size_t size, uint64_t h = 0xcbf29ce484222325ull);

// The procedure of the golden table: `cases` inputs from Rng(seed) (cycling through the cuts,
// every 8th an extreme one), each applied by fn to random prediction pixels (skipped when eob is
// 0), the FNV-1a of all resulting blocks. Same signature as v3d_vp9_itxfm_add_ref.
using AddFn = void (*)(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int tx_size,
                       int tx_type, int eob);
uint64_t golden_hash(AddFn fn, int tx_size, int tx_type, uint64_t seed, int cases);

}  // namespace vp9
}  // namespace v3dtest
