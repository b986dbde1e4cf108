#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Where v3d-vp9dec's time goes: samples `v3d-vp9dec --backend cpu --threads T --null IN.ivf`
# with `perf record` (self time of each function, all threads), finds the source file of each
# sampled function of libv3dkernels from the symbols of the build's object files, and prints two
# Markdown tables: the share of each stage of decoding (groups below) and the TOP functions.
#
# Groups, by function name: mode info (partition, block modes, motion vector prediction and
# reading, segmentation, tx size, skip), coefficient tokens (read_coefs and the token reader),
# intra prediction, inter prediction (motion compensation and its block set-up), inverse
# transforms, loop filter (masks and filtering), probability adaptation and headers, and other
# (libc, kernel, threads, frame set-up).
#
# Usage: vp9dec-profile.sh IN.ivf     Environment: THREADS (1), TOP (25), FREQ (4000, samples/s),
# V3D_VP9DEC (build/tools/v3d-vp9dec). Needs perf (Debian: linux-perf).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dec=${V3D_VP9DEC:-$root/build/tools/v3d-vp9dec}
in=$1
if ! command -v perf >/dev/null 2>&1; then
  echo "error: perf not found (Debian: apt-get install linux-perf)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

perf record -q -F "${FREQ:-4000}" -o "$work/perf.data" -- \
  "$dec" --backend cpu --threads "${THREADS:-1}" --null "$in" >/dev/null 2>&1
perf report -i "$work/perf.data" --no-children --sort dso,sym --stdio 2>/dev/null |
  sed -n 's/^ *\([0-9.]*\)% *\([^ ]*\) *\[[.k]\] \(.*\)$/\1\t\2\t\3/p' >"$work/samples"

# Source file of every function defined in the kernel library: Meson names an object after its
# source path below kernels/ with '/' turned into '_'. Names are reduced to what perf prints
# (no return type, arguments or clone suffix).
# Without the objects (a decoder copied elsewhere) the table names the library instead.
objdir=$(dirname "$dec")/../kernels/libv3dkernels.so.0.1.0.p
shopt -s nullglob
(cd "$root/kernels" && find . -name '*.cpp' | sed 's|^\./||') |
  awk '{ o = $0; gsub("/", "_", o); print o ".o\tkernels/" $0 }' >"$work/sources"
for o in "$objdir"/*.o; do
  src=$(awk -F '\t' -v o="$(basename "$o")" '$1 == o { print $2 }' "$work/sources")
  nm --defined-only -C "$o" | sed -n 's/^[0-9a-f]* [tTwW] \(.*\)$/\1/p' |
    sed 's/(anonymous namespace)/{anon}/g; s/ \[clone.*$//; s/(.*$//' |
    sed -E 's/^((void|bool|int|long|short|char|float|double|auto|unsigned|signed|u?int[0-9]+_t|size_t)[ *&]+)+//' |
    awk -v s="${src:-$(basename "$o")}" '{ print s "\t" $0 }'
done | sort -u -t "$(printf '\t')" -k2,2 >"$work/objects"

awk -F '\t' -v top="${TOP:-25}" '
  FILENAME == ARGV[1] { obj[$2] = $1; next }
  {
    pct = $1; dso = $2; sym = $3
    name = sym; gsub(/\(anonymous namespace\)/, "{anon}", name)
    sub(/ \[clone.*$/, "", name); sub(/\(.*$/, "", name)
    base = name; sub(/<.*$/, "", base)
    g = "other (libc, kernel, threads, frame set-up)"
    if (dso ~ /libv3dkernels/) {
      if (base ~ /read_coefs|[Tt]oken|coef_ctx|read_coef/) g = "coefficient tokens"
      else if (base ~ /Ipred|ipred|[Ii]ntra|Pred$|::D[0-9]+|::Tm|::V[A-Z]?Pred|::H[A-Z]?Pred/) g = "intra prediction"
      else if (base ~ /Mc[A-Z0-9]|mc_|predict_inter|[Ii]nter_pred|[Ss]caled|build_mc|mc$/) g = "inter prediction (mc)"
      else if (base ~ /Add2D|AddDc|Itx|itx|Tx[A-Z]|Idct|Iadst|Wht|idct|iadst|residual/) g = "inverse transforms"
      else if (base ~ /Lpf|lpf|loop_filter|filter_sb|vertical_pass|horizontal_pass|::edge$/) g = "loop filter"
      else if (base ~ /adapt|header|read_delta|compressed|uncompressed|merge_prob|update_prob|diff_update/) g = "probability adaptation, headers"
      else if (base ~ /mode_info|partition|decode_block|read_|find_mv|mv_ref|[Ss]egment|tx_size|skip|BoolDecoder|bool_|TileDecoder/) g = "mode info, partition, motion vectors"
    }
    share[g] += pct
    if (n < top) {
      o = (name in obj) ? obj[name] : dso
      row[n++] = sprintf("| %.1f | `%s` | %s | %s |", pct, sym, o, g)
    }
  }
  END {
    print "| stage | share of samples (%) |"
    print "|---|---:|"
    for (g in share) printf "%s\t%.1f\n", g, share[g] | "sort -t \"\t\" -k2,2 -rn | sed \"s/^/| /; s/\t/ | /; s/$/ |/\""
    close("sort -t \"\t\" -k2,2 -rn | sed \"s/^/| /; s/\t/ | /; s/$/ |/\"")
    print ""
    print "| self (%) | function | source file | stage |"
    print "|---:|---|---|---|"
    for (i = 0; i < n; i++) print row[i]
  }' "$work/objects" "$work/samples"
