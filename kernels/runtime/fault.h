// SPDX-License-Identifier: LGPL-2.1-or-later
// Fault injection for tests: the library's failure paths (no Vulkan loader, no device, a lost
// device, GPU memory exhaustion, a GPU job that never completes, a worker thread that cannot
// start) made to happen on demand, so tests can prove what each does.
//
// Switched on by the environment variable V3D_FAULT, read once at the first check:
//   V3D_FAULT=<kind>[:<n>][,<kind>[:<n>]...]     n: the 1-based occurrence that fails (default 1)
// kinds (docs/reliability.md says what the library does for each):
//   no-loader    the Vulkan loader cannot be opened
//   no-device    the Vulkan instance reports no physical device (from the n-th enumeration on)
//   device-lost  the n-th GPU job's fence wait returns VK_ERROR_DEVICE_LOST, after the GPU wrote
//                garbage over that job's in-place blocks (what a real loss may leave behind)
//   submit-lost  the n-th vkQueueSubmit returns VK_ERROR_DEVICE_LOST (nothing reaches the GPU)
//   gpu-timeout  the n-th GPU job's fence wait returns VK_TIMEOUT (the bounded wait expired),
//                with garbage over its in-place blocks as for device-lost
//   gpu-alloc    the n-th and every later GPU memory allocation fails (out of device memory)
//   thread       the n-th thread creation fails (std::system_error, as on EAGAIN): the pool's
//                workers in order, then a gpu or hybrid context's submission thread (SideThread)
//   host-uncached  the n-th and every later Vulkan device opened reports its host-visible memory
//                as not cached by the CPU (as v3dv's is on the Raspberry Pi): not a failure, the
//                condition under which shared allocations stay in plain memory (shared_alloc.cpp)
//   lpf-stall    the n-th superblock row of the VP9 decoder's in-loop filter (cpu backend) sleeps
//                300 ms after its first superblock, as a descheduled thread would: not a failure;
//                the rows below wait for it (vp9/dec/tile_sched.cpp)
// Unset or empty: no fault, and a check costs a load and a branch.
//
// Thread-safety: fault_hit may be called from any thread (counters are atomic).
#pragma once

namespace v3d {

enum class Fault { kNoLoader, kNoDevice, kDeviceLost, kSubmitLost, kGpuTimeout, kGpuAlloc, kThread,
                   kHostUncached, kLpfStall, kCount };

// Counts one occurrence of `f` and says whether it must fail now.
bool fault_hit(Fault f);

}  // namespace v3d
