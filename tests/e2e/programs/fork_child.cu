// The parent leaks 1 MiB and forks; the child leaks 3 MiB of pinned memory of
// its own and exits. Each process must report only what it created itself.
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main() {
  void* parent_buffer = nullptr;
  if (cudaMalloc(&parent_buffer, 1 << 20) != cudaSuccess) return 2;
  pid_t child = fork();
  if (child == 0) {
    void* child_buffer = nullptr;
    // The simulated driver survives fork (host memory); a real one would not.
    if (cudaMallocHost(&child_buffer, 3 << 20) != cudaSuccess) _exit(2);
    std::exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("child exited %d\n", WEXITSTATUS(status));
  return 0;
}
