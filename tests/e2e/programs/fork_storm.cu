// fork() while other threads allocate: 4 threads allocate and free device
// memory in a loop while the main thread forks `forks` times. Each child makes
// a CUDA call and exits (every 20th through exit(), the rest through _exit(); each writes its report);
// a child that does not finish within 10 s counts as hung and fails the run.
// With "host" as the second argument the child makes no CUDA call (a real
// driver cannot be used after fork): what a DataLoader worker does.
#include <cuda_runtime.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<bool> g_stop{false};

void allocate_forever() {
  while (!g_stop.load()) {
    void* p = nullptr;
    if (cudaMalloc(&p, 4096) == cudaSuccess) cudaFree(p);
    cudaStream_t s;
    if (cudaStreamCreate(&s) == cudaSuccess) cudaStreamDestroy(s);
  }
}

bool wait_with_timeout(pid_t child, int* status) {
  for (int waited_ms = 0; waited_ms < 10000; waited_ms += 1) {
    pid_t r = waitpid(child, status, WNOHANG);
    if (r == child) return true;
    usleep(1000);
  }
  kill(child, SIGKILL);
  waitpid(child, status, 0);
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  int forks = argc > 1 ? std::atoi(argv[1]) : 200;
  bool cuda_in_child = !(argc > 2 && std::string(argv[2]) == "host");
  void* warm = nullptr;
  if (cudaMalloc(&warm, 1 << 20) != cudaSuccess) return 2;  // leaked on purpose: the parent's one leak
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back(allocate_forever);
  int hung = 0, failed = 0;
  for (int i = 0; i < forks; ++i) {
    pid_t child = fork();
    if (child == 0) {
      void* p = nullptr;
      // The simulated driver survives fork (host memory); a real one would not.
      bool ok = !cuda_in_child || (cudaMallocHost(&p, 4096) == cudaSuccess && cudaFreeHost(p) == cudaSuccess);
      if (i % 20 == 0) std::exit(ok ? 0 : 3);
      _exit(ok ? 0 : 3);
    }
    int status = 0;
    if (child < 0) ++failed;
    else if (!wait_with_timeout(child, &status)) ++hung;
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  g_stop = true;
  for (auto& t : threads) t.join();
  std::printf("forks %d hung %d failed %d\n", forks, hung, failed);
  return hung || failed ? 1 : 0;
}
