// Finds the driver through every way the dynamic loader offers besides a
// plain dlsym, and leaks one allocation through each: the size says which
// way found it.
//   1 MiB  dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5"): "the real dlsym", the
//          usual idiom of interposers, then dlsym through it
//   2 MiB  dlvsym(RTLD_DEFAULT, "dlsym", "GLIBC_2.34")
//   3 MiB  dlsym(libc.so.6, "dlsym")
//   4 MiB  dlvsym(libc.so.6, "dlvsym", "GLIBC_2.34"), then dlvsym through it
//          for "dlsym"
//   5 MiB  dlvsym(libcuda.so.1, "cuMemAlloc_v2", ...) with any version: a
//          driver whose symbols carry no version answers it (the simulated
//          one has version information and answers NULL: "no versioned
//          cuMemAlloc_v2" is printed and nothing allocated)
// Prints one line per way; exits 2 when the driver cannot be set up.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>

namespace {

using Dlsym = void* (*)(void*, const char*);
using Dlvsym = void* (*)(void*, const char*, const char*);
using MemAlloc = CUresult (*)(CUdeviceptr*, size_t);

void* g_cuda = nullptr;

void leak_through(const char* way, Dlsym lookup, size_t mib) {
  auto alloc = lookup ? reinterpret_cast<MemAlloc>(lookup(g_cuda, "cuMemAlloc_v2")) : nullptr;
  CUdeviceptr p = 0;
  std::printf("%s: %s\n", way, alloc && alloc(&p, mib << 20) == CUDA_SUCCESS ? "allocated" : "failed");
}

}  // namespace

int main() {
  g_cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  if (!g_cuda || !libc) return 2;
  auto init = reinterpret_cast<CUresult (*)(unsigned)>(dlsym(g_cuda, "cuInit"));
  auto retain = reinterpret_cast<CUresult (*)(CUcontext*, CUdevice)>(dlsym(g_cuda, "cuDevicePrimaryCtxRetain"));
  auto set_current = reinterpret_cast<CUresult (*)(CUcontext)>(dlsym(g_cuda, "cuCtxSetCurrent"));
  CUcontext ctx = nullptr;
  if (!init || !retain || !set_current || init(0) != CUDA_SUCCESS || retain(&ctx, 0) != CUDA_SUCCESS ||
      set_current(ctx) != CUDA_SUCCESS)
    return 2;

  leak_through("RTLD_NEXT dlsym", reinterpret_cast<Dlsym>(dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5")), 1);
  leak_through("RTLD_DEFAULT dlsym", reinterpret_cast<Dlsym>(dlvsym(RTLD_DEFAULT, "dlsym", "GLIBC_2.34")), 2);
  leak_through("libc dlsym", reinterpret_cast<Dlsym>(dlsym(libc, "dlsym")), 3);
  auto libc_dlvsym = reinterpret_cast<Dlvsym>(dlvsym(libc, "dlvsym", "GLIBC_2.34"));
  leak_through("libc dlvsym", libc_dlvsym ? reinterpret_cast<Dlsym>(libc_dlvsym(libc, "dlsym", "GLIBC_2.34")) : nullptr, 4);

  auto versioned = reinterpret_cast<MemAlloc>(dlvsym(g_cuda, "cuMemAlloc_v2", "libcuda.so.1"));
  CUdeviceptr p = 0;
  if (!versioned)
    std::printf("no versioned cuMemAlloc_v2\n");
  else
    std::printf("versioned cuMemAlloc_v2: %s\n", versioned(&p, 5 << 20) == CUDA_SUCCESS ? "allocated" : "failed");
  return 0;
}
