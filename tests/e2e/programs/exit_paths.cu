// The ways out of a process that run no destructor, each after a leak:
//   killed-child  a forked child leaks 2 MiB and dies of SIGKILL (the kernel's
//                 out-of-memory killer); the parent, which used no CUDA, exits 0
//   _exit         leaks 1 MiB and leaves by _exit(0) (Python's os._exit)
//   _Exit         the same by _Exit(0)
//   usr2          leaks 1 MiB and dies of SIGUSR2, left at its default action
//   vfork         leaks 1 MiB, a vfork child leaves by _exit(0) in the
//                 parent's memory, then the parent frees and exits 0
#include <cuda_runtime.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "";
  void* p = nullptr;
  if (std::strcmp(how, "killed-child") == 0) {
    pid_t child = fork();  // before any CUDA call, so that the child may use a real GPU
    if (child == 0) {
      if (cudaMalloc(&p, 2 << 20) != cudaSuccess) _exit(2);
      raise(SIGKILL);
    }
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("child killed by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return 0;
  }
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  if (std::strcmp(how, "_exit") == 0) {
    std::printf("leaving by _exit\n");
    std::fflush(stdout);
    _exit(0);
  }
  if (std::strcmp(how, "_Exit") == 0) {
    std::printf("leaving by _Exit\n");
    std::fflush(stdout);
    _Exit(0);
  }
  if (std::strcmp(how, "usr2") == 0) raise(SIGUSR2);
  if (std::strcmp(how, "vfork") == 0) {
    pid_t child = vfork();
    if (child == 0) _exit(7);
    int status = 0;
    waitpid(child, &status, 0);
    cudaFree(p);
    std::printf("vfork child exited %d\n", WEXITSTATUS(status));
    return 0;
  }
  return 3;
}
