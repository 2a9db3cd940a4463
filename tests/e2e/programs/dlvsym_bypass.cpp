// Reaches the driver without dlsym: it loads libcuda.so.1 and finds cuInit in
// the library's own ELF symbol table, so no CUDA call goes through cudaleak.
// A gated run must not pass.
#include <cuda.h>

#include <cstdio>

#include "../../common/elf_symbol.h"

int main() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 2;
  auto init = reinterpret_cast<CUresult (*)(unsigned)>(find_in_elf(lib, "cuInit"));
  if (!init) return 2;
  std::printf("cuInit: %d\n", int(init(0)));
  return 0;
}
