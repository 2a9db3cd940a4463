// cuBLAS with its own embedded cudart: a handle is created, used for one
// SGEMM, and never destroyed, so its workspace stays allocated.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  const int n = 256;
  std::vector<float> host(n * n, 1.0f);
  float *a = nullptr, *c = nullptr;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  cudaMemcpy(a, host.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);
  cudaMemcpy(host.data(), c, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("c[0] = %.1f\n", host[0]);
  cudaFree(a);
  cudaFree(c);
  return 0;  // no cublasDestroy(handle)
}
