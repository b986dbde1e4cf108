#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Soak: a long 1920x1080 pipeline with all three elements on backend=hybrid,
#   v3dvp9residualsrc ! v3dvp9idct backend=B ! v3dvp9lpf backend=B level=L !
#     v3dh264deblock backend=B ! checksumsink
# run once on hybrid and once on scalar (the reference path); every output frame's MD5 must be
# the same in both runs (a frame dropped, duplicated or corrupted shows up), and the hybrid
# run's resident memory, sampled every SAMPLE seconds, must stay flat after warm-up: the highest
# sample of the last quarter of the run at most GROWTH_KB above the highest of the second
# quarter (the first quarter is warm-up; highest, because memory drops at EOS). Fewer than 8
# samples fail: too short to judge.
#   tests/soak.sh            GST_PLUGIN_PATH: the build's gst/ directory
# Environment (defaults): NUM_BUFFERS (3000; CI: 600), WIDTH (1920), HEIGHT (1080),
# LEVEL (24), SAMPLE (2, may be fractional), GROWTH_KB (4096), SEED (9), WORK (a temporary
# directory).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/../pipelines/lib.sh"
N=${NUM_BUFFERS:-3000}
W=${WIDTH:-1920}
H=${HEIGHT:-1080}
LEVEL=${LEVEL:-24}
SAMPLE=${SAMPLE:-2}
GROWTH_KB=${GROWTH_KB:-4096}
SEED=${SEED:-9}
v3d_require_plugin
gst-inspect-1.0 checksumsink >/dev/null 2>&1 || { echo "SKIP: checksumsink (gst-plugins-bad) missing"; exit 77; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
caps="video/x-raw,format=I420,width=$W,height=$H,framerate=30/1"

# run BACKEND: per-frame MD5s in $work/BACKEND.md5, RSS samples (seconds kB) in $work/BACKEND.rss.
run() {
  local b=$1 pid t0
  gst-launch-1.0 -q v3dvp9residualsrc num-buffers="$N" seed="$SEED" density=0.6 tx-size=mixed ! \
    "$caps" ! v3dvp9idct backend="$b" ! v3dvp9lpf backend="$b" level="$LEVEL" ! \
    v3dh264deblock backend="$b" ! checksumsink hash=md5 >"$work/$b.out" 2>"$work/$b.err" &
  pid=$!
  t0=$(date +%s%N)
  : >"$work/$b.rss"
  while kill -0 "$pid" 2>/dev/null; do
    awk -v t="$((($(date +%s%N) - t0) / 1000000))" '/^VmRSS:/ {print t / 1000, $2}' \
      "/proc/$pid/status" >>"$work/$b.rss" 2>/dev/null || true
    sleep "$SAMPLE"
  done
  wait "$pid" || { echo "FAIL: $b pipeline failed:"; tail -n 20 "$work/$b.err"; return 1; }
  awk '{print $NF}' "$work/$b.out" >"$work/$b.md5"
}

start=$(date +%s)
run hybrid
run scalar
fail=0
n_h=$(wc -l <"$work/hybrid.md5")
n_s=$(wc -l <"$work/scalar.md5")
if [ "$n_h" != "$N" ] || [ "$n_s" != "$N" ]; then
  echo "FAIL: frames: hybrid $n_h, scalar $n_s, expected $N"
  fail=1
fi
bad=$(paste -d' ' "$work/hybrid.md5" "$work/scalar.md5" | awk '$1 != $2' | wc -l)
[ "$bad" = 0 ] || { echo "FAIL: $bad frames differ from the scalar path"; fail=1; }
read -r first_kb last_kb peak_kb samples < <(awk '{v[NR] = $2; if ($2 > p) p = $2}
  END {a = 0; b = 0
       for (i = int(NR / 4) + 1; i <= int(NR / 2); i++) if (v[i] > a) a = v[i]
       for (i = int(3 * NR / 4) + 1; i <= NR; i++) if (v[i] > b) b = v[i]
       print a, b, p, NR}' "$work/hybrid.rss")
growth=$((last_kb - first_kb))
echo "soak: ${W}x$H, $N frames, hybrid vs scalar: $((N - bad)) of $N frames identical;" \
     "RSS highest in the 2nd quarter: $first_kb kB, in the last: $last_kb kB (growth $growth kB)," \
     "peak $peak_kb kB, $samples samples; $(($(date +%s) - start)) s"
if [ "$samples" -lt 8 ]; then
  echo "FAIL: only $samples memory samples (run longer or lower SAMPLE)"
  fail=1
fi
if [ "$growth" -gt "$GROWTH_KB" ]; then
  echo "FAIL: resident memory grew by $growth kB (limit $GROWTH_KB)"
  fail=1
fi
exit $fail
