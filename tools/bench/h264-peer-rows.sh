#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The H.264 edge kernels beside FFmpeg's x86 ones (tools/bench/h264_peer_rows.cpp), one thread
# pinned to one core. FFmpeg is not part of the project: give the folder of an FFmpeg build
# (./configure && make in a scratch folder, never committed) holding
# libavcodec/x86/h264_deblock.o.
#
# Usage: h264-peer-rows.sh FFMPEG-BUILD [BUILD [TARGET]]
#   BUILD: the project's build tree (default build); TARGET: a SIMD target name (default: the best).
# Environment: CPU (the core to pin to, default 1), CXX (default g++).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
peer=${1:?usage: h264-peer-rows.sh FFMPEG-BUILD [BUILD [TARGET]]}
build=$(cd "${2:-$root/build}" && pwd)
obj=$peer/libavcodec/x86/h264_deblock.o
[ -f "$obj" ] || { echo "no $obj" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -no-pie: FFmpeg's objects for a static libavcodec are not position independent (the linker's
# text-relocation warnings about them are kept out of the table, shown only if the link fails).
"${CXX:-g++}" -O2 -std=c++17 -no-pie -I"$root/kernels/include" \
  "$root/tools/bench/h264_peer_rows.cpp" "$obj" -L"$build/kernels" -lv3dkernels \
  -Wl,-rpath,"$build/kernels" -o "$tmp/h264-peer-rows" 2>"$tmp/link.log" ||
  { cat "$tmp/link.log" >&2; exit 1; }
taskset -c "${CPU:-1}" "$tmp/h264-peer-rows" ${3:+"$3"}
