// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 probability context (spec 10.5 and the saved "frame contexts") and the symbol counts that
// backward adaptation (spec 8.4.2-8.4.4) needs. Field names follow the spec's syntax elements;
// dimensions and index orders follow libvpx, whose counts the adaptation mirrors.
//
// Coefficient probabilities are one contiguous block per transform size, indexed
// [tx_size][plane_type][ref][band][ctx][node], so a block's token loop touches one 2-KiB-range
// table; band 0 uses only contexts 0..2.
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d::vp9 {

constexpr int kTxSizes = 4;
constexpr int kPlaneTypes = 2;  // 0: Y, 1: UV
constexpr int kRefTypes = 2;    // 0: intra block, 1: inter block
constexpr int kCoefBands = 6;
constexpr int kCoefContexts = 6;
constexpr int kUnconstrainedNodes = 3;  // coded probabilities; the rest come from the Pareto table
constexpr int kTxSizeContexts = 2;
constexpr int kSkipContexts = 3;
constexpr int kInterModeContexts = 7;
constexpr int kInterModes = 4;  // NEARESTMV, NEARMV, ZEROMV, NEWMV (in inter_mode tree order)
constexpr int kSwitchableFilters = 3;
constexpr int kInterpFilterContexts = 4;
constexpr int kIsInterContexts = 4;
constexpr int kCompInterContexts = 5;
constexpr int kRefContexts = 5;
constexpr int kBlockSizeGroups = 4;
constexpr int kIntraModes = 10;
constexpr int kPartitionContexts = 16;
constexpr int kPartitionTypes = 4;
constexpr int kMvJoints = 4;
constexpr int kMvClasses = 11;
constexpr int kClass0Size = 2;
constexpr int kMvOffsetBits = 10;
constexpr int kMvFpSize = 4;

// Intra prediction modes (spec intra_mode, libvpx PREDICTION_MODE), then the inter modes.
enum PredictionMode : uint8_t {
  DC_PRED = 0,
  V_PRED = 1,
  H_PRED = 2,
  D45_PRED = 3,
  D135_PRED = 4,
  D117_PRED = 5,
  D153_PRED = 6,
  D207_PRED = 7,
  D63_PRED = 8,
  TM_PRED = 9,
  NEARESTMV = 10,
  NEARMV = 11,
  ZEROMV = 12,
  NEWMV = 13,
};

enum PartitionType : uint8_t {
  PARTITION_NONE = 0,
  PARTITION_HORZ = 1,
  PARTITION_VERT = 2,
  PARTITION_SPLIT = 3,
};

enum MvJoint : uint8_t {
  MV_JOINT_ZERO = 0,    // both components zero
  MV_JOINT_HNZVZ = 1,   // row zero, column non-zero
  MV_JOINT_HZVNZ = 2,   // row non-zero, column zero
  MV_JOINT_HNZVNZ = 3,  // both non-zero
};

// Motion vector component probabilities; comps[0] is the row (vertical), comps[1] the column.
struct MvComponentProbs {
  uint8_t sign;
  uint8_t classes[kMvClasses - 1];
  uint8_t class0_bit[kClass0Size - 1];
  uint8_t bits[kMvOffsetBits];
  uint8_t class0_fr[kClass0Size][kMvFpSize - 1];
  uint8_t fr[kMvFpSize - 1];
  uint8_t class0_hp;
  uint8_t hp;
};

struct MvProbs {
  uint8_t joints[kMvJoints - 1];
  MvComponentProbs comps[2];
};

// One probability context: what the four saved frame contexts hold and what a frame decodes with.
struct FrameContext {
  uint8_t tx_probs_8x8[kTxSizeContexts][1];
  uint8_t tx_probs_16x16[kTxSizeContexts][2];
  uint8_t tx_probs_32x32[kTxSizeContexts][3];
  uint8_t coef_probs[kTxSizes][kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts]
                    [kUnconstrainedNodes];
  uint8_t skip_prob[kSkipContexts];
  uint8_t inter_mode_probs[kInterModeContexts][kInterModes - 1];
  uint8_t interp_filter_probs[kInterpFilterContexts][kSwitchableFilters - 1];
  uint8_t is_inter_prob[kIsInterContexts];
  uint8_t comp_mode_prob[kCompInterContexts];
  uint8_t single_ref_prob[kRefContexts][2];
  uint8_t comp_ref_prob[kRefContexts];
  uint8_t y_mode_probs[kBlockSizeGroups][kIntraModes - 1];
  uint8_t uv_mode_probs[kIntraModes][kIntraModes - 1];
  uint8_t partition_probs[kPartitionContexts][kPartitionTypes - 1];
  MvProbs mv;
};

// Coefficient token classes counted for adaptation (libvpx's model tokens).
enum CoefCountToken : uint8_t {
  COUNT_ZERO_TOKEN = 0,
  COUNT_ONE_TOKEN = 1,
  COUNT_TWO_TOKEN = 2,  // any token above ONE
  COUNT_EOB_MODEL_TOKEN = 3,
};

struct MvComponentCounts {
  uint32_t sign[2];
  uint32_t classes[kMvClasses];
  uint32_t class0[kClass0Size];
  uint32_t bits[kMvOffsetBits][2];
  uint32_t class0_fp[kClass0Size][kMvFpSize];
  uint32_t fp[kMvFpSize];
  uint32_t class0_hp[2];
  uint32_t hp[2];
};

// Symbol counts of one frame, filled by the tile decoder when the frame is adapted
// (error_resilient_mode == 0 and frame_parallel_decoding_mode == 0). Zero it before the frame;
// tiles decoded in parallel each fill their own and the decoder sums them (add_counts()).
struct Counts {
  uint32_t y_mode[kBlockSizeGroups][kIntraModes];  // inter frames' intra blocks only
  uint32_t uv_mode[kIntraModes][kIntraModes];      // [y_mode][uv_mode], inter frames only
  uint32_t partition[kPartitionContexts][kPartitionTypes];
  // [tx_size][plane_type][ref][band][ctx][CoefCountToken]
  uint32_t coef[kTxSizes][kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts]
               [kUnconstrainedNodes + 1];
  // Times the "more coefficients" (EOB) decision was coded at each position.
  uint32_t eob_branch[kTxSizes][kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts];
  uint32_t interp_filter[kInterpFilterContexts][kSwitchableFilters];  // by InterpFilter value
  uint32_t inter_mode[kInterModeContexts][kInterModes];               // by (mode - NEARESTMV)
  uint32_t is_inter[kIsInterContexts][2];
  uint32_t comp_mode[kCompInterContexts][2];
  uint32_t single_ref[kRefContexts][2][2];
  uint32_t comp_ref[kRefContexts][2];
  uint32_t tx_32x32[kTxSizeContexts][4];  // by chosen tx_size, max 32x32
  uint32_t tx_16x16[kTxSizeContexts][3];
  uint32_t tx_8x8[kTxSizeContexts][2];
  uint32_t skip[kSkipContexts][2];
  uint32_t mv_joints[kMvJoints];
  MvComponentCounts mv_comps[2];
};

// Adds every counter of src to dst (tiles decoded in parallel).
inline void add_counts(Counts &dst, const Counts &src) {
  static_assert(sizeof(Counts) % sizeof(uint32_t) == 0, "Counts is all uint32_t");
  auto *d = reinterpret_cast<uint32_t *>(&dst);
  const auto *s = reinterpret_cast<const uint32_t *>(&src);
  for (size_t i = 0; i < sizeof(Counts) / sizeof(uint32_t); ++i) d[i] += s[i];
}

}  // namespace v3d::vp9
