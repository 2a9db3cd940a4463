// Library handles on a real GPU (cuBLAS, cuBLASLt, cuFFT, cuRAND, cuSPARSE,
// cuSOLVER dense and sparse): two of each created, one destroyed in `leak`;
// all destroyed in `clean`. The case tests/cases/kinds/real_library_handles.sh
// builds it twice, with the libraries linked dynamically and statically, and
// asserts both.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusolverSp.h>
#include <cusparse.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../../common/check_call.h"

struct Handles {
  cublasHandle_t blas;
  cublasLtHandle_t lt;
  cufftHandle fft;
  curandGenerator_t rand;
  cusparseHandle_t sparse;
  cusolverDnHandle_t solver;
  cusolverSpHandle_t sparse_solver;
};

Handles open_handles() {
  Handles h;
  CHECK(cublasCreate(&h.blas));
  CHECK(cublasLtCreate(&h.lt));
  CHECK(cufftPlan1d(&h.fft, 1024, CUFFT_C2C, 4));
  CHECK(curandCreateGenerator(&h.rand, CURAND_RNG_PSEUDO_DEFAULT));
  CHECK(cusparseCreate(&h.sparse));
  CHECK(cusolverDnCreate(&h.solver));
  CHECK(cusolverSpCreate(&h.sparse_solver));
  return h;
}

void close_handles(Handles& h) {
  CHECK(cublasDestroy(h.blas));
  CHECK(cublasLtDestroy(h.lt));
  CHECK(cufftDestroy(h.fft));
  CHECK(curandDestroyGenerator(h.rand));
  CHECK(cusparseDestroy(h.sparse));
  CHECK(cusolverDnDestroy(h.solver));
  CHECK(cusolverSpDestroy(h.sparse_solver));
}

int main(int argc, char** argv) {
  bool leak = argc > 1 && std::strcmp(argv[1], "leak") == 0;
  Handles first = open_handles();
  Handles second = open_handles();
  close_handles(first);
  if (!leak) close_handles(second);
  std::printf("%s\n", leak ? "one of each handle left alive" : "every handle destroyed");
  return 0;
}
