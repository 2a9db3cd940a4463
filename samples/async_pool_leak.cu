// Stream-ordered allocations and a memory pool never released: one
// cudaMallocAsync buffer is never freed, one from a user pool is never freed,
// and the pool itself is never destroyed.
#include "common.h"

int main() {
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CHECK(cudaMemPoolCreate(&pool, &props));

  void *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMallocAsync(&a, 512 << 10, stream));
  CHECK(cudaMallocAsync(&b, 128 << 10, stream));
  CHECK(cudaMallocFromPoolAsync(&c, 1 << 20, pool, stream));
  CHECK(cudaFreeAsync(b, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  std::printf("async work done\n");
  return 0;
}
