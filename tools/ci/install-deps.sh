#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what gst-v3d needs on Debian 12 (run as root, or with sudo available).
#   tools/install-deps.sh [--cross]   --cross: also the aarch64 cross toolchain, qemu and arm64 Highway
set -euo pipefail
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
pkgs=(meson ninja-build pkg-config g++ glslang-tools libvulkan-dev mesa-vulkan-drivers vulkan-tools vulkan-validationlayers
      libhwy-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base
      gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
      gstreamer1.0-tools ffmpeg x264
      vpx-tools libvpx-dev  # the VP9 decoder's stream test: vpxenc/vpxdec, vp9-resize-enc
      clang libclang-rt-14-dev)  # clang: the libFuzzer targets (tools/ci/fuzz.sh)
if [ "${1:-}" = "--cross" ]; then
  $SUDO dpkg --add-architecture arm64
  pkgs+=(g++-aarch64-linux-gnu qemu-user libhwy-dev:arm64)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
