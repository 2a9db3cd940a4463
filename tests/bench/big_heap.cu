// A program with a big host heap and many device allocations, for the cost of
// the reachability scan (scripts/bench-reachability.sh): HEAP_MIB of host
// memory in BLOCKS malloc'd blocks, all held from a global and filled with
// words of which some look like pointers, and ALLOCATIONS device
// allocations, half kept in a global array, half lost. Plain pointers, not
// std::vector: the exit report comes after static destructors, which would
// have freed a vector's buffer (then what it held is lost, as it should be).
// Usage: bench_big_heap [HEAP_MIB] [BLOCKS] [ALLOCATIONS]
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

uint64_t** g_blocks;
void** g_kept;

int main(int argc, char** argv) {
  const uint64_t heap_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1536;
  const uint64_t blocks = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10000;
  const uint64_t allocations = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 10000;
  const uint64_t words = (heap_mib << 20) / blocks / 8;
  g_blocks = static_cast<uint64_t**>(std::calloc(blocks, sizeof(uint64_t*)));
  g_kept = static_cast<void**>(std::calloc(allocations / 2 + 1, sizeof(void*)));
  uint64_t x = 88172645463325252ull;  // xorshift: data that is mostly not pointers
  for (uint64_t b = 0; b < blocks; ++b) {
    auto* block = static_cast<uint64_t*>(std::malloc(words * 8));
    for (uint64_t i = 0; i < words; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      block[i] = i % 64 == 0 && b ? uint64_t(g_blocks[x % b]) : x;
    }
    g_blocks[b] = block;
  }
  for (uint64_t i = 0; i < allocations; ++i) {
    void* p = nullptr;
    if (cudaMalloc(&p, 4096) != cudaSuccess) return 1;
    if (i % 2 == 0) g_kept[i / 2] = p;
  }
  std::printf("heap %llu MiB in %llu blocks, %llu device allocations (half kept)\n",
              static_cast<unsigned long long>(heap_mib), static_cast<unsigned long long>(blocks),
              static_cast<unsigned long long>(allocations));
  return 0;
}
