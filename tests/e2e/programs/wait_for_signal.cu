// Leaks 1 MiB, writes its pid to argv[1], then waits (at most 30 s) for a
// signal to end it: for the termination-report and launcher-signal tests.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  void* p = nullptr;
  if (argc < 2 || cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  std::FILE* f = std::fopen(argv[1], "w");
  if (!f) return 2;
  std::fprintf(f, "%d\n", int(getpid()));
  std::fclose(f);
  for (int i = 0; i < 300; ++i) usleep(100000);
  return 0;
}
