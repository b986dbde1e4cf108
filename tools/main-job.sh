#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs, builds and runs the main job: a real GStreamer pipeline (pipelines/vp9idct-gpu.sh)
# in which v3dvp9idct applies VP9 inverse transforms on the GPU (Mesa's lavapipe where the machine
# has no GPU), then prints what it did and the scheduler's figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
meson setup build -Dvulkan=enabled -Dgst=enabled >/dev/null 2>&1 || meson setup build --reconfigure -Dvulkan=enabled -Dgst=enabled
ninja -C build
export V3D_REQUIRE_GPU=1
export GST_PLUGIN_PATH="$PWD/build/gst" GST_REGISTRY="$PWD/build/registry.dat"
exec bash pipelines/vp9idct-gpu.sh "$@"
