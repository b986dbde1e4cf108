#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds the libFuzzer targets (fuzz/, clang + ASan + UBSan, -Dfuzz=enabled) and runs each for a
# bounded time, seeded with the committed corpus fuzz/corpus/<target>/ (made by
# fuzz/make_corpus.py); new inputs go to a working corpus outside the tree. Prints libFuzzer's
# final statistics (executions, exec/s, corpus size, coverage) per target.
#   tools/ci/fuzz.sh [--ci] [TARGET...]
#   FUZZ_SECONDS   seconds per target (default 30 with --ci, else 600)
#   FUZZ_WORK      working corpora and crash files (default build-fuzz/work)
#   FUZZ_JOBS      parallel libFuzzer jobs per target (default 1)
#   FUZZ_BUILDTYPE meson buildtype (default debug with --ci, else debugoptimized)
# --ci: also writes build-fuzz/meson-logs/testlog-fuzz.json (one line per target, meson's
# testlog format) for tools/ci/test-all.sh's count. Exit status non-zero if any target failed
# (a crash, a sanitizer finding, or a property check: the input is kept as crash-* in FUZZ_WORK).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ci=0
if [ "${1:-}" = "--ci" ]; then
  ci=1
  shift
fi
seconds=${FUZZ_SECONDS:-$([ $ci = 1 ] && echo 30 || echo 600)}
dir=build-fuzz
work=${FUZZ_WORK:-$dir/work}
jobs=$(nproc)
# Optimized by hand (more executions per second); unoptimized in CI, where building the Highway
# files at -O2 under the sanitizers would take most of the time budget (see tools/ci/asan.sh).
buildtype=${FUZZ_BUILDTYPE:-$([ $ci = 1 ] && echo debug || echo debugoptimized)}
opts=(-Dfuzz=enabled -Dgst=disabled -Dtests=disabled -Dbench=disabled -Dvulkan=enabled
      -Dbuildtype="$buildtype" -Db_sanitize=address,undefined -Db_lundef=false
      -Dc_args=-fno-sanitize-recover=undefined -Dcpp_args=-fno-sanitize-recover=undefined)
if [ -d "$dir/meson-info" ]; then
  meson configure "$dir" "${opts[@]}" || exit 1
else
  CC=clang CXX=clang++ meson setup "$dir" "${opts[@]}" || exit 1
fi
ninja -C "$dir" -j"$jobs" || exit 1

targets=("$@")
if [ ${#targets[@]} = 0 ]; then
  for t in fuzz_vp9_itx_frame fuzz_vp9_lpf_frame fuzz_edges fuzz_h264_deblock_frame fuzz_vp9_decoder; do
    [ -x "$dir/fuzz/$t" ] && targets+=("$t")
  done
fi
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
fail=0
results=()
mkdir -p "$work"
for t in "${targets[@]}"; do
  mkdir -p "$work/$t"
  seeds=fuzz/corpus/$t
  [ -d "$seeds" ] || seeds=""
  log=$work/$t.log
  echo "== $t: ${seconds}s, corpus $work/$t ${seeds:++ $seeds} =="
  start=$(date +%s)
  (cd "$work" && "$OLDPWD/$dir/fuzz/$t" -max_total_time="$seconds" -print_final_stats=1 \
    ${FUZZ_JOBS:+-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS} -rss_limit_mb=4096 -timeout=60 \
    "$t" ${seeds:+"$OLDPWD/$seeds"}) >"$log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|^#[0-9]+[[:space:]]*DONE' "$log"
  echo "  corpus files: $(find "$work/$t" -type f | wc -l), exit $rc"
  res=OK
  if [ $rc != 0 ]; then
    res=FAIL
    fail=1
    echo "error: $t failed; log $log:" >&2
    grep -E 'ERROR|fuzz check failed|SUMMARY|runtime error|Test unit written' "$log" | head -20 >&2
  fi
  results+=("{\"name\": \"$t\", \"result\": \"$res\", \"duration\": $took}")
done
if [ $ci = 1 ]; then
  mkdir -p "$dir/meson-logs"
  printf '%s\n' "${results[@]}" >"$dir/meson-logs/testlog-fuzz.json"
fi
exit $fail
