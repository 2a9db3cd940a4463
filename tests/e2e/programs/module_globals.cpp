// Modules and libraries that declare device globals, loaded every way the
// driver offers (cuModuleLoad of a cubin file, cuModuleLoadData of a fatbin
// in memory, cuLibraryLoadData of a cubin, cuModuleLoadData of PTX text that
// the driver compiles). `leak` unloads none; `clean` unloads every one.
// Usage: module_globals MODE CUBIN FATBIN [verify]
// With `verify` (on a real GPU) it prints what the driver says the cubin's
// and the PTX's globals take (cuModuleGetGlobal), the figures the report must match.
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "../../common/primary_context.h"

std::string contents(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  bool leak = std::strcmp(argv[1], "leak") == 0;
  use_primary_context();

  std::string cubin = contents(argv[2]), fatbin = contents(argv[3]);
  static const char ptx[] = ".version 9.0\n.target sm_90\n.address_size 64\n.global .align 4 .b8 data[4096];\n";
  CUmodule from_file, from_fatbin, from_ptx;
  CUlibrary library;
  CHECK(cuModuleLoad(&from_file, argv[2]));
  CHECK(cuModuleLoadData(&from_fatbin, fatbin.data()));
  CHECK(cuLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  CHECK(cuModuleLoadData(&from_ptx, ptx));
  if (argc > 4 && std::strcmp(argv[4], "verify") == 0) {
    size_t total = 0;
    for (const char* name : {"table", "counters"}) {
      CUdeviceptr address;
      size_t bytes = 0;
      CHECK(cuModuleGetGlobal(&address, &bytes, from_file, name));
      total += bytes;
    }
    std::printf("device globals by cuModuleGetGlobal: %zu\n", total);
    CUdeviceptr address;
    size_t ptx_bytes = 0;
    CHECK(cuModuleGetGlobal(&address, &ptx_bytes, from_ptx, "data"));
    std::printf("PTX module's globals by cuModuleGetGlobal: %zu\n", ptx_bytes);
  }
  if (!leak) {
    CHECK(cuModuleUnload(from_file));
    CHECK(cuModuleUnload(from_fatbin));
    CHECK(cuLibraryUnload(library));
    CHECK(cuModuleUnload(from_ptx));
  }
  return 0;
}
