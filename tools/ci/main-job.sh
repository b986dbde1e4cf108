#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs, builds and runs the main job: a real VP9 stream decoded by v3dvp9dec
# (pipelines/vp9-showcase.sh: a 1920x1080 stream of textured moving content made here with
# vpxenc as a streaming service would, decoded by `filesrc ! ivfparse ! v3dvp9dec` on the cpu,
# gpu, hybrid and auto backends and checked frame by frame against libvpx, then timed (cpu, auto)
# against avdec_vp9 and vp9dec on the same stream; writes showcase-out/stream.ivf and
# showcase-out/frame-45.png).
# Then, as a second part, the deblocking post-filters on real decoded MPEG-2 video
# (pipelines/deblock-showcase.sh, fewer frames and backends than its defaults). Mesa's lavapipe
# stands in where the machine has no GPU.
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 1
bash tools/ci/install-deps.sh
meson setup build -Dvulkan=enabled -Dgst=enabled >/dev/null 2>&1 ||
  meson setup build --reconfigure -Dvulkan=enabled -Dgst=enabled
# Only what the two parts run: the plugin and the command-line decoder.
ninja -C build gst/libgstv3d.so tools/v3d-vp9dec
export GST_PLUGIN_PATH="$PWD/build/gst" GST_REGISTRY="$PWD/build/registry.dat"
echo "===== a real VP9 stream decoded by v3dvp9dec (pipelines/vp9-showcase.sh) ====="
bash pipelines/vp9-showcase.sh showcase-out
echo
echo "===== part 2: deblocking real decoded MPEG-2 video (pipelines/deblock-showcase.sh) ====="
NUM_BUFFERS=${DEBLOCK_BUFFERS:-60} BACKENDS=${DEBLOCK_BACKENDS:-cpu auto} \
  exec bash pipelines/deblock-showcase.sh showcase-out
