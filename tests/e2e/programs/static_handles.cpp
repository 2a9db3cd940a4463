// Library handles of statically linked libraries: the stand-in cuBLAS and
// cuSOLVER linked into the program as archives, as NVIDIA's _static libraries
// are, so their create functions never reach cudaleak's exports. `leak`
// creates three cuBLAS handles from one place and destroys one, and creates a
// cuSOLVER handle (which makes a cuBLAS handle of its own); `clean` destroys
// every one.
#include <cuda.h>

#include <cstring>

#include "../../common/primary_context.h"

extern "C" int cublasCreate_v2(void** handle);
extern "C" int cublasDestroy_v2(void* handle);
extern "C" int cusolverDnCreate(void** handle);
extern "C" int cusolverDnDestroy(void* handle);

void* open_blas() {
  void* handle = nullptr;
  CHECK(cublasCreate_v2(&handle));
  return handle;
}

int main(int argc, char** argv) {
  bool leak = argc > 1 && std::strcmp(argv[1], "leak") == 0;
  use_primary_context();

  void* blas[3];
  for (void*& h : blas) h = open_blas();
  void* solver = nullptr;
  CHECK(cusolverDnCreate(&solver));
  CHECK(cublasDestroy_v2(blas[2]));
  if (!leak) {
    CHECK(cublasDestroy_v2(blas[0]));
    CHECK(cublasDestroy_v2(blas[1]));
    CHECK(cusolverDnDestroy(solver));
  }
  return 0;
}
