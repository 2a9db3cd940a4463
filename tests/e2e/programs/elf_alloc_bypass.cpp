// Mixes calls cudaleak sees with one it cannot: the driver's context and a
// small allocation go through the loader as usual; then cuMemAlloc_v2, found
// in the driver's own ELF symbol table, takes MiB (argv[1], default 100)
// that are never freed. A gated run must not pass: cudaleak saw CUDA, but not
// all of it. With argv[1] = 0 nothing is allocated past cudaleak.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>

#include "../../common/elf_symbol.h"

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 2;
  auto init = reinterpret_cast<CUresult (*)(unsigned)>(dlsym(lib, "cuInit"));
  auto retain = reinterpret_cast<CUresult (*)(CUcontext*, CUdevice)>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
  auto set_current = reinterpret_cast<CUresult (*)(CUcontext)>(dlsym(lib, "cuCtxSetCurrent"));
  auto alloc = reinterpret_cast<CUresult (*)(CUdeviceptr*, size_t)>(dlsym(lib, "cuMemAlloc_v2"));
  auto free_ = reinterpret_cast<CUresult (*)(CUdeviceptr)>(dlsym(lib, "cuMemFree_v2"));
  auto unseen_alloc = reinterpret_cast<CUresult (*)(CUdeviceptr*, size_t)>(find_in_elf(lib, "cuMemAlloc_v2"));
  if (!init || !retain || !set_current || !alloc || !free_ || !unseen_alloc) return 2;
  CUcontext ctx;
  CUdeviceptr seen = 0, hidden = 0;
  if (init(0) != CUDA_SUCCESS || retain(&ctx, 0) != CUDA_SUCCESS || set_current(ctx) != CUDA_SUCCESS) return 3;
  if (alloc(&seen, 4096) != CUDA_SUCCESS || free_(seen) != CUDA_SUCCESS) return 4;
  if (mib && unseen_alloc(&hidden, mib << 20) != CUDA_SUCCESS) return 5;
  std::printf("allocated %zu MiB unseen\n", mib);
  return 0;
}
