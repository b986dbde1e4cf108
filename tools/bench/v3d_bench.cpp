// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench: speed of the kernels, per kernel family, printed as a table and written as JSON.
// A tool, not a test: timings depend on the machine. No GStreamer dependency, so it runs on the
// device machine.
//
//   v3d-bench [--json FILE] [--cpu-json FILE] [--quick] [--frames N] [--threads N] [--no-gpu]
//             [--only SIZE] [--no-cpu-targets] [--section itx|lpf|lpf-fif|h264|h264-fif|ceiling|fif|pool|memory|itx-rows|h264-rows|peers|calls]
//             [--configs LIST] [--warmup N] [--gpu-share F] [--fresh-frames]
//             [--section peers --peer-checkasm PATH [--peer-ghz F]] [--section calls]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench_common.h"

void bench_itx_cpu(FILE *json_or_null);           // bench_itx_cpu.cpp
void bench_h264_deblock_cpu(FILE *out);           // bench_h264_cpu.cpp: text table
void bench_itx_rows(FILE *out, const char *peer_checkasm, const char *only);                   // bench_itx_rows.cpp: text table

int main(int argc, char **argv) {
  v3dbench::Options opt;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", a.c_str());
        exit(2);
      }
      return argv[++i];
    };
    if (a == "--json") opt.json_path = next();
    else if (a == "--cpu-json") opt.cpu_json_path = next();
    else if (a == "--no-cpu-targets") opt.cpu_targets = false;
    else if (a == "--quick") opt.quick = true;
    else if (a == "--frames") opt.frames = atoi(next());
    else if (a == "--threads") opt.threads = atoi(next());
    else if (a == "--no-gpu") opt.gpu = false;
    else if (a == "--bandwidth-gbs") opt.bandwidth_gbs = atof(next());
    else if (a == "--only") opt.only = next();
    else if (a == "--section") opt.section = next();
    else if (a == "--configs") opt.configs = next();
    else if (a == "--warmup") v3dbench::warmup_frames() = std::max(0, atoi(next()));
    else if (a == "--gpu-share") v3dbench::fixed_gpu_share() = std::min(1.0, atof(next()));
    else if (a == "--fresh-frames") v3dbench::fresh_frames() = true;
    else if (a == "--peer-checkasm") opt.peer_checkasm = next();
    else if (a == "--peer-ghz") opt.peer_ghz = atof(next());
    else if (a == "--help" || a == "-h") {
      printf("usage: v3d-bench [--json FILE] [--quick] [--frames N] [--threads N] [--no-gpu] "
             "[--only 4x4|8x8|16x16|32x32|mixed|h264|intra|inter] [--cpu-json FILE] [--no-cpu-targets]\n"
             "       [--bandwidth-gbs B] [--section itx|lpf|lpf-fif|h264|h264-fif|ceiling|fif|pool|memory] [--configs LIST] [--warmup N]\n"
             "       [--gpu-share F] [--fresh-frames] [--peer-checkasm PATH] [--peer-ghz F]\n"
             "  --bandwidth-gbs B  the GPU's memory bandwidth (GB/s), to print batches against it\n"
             "  --warmup N   untimed frames before the per-frame M4s' timed ones (default 3; more: steady state)\n"
             "  --gpu-share F  VP9 transforms, one frame per call: the hybrid configurations with the GPU's share\n"
             "               fixed at F (0..1) instead of adaptive\n"
             "  --fresh-frames  VP9 transforms, one frame per call: each frame's pixels and coefficients are\n"
             "               written anew before it (untimed), as a decoder's prediction and entropy decoding do\n"
             "  --cpu-json F  per-SIMD-target single-thread kernel table (M3 for every target) as JSON\n"
             "  --threads N  CPU cores to count as N for the M4 matrix (default: online cores)\n"
             "  --section S  only the frame-level section S: itx (VP9 transforms), lpf (VP9 loop filter), h264 (H.264 deblocking),\n"
             "               ceiling (VP9 transforms: the CPU and the GPU alone and at once on their own frames)\n"
             "               fif (VP9 transforms: the M4 matrix with frames in flight; --only mixed|8x8, --configs)\n"
             "               lpf-fif (VP9 loop filter: the same; --only uniform|realistic, --configs)\n"
             "               h264-fif (H.264 deblocking: the same; --only intra|inter, --configs)\n"
             "               pool (the CPU worker pool's cost per loop, spinning and sleeping, and the\n"
             "               VP9 transforms per frame with each kind of pool; --only, --configs)\n"
             "               itx-rows (VP9 transforms: checkasm-style ns per call, every CPU target, nothing else;\n"
             "               \"exact\": the chosen target's exact-eob slot (v3d_vp9_itxfm_add_exact_eob's),\n"
             "               each row's eob promise and pixels checked first; \"x-ratio\": exact / FFmpeg;\n"
             "               --only TEXT: the rows whose label contains TEXT, e.g. \"32x32 DCT_DCT sub\")\n"
             "               h264-rows (H.264 deblocking edges: the same)\n"
             "               peers (per-call rows of the VP9 transforms, VP9 loop filter and H.264 edges,\n"
             "               beside a peer's checkasm --bench figures: --peer-checkasm PATH; docs/benchmarks.md;\n"
             "               the VP9 transforms' exact-eob slots in \"ex-small\"/\"ex-large\", ratios \"ex-s\"/\"ex-l\")\n"
             "               calls (the public per-block/per-edge functions against their kernels; the VP9\n"
             "               transforms also through v3d_vp9_itxfm_add_exact_eob, lines \"..., exact eob\")\n"
             "               or memory (one thread reading, writing, copying and transforming in the GPU's\n"
             "               host-visible memory against plain memory)\n"
             "  --configs L  VP9 transforms: only the M4 configurations in the comma-separated list L\n"
             "               (cpu_1,cpu_n,gpu,cpu_n1_gpu,cpu_n_gpu,auto), and no frames-in-flight or batch tables;\n"
             "               the frames-in-flight sections (fif, lpf-fif, h264-fif): only those of\n"
             "               cpu_n1,cpu_n,gpu,cpu_n1_gpu,cpu_n_gpu,auto\n"
             "  --peer-checkasm P  sections peers and itx-rows: a peer's checkasm program (FFmpeg's\n"
             "               tests/checkasm/checkasm), run first; its best SIMD figure beside each row it has,\n"
             "               and the ratios to it of the hint (eob checked) and exact-eob entries\n"
             "  --peer-ghz F  its timer units per ns (default: its native timer, calibrated here;\n"
             "               give the core clock in GHz if it was built with --enable-linux-perf)\n");
      return 0;
    } else {
      fprintf(stderr, "unknown option %s (try --help)\n", a.c_str());
      return 2;
    }
  }
  if (opt.frames <= 0) opt.frames = opt.quick ? 3 : 20;
  if (opt.section == "itx-rows") {  // checkasm-style per-call rows only: no machine probe, no GPU
    bench_itx_rows(stdout, opt.peer_checkasm.empty() ? nullptr : opt.peer_checkasm.c_str(),
                   opt.only.empty() ? nullptr : opt.only.c_str());
    return 0;
  }
  if (opt.section == "h264-rows") {  // the same for the H.264 deblocking edges
    bench_h264_deblock_cpu(stdout);
    return 0;
  }
  if (opt.section == "peers") {  // per-call rows beside a peer's checkasm: no probe, no GPU
    v3dbench::bench_peers(opt);
    return 0;
  }
  if (opt.section == "calls") {  // public functions against their kernels
    v3dbench::bench_calls();
    return 0;
  }
  v3dbench::Json json;
  v3dbench::print_machine(json, opt);
  if (opt.cpu_targets) {
    FILE *cj = opt.cpu_json_path.empty() ? nullptr : fopen(opt.cpu_json_path.c_str(), "w");
    printf("\n");
    bench_itx_cpu(cj);
    if (cj) fclose(cj);
    printf("\n");
    fflush(stdout);
    bench_h264_deblock_cpu(stdout);  // a text table (per SIMD target), no JSON yet
  }
  int rc = 0;
  if (opt.section.empty() || opt.section == "itx") rc |= v3dbench::bench_vp9_itx(opt, json);
  if (opt.section.empty() || opt.section == "lpf" || opt.section == "lpf-fif") rc |= v3dbench::bench_vp9_lpf(opt, json);
  if (opt.section.empty() || opt.section == "h264" || opt.section == "h264-fif") rc |= v3dbench::bench_h264_frame(opt, json);
  if (opt.section.empty() || opt.section == "pool") v3dbench::bench_pool(opt, json);
  if (opt.section.empty() || opt.section == "memory") v3dbench::bench_memory(opt, json);
  if (opt.section == "ceiling" || opt.section == "fif") {
    json.begin_object("vp9_itx");
    if (opt.section == "fif") v3dbench::bench_vp9_itx_fif(opt, json);
    else v3dbench::bench_vp9_itx_ceiling(opt, json);
    json.end_object();
  }
  if (!opt.json_path.empty()) {
    FILE *f = fopen(opt.json_path.c_str(), "w");
    if (!f) {
      fprintf(stderr, "cannot write %s\n", opt.json_path.c_str());
      return 1;
    }
    fputs(json.str().c_str(), f);
    fclose(f);
    printf("JSON written to %s\n", opt.json_path.c_str());
  }
  return rc;
}
