// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_vp9_itxfm_add_frame: one frame's checks, and its GPU share planned, prepared and
// submitted during its validation (ItxEarly); the rest of the frame's way is
// itx_frame_validated (itx_frame_sched.cpp).
#include <functional>
#include <memory>
#include <string>

#include "runtime/log.h"
#include "vp9/itx/itx_sched.h"

namespace v3d {

ItxScratches &itx_scratches(V3dContext *ctx) {
  std::shared_ptr<void> &slot = ctx->family[V3D_KERNEL_VP9_ITX].scratch;
  if (!slot) slot = std::make_shared<ItxScratches>();
  return *static_cast<ItxScratches *>(slot.get());
}

// A frame's checks before its blocks': its pointers.
int check_itx_pointers(uint8_t *const planes[3], const ptrdiff_t strides[3], const int16_t *coeffs,
                       size_t n_coeffs) {
  if (!planes || !strides)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !planes ? "planes" : "strides");
  if (n_coeffs && !coeffs)
    return set_error(V3D_ERROR_INVALID_ARGUMENT, "coeffs is NULL but n_coeffs is %zu", n_coeffs);
  return V3D_OK;
}

// A frame's checks after its blocks' (validated, so width and height are valid): its planes,
// described into *frame.
int check_itx_planes(uint8_t *const planes[3], const ptrdiff_t strides[3], int width, int height,
                     FramePlanes *frame) {
  vp9::itx_plane_sizes(width, height, frame->width, frame->height);
  if (const int rc = check_plane_strides(planes, strides, frame->width)) return rc;
  for (int p = 0; p < 3; p++) {
    frame->data[p] = planes[p];
    frame->stride[p] = strides[p];
  }
  return V3D_OK;
}

namespace {

// Checks one frame's arguments and blocks, and describes its planes. Touches nothing.
int check_itx_frame(ThreadPool *pool, uint8_t *const planes[3], const ptrdiff_t strides[3],
                    int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                    const int16_t *coeffs, size_t n_coeffs, FramePlanes *frame,
                    std::vector<vp9::ItxChunk> *chunks = nullptr, int n_extra = 0,
                    const std::function<void(int)> *extra = nullptr,
                    const std::function<void()> *beside = nullptr) {
  int rc = check_itx_pointers(planes, strides, coeffs, n_coeffs);
  if (!rc)
    rc = vp9::itx_validate(width, height, blocks, n_blocks, n_coeffs, pool, chunks, n_extra, extra,
                           beside);
  if (!rc) rc = check_itx_planes(planes, strides, width, height, frame);
  return rc;
}

}  // namespace
}  // namespace v3d

extern "C" {

int v3d_vp9_itxfm_add_frame(V3dContext *ctx, uint8_t *const planes[3], const ptrdiff_t strides[3],
                            int width, int height, const V3dVp9TxBlock *blocks, size_t n_blocks,
                            const int16_t *coeffs, size_t n_coeffs) {
  using namespace v3d;
  clear_error();
  if (!ctx) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL context");
  const auto t_call = Clock::now();
  FrameScope scope(ctx);
  ItxScratch &scratch = itx_scratches(ctx).frame;
  FramePlanes frame;
  // The GPU's share is planned, prepared (copying its blocks' list and pixels; nothing is
  // written to the frame) and submitted during validation (ItxEarly), so that the GPU works while
  // the frame is validated; only when the arguments that the preparation relies on are sound
  // (else validation reports them, as without this). Safe before validation has ended: a part
  // skips any block that fails its own checks (the job is then refused), so the GPU writes only
  // inside the frame's planes; a frame that fails validation (blocks overlapping) has the job's
  // work taken out again below.
  ItxEarly early;
  std::function<void(int)> run_part;
  std::function<void()> submit_early;
  int n_parts = 0;
  if ((ctx->backend == Backend::kGpu || ctx->backend == Backend::kHybrid) && gpu_usable(ctx) &&
      blocks && n_blocks > 0 && frame_size_ok(width, height) &&
      !check_itx_pointers(planes, strides, coeffs, n_coeffs) &&
      !check_itx_planes(planes, strides, width, height, &frame)) {
    SplitController &split = ctx->family[V3D_KERNEL_VP9_ITX].split.for_size(frame.width[0], frame.height[0]);
    early.planned = true;
    early.share = ctx->backend == Backend::kGpu
                      ? 1.0
                      : split.next_share(ctx->fixed_share, lean_split_allowed(ctx));
    const double count_share = std::min(1.0, early.share * scratch.count_per_cost);
    early.end = early.share >= 1 ? n_blocks
                                 : std::min(n_blocks, static_cast<size_t>(count_share * n_blocks + 0.5));
    if (early.end > 0) {
      const int want = prep_parts(ctx, early.end);
      std::string err;
      early.t_prep = Clock::now();
      early.prep = gpu_vp9_itx_prepare(*ctx->gpu, frame, blocks, nullptr, early.end, coeffs,
                                       n_coeffs, want, &err);
      // (A failed preparation is tried again, and reported, after validation.)
      if (early.prep) {
        early.parts.prep = early.prep.get();
        early.parts.n = early.prep->parts();
        run_part = [&early](int) { early.parts.help(); };
        submit_early = [&early]() { early.submit(); };
        early.beside = std::make_unique<GpuBeside>(ctx);
        if (early.beside->beside()) {
          // The parts are tasks of validation's loop; the side thread waits for them and
          // submits. It is waited for once the CPU's share is done (itx_frame_validated), or
          // at once if validation fails.
          n_parts = early.parts.n;
          early.beside->start(&submit_early);
          early.side = true;
        } else {
          n_parts = early.parts.n - 1;  // the calling thread takes one at least, then submits
        }
      }
    }
  }
  clear_error();  // the checks above report nothing (validation does, in its order)
  int rc = check_itx_frame(ctx->pool.get(), planes, strides, width, height, blocks, n_blocks,
                           coeffs, n_coeffs, &frame, &scratch.chunks, n_parts,
                           n_parts > 0 ? &run_part : nullptr,
                           submit_early && !early.side ? &submit_early : nullptr);
  if (rc) {
    if (early.side) early.beside->finish();
    // The job submitted during validation: its pixels are taken out of the frame again, which
    // is left as it was; the error stays validation's.
    if (early.job) {
      const std::string why = v3d_last_error();
      early.job->wait_and_undo();
      early.job.reset();
      set_error(rc, "%s", why.c_str());
    }
    return rc;
  }
  itx_frame_validated(ctx, frame, blocks, n_blocks, coeffs, n_coeffs, scratch, t_call, false,
                      &early);
  return V3D_OK;
}

}  // extern "C"
