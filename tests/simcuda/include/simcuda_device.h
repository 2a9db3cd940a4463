// Device code in the simulated GPU (docs/simulated-gpu.md#device-code): a
// kernel's body is a host function run once per thread of its launch, and it
// can call the simulated device heap (malloc/free of a kernel). The simulated
// driver exports these names beside the CUDA ones; the simulated runtime and
// the simulated Sanitizer API use them. Plain C: shared by all three.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUctx_st;
struct CUstream_st;
struct CUmod_st;
struct CUfunc_st;

// One thread of a launch, as a body sees it (gridDim, blockDim, blockIdx,
// threadIdx; the kernel's arguments as cudaLaunchKernel passed them).
struct SimcudaThread {
  unsigned grid[3], block[3], block_idx[3], thread_idx[3];
  void** args;
};
typedef void (*SimcudaKernelBody)(const struct SimcudaThread*);

// A launch, as the simulated Sanitizer API reports it.
struct SimcudaLaunch {
  struct CUctx_st* context;
  struct CUstream_st* stream;
  struct CUmod_st* module;
  struct CUfunc_st* function;
  const char* name;  // the kernel's (mangled) name
  unsigned grid[3], block[3];
  uint64_t grid_id;
  int device;
  uint64_t function_pc;  // where the kernel's code starts (simcuda_function_pc)
};

// What a Sanitizer API subscribed to the simulated driver hears: module loads,
// launches, and each device-side malloc and free (pc: of the call).
struct SimcudaSanitizerHooks {
  void (*module_loaded)(struct CUctx_st* context, struct CUmod_st* module, const void* image, size_t bytes);
  void (*launch_begin)(const struct SimcudaLaunch* launch);
  void (*launch_end)(const struct SimcudaLaunch* launch);
  void (*device_malloc)(const struct SimcudaLaunch* launch, uint64_t pc, void* address, uint64_t bytes);
  void (*device_free)(const struct SimcudaLaunch* launch, uint64_t pc, void* address);
};

// Driver side (libcuda.so.1 of the simulated GPU).
void simcuda_set_sanitizer_hooks(const struct SimcudaSanitizerHooks* hooks);  // null: none
// The module of a program's registered fatbin in the current context, loaded
// at its first launch there (as cudart's lazy loading does).
struct CUmod_st* simcuda_runtime_module(const void* fatbin);
// Runs `body` (may be null) for every thread of the grid, between the launch's
// begin and end as the Sanitizer API reports them.
int simcuda_launch(struct CUmod_st* module, const char* name, const unsigned grid[3], const unsigned block[3],
                   struct CUstream_st* stream, SimcudaKernelBody body, void** args);
// A kernel's malloc and free, from a body: the current context's device heap,
// of the size its cudaLimitMallocHeapSize says (8 MiB by default); NULL when
// full. `site` tells apart the calls of one kernel: the source line of the
// kernel's malloc or free when its cubin has a line table with a row there
// (the pc is then that row's, as a real GPU's would be), else any number
// (the pc is the kernel's start + 16 x site).
void* simcuda_device_malloc(size_t bytes, unsigned site);
void simcuda_device_free(void* address, unsigned site);
// Where a kernel's code starts and how long it is (0: no such kernel loaded).
uint64_t simcuda_function_pc(struct CUmod_st* module, const char* name, uint64_t* bytes);

#ifdef __cplusplus
}
#endif
