#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Whole-stream conformance of v3d-vp9dec against libvpx: encodes small VP9 streams with vpxenc
# (each made to reach named decoder features), decodes them with `vpxdec --i420 --md5` (one MD5
# per frame) and with `v3d-vp9dec --framemd5`, and compares frame by frame; for a failing
# stream it prints the first differing frame and, from both decoders' I420 output, that frame's
# first differing sample with its 8x8 block. Sources come from ffmpeg's testsrc2 (moving pattern),
# scaled to the stream's size.
#
# Usage: vp9_streams.sh V3D_VP9DEC [NAME_FILTER]   (NAME_FILTER: a grep -E pattern on names)
# Environment: V3D_STREAMS_KEEP=DIR keeps the streams and outputs in DIR; V3D_EXE_WRAPPER runs
# the decoder under a wrapper (qemu-aarch64 for cross builds); V3D_STREAMS_THREADS: the thread
# counts each stream is also decoded with, besides the decoder's default ("1 3"; "" under a
# wrapper, where decoding is slow); V3D_VP9_RESIZE_ENC names vp9-resize-enc
# (tests/vp9_resize_enc.c, built when libvpx's headers are there), which makes the streams with
# scaled references (skipped without it).
# Exit: 0 all passed, 1 some failed, 77 (skip) when vpxenc, vpxdec or ffmpeg is missing.
set -u

dec=$1
filter=${2:-.}
for tool in vpxenc vpxdec ffmpeg; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
[ -x "$dec" ] || { echo "FAIL: decoder $dec not executable"; exit 1; }

if [ -n "${V3D_STREAMS_KEEP:-}" ]; then
  tmp=$V3D_STREAMS_KEEP
  mkdir -p "$tmp"
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
fi

if [ -n "${V3D_EXE_WRAPPER:-}" ]; then
  threads=${V3D_STREAMS_THREADS-}
else
  threads=${V3D_STREAMS_THREADS-1 3}
fi
passed=0
failed=0
failed_names=""

