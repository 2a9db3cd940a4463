// Leaks 1 MiB, writes its pid to argv[1], then waits (at most 30 s) for a
// signal to end it: for the termination-report and launcher-signal tests.
// Given "busy" after the file, it waits making CUDA calls back to back, so
// that a signal most often lands inside one of cudaleak's hooks.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>

int main(int argc, char** argv) {
  void* p = nullptr;
  if (argc < 2 || cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  std::FILE* f = std::fopen(argv[1], "w");
  if (!f) return 2;
  std::fprintf(f, "%d\n", int(getpid()));
  std::fclose(f);
  if (argc > 2 && std::strcmp(argv[2], "busy") == 0) {
    const time_t end = time(nullptr) + 30;
    while (time(nullptr) < end) {
      cudaEvent_t event;
      void* q = nullptr;
      cudaEventCreate(&event);
      cudaMalloc(&q, 256);
      cudaFree(q);
      cudaEventDestroy(event);
    }
    return 0;
  }
  for (int i = 0; i < 300; ++i) usleep(100000);
  return 0;
}
