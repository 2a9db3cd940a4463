// A program built with -fsanitize=address or -fsanitize=thread, as CUDA test
// suites are in CI: it leaks 1 MiB of device memory from a thread, frees a
// second allocation, and leaves by exit() or, given "_exit", by _exit() with
// a host allocation lost (where the sanitizer's own _exit runs its leak
// check). Under cudaleak it must print and end exactly as without it.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

void* volatile g_lost_host = nullptr;

int main(int argc, char** argv) {
  void* kept = nullptr;
  std::thread worker([&] { cudaMalloc(&kept, 1 << 20); });
  worker.join();
  void* freed = nullptr;
  cudaMalloc(&freed, 4096);
  cudaFree(freed);
  std::printf("sanitized program: %s\n", kept ? "allocated" : "failed");
  std::fflush(stdout);
  if (argc > 1 && std::strcmp(argv[1], "_exit") == 0) {
    g_lost_host = std::malloc(64);
    g_lost_host = nullptr;
    _exit(3);
  }
  return kept ? 0 : 1;
}
