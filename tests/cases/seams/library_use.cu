// REQUIRES: gpu
// BUILD: %nvcc %s -o %t/prog -lcublas -lcublasLt -lcufft -lcusparse
// RUN: %run -o %t/leak.json -- %t/prog leak
// CHECK: cublasSgemm:
// CHECK: 1 cuBLAS handle never destroyed (cublasDestroy), created by cublasCreate_v2 on device 0, holding
// CHECK-NONE: created by cublasSgemm
// CHECK-NONE: created by cublasLtMatmul
// CHECK-NONE: created by cufftExec
// CHECK-NONE: created by cusparseSpMV
// CHECK-COUNT(1): 1 cuBLASLt handle never destroyed
// CHECK-COUNT(1): 1 cuFFT plan never destroyed
// CHECK-COUNT(1): 1 cuSPARSE handle never destroyed
// RUN: %python %root/tests/cases/tools/library_strays.py %t/leak.json
// CHECK: strays: 0
// RUN: %run -o %t/clean.json -- %t/prog clean
// CHECK: no CUDA resources leaked
// Handles of cuBLAS, cuBLASLt, cuFFT and cuSPARSE, each used once by a call
// that takes the handle (a GEMM, a Lt matmul, an FFT execution, an SpMV):
// whatever the library allocates in those calls, or later on its own, is the
// handle's. `leak` leaves every handle alive at exit; `clean` destroys them.
// Prints each library's device memory use around its call (cudaMemGetInfo),
// so a run shows what the call itself made.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cufft.h>
#include <cusparse.h>

#include <cstdio>
#include <cstring>

#define OK(call)                                                         \
  do {                                                                   \
    if (int s_ = int(call)) {                                            \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #call, s_, __LINE__); \
      return 1;                                                          \
    }                                                                    \
  } while (0)

static size_t used() {
  size_t free = 0, total = 0;
  cudaDeviceSynchronize();
  cudaMemGetInfo(&free, &total);
  return total - free;
}

int main(int argc, char** argv) {
  const bool clean = argc > 1 && std::strcmp(argv[1], "clean") == 0;
  const int n = 512;
  float *a, *b, *c;
  OK(cudaMalloc(&a, n * n * sizeof(float)));
  OK(cudaMalloc(&b, n * n * sizeof(float)));
  OK(cudaMalloc(&c, n * n * sizeof(float)));
  const float one = 1, zero = 0;

  cublasHandle_t blas;
  OK(cublasCreate(&blas));
  size_t before = used();
  OK(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
  std::printf("cublasSgemm: %+lld bytes\n", (long long)(used() - before));

  cublasLtHandle_t lt;
  OK(cublasLtCreate(&lt));
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t layout;
  OK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  OK(cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n));
  before = used();
  OK(cublasLtMatmul(lt, op, &one, a, layout, b, layout, &zero, c, layout, c, layout, nullptr, nullptr, 0, 0));
  std::printf("cublasLtMatmul: %+lld bytes\n", (long long)(used() - before));

  cufftHandle plan;
  OK(cufftPlan1d(&plan, 1 << 16, CUFFT_C2C, 4));
  before = used();
  OK(cufftExecC2C(plan, reinterpret_cast<cufftComplex*>(a), reinterpret_cast<cufftComplex*>(b), CUFFT_FORWARD));
  std::printf("cufftExecC2C: %+lld bytes\n", (long long)(used() - before));

  cusparseHandle_t sparse;
  OK(cusparseCreate(&sparse));
  int* rows;
  OK(cudaMalloc(&rows, (n + 1) * sizeof(int)));
  OK(cudaMemset(rows, 0, (n + 1) * sizeof(int)));
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t x, y;
  OK(cusparseCreateCsr(&mat, n, n, 0, rows, c, c, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                       CUDA_R_32F));
  OK(cusparseCreateDnVec(&x, n, a, CUDA_R_32F));
  OK(cusparseCreateDnVec(&y, n, b, CUDA_R_32F));
  size_t buffer_bytes = 0;
  OK(cusparseSpMV_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, x, &zero, y, CUDA_R_32F,
                             CUSPARSE_SPMV_ALG_DEFAULT, &buffer_bytes));
  void* buffer = nullptr;
  OK(cudaMalloc(&buffer, buffer_bytes + 1));
  before = used();
  OK(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, x, &zero, y, CUDA_R_32F,
                  CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  std::printf("cusparseSpMV: %+lld bytes\n", (long long)(used() - before));

  OK(cusparseDestroyDnVec(x));
  OK(cusparseDestroyDnVec(y));
  OK(cusparseDestroySpMat(mat));
  OK(cublasLtMatrixLayoutDestroy(layout));
  OK(cublasLtMatmulDescDestroy(op));
  OK(cudaFree(buffer));
  OK(cudaFree(rows));
  if (clean) {
    OK(cusparseDestroy(sparse));
    OK(cufftDestroy(plan));
    OK(cublasLtDestroy(lt));
    OK(cublasDestroy(blas));
  }
  OK(cudaFree(a));
  OK(cudaFree(b));
  OK(cudaFree(c));
  return 0;
}
