// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench, VP9 inverse transforms: the workloads (a 1920x1088 frame's worth of blocks with
// realistic coefficients, from the test library's block generator) and the frames they run on.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "v3d/v3d.h"

namespace v3dbench {
namespace itx {

constexpr int kWidth = 1920, kHeight = 1088;

struct Workload {
  std::string name;
  int tx_size = 0, tx_type = 0;  // tx_type -1: mixed
  std::vector<V3dVp9TxBlock> blocks;
  std::vector<int16_t> coeffs;
};

// Tiles all three planes of a 1920x1088 frame with blocks of one size (mixed: random sizes and
// types per 32x32 cell). Every block is coded.
Workload make_workload(int tx_size, int tx_type, bool full, uint64_t seed);

// One 4:2:0 frame in shared memory (or plain memory when ctx is NULL).
struct Frame {
  uint8_t *planes[3] = {};
  ptrdiff_t strides[3] = {};
  size_t sizes[3] = {};
  Frame(V3dContext *ctx, int w, int h) {
    for (int p = 0; p < 3; p++) {
      strides[p] = p ? w / 2 : w;
      sizes[p] = static_cast<size_t>(strides[p]) * (p ? h / 2 : h);
      planes[p] = static_cast<uint8_t *>(v3d_shared_alloc(ctx, sizes[p]));
      for (size_t k = 0; k < sizes[p]; k++) planes[p][k] = static_cast<uint8_t>((k * 7 + p) & 255);
    }
  }
  ~Frame() {
    for (auto *p : planes) v3d_shared_free(p);
  }
  void copy_from(const Frame &o) {
    for (int p = 0; p < 3; p++) memcpy(planes[p], o.planes[p], sizes[p]);
  }
};

// The workload's coefficients in shared memory, as a decoder that writes its dequantized
// coefficients straight into v3d_shared_alloc() memory would have them: the GPU reads them
// without a copy.
struct SharedCoeffs {
  int16_t *data;
  explicit SharedCoeffs(V3dContext *ctx, const std::vector<int16_t> &c)
      : data(static_cast<int16_t *>(v3d_shared_alloc(ctx, c.size() * sizeof(int16_t)))) {
    memcpy(data, c.data(), c.size() * sizeof(int16_t));
  }
  ~SharedCoeffs() { v3d_shared_free(data); }
};

// n frames of shared memory of ctx, each with the workload's blocks and coefficients, as a batch
// for v3d_vp9_itxfm_add_frames.
struct FrameBatch {
  std::vector<std::unique_ptr<Frame>> owned;
  std::vector<V3dVp9ItxFrame> frames;
  FrameBatch(V3dContext *ctx, const Workload &w, const SharedCoeffs &coeffs, int n) : frames(n) {
    for (int i = 0; i < n; i++) {
      owned.emplace_back(new Frame(ctx, kWidth, kHeight));
      V3dVp9ItxFrame &f = frames[i];
      for (int p = 0; p < 3; p++) {
        f.planes[p] = owned[i]->planes[p];
        f.strides[p] = owned[i]->strides[p];
      }
      f.width = kWidth;
      f.height = kHeight;
      f.blocks = w.blocks.data();
      f.n_blocks = w.blocks.size();
      f.coeffs = coeffs.data;
      f.n_coeffs = w.coeffs.size();
    }
  }
};

}  // namespace itx
}  // namespace v3dbench
