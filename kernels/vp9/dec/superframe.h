// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 superframe index (spec Annex B): several frames in one packet, their sizes in an index at
// the packet's end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace v3d::vp9 {

constexpr int kMaxSuperframeFrames = 8;

struct SuperframeIndex {
  int count = 0;  // 0: no index, the packet is one frame
  uint32_t sizes[kMaxSuperframeFrames] = {};
  size_t index_size = 0;  // bytes of the index at the packet's end
};

// Looks for an index at the end of data (a marker byte 0b110mmfff at both ends of the index,
// with ff+1 frames and mm+1 bytes per little-endian size). Returns false with a message when
// an index is present but its frames do not fit before it; a packet without an index gives
// count 0. Frames of size 0 are allowed here (libvpx skips them).
bool parse_superframe_index(const uint8_t *data, size_t size, SuperframeIndex &index,
                            std::string &error);

}  // namespace v3d::vp9
