#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs, builds and runs the main job: real decoded video deblocked end to end
# (pipelines/deblock-showcase.sh: a 1920x1080 low-bitrate MPEG-2 clip made here, decoded by
# avdec_mpeg2video into the v3d pool, deblocked on every backend; prints frames/s, CPU time and
# GPU share per backend, checks every backend against the scalar one, writes
# showcase-out/before-after.png and showcase-out/deblocked.mkv), then the GPU inverse-transform
# pipeline (pipelines/vp9idct-gpu.sh). Mesa's lavapipe stands in where the machine has no GPU.
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 1
bash tools/ci/install-deps.sh
meson setup build -Dvulkan=enabled -Dgst=enabled >/dev/null 2>&1 || meson setup build --reconfigure -Dvulkan=enabled -Dgst=enabled
ninja -C build
export V3D_REQUIRE_GPU=1
export GST_PLUGIN_PATH="$PWD/build/gst" GST_REGISTRY="$PWD/build/registry.dat"
echo "===== deblocking real decoded video (pipelines/deblock-showcase.sh) ====="
bash pipelines/deblock-showcase.sh showcase-out
echo
echo "===== VP9 inverse transforms on the GPU (pipelines/vp9idct-gpu.sh) ====="
exec bash pipelines/vp9idct-gpu.sh "$@"
