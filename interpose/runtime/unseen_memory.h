// Evidence of CUDA use cudaleak did not see: device memory this process holds
// beyond everything its tracked calls can explain. A program that finds a
// driver entry point in the driver's ELF symbol table (no loader function is
// asked) allocates through it unseen; its other calls still go through
// cudaleak, so "no call was seen" cannot tell. NVML counts every byte the
// process holds on a device: measured when the process's first context on a
// device appears and again at the report, the growth is set against what the
// tracked resources, the context's limits, the pools' caches and the loaded
// modules can hold. Bounds are generous: a false "not seen" fails a CI gate,
// so only growth well past them counts. Unknown (no NVML, a container that
// lists host pids, no current context to read the stack limit from) is never
// taken for evidence.
#pragma once
#include <cstdint>
#include <string>

#include "common/record/raw.h"

namespace cudaleak::unseen_memory {

// Whether the check runs: when a gate is asked (error_exitcode, or under
// `cudaleak run`), whose verdict it guards.
bool wanted();

// After a context was created or retained on `device`: the baseline, taken
// once per device. Costs one NVML query (NVML loaded on first use).
void context_appeared(int device);

// At a report: one line naming the device and the bytes no tracked call
// explains, or "" when every byte is explained or nothing can be said.
std::string check(const report::RawSnapshot& raw);

// The slack every device gets before growth counts as unseen; in a process
// that loaded NVIDIA's math or communication libraries or a framework that
// carries them (PyTorch, JAX, CuPy, Triton), which take memory no tracked
// call names, the larger one.
inline constexpr uint64_t kSlackBytes = 64ull << 20;
inline constexpr uint64_t kLibrarySlackBytes = 512ull << 20;
// What each loaded module or library may take beyond its globals (its code,
// loaded lazily as kernels first run).
inline constexpr uint64_t kPerModuleBytes = 2ull << 20;
// The granularity in which the driver hands out device memory.
inline constexpr uint64_t kPageBytes = 2ull << 20;

}  // namespace cudaleak::unseen_memory
