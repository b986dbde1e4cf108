#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# VP9 decoding speed of v3d-vp9dec against libvpx (vpxdec) and FFmpeg on one stream, all in the
# same run so that they see the same machine:
#
#   v3d-vp9dec --backend B --threads T --null IN.ivf     (B: each of BACKENDS)
#   vpxdec --threads=T --noblit IN.ivf
#   ffmpeg -threads T -c:v vp9 -i IN.ivf -f null -
#
# for each T in THREADS. One run decodes the stream LOOPS times in a row (so that it lasts long
# enough for /usr/bin/time's 10 ms resolution; start-up is included, as a player would pay it).
# The decoders take turns within each repetition (so that a change in the machine's load falls
# on all of them); for each decoder the fastest of REPEAT runs gives frames/s, and the smallest
# CPU time (user + system, all threads) gives CPU ms per frame. Prints a Markdown table. A
# benchmark, not a test: it checks nothing.
#
# Usage: vp9dec-speed.sh [IN.ivf]   (without IN, makes a 1920x1080 stream of FRAMES frames with
#                                    pipelines/make-vp9-stream.sh)
# Environment (defaults): V3D_VP9DEC (build/tools/v3d-vp9dec), BACKENDS ("cpu"; with a GPU e.g.
# "cpu hybrid auto"), THREADS ("1 2"), REPEAT (5),
# LOOPS (5), FRAMES (60), KEEP (a path to copy the made stream to).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dec=${V3D_VP9DEC:-$root/build/tools/v3d-vp9dec}
THREADS=${THREADS:-1 2}
BACKENDS=${BACKENDS:-cpu}
REPEAT=${REPEAT:-5}
LOOPS=${LOOPS:-5}
FRAMES=${FRAMES:-60}
for tool in vpxdec /usr/bin/time; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found" >&2; exit 1; }
done
[ -x "$dec" ] || { echo "error: $dec not built (ninja -C build tools/v3d-vp9dec)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -ge 1 ]; then
  in=$1
else
  in=$work/stream.ivf
  bash "$root/pipelines/make-vp9-stream.sh" "$in" "$FRAMES" >&2
  [ -z "${KEEP:-}" ] || cp "$in" "$KEEP"
fi
frames=$(vpxdec --noblit --summary "$in" 2>&1 | sed -n 's|.*/\([0-9]*\) showed frames.*|\1|p')
# The IVF header's frame size: 16-bit little-endian width and height at bytes 12 and 14.
size=$(od -An -tu2 -j12 -N4 "$in" | awk '{print $1 "x" $2}')
if [ -z "$frames" ] || [ "$frames" -eq 0 ]; then
  echo "error: vpxdec cannot decode $in" >&2
  exit 1
fi

# cmd NAME T: the command line of decoder NAME (v3d:BACKEND, vpxdec, ffmpeg) with T threads.
cmd() {
  case $1 in
    v3d:*) echo "$dec --backend ${1#v3d:} --threads $2 --null $in" ;;
    vpxdec) echo "vpxdec --threads=$2 --noblit $in" ;;
    ffmpeg) echo "ffmpeg -nostdin -hide_banner -loglevel error -threads $2 -c:v vp9 -i $in -f null -" ;;
  esac
}

names="$(for b in $BACKENDS; do printf 'v3d:%s ' "$b"; done)vpxdec"
if command -v ffmpeg >/dev/null 2>&1; then
  names="$names ffmpeg"
else
  echo "note: ffmpeg not found, its rows are left out" >&2
fi
for ((r = 0; r < REPEAT; r++)); do
  for t in $THREADS; do
    for n in $names; do
      /usr/bin/time -f "%e %U %S" -o "$work/t" bash -c \
        "for ((i = 0; i < $LOOPS; i++)); do $(cmd "$n" "$t") || exit 1; done" \
        >/dev/null 2>"$work/err" ||
        { echo "error: $(cmd "$n" "$t") failed:" >&2; cat "$work/err" >&2; exit 1; }
      echo "$n $t $(cat "$work/t")" >>"$work/runs"
    done
  done
done

echo "Stream: $(basename "$in"), $size, $frames frames shown," \
     "$(stat -c %s "$in") bytes; $(nproc) cores," \
     "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), load average" \
     "$(cut -d' ' -f1-3 /proc/loadavg) at the end; best of $REPEAT runs of $LOOPS decodes each."
echo
echo "| decoder | threads | frames/s | CPU ms/frame | CPU / wall |"
echo "|---|---:|---:|---:|---:|"
for t in $THREADS; do
  for n in $names; do
    awk -v n="$n" -v t="$t" -v f="$((frames * LOOPS))" -v c="$(cmd "$n" "$t" | sed "s|$in|IN|; s|$root/||")" '
      $1 == n && $2 == t {
        cpu = $4 + $5
        if (!seen || $3 < wall) { wall = $3; busy = cpu / ($3 > 0 ? $3 : 1) }
        if (!seen || cpu < best) best = cpu
        seen = 1
      }
      END { printf "| `%s` | %d | %.1f | %.2f | %.2f |\n", c, t, f / wall, 1000 * best / f, busy }
    ' "$work/runs"
  done
done
