// Leaks 1 MiB, then closes stderr and opens a data file, which takes fd 2, and
// writes to it: cudaleak's summary must go to the stderr the process started
// with, never into the program's file.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  void* p = nullptr;
  if (argc < 2 || cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  close(STDERR_FILENO);
  int data = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (data != STDERR_FILENO) return 3;
  dprintf(data, "data\n");
  return 0;
}