# locate NAME IVF FRAME: the first differing sample of shown frame FRAME (0-based) between
# vpxdec's output and the decoder's: plane, position and 8x8 luma block.
locate() {
  name=$1 ivf=$2 frame=$3
  vpxdec --i420 -o "$tmp/$name-ref-%4-%wx%h.i420" "$ivf" 2>/dev/null
  ${V3D_EXE_WRAPPER:-} "$dec" -o "$tmp/$name-got.yuv" "$ivf" 2>/dev/null
  offset=0 k=0
  for f in "$tmp/$name-ref-"*.i420; do  # the glob sorts by the zero-padded frame number
    size=$(wc -c <"$f")
    if [ "$k" -eq "$frame" ]; then
      dims=$(echo "$f" | sed 's/.*-\([0-9]*x[0-9]*\)\.i420$/\1/')
      w=${dims%x*} h=${dims#*x}
      dd if="$tmp/$name-got.yuv" of="$tmp/$name-got-frame.i420" bs=1 skip="$offset" count="$size" 2>/dev/null
      byte=$(cmp "$f" "$tmp/$name-got-frame.i420" 2>/dev/null | sed -n 's/.*byte \([0-9]*\).*/\1/p')
      [ -n "$byte" ] || { echo "  frame $frame: sizes differ (decoder wrote $(wc -c <"$tmp/$name-got-frame.i420") of $size bytes)"; return; }
      i=$((byte - 1)) cw=$(((w + 1) / 2)) ch=$(((h + 1) / 2))
      if [ "$i" -lt $((w * h)) ]; then
        plane=Y x=$((i % w)) y=$((i / w)) lx=$((i % w)) ly=$((i / w))
      else
        i=$((i - w * h)) plane=U
        [ "$i" -ge $((cw * ch)) ] && { i=$((i - cw * ch)); plane=V; }
        x=$((i % cw)) y=$((i / cw)) lx=$((2 * (i % cw))) ly=$((2 * (i / cw)))
      fi
      echo "  frame $frame (${w}x${h}): first differing sample $plane ($x, $y), 8x8 block" \
        "(row $((ly / 8)), col $((lx / 8))), superblock (row $((ly / 64)), col $((lx / 64)))"
      return
    fi
    offset=$((offset + size)) k=$((k + 1))
  done
}

# check NAME IVF: compares every frame's MD5 with vpxdec's.
check() {
  name=$1 ivf=$2
  vpxdec --i420 --md5 -o "$tmp/$name-%4.i420" "$ivf" 2>/dev/null | awk '{print $1}' >"$tmp/$name.ref"
  ${V3D_EXE_WRAPPER:-} "$dec" --framemd5 "$ivf" >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
  grep -v '^#' "$tmp/$name.out" | cut -f2 >"$tmp/$name.got"
  nref=$(wc -l <"$tmp/$name.ref")
  # The same pictures with other thread counts: the order in which tile columns and loop-filter
  # rows run depends on it, the result must not.
  bad_threads=""
  for t in $threads; do
    ${V3D_EXE_WRAPPER:-} "$dec" --threads "$t" --framemd5 "$ivf" 2>/dev/null | grep -v '^#' |
      cut -f2 >"$tmp/$name.got-t$t"
    cmp -s "$tmp/$name.ref" "$tmp/$name.got-t$t" || bad_threads="$bad_threads $t"
  done
  if [ "$rc" -eq 0 ] && cmp -s "$tmp/$name.ref" "$tmp/$name.got" && [ "$nref" -gt 0 ] &&
     [ -z "$bad_threads" ]; then
    echo "PASS $name ($nref frames)"
    passed=$((passed + 1))
  else
    first=$(paste "$tmp/$name.ref" "$tmp/$name.got" | awk '$1 != $2 {print NR - 1; exit}')
    echo "FAIL $name: rc $rc, $nref reference frames, $(wc -l <"$tmp/$name.got") decoded," \
      "first differing frame ${first:-none}${bad_threads:+, differs with --threads$bad_threads}" \
      "$(grep -v WARNING "$tmp/$name.err" | head -c 300)"
    failed=$((failed + 1)); failed_names="$failed_names $name"
    [ -n "$first" ] && locate "$name" "$ivf" "$first"
  fi
  grep '^#' "$tmp/$name.out" | sed "s/^/  $name /" | head -40
}

# stream NAME WIDTH HEIGHT FRAMES [vpxenc options...]
stream() {
  name=$1 w=$2 h=$3 n=$4
  shift 4
  echo "$name" | grep -Eq -- "$filter" || return 0
  src="$tmp/src-${w}x${h}-$n.y4m"
  if [ ! -f "$src" ]; then
    # testsrc2 sizes are even; render at least 64x64 and scale to the exact size.
    sw=$(( w < 64 ? 64 : (w + 1) / 2 * 2 )) sh=$(( h < 64 ? 64 : (h + 1) / 2 * 2 ))
    ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=${sw}x${sh}:rate=30" \
      -vf "scale=$w:$h" -frames:v "$n" -pix_fmt yuv420p "$src" || { echo "FAIL $name: ffmpeg"; failed=$((failed + 1)); return; }
  fi
  ivf="$tmp/$name.ivf"
  # vpxenc's default is frame-parallel mode, which turns backward adaptation off: streams
  # adapt unless they ask otherwise (a later option wins).
  if ! vpxenc --codec=vp9 --ivf --quiet --limit="$n" --frame-parallel=0 "$@" -o "$ivf" "$src" \
      >"$tmp/$name.enc.log" 2>&1; then
    echo "FAIL $name: vpxenc refused: $(tail -c 200 "$tmp/$name.enc.log")"
    failed=$((failed + 1)); failed_names="$failed_names $name"; return
  fi
  check "$name" "$ivf"
}

kf="--kf-max-dist=0 --end-usage=q"
# (1) key frames only (lossless without --end-usage=q, which would override it)
stream kf64-q10 64 64 3 $kf --cq-level=10
stream kf64-q30 64 64 3 $kf --cq-level=30
stream kf64-q60 64 64 3 $kf --cq-level=60
stream kf352-q20 352 288 3 $kf --cq-level=20
stream kf352-q45 352 288 3 $kf --cq-level=45
stream kf352-lossless 352 288 2 --kf-max-dist=0 --lossless=1
stream kf33x17 33 17 3 $kf --cq-level=30
stream kf33x17-lossless 33 17 2 --kf-max-dist=0 --lossless=1
stream kf8x8 8 8 3 $kf --cq-level=30
stream kf2x2 2 2 3 $kf --cq-level=30
stream kf1x1 1 1 3 $kf --cq-level=30
stream kf100x75 100 75 2 $kf --cq-level=25
# (2) inter frames, default settings
stream inter64 64 64 10 --end-usage=q --cq-level=30
stream inter352 352 288 20
stream inter33x17 33 17 10 --end-usage=q --cq-level=30
stream inter100x75 100 75 12 --end-usage=q --cq-level=25
stream inter352-lossless 352 288 6 --lossless=1
# (3) features
stream altref352 352 288 24 --auto-alt-ref=1 --lag-in-frames=16
stream errres352 352 288 12 --error-resilient=1
stream fpar352 352 288 12 --frame-parallel=1
stream tiles704 704 96 8 --tile-columns=2
# Tile rows (vpxenc applies --tile-rows only with one thread): 4 rows, then 2 columns x 4 rows.
stream tilerows352 352 288 6 --tile-rows=2 --threads=1
stream tilegrid704 704 288 6 --tile-columns=1 --tile-rows=2 --threads=1 --auto-alt-ref=1
stream aq1 352 288 10 --aq-mode=1
stream aq2 352 288 10 --aq-mode=2
# Cyclic refresh (aq-mode 3) only runs in one-pass CBR.
stream aq3 352 288 12 --aq-mode=3 --passes=1 --end-usage=cbr --target-bitrate=300 --lag-in-frames=0
stream sharp5 352 288 8 --sharpness=5
# Dynamic resizing (scaled references) where this vpxenc does it: low-rate one-pass CBR.
stream resize352 352 288 30 --resize-allowed=1 --end-usage=cbr --target-bitrate=30 --lag-in-frames=0

# Multi-layer alt-refs: hidden frames shown later through show_existing_frame.
stream marf352 352 288 40 --auto-alt-ref=6 --lag-in-frames=25
# Real-time speed 9 picks the bilinear filter; --best tries every filter.
stream rt9 352 288 20 --rt --cpu-used=9
stream best176 176 144 10 --best
# Four tile columns.
stream tiles1280 1280 720 4 --tile-columns=2 --cpu-used=8
# Four tile columns of unequal widths at an odd size, with compound prediction.
stream tiles1001 1001 99 8 --tile-columns=2 --auto-alt-ref=1

# special NAME FRAMES MODE...: a stream made by vp9-resize-enc (see its usage): frame size
# changes without key frames (scaled references), spatial layers with an intra-only frame, a
# region-of-interest map, key frames with a loop-filter sharpness.
special() {
  name=$1
  shift
  echo "$name" | grep -Eq -- "$filter" || return 0
  enc=${V3D_VP9_RESIZE_ENC:-}
  if [ -z "$enc" ] || [ ! -x "$enc" ]; then
    echo "SKIP $name: no vp9-resize-enc"
    return 0
  fi
  ivf="$tmp/$name.ivf"
  if ! "$enc" "$ivf" "$@" >"$tmp/$name.enc.log" 2>&1; then
    echo "FAIL $name: vp9-resize-enc: $(tail -c 200 "$tmp/$name.enc.log")"
    failed=$((failed + 1)); failed_names="$failed_names $name"; return
  fi
  check "$name" "$ivf"
}

special scaled352 24 352x288 4:176x144 8:352x288 12:200x150 16:351x287 20:177x145
special scaled128 16 128x96 3:65x49 6:127x95 9:64x48 12:100x75
special scaled64 12 64x64 2:33x33 4:63x63 6:32x32 8:40x24
# Two spatial layers (inter-layer scaled prediction, superframes) with an intra-only frame.
special svc-intra-only 20 svc 8
# Every segmentation feature (quantiser, loop filter, skip, fixed reference) in a moving map.
special roi-segments 20 roi
# Loop-filter sharpness, which libvpx's encoder never sets.
special sharpness3 8 sharp 3
special sharpness7 8 sharp 7

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed:$failed_names"; exit 1; }
exit 0
