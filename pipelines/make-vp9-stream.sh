#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Makes a VP9 stream the way a streaming service would: textured moving content (ffmpeg's
# mandelbrot filter zooming into the detailed edge of the set while the picture pans, so every
# part of the frame has fine texture and motion) encoded by vpxenc in two passes with
#
#   --good --cpu-used=2 --end-usage=vbr --target-bitrate=3000 --auto-alt-ref=1
#   --lag-in-frames=16 --tile-columns=2
#
# (hidden alternate reference frames, superframes, three tile columns at 1080p). Prints one line
# saying what was made and how long the encoder took.
#
# Usage: make-vp9-stream.sh OUT.ivf [FRAMES [WIDTH HEIGHT]]   (defaults: 60, 1920, 1080)
# Environment: VPXENC_OPTS replaces the options above; VPXENC_THREADS (2) is passed as
# --threads (tile-column threads; the stream does not depend on it).
set -euo pipefail
out=$1
frames=${2:-60}
width=${3:-1920}
height=${4:-1080}
default_opts="--good --cpu-used=2 --end-usage=vbr --target-bitrate=3000 --auto-alt-ref=1"
default_opts="$default_opts --lag-in-frames=16 --tile-columns=2"
opts=${VPXENC_OPTS:-$default_opts}
for tool in ffmpeg vpxenc; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The source is rendered 1/6 larger than the stream and cropped with a moving origin: a pan of
# 5 and 3 pixels per frame on top of the zoom. maxiter bounds the render time.
pw=$((width * 7 / 6 / 2 * 2)) ph=$((height * 7 / 6 / 2 * 2))
ffmpeg -hide_banner -loglevel error -f lavfi -i "mandelbrot=size=${pw}x$ph:rate=30:maxiter=256:\
start_x=-0.743643887037151:start_y=0.131825904205330:start_scale=0.02:end_scale=0.002:end_pts=20,\
crop=$width:$height:x='min(5*n\,$((pw - width)))':y='min(3*n\,$((ph - height)))'" \
  -frames:v "$frames" -pix_fmt yuv420p -f yuv4mpegpipe -y "$tmp/src.y4m"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
vpxenc --codec=vp9 --quiet --threads="${VPXENC_THREADS:-2}" --limit="$frames" $opts --ivf \
  -o "$out" "$tmp/src.y4m"
t1=$(date +%s.%N)
awk -v t0="$t0" -v t1="$t1" -v n="$frames" -v w="$width" -v h="$height" \
    -v bytes="$(stat -c %s "$out")" -v opts="$opts" 'BEGIN {
  printf "stream: %dx%d, %d frames at 30/s, %d bytes (%.0f kbit/s), vpxenc %s: %.1f s\n",
         w, h, n, bytes, bytes * 8 * 30 / n / 1000, opts, t1 - t0 }'
