// BUILD: %nvcc %s -o %t/prog
// RUN: %run -o %t/r.json -- %t/prog
// CHECK-RE: driver: reserved [0-9]+ used 0
// CHECK: 1 memory pool never destroyed, keeping up to 64.0 MiB reserved (release threshold unlimited, set at main (pool_keeps.cu:
// CHECK: 0 B in use
// A memory pool with an unlimited release threshold that keeps 64 MiB after
// the program freed it, never destroyed; prints what the driver says the pool
// holds just before exit, for the report's "keeping up to" to be compared.
#include <cstdint>
#include <cstdio>

int main() {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) return 2;
  uint64_t unlimited = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &unlimited);  // LINE:threshold
  cudaStream_t s;
  cudaStreamCreate(&s);
  void* p = nullptr;
  cudaMallocFromPoolAsync(&p, 64 << 20, pool, s);
  cudaFreeAsync(p, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  uint64_t reserved = 0, used = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  std::printf("driver: reserved %llu used %llu\n", (unsigned long long)reserved, (unsigned long long)used);
  return 0;
}
