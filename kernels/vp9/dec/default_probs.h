// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 default probability tables (spec section 10.5).
#pragma once

#include <cstdint>

#include "vp9/dec/probs.h"

namespace v3d::vp9 {

// Coefficients, per transform size: [plane_type][ref][band][ctx][node].
extern const uint8_t kDefaultCoefProbs4x4[kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts][3];
extern const uint8_t kDefaultCoefProbs8x8[kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts][3];
extern const uint8_t kDefaultCoefProbs16x16[kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts][3];
extern const uint8_t kDefaultCoefProbs32x32[kPlaneTypes][kRefTypes][kCoefBands][kCoefContexts][3];

// Model expansion: kPareto8Full[p - 1] gives the probabilities of the token tree's nodes 3..10
// (after ZERO/ONE, i.e. from the TWO_TOKEN node on) when the coded third node probability is p.
extern const uint8_t kPareto8Full[255][8];

// Intra frames (key frames and intra-only frames) use these fixed tables instead of the context's
// y_mode_probs / uv_mode_probs / partition_probs.
extern const uint8_t kKfYModeProbs[kIntraModes][kIntraModes][kIntraModes - 1];  // [above][left]
extern const uint8_t kKfUvModeProbs[kIntraModes][kIntraModes - 1];              // [y_mode]
extern const uint8_t kKfPartitionProbs[kPartitionContexts][kPartitionTypes - 1];

extern const uint8_t kDefaultYModeProbs[kBlockSizeGroups][kIntraModes - 1];
extern const uint8_t kDefaultUvModeProbs[kIntraModes][kIntraModes - 1];
extern const uint8_t kDefaultPartitionProbs[kPartitionContexts][kPartitionTypes - 1];
extern const uint8_t kDefaultInterModeProbs[kInterModeContexts][kInterModes - 1];
extern const uint8_t kDefaultInterpFilterProbs[kInterpFilterContexts][kSwitchableFilters - 1];
extern const uint8_t kDefaultIsInterProb[kIsInterContexts];
extern const uint8_t kDefaultCompModeProb[kCompInterContexts];
extern const uint8_t kDefaultCompRefProb[kRefContexts];
extern const uint8_t kDefaultSingleRefProb[kRefContexts][2];
extern const uint8_t kDefaultSkipProb[kSkipContexts];
extern const uint8_t kDefaultTxProbs8x8[kTxSizeContexts][1];
extern const uint8_t kDefaultTxProbs16x16[kTxSizeContexts][2];
extern const uint8_t kDefaultTxProbs32x32[kTxSizeContexts][3];
extern const MvProbs kDefaultMvProbs;

// Sets fc's coefficient probabilities to the defaults.
void load_default_coef_probs(FrameContext &fc);
// Sets every probability of fc to the defaults (coefficients, modes, mv).
void load_default_probs(FrameContext &fc);

}  // namespace v3d::vp9
