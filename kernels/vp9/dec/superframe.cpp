// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 superframe index (spec Annex B.2, as libvpx's vp9_parse_superframe_index).
#include "vp9/dec/superframe.h"

namespace v3d::vp9 {

bool parse_superframe_index(const uint8_t *data, size_t size, SuperframeIndex &index,
                            std::string &error) {
  index = SuperframeIndex();
  if (size == 0) return true;
  const uint8_t marker = data[size - 1];
  if ((marker & 0xe0) != 0xc0) return true;
  const int frames = (marker & 0x7) + 1;
  const int mag = ((marker >> 3) & 0x3) + 1;
  const size_t index_size = 2 + static_cast<size_t>(mag) * frames;
  // Without the matching first marker byte this is a frame's last byte, not an index.
  if (size < index_size || data[size - index_size] != marker) return true;
  const uint8_t *x = data + size - index_size + 1;
  uint64_t total = 0;
  for (int i = 0; i < frames; ++i) {
    uint32_t s = 0;
    for (int j = 0; j < mag; ++j) s |= static_cast<uint32_t>(*x++) << (8 * j);
    index.sizes[i] = s;
    total += s;
  }
  if (total > size - index_size) {
    error = "invalid frame size in superframe index (frames exceed the packet)";
    return false;
  }
  index.count = frames;
  index.index_size = index_size;
  return true;
}

}  // namespace v3d::vp9
