#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job: a real VP9 stream decoded by v3dvp9dec. Makes a 1920x1080 stream of textured
# moving content with vpxenc as a streaming service would (pipelines/make-vp9-stream.sh), then
#
#   filesrc ! ivfparse ! v3dvp9dec backend=B ! y4menc ! filesink
#
# for each backend B of BACKENDS, checking every frame's MD5 against `vpxdec --i420 --md5`
# (libvpx, one MD5 per frame); then times the same stream through
#
#   filesrc ! ivfparse ! DECODER ! fakesink
#
# for v3dvp9dec (each backend of TIME_BACKENDS), avdec_vp9 (FFmpeg) and vp9dec (libvpx), best of
# REPEAT runs, printing frames/s and the CPU time (user + system of the whole gst-launch-1.0
# process, all threads) per frame; and writes OUT_DIR/stream.ivf and OUT_DIR/frame-N.png (shown
# frame N as v3dvp9dec decoded it).
#
# Usage: vp9-showcase.sh [OUT_DIR]             (default: ./showcase-out)
# Environment (defaults): NUM_FRAMES (60), WIDTH (1920), HEIGHT (1080), BACKENDS ("cpu gpu
# hybrid auto"; gpu and hybrid are left out, and said so, where there is no Vulkan device),
# TIME_BACKENDS ("cpu auto"),
# THREADS (2: vp9dec threads, avdec_vp9 max-threads; v3dvp9dec keeps its automatic cpu-threads),
# REPEAT (2), PNG_FRAME (45), STREAM (an existing IVF to use instead of making one),
# GST_PLUGIN_PATH (the build's gst/ directory).
# Exit: 0 when every backend matched libvpx on every frame, 1 otherwise, 77 (Meson's "skipped")
# when ffmpeg, vpxenc or vpxdec is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/lib.sh"

OUT_DIR=${1:-${OUT_DIR:-showcase-out}}
NUM_FRAMES=${NUM_FRAMES:-60}
WIDTH=${WIDTH:-1920}
HEIGHT=${HEIGHT:-1080}
BACKENDS=${BACKENDS:-cpu gpu hybrid auto}
TIME_BACKENDS=${TIME_BACKENDS:-cpu auto}
THREADS=${THREADS:-2}
REPEAT=${REPEAT:-2}
PNG_FRAME=${PNG_FRAME:-45}

v3d_require_plugin
for tool in ffmpeg vpxenc vpxdec; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
for e in v3dvp9dec ivfparse y4menc; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 || { echo "error: element $e not found" >&2; exit 1; }
done
mkdir -p "$OUT_DIR"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stream=$OUT_DIR/stream.ivf
if [ -n "${STREAM:-}" ]; then
  [ "$STREAM" -ef "$stream" ] || cp "$STREAM" "$stream"
  echo "stream: $STREAM ($(stat -c %s "$stream") bytes)"
else
  bash "$here/make-vp9-stream.sh" "$stream" "$NUM_FRAMES" "$WIDTH" "$HEIGHT"
fi
vpxdec --i420 --md5 -o "$work/ref-%4.i420" "$stream" | awk '{print $1}' >"$work/ref.md5"
rm -f "$work"/ref-*.i420
nref=$(wc -l <"$work/ref.md5")
echo "libvpx (vpxdec --i420 --md5): $nref frames shown"

# y4m_md5s FILE: the MD5 of each frame of a 4:2:0 Y4M file (the planes after each "FRAME\n").
y4m_md5s() {
  local f=$1 hdr w h size total n i
  hdr=$(head -n 1 "$f" | wc -c)
  w=$(head -n 1 "$f" | tr ' ' '\n' | sed -n 's/^W//p')
  h=$(head -n 1 "$f" | tr ' ' '\n' | sed -n 's/^H//p')
  size=$((w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)))
  total=$(stat -c %s "$f")
  n=$(((total - hdr) / (size + 6)))
  for ((i = 0; i < n; i++)); do
    dd if="$f" bs=1M iflag=skip_bytes,count_bytes skip=$((hdr + i * (size + 6) + 6)) \
       count="$size" status=none | md5sum | cut -d' ' -f1
  done
}

