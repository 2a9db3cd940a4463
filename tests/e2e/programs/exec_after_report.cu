// Leaks 1 MiB, asks for a report, then replaces itself with a new image
// (same pid) that leaks 2 MiB and exits: two images of one process, each
// with its own report.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "cudaleak.h"

int main(int argc, char** argv) {
  void* p = nullptr;
  if (argc > 1 && std::strcmp(argv[1], "second") == 0) {
    cudaMalloc(&p, 2 << 20);
    std::printf("second image\n");
    return 0;
  }
  cudaMalloc(&p, 1 << 20);
  cudaleak_report("before-exec");
  std::fflush(stdout);
  char* args[] = {argv[0], const_cast<char*>("second"), nullptr};
  execv("/proc/self/exe", args);
  return 2;
}
