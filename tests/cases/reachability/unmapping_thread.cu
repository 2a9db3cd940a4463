// BUILD: %nvcc %s -o %t/prog
// RUN(exit=3): %run -o %t/r.json -- %t/prog
// CHECK: SUMMARY: cudaleak:
// A thread maps and unmaps memory that holds a device pointer, over and
// over, while the exit report scans: the scan reads through
// process_vm_readv, so a mapping that vanishes under it is passed over and
// the program is never hurt (its own status, 3, stands).
#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include <cuda_runtime.h>

void** volatile g_slot;  // the mapping of the moment, or null
std::atomic<bool> g_started{false};

int main() {
  void* buffer = nullptr;
  cudaMalloc(&buffer, 1 << 20);
  std::thread churn([buffer] {
    for (;;) {
      void* m = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) continue;
      static_cast<void**>(m)[4096] = buffer;
      g_slot = static_cast<void**>(m);
      g_started = true;
      g_slot = nullptr;
      munmap(m, 1 << 20);
    }
  });
  churn.detach();
  while (!g_started) std::this_thread::yield();
  std::exit(3);
}
