// SPDX-License-Identifier: LGPL-2.1-or-later
// The GPU side of the library as the scheduler sees it: a Vulkan device with one compute queue,
// shared (host-visible) memory, and one asynchronous job per frame and kernel family.
// Without Vulkan at build time, gpu_none.cpp implements this with gpu_open() always failing.
//
// Ownership and threads: a Gpu is shared (std::shared_ptr) by the contexts and the shared
// allocations that use it. All functions are thread-safe; jobs of one Gpu are submitted to its one
// queue under its internal lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "v3d/v3d.h"

namespace v3d {

class Gpu;

// Opens a Vulkan device for compute. device: an index ("1") or a case-insensitive substring of
// the device name; nullptr or "" = V3D_VULKAN_DEVICE if set, else a V3D device (Raspberry Pi)
// if present, else the first device with what the shaders need. Returns nullptr with *error set to the
// reason (no loader, no device, missing feature) when none is usable. Blocks (creates pipelines).
std::shared_ptr<Gpu> gpu_open(const char *device, std::string *error);

// Device name, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". Owned by the Gpu.
const char *gpu_name(const Gpu &gpu);
// Subgroup size the device reported (informational only: shaders never depend on it).
int gpu_subgroup_size(const Gpu &gpu);

// Whether the CPU caches the GPU's host-visible memory (false on v3dv, whose memory the kernel
// maps write-combined: CPU reads of it are uncached). shared_alloc.cpp keeps frames in plain
// memory by default when it does not.
bool gpu_host_cached(const Gpu &gpu);

// Host-visible, host-coherent memory mapped for the CPU and usable by the GPU without copies.
// 64-byte aligned. The allocation holds a reference to the Gpu. nullptr on failure.
void *gpu_shared_alloc(const std::shared_ptr<Gpu> &gpu, size_t size);
// Frees memory from gpu_shared_alloc; returns false if ptr did not come from it (so the caller
// can free it another way).
bool gpu_shared_free(void *ptr);

// The planes of one 4:2:0 frame, as passed to a frame-level function. width/height per plane are
// the processed area (luma rounded up to 8, chroma half that).
struct FramePlanes {
  uint8_t *data[3];
  ptrdiff_t stride[3];
  int width[3];
  int height[3];
};

// One submitted frame of GPU work. wait() blocks until the GPU finished and the results are in
// the frame's planes (copied back if the frame was not in shared memory); returns V3D_OK or
// V3D_ERROR_GPU. Destroying an unwaited job waits for it.
class GpuJob {
 public:
  virtual ~GpuJob() = default;
  virtual int wait() = 0;
  // Number of plane copies this job made (0 when the planes were in shared memory).
  virtual int copies() const = 0;
  // True when the GPU has finished (wait() will not block); never blocks. Jobs that cannot tell
  // answer false until waited for.
  virtual bool ready() { return false; }
  // Number of planes imported from foreign host memory instead of copied
  // (VK_EXT_external_memory_host; see vk_memory.h).
  virtual int imports() const { return 0; }
  // Waits for the job, then takes its results out of the frame again: every pixel it may have
  // written is as it was before the job (a job submitted before its frame's validation had
  // ended, whose validation then failed). V3D_OK; V3D_ERROR_GPU when the GPU failed (the frame
  // is restored all the same) or when the job cannot undo its work (the frame is not restored).
  virtual int wait_and_undo() {
    wait();
    return V3D_ERROR_GPU;
  }
};

// VP9 inverse transforms: submits blocks[index[0..n_index)] (already validated; blocks reaching
// past a plane are clipped by the GPU to FramePlanes' width/height; eob 0 blocks skipped).
// Writes only pixels inside the chosen blocks (clipped), so the CPU may process the other blocks
// of the same frame concurrently. Returns nullptr with *error set on failure (the frame is
// untouched). The same as gpu_vp9_itx_prepare(..., 1 part), run_part(0), submit().
std::unique_ptr<GpuJob> gpu_vp9_itx_submit(Gpu &gpu, const FramePlanes &frame,
                                           const V3dVp9TxBlock *blocks, const uint32_t *index,
                                           size_t n_index, const int16_t *coeffs, size_t n_coeffs,
                                           std::string *error);

// A transform job in preparation, whose host-side work per block can be spread over threads:
// run_part(k) for every k in 0..parts()-1 (distinct parts may run at once on different threads,
// beside CPU work on the frame's other blocks: a part only reads the frame), then submit() once
// (after every part has returned). Parts may run before the blocks are validated (beside the
// validation): a part skips a block failing its own checks (vp9::itx_block_ok: outside its
// plane, an unknown size or type, coefficients past n_coeffs), and submit() then refuses the job.
// submit() may also come before validation has ended: every block has passed its own checks, so
// the GPU reads and writes only inside the frame's planes and the coefficients; blocks that
// overlap (which only validation finds) would race, and a frame that fails validation has the
// job's work taken out again (GpuJob::wait_and_undo). The GPU itself turns the block list into
// its bucketed records.
// A prep dropped without submit() returns its slot; the frame is untouched until submit().
class ItxGpuPrep {
 public:
  virtual ~ItxGpuPrep() = default;
  virtual int parts() const = 0;
  // Copies part k of the block list and the pixels of its blocks, and counts them.
  virtual void run_part(int k) = 0;
  // Binds the planes and coefficients, records the command buffer and submits it. nullptr with
  // *error set on failure (nothing submitted, the frame untouched).
  virtual std::unique_ptr<GpuJob> submit(std::string *error) = 0;
};
// Starts a job for blocks[index[0..n_index)] (as gpu_vp9_itx_submit) whose list is cut into
// `parts` parts (at least 1). The frame, blocks, index and coeffs must stay as they are until
// submit() has returned (the frame's pixels: until the job is waited for). nullptr with *error
// set on failure (no job slot, no memory).
std::unique_ptr<ItxGpuPrep> gpu_vp9_itx_prepare(Gpu &gpu, const FramePlanes &frame,
                                                const V3dVp9TxBlock *blocks, const uint32_t *index,
                                                size_t n_index, const int16_t *coeffs,
                                                size_t n_coeffs, int parts, std::string *error);

// ---- VP9 loop filter (kernels/vulkan/vp9_lpf_job.cpp) ----------------------------------------

// Cell words per superblock in LpfGpuFrame::cells (V3D_LPF_CELLS of shaders/common/vp9_lpf_layout.h).
constexpr int kLpfCellWords = 80;
// Frames one loop-filter job takes at most (callers split longer batches).
constexpr size_t kLpfMaxJobFrames = 16;

// One frame of a loop-filter job: its planes (processed area: luma 8*mi_cols x 8*mi_rows, chroma
// half that), the planes to filter (bit p = plane p), its sharpness, and what filters each of its
// superblocks: kLpfCellWords words per superblock in raster order (vp9/lpf_gpu.h builds them).
struct LpfGpuFrame {
  FramePlanes planes;
  int plane_mask;
  int sharpness;
  int sb_rows, sb_cols;
  const uint32_t *cells;  // read during gpu_vp9_lpf_submit only
};

// A loop-filter job. in_place(i): whether frame i had a plane bound in place (shared memory);
// after a failed wait() such a frame may be partly filtered, while a frame whose planes were all
// staged is untouched (the results are copied back only on success).
class LpfGpuJob : public GpuJob {
 public:
  virtual bool in_place(size_t frame) const = 0;
};

// Whether the device has the loop-filter pipeline (it needs 7 storage buffers per stage).
bool gpu_has_vp9_lpf(const Gpu &gpu);

// Submits the loop filter of frames[0..n) (n <= kLpfMaxJobFrames; the frames share no pixels):
// one command buffer, one queue submission, one dispatch per wavefront step and group of frames
// that fits the shader's memory windows. Writes only the planes named in each plane_mask, inside
// their processed area, so the CPU may filter the other planes meanwhile. Returns nullptr with
// *error set on failure (nothing was submitted; no frame touched).
std::unique_ptr<LpfGpuJob> gpu_vp9_lpf_submit(Gpu &gpu, const LpfGpuFrame *frames, size_t n,
                                              std::string *error);

// ---- H.264 deblocking (kernels/vulkan/h264_deblock_job.cpp) ---------------------------------

// Words per (macroblock, plane) record (V3D_H264_REC_WORDS of shaders/common/h264_deblock_layout.h).
constexpr int kH264RecordWords = 18;

// Whether the device has the H.264 deblocking pipeline.
bool gpu_has_h264_deblock(const Gpu &gpu);

// Submits the deblocking of the planes in plane_mask of one picture (planes: the whole planes):
// records[] holds sum(step_counts) records ordered by wavefront step (step t has step_counts[t]
// records; h264/deblock_gpu.h builds them). The samples to deblock are copied into a staging
// buffer now — from from[p] (stride from_stride[p]) when from is given (copy and deblock), else
// from the planes themselves — and the results into the planes by a successful wait(); a failed
// job leaves the planes untouched. One job per Gpu at a time (a second fails to submit with
// *busy set: not a failure of the GPU, another caller has it). nullptr with *error set on
// failure (nothing touched).
std::unique_ptr<GpuJob> gpu_h264_deblock_submit(Gpu &gpu, const FramePlanes &planes,
                                                const uint8_t *const *from,
                                                const ptrdiff_t *from_stride, int plane_mask,
                                                const uint32_t *records,
                                                const std::vector<uint32_t> &step_counts,
                                                std::string *error, bool *busy = nullptr);

// ---- Additions (kernels/vulkan/vk_device.cpp; gpu_none.cpp needs stubs: empty list, 0, -1) ----

// Names of the Vulkan devices present, in the order gpu_open() numbers them (index = position),
// whether usable or not. Empty, with *error set, when there is no loader or no device. Blocks
// (creates and destroys a Vulkan instance).
std::vector<std::string> gpu_list_devices(std::string *error);
// Number of messages (errors and warnings) the validation layers reported on this Gpu; 0 when
// they are off (they are on when V3D_VULKAN_VALIDATION=1 and the layers are installed).
int gpu_validation_messages(const Gpu &gpu);
// Device time of the most recently completed job (timestamp queries), in seconds; -1 if the
// queue has no timestamps or no job completed yet.
double gpu_last_job_seconds(const Gpu &gpu);
// True once a job of this Gpu failed for good (device lost, or not done within the bounded
// wait): it accepts no more jobs (submissions fail), and its users run everything on the CPU.
bool gpu_lost(const Gpu &gpu);

}  // namespace v3d
