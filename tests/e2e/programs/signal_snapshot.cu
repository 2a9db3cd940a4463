// Sends itself the snapshot signal while 2 MiB are live, waits for the
// snapshot to be written (the reporter thread writes it), then frees and exits.
#include <cuda_runtime.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  void* p = nullptr;
  if (cudaMalloc(&p, 2 << 20) != cudaSuccess) return 2;
  raise(SIGUSR1);
  for (int i = 0; i < 500 && access(argv[1], F_OK) != 0; ++i) usleep(10000);
  std::printf("snapshot %s\n", access(argv[1], F_OK) == 0 ? "seen" : "missing");
  cudaFree(p);
  return 0;
}
