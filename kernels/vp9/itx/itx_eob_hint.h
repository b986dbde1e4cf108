// SPDX-License-Identifier: LGPL-2.1-or-later
// What the eob hint says about a block's non-zero square, for ItxAddBlock (itx_hwy.cpp):
// which blocks skip the region classification (itx_hwy_region.h) and go straight to the full
// block's path. Speed only: every path is exact for every block, so a wrong guess costs time,
// never a pixel.
//
// A valid stream's block has a non-zero coefficient at scan[eob - 1] (the VP9 specification's
// tokens end after a non-zero one; 32x32 blocks always use the default scan, and so do 16x16
// DCT_DCT blocks). For 32x32, where that position lies outside the top-left 24x24 square, the
// largest candidate square below the full block (itx_hwy_region.h), the classification would
// answer the full block anyway; where it lies outside the 16x16 square, it can only answer the
// 24x24 square or the full block. For 16x16 DCT_DCT, a position outside the 8x8 square leaves
// the full block as the only class. Checked against the scan tables by test_vp9_dec_tile_tables.
#pragma once

#include <cstdint>

namespace v3d {
namespace vp9 {

// Positions of default_scan_32x32 (VP9 specification, section 10.5): the first one outside the
// top-left 24x24 square, and, for p in [kScan32First24Out, kScan32First24Out + 192), bit
// p - kScan32First24Out of kScan32Outside24 set iff position p lies outside that square.
// (Blocks with eob > 512 are taken as dense without looking.)
constexpr int kScan32First24Out = 336;
constexpr uint64_t kScan32Outside24[3] = {
    // Positions 336 .. 399, 400 .. 463, 464 .. 527 (bit 0 first).
    0x00003F8000F801C1ull, 0x0FC383801F0001FCull, 0xFF0000FFFC003FF0ull};

// The same for the top-left 16x16 square, positions [kScan32First16Out, 512).
constexpr int kScan32First16Out = 135;
constexpr uint64_t kScan32Outside16[6] = {
    // Positions 135 .. 198, 199 .. 262, ..., 455 .. 518 (bit 0 first).
    0x12110280C0060801ull, 0xFF87E7FF6A904889ull, 0x87FE07FFE01FFF81ull,
    0x7FFFFC7FFF3FEF9Full, 0xFFDFF3FFF8FFFFF8ull, 0xFFFFFFFFFFFFFFFFull};

// The first positions of the default scans (section 10.5) outside the top-left s x s squares
// of the transform paths' classes: kScan<n>First<s>Out. Where every coefficient at a scan
// position >= eob is zero (the add_exact_eob slots' promise, vp9/itx/itx.h), eob <= that
// position puts every non-zero coefficient of a DCT_DCT block inside the square.
constexpr int kScan8First2Out = 3, kScan8First4Out = 12;
constexpr int kScan16First2Out = 3, kScan16First4Out = 10, kScan16First8Out = 38;
constexpr int kScan32First8Out = 34, kScan32First12Out = 70, kScan32First20Out = 240;

// The first scan indices whose positions lie outside the top-left 4(k+1) x 4(k+1) squares, per
// size, and for 8x8 and 16x16 per transform type (its scan, section 10.5: 0 DCT_DCT and
// 3 ADST_ADST the default scan, 1 ADST_DCT the row scan, 2 DCT_ADST the column scan), for the
// column-major slots' transposes (itx_cm.h): under the exact-eob promise, eob <= entry k puts
// every non-zero coefficient inside square k.
constexpr int16_t kScan8FirstOutSquare[4][1] = {{12}, {8}, {6}, {12}};
constexpr int16_t kScan16FirstOutSquare[4][3] = {{10, 38, 89}, {6, 22, 54}, {5, 17, 42},
                                                 {10, 38, 89}};
constexpr int16_t kScan32FirstOutSquare[7] = {9, 34, 70, 135, 240, 336, 448};

// True if a 32x32 block with this eob hint is taken to be non-zero outside the 24x24 square.
constexpr bool Eob32PastSquare24(int eob) {
  if (eob > 512) return true;
  const int p = eob - 1 - kScan32First24Out;
  return p >= 0 && ((kScan32Outside24[p >> 6] >> (p & 63)) & 1) != 0;
}

// True if a 32x32 block with this eob hint is taken to be non-zero outside the 16x16 square:
// its non-zero square is then the 24x24 one or the whole block (itx_hwy_region.h's classes).
constexpr bool Eob32PastSquare16(int eob) {
  if (eob > 512) return true;
  const int p = eob - 1 - kScan32First16Out;
  return p >= 0 && ((kScan32Outside16[p >> 6] >> (p & 63)) & 1) != 0;
}

// True if a 16x16 DCT_DCT block with this eob hint is taken to be non-zero outside the 8x8
// square: in default_scan_16x16 (section 10.5) positions 86..94 and 96..255 lie outside it
// (earlier positions outside it are left to the classification).
constexpr bool Eob16PastSquare8(int eob) { return eob > 86 && eob != 96; }

}  // namespace vp9
}  // namespace v3d
