// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 decoding trees (spec 9.3), in the form BoolDecoder::read_tree() and the adaptation's
// tree merge take: tree[i] > 0 indexes the next node pair, tree[i] <= 0 is a leaf -symbol.
// Symbols use the enumerations of frame_header.h / probs.h.
#pragma once

#include "vp9/dec/bool_decoder.h"
#include "vp9/dec/frame_header.h"
#include "vp9/dec/probs.h"

namespace v3d::vp9 {

inline constexpr TreeIndex kPartitionTree[6] = {
    -PARTITION_NONE, 2, -PARTITION_HORZ, 4, -PARTITION_VERT, -PARTITION_SPLIT};

inline constexpr TreeIndex kIntraModeTree[18] = {
    -DC_PRED, 2,          -TM_PRED,   4,         -V_PRED, 6,         8,  12,         -H_PRED,
    10,       -D135_PRED, -D117_PRED, -D45_PRED, 14,      -D63_PRED, 16, -D153_PRED, -D207_PRED};

inline constexpr TreeIndex kSegmentTree[14] = {2, 4, 6, 8, 10, 12, 0, -1, -2, -3, -4, -5, -6, -7};

// Symbols are inter modes minus NEARESTMV (0 NEARESTMV, 1 NEARMV, 2 ZEROMV, 3 NEWMV).
inline constexpr TreeIndex kInterModeTree[6] = {-(ZEROMV - NEARESTMV),    2,
                                                -(NEARESTMV - NEARESTMV), 4,
                                                -(NEARMV - NEARESTMV),    -(NEWMV - NEARESTMV)};

inline constexpr TreeIndex kInterpFilterTree[4] = {-kFilterRegular, 2, -kFilterSmooth,
                                                   -kFilterSharp};

inline constexpr TreeIndex kMvJointTree[6] = {
    -MV_JOINT_ZERO, 2, -MV_JOINT_HNZVZ, 4, -MV_JOINT_HZVNZ, -MV_JOINT_HNZVNZ};

inline constexpr TreeIndex kMvClassTree[20] = {0,  2,  -1, 4,  6,  8,  -2, -3, 10, 12,
                                               -4, -5, -6, 14, 16, 18, -7, -8, -9, -10};

inline constexpr TreeIndex kMvClass0Tree[2] = {0, -1};

inline constexpr TreeIndex kMvFrTree[6] = {0, 2, -1, 4, -2, -3};

// tx_size with the largest allowed size max_tx (kTx8x8..kTx32x32): tx_size_8 / 16 / 32 trees.
inline constexpr TreeIndex kTxSize8Tree[2] = {-kTx4x4, -kTx8x8};
inline constexpr TreeIndex kTxSize16Tree[4] = {-kTx4x4, 2, -kTx8x8, -kTx16x16};
inline constexpr TreeIndex kTxSize32Tree[6] = {-kTx4x4, 2, -kTx8x8, 4, -kTx16x16, -kTx32x32};

}  // namespace v3d::vp9
