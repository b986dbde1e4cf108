// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 inverse transform + add rows of v3d-bench, one list and one timer for the two sections
// that time them: itx-rows (bench_itx_rows.cpp: every CPU target, coefficient kinds side by side)
// and peers (bench_peers.cpp: the chosen target beside FFmpeg's checkasm). The rows are
// checkasm's (tests/checkasm/vp9dsp.c's itxfm loop): every valid size and type as a whole block
// and, for DCT_DCT, the "subN" blocks whose non-zero coefficients lie where the scan stays inside
// the top-left N x N square, eob the scan position where it first leaves (checkasm's
// copy_subcoefs rule), so both sections and the peer do the same work per row.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "vp9/itx/itx.h"

namespace v3dbench {

struct ItxRow {
  int size;  // v3d::vp9::TxSize
  int type;  // v3d::vp9::TxType
  int sub;   // non-zero coefficients inside the top-left sub x sub square; 4 << size: all
  bool whole() const { return sub == 4 << size; }
};

// checkasm's rows in its order: per size (4x4 .. 32x32) and valid type, sub 1, 2, 4, 8, 12, 16,
// ... up to the block size for DCT_DCT, the whole block alone for the other types.
std::vector<ItxRow> itx_rows_checkasm();

// checkasm's name of the row's 8-bit function, e.g. "vp9_inv_dct_dct_8x8_sub4_add_8".
std::string itx_row_name(const ItxRow &r);

// Coefficient values of a row.
enum class ItxCoeffs {
  kReal,   // as checkasm makes its own: the forward transform of a random residual in
           // [-255, 255] at VP9's finest quantizer (step 4), nearly every coefficient non-zero
  kSmall,  // uniform in [-kItxSmallMax, kItxSmallMax]: inside every 16-bit path's bound
           // (docs/itx_int16_bounds.md), as quieter real blocks
  kWide,   // uniform in [-kItxWideMax, kItxWideMax]: beyond what a valid stream holds, so the
           // 32-bit paths run (and the checks that reject the 16-bit ones)
};
constexpr int kItxSmallMax = 48, kItxWideMax = 2047;

// The row's coefficients (n x n, raster order) of kind `kind` drawn from `seed`, each kept
// position non-zero; returns the eob.
int itx_row_coeffs(const ItxRow &r, ItxCoeffs kind, uint64_t seed, std::vector<int16_t> *c);

// ns per call of fn on coefficients c (at most 32 x 32) with eob, adding into one 64x64
// destination of random pixels (ns_per_call of bench_peer_run.h: the median of 300 batches of
// 128 calls, after a warm-up). Every call times on copies of the two at the same addresses, so
// that two timings of one function on one block do not differ by where the heap put them.
double time_itx_row(v3d::vp9::ItxAddFn fn, const std::vector<int16_t> &c, int eob,
                    uint64_t seed);

// The exact-eob entries (ItxDsp::add_exact_eob, v3d_vp9_itxfm_add_exact_eob) promise that every
// coefficient at a scan position >= eob is zero, in the VP9 scan of the size and type (the
// decoder's, vp9/dec/tile_tables.h scan_for; WHT_WHT reads the default scan). Returns the first
// scan position >= eob whose coefficient in c is non-zero, or -1 where the promise holds.
int itx_exact_eob_broken_at(const ItxRow &r, const std::vector<int16_t> &c, int eob);

// ns per call of dsp's add_exact_eob slot for the row, timed as time_itx_row, after two checks:
// the promise above holds for (c, eob), and the slot's pixels equal the add slot's on the
// destination it is timed on. Where either fails, prints an error line naming `label` to `out`
// and returns -1 without timing.
double time_itx_row_exact(const v3d::vp9::ItxDsp &dsp, const ItxRow &r,
                          const std::vector<int16_t> &c, int eob, uint64_t seed,
                          const char *label, FILE *out);
// As time_itx_row_exact, for dsp's add_exact_eob_cm slot on the block transposed (column-major:
// the layout that slot reads); pixels checked against the add slot on c. -1 where it fails.
double time_itx_row_exact_cm(const v3d::vp9::ItxDsp &dsp, const ItxRow &r,
                             const std::vector<int16_t> &c, int eob, uint64_t seed,
                             const char *label, FILE *out);
// The decoder's entry for the row's slot: time_itx_row_exact_cm where dsp's cm_native says the
// decoder writes the slot's blocks column-major, else time_itx_row_exact.
double time_itx_row_decoder(const v3d::vp9::ItxDsp &dsp, const ItxRow &r,
                            const std::vector<int16_t> &c, int eob, uint64_t seed,
                            const char *label, FILE *out);

// The fixed destination (64x64 pixels, stride 64) and coefficient block (32x32) that every
// timing above uses (bench_itx_row.cpp says why), for other sections that time transforms.
uint8_t *itx_timed_dst();
int16_t *itx_timed_coeffs();

}  // namespace v3dbench
