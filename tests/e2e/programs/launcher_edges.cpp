// Ways a process of a `cudaleak run` can leave the launcher without a usable
// report, each after leaking 1 MiB (tests/cases/launcher/):
//   linger MS        holds the leak MS milliseconds, then exits 0 (a test
//                    process the watch of escapes from the preload can see)
//   quick-exit N     leaves by quick_exit(N): no exit handler runs
//   abort-child      a forked child leaks and aborts on purpose (a death
//                    test); the parent, which used no CUDA, exits 0
//   no-descriptors   opens descriptors until none is left, then exits 0
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {
int leak() {
  void* p = nullptr;
  return cudaMalloc(&p, 1 << 20) == cudaSuccess ? 0 : 2;
}
}  // namespace

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "";
  const int number = argc > 2 ? std::atoi(argv[2]) : 0;
  if (std::strcmp(how, "abort-child") == 0) {
    pid_t child = fork();  // before any CUDA call, as a death test's
    if (child == 0) {
      if (leak() != 0) _exit(2);
      std::abort();
    }
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("child died of signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return 0;
  }
  if (leak() != 0) return 2;
  if (std::strcmp(how, "linger") == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(number));
    return 0;
  }
  if (std::strcmp(how, "quick-exit") == 0) std::quick_exit(number);
  if (std::strcmp(how, "no-descriptors") == 0) {
    int opened = 0;
    while (open("/dev/null", O_RDONLY) >= 0) ++opened;
    std::printf("opened %d descriptors\n", opened);
    return 0;
  }
  return 3;
}