echo
echo "== exactness: filesrc ! ivfparse ! v3dvp9dec backend=B ! y4menc, every frame against libvpx =="
status=0
for b in $BACKENDS; do
  if { [ "$b" = gpu ] || [ "$b" = hybrid ]; } && ! vulkaninfo --summary >/dev/null 2>&1; then
    echo "  backend=$b: skipped (no Vulkan device: vulkaninfo --summary fails)"
    continue
  fi
  v3d_run "$work/check-$b.log" filesrc location="$stream" ! ivfparse ! \
    v3dvp9dec name=dec backend="$b" ! y4menc ! filesink location="$work/out-$b.y4m"
  y4m_md5s "$work/out-$b.y4m" >"$work/out-$b.md5"
  line=$(v3d_stats_line "$work/check-$b.log" dec)
  used="$(v3d_field "$line" backend), $(v3d_field "$line" cpu-threads) CPU worker threads, GPU:"
  gpu=$(v3d_field "$line" gpu-device)
  used="$used ${gpu:-none}"
  if [ "$nref" -gt 0 ] && cmp -s "$work/ref.md5" "$work/out-$b.md5"; then
    echo "  backend=$b ($used): all $nref frames equal to libvpx's, frame by frame"
  else
    first=$(paste "$work/ref.md5" "$work/out-$b.md5" | awk '$1 != $2 {print NR - 1; exit}')
    echo "  FAIL backend=$b ($used): $(wc -l <"$work/out-$b.md5") frames, $nref from libvpx;" \
         "first differing frame ${first:-none}"
    status=1
  fi
done

# A picture of one decoded frame, from the first backend's output.
first_backend=${BACKENDS%% *}
png=$OUT_DIR/frame-$PNG_FRAME.png
ffmpeg -hide_banner -loglevel error -i "$work/out-$first_backend.y4m" \
  -vf "select=eq(n\,$PNG_FRAME)" -frames:v 1 -y "$png"
echo "  picture: $png (shown frame $PNG_FRAME as v3dvp9dec backend=$first_backend decoded it)"

# timed LABEL ELEMENT...: best of REPEAT runs of filesrc ! ivfparse ! ELEMENT ! fakesink.
timed() {
  local label=$1 best="" r
  shift
  for ((r = 0; r < REPEAT; r++)); do
    /usr/bin/time -f "%e %U %S" -o "$work/time" gst-launch-1.0 -q filesrc location="$stream" ! \
      ivfparse ! "$@" ! fakesink >"$work/timed.log" 2>&1 || { echo "  $label: failed"; return 1; }
    read -r wall user sys <"$work/time"
    if [ -z "$best" ] || awk -v a="$wall" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best="$wall $user $sys"
    fi
  done
  echo "$best" | awk -v label="$label" -v n="$nref" '{
    cpu = $2 + $3
    printf "  | %-42s | %8.1f | %8.2f | %8.1f |\n", label, n / $1, cpu, 1000 * cpu / n }'
}

echo
echo "== speed: filesrc ! ivfparse ! DECODER ! fakesink, $nref frames, best of $REPEAT" \
     "(whole process, start-up included; $(nproc) cores) =="
echo "  | decoder                                    | frames/s | CPU s    | CPU ms/f |"
echo "  |--------------------------------------------|----------|----------|----------|"
for b in $TIME_BACKENDS; do
  timed "v3dvp9dec backend=$b" v3dvp9dec backend="$b" || status=1
done
if gst-inspect-1.0 avdec_vp9 >/dev/null 2>&1; then
  timed "avdec_vp9 max-threads=$THREADS (FFmpeg)" avdec_vp9 max-threads="$THREADS" || status=1
fi
if gst-inspect-1.0 vp9dec >/dev/null 2>&1; then
  timed "vp9dec threads=$THREADS (libvpx)" vp9dec threads="$THREADS" || status=1
fi
exit "$status"
