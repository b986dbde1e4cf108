#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Real-data test of v3d_h264_deblock_frame: makes small all-intra Baseline-profile H.264 streams
# with x264 (constant QP, no adaptive quantization, psy off, I/P ratio 1, every frame an IDR) from
# FFmpeg's synthetic sources, decodes each with FFmpeg twice (loop filter skipped, and normal),
# checks with FFmpeg's trace_headers that the stream carries the QP and offsets asked for, and runs
# test_h264_deblock_real, which must turn the first decode into the second on every backend.
#
#   tests/h264_real_data.sh PATH/TO/test_h264_deblock_real
# Exit 77 (skipped) when x264 or ffmpeg is missing. V3D_EXE_WRAPPER (e.g. "qemu-aarch64")
# runs a cross-built program.
set -euo pipefail
prog=${1:?usage: $0 test_h264_deblock_real}
for tool in x264 ffmpeg; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/h264-real.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2206
wrapper=(${V3D_EXE_WRAPPER:-})

# One line per case: source, size, frames, qp, deblock alpha:beta (x264's offsets /2), chroma
# qp offset, slices per picture (x264 writes disable_deblocking_filter_idc 0: slice boundaries
# are filtered like any other macroblock edge, so one slice in the grid describes them).
cases=(
  "testsrc2 176x144 4 20 0:0 0 1"
  "testsrc2 176x144 4 30 -2:1 2 1"
  "mandelbrot 352x288 3 40 1:-2 -3 1"
  "testsrc2 352x288 3 36 3:3 5 1"
  "mandelbrot 176x144 3 46 -6:6 -12 1"
  "testsrc2 352x288 3 28 0:0 1 3"
)
fail=0
n=0
for c in "${cases[@]}"; do
  read -r src size frames qp deblock cqp slices <<<"$c"
  n=$((n + 1))
  w=${size%x*}
  h=${size#*x}
  da=${deblock%:*}
  db=${deblock#*:}
  base="$work/case$n"
  ffmpeg -v error -f lavfi -i "$src=size=$size:rate=25" -frames:v "$frames" -pix_fmt yuv420p \
    -y "$base.y4m"
  x264 --quiet --qp "$qp" --aq-mode 0 --no-psy --ipratio 1 --keyint 1 --profile baseline \
    --deblock "$deblock" --chroma-qp-offset "$cqp" --slices "$slices" --threads 1 -o "$base.264" "$base.y4m" 2>/dev/null
  # What the stream says (every slice and picture parameter set must agree).
  ffmpeg -i "$base.264" -c copy -bsf:v trace_headers -f null - 2>"$base.trace" >/dev/null
  field() { grep -E " $1 " "$base.trace" | sed -E 's/.* = (-?[0-9]+)$/\1/' | sort -u | tr '\n' ' '; }
  init=$(field pic_init_qp_minus26)
  delta=$(field slice_qp_delta)
  got_cqp=$(field chroma_qp_index_offset)
  got_a=$(field slice_alpha_c0_offset_div2)
  got_b=$(field slice_beta_offset_div2)
  idc=$(field disable_deblocking_filter_idc)
  types=$(field slice_type)
  if [ "$(echo $init | wc -w)" != 1 ] || [ "$(echo $delta | wc -w)" != 1 ]; then
    echo "FAIL case $n: QP not constant (pic_init_qp_minus26 '$init', slice_qp_delta '$delta')"
    fail=1
    continue
  fi
  sqp=$((26 + init + delta))
  if [ "$sqp" != "$qp" ] || [ "$got_cqp" != "$cqp " ] || [ "$got_a" != "$da " ] ||
    [ "$got_b" != "$db " ] || [ "$idc" != "0 " ] || [ "$types" != "7 " ]; then
    echo "FAIL case $n: stream says qp $sqp, chroma offset '$got_cqp', alpha/2 '$got_a'," \
      "beta/2 '$got_b', idc '$idc', slice types '$types' (asked qp $qp, $deblock, $cqp, I only)"
    fail=1
    continue
  fi
  ffmpeg -v error -skip_loop_filter all -i "$base.264" -f rawvideo -pix_fmt yuv420p -y "$base.unf.yuv"
  ffmpeg -v error -i "$base.264" -f rawvideo -pix_fmt yuv420p -y "$base.flt.yuv"
  nsl=$(grep -c " first_mb_in_slice " "$base.trace" || true)
  echo "case $n: $src $size, $frames frames ($nsl slices in all), qp $qp, FilterOffsetA $((2 * da)), B $((2 * db)), chroma qp offset $cqp"
  "${wrapper[@]}" "$prog" "$base.unf.yuv" "$base.flt.yuv" "$w" "$h" "$qp" "$cqp" $((2 * da)) \
    $((2 * db)) || fail=1
done
[ "$fail" = 0 ] && echo "all $n cases exact" || echo "FAILED"
exit "$fail"
