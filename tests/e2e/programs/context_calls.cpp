// The program's own context calls (cuCtxGetCurrent, cuCtxGetDevice) between
// allocations on two contexts of two devices, switched by create, push, pop,
// set and destroy, on two threads, each result printed. Run with the same
// fault injected on those entry points (CUDALEAK_SIM_FAIL=cuCtxGetCurrent:N),
// the output is the same with and without cudaleak: cudaleak makes no driver
// call of its own there. Leaks, one per size, so that a report tells which
// device each allocation was placed on: 1 and 5 MiB on device 0, 2, 3, 4 and
// 6 MiB on device 1.
// With the argument `unseen`, it then binds contexts by a path cudaleak cannot
// see (cuCtxSetCurrent found in the driver's ELF symbol table): a over b,
// which cudaleak saw pushed (7 MiB: placed on b, what check_context exists to
// catch), then a on an empty stack (8 MiB: cudaleak knows no context there,
// asks the driver and places it right).
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <thread>

#include "../../common/elf_symbol.h"

namespace {

CUcontext g_a = nullptr, g_b = nullptr;

const char* name_of(CUcontext c) {
  if (!c) return "none";
  if (c == g_a) return "a";
  if (c == g_b) return "b";
  return "other";
}

void query(const char* where) {
  CUcontext c = nullptr;
  CUresult r = cuCtxGetCurrent(&c);
  CUdevice d = -1;
  CUresult rd = cuCtxGetDevice(&d);
  std::printf("%s: current %d %s, device %d %d\n", where, int(r), name_of(c), int(rd), rd == CUDA_SUCCESS ? d : -1);
}

void pop(const char* what) {
  CUcontext popped = nullptr;
  CUresult r = cuCtxPopCurrent(&popped);
  std::printf("%s: pop %d %s\n", what, int(r), name_of(popped));
}

void alloc(const char* what, size_t mib) {
  CUdeviceptr p = 0;
  std::printf("%s: alloc %zu MiB %d\n", what, mib, int(cuMemAlloc(&p, mib << 20)));
}

}  // namespace

int main(int argc, char** argv) {
  cuInit(0);
  CUdevice d0 = 0, d1 = 0;
  cuDeviceGet(&d0, 0);
  cuDeviceGet(&d1, 1);
  std::printf("create a %d\n", int(cuCtxCreate(&g_a, nullptr, 0, d0)));
  query("after create a");
  alloc("a", 1);
  std::printf("create b %d\n", int(cuCtxCreate(&g_b, nullptr, 0, d1)));
  query("after create b");
  alloc("b", 2);
  pop("b");
  query("after pop");
  std::printf("push b %d\n", int(cuCtxPushCurrent(g_b)));
  alloc("pushed b", 3);
  pop("pushed b");
  std::printf("set b %d\n", int(cuCtxSetCurrent(g_b)));
  alloc("set b", 4);
  std::printf("set none %d\n", int(cuCtxSetCurrent(nullptr)));
  query("after set none");

  std::thread other([] {
    query("thread start");
    std::printf("thread set a %d\n", int(cuCtxSetCurrent(g_a)));
    alloc("thread a", 5);
    query("thread after set");
  });
  other.join();
  query("main after join");

  CUcontext primary = nullptr;
  std::printf("retain primary 1 %d\n", int(cuDevicePrimaryCtxRetain(&primary, d1)));
  std::printf("push primary %d\n", int(cuCtxPushCurrent(primary)));
  alloc("primary", 6);
  CUcontext scratch = nullptr;
  std::printf("create scratch %d\n", int(cuCtxCreate(&scratch, nullptr, 0, d0)));
  std::printf("destroy scratch %d\n", int(cuCtxDestroy(scratch)));
  query("after destroy");
  pop("primary");
  query("end");
  if (argc > 1 && std::strcmp(argv[1], "unseen") == 0) {
    auto set = reinterpret_cast<CUresult (*)(CUcontext)>(find_in_elf(dlopen("libcuda.so.1", RTLD_NOW), "cuCtxSetCurrent"));
    std::printf("push b %d\n", int(cuCtxPushCurrent(g_b)));
    std::printf("unseen set a %d\n", set ? int(set(g_a)) : -1);
    alloc("unseen a over b", 7);
    pop("unseen a");
    std::printf("unseen set a %d\n", set ? int(set(g_a)) : -1);
    alloc("unseen a", 8);
  }
  return 0;
}
