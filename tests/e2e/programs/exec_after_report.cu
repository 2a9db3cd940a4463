// Image k of n (argv: k n; 1 and 2 when absent) leaks k MiB; every image but
// the last asks for a report and replaces itself with the next (same pid),
// which leaks and exits: n images of one process, each with its own report.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cudaleak.h"

int main(int argc, char** argv) {
  const int image = argc > 1 ? std::atoi(argv[1]) : 1;
  const int images = argc > 2 ? std::atoi(argv[2]) : 2;
  void* p = nullptr;
  cudaMalloc(&p, size_t(image) << 20);
  if (image >= images) {
    if (image == 2) std::printf("second image\n");
    else std::printf("image %d\n", image);
    return 0;
  }
  cudaleak_report("before-exec");
  std::fflush(stdout);
  std::string next = std::to_string(image + 1), total = std::to_string(images);
  char* args[] = {argv[0], next.data(), total.data(), nullptr};
  execv("/proc/self/exe", args);
  return 2;
}
