// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench --section calls: what the public per-block and per-edge C functions cost over the
// kernel they dispatch to, one thread, ns per call on the same data:
//   public   the exported function (v3d_vp9_itxfm_add, v3d_vp9_loop_filter_edge,
//            v3d_h264_loop_filter_*): argument checks, the family's table accessor, one call;
//            on the VP9 transforms' "exact eob" lines v3d_vp9_itxfm_add_exact_eob, with the
//            table's add_exact_eob slots in the next two columns, and on the "colmajor"
//            lines v3d_vp9_itxfm_add_exact_eob_colmajor, with the add_exact_eob_cm slots
//   table    the family's table accessor and the slot, as the decoder calls them
//   slot     the slot's pointer held by the caller: the kernel alone
// public - slot is the dispatch cost a caller of the public functions pays per call.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "bench_itx_row.h"
#include "bench_peer_run.h"
#include "h264/deblock/deblock.h"
#include "v3d/v3d.h"
#include "vp9/itx/itx.h"
#include "vp9/lpf/lpf.h"

namespace v3dbench {
namespace {

void row(const char *name, double pub, double table, double slot) {
  printf("%-42s %8.2f %8.2f %8.2f %8.2f\n", name, pub, table, slot, pub - slot);
}

}  // namespace

void bench_calls() {
  printf("\nPublic functions against their kernels, one thread, ns per call (SIMD target %s)\n",
         v3d_cpu_target());
  printf("%-42s %8s %8s %8s %8s\n", "row", "public", "table", "slot", "pub-slot");
  Rng rng{77};
  std::vector<uint8_t> px(64 * 64);
  for (auto &p : px) p = static_cast<uint8_t>(rng.below(256));
  {
    using namespace v3d::vp9;
    struct R {
      const char *name;
      int size, type, eob;
    };
    static const R kRows[] = {{"vp9 itx 4x4 DCT_DCT, DC only", 0, 0, 1},
                              {"vp9 itx 4x4 DCT_DCT, full", 0, 0, 16},
                              {"vp9 itx 8x8 ADST_ADST, full", 1, 3, 64},
                              {"vp9 itx 32x32 DCT_DCT, DC only", 3, 0, 1}};
    // The itx rows' fixed place (bench_itx_row.h): timed on buffers the heap places, the 32x32
    // DC-only row read twice its time when the coefficients aliased the pixel rows.
    uint8_t *d = itx_timed_dst();
    int16_t *c = itx_timed_coeffs();
    memcpy(d, px.data(), px.size());
    const int16_t *cc = c;
    // One line: the public entry pub_fn against its table's slots (ItxDsp::add,
    // ::add_exact_eob or ::add_exact_eob_cm), measured in that order.
    using PubFn = void (*)(uint8_t *, ptrdiff_t, const int16_t *, int, int, int);
    using Slots = ItxAddFn(ItxDsp::*)[kNumTxSizes][kNumTxTypes];
    auto itx_line = [&](const std::string &name, PubFn pub_fn, Slots slots, const R &r) {
      const ItxAddFn slot = (itx_dsp().*slots)[r.size][r.type];
      const double pub = ns_per_call([&] { pub_fn(d, 64, cc, r.size, r.type, r.eob); });
      const double tab = ns_per_call([&] { (itx_dsp().*slots)[r.size][r.type](d, 64, cc, r.eob); });
      const double sl = ns_per_call([&] { slot(d, 64, cc, r.eob); });
      row(name.c_str(), pub, tab, sl);
    };
    for (const R &r : kRows) {
      const int n = 4 << r.size;
      for (int i = 0; i < n * n; i++)
        c[i] = static_cast<int16_t>(r.eob == 1 && i ? 0 : rng.range(1, 48));
      itx_line(r.name, v3d_vp9_itxfm_add, &ItxDsp::add, r);
      // The rows' eob is exact (DC only, or the whole block): the exact entry takes them too.
      itx_line(std::string(r.name) + ", exact eob", v3d_vp9_itxfm_add_exact_eob,
               &ItxDsp::add_exact_eob, r);
      // Column-major: the same coefficients taken as the transposed block, whose eob is exact
      // for the same reason.
      itx_line(std::string(r.name) + ", colmajor", v3d_vp9_itxfm_add_exact_eob_colmajor,
               &ItxDsp::add_exact_eob_cm, r);
    }
  }
  {
    using namespace v3d::vp9;
    for (int dir = 0; dir < 2; dir++)
      for (int len : {8, 16}) {
        uint8_t *d = px.data() + 16 * 64 + 16;
        const LpfEdgeFn slot = lpf_dsp().edge[dir][kLpf8][len == 16];
        const double pub = ns_per_call([&] { v3d_vp9_loop_filter_edge(d, 64, dir, 8, len, 20, 10, 7); });
        const double tab = ns_per_call([&] { lpf_dsp().edge[dir][kLpf8][len == 16](d, 64, 20, 10, 7); });
        const double sl = ns_per_call([&] { slot(d, 64, 20, 10, 7); });
        char name[64];
        snprintf(name, sizeof name, "vp9 lpf 8-wide, %d px, %s edge", len, dir ? "horiz." : "vert.");
        row(name, pub, tab, sl);
      }
  }
  {
    using namespace v3d::h264;
    const int8_t tc0[4] = {1, 2, 3, 4};
    uint8_t *d = px.data() + 16 * 64 + 16;
    for (int dir = 0; dir < 2; dir++) {
      const DeblockFn luma = deblock_dsp().luma[dir], chroma = deblock_dsp().chroma[dir];
      const DeblockIntraFn intra = deblock_dsp().luma_intra[dir];
      const char *e = dir ? "horiz." : "vert.";
      char name[64];
      snprintf(name, sizeof name, "h264 luma, %s edge", e);
      row(name, ns_per_call([&] { v3d_h264_loop_filter_luma(d, 64, dir, 40, 10, tc0); }),
          ns_per_call([&] { deblock_dsp().luma[dir](d, 64, 40, 10, tc0); }),
          ns_per_call([&] { luma(d, 64, 40, 10, tc0); }));
      snprintf(name, sizeof name, "h264 luma intra, %s edge", e);
      row(name, ns_per_call([&] { v3d_h264_loop_filter_luma_intra(d, 64, dir, 40, 10); }),
          ns_per_call([&] { deblock_dsp().luma_intra[dir](d, 64, 40, 10); }),
          ns_per_call([&] { intra(d, 64, 40, 10); }));
      snprintf(name, sizeof name, "h264 chroma, %s edge", e);
      row(name, ns_per_call([&] { v3d_h264_loop_filter_chroma(d, 64, dir, 40, 10, tc0); }),
          ns_per_call([&] { deblock_dsp().chroma[dir](d, 64, 40, 10, tc0); }),
          ns_per_call([&] { chroma(d, 64, 40, 10, tc0); }));
    }
  }
}

}  // namespace v3dbench
