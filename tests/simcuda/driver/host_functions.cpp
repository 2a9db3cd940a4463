// Host functions (cuLaunchHostFunc, cuStreamAddCallback) of the simulated
// driver, run as the real driver runs them: on a thread the driver starts,
// unnamed (it keeps the program's name), not on the caller's. The caller
// waits until the function has run: the simulation's work is synchronous.
// Like the real driver's worker, the thread keeps the structure it serves
// from, which names the last stream it ran work for, so that a stream the
// program dropped is still referenced from the driver's thread's stack.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

namespace {

struct HostQueue {
  std::mutex mutex;
  std::condition_variable changed;
  void (*work)(void*) = nullptr;  // waiting to run
  void* data = nullptr;
  CUstream served = nullptr;  // the stream of the last function run
  unsigned long done = 0;
};

void* serve(void* arg) {
  HostQueue* queue = static_cast<HostQueue*>(arg);  // on this thread's stack for its life
  std::unique_lock<std::mutex> lock(queue->mutex);
  for (;;) {
    queue->changed.wait(lock, [&] { return queue->work != nullptr; });
    void (*work)(void*) = queue->work;
    void* data = queue->data;
    lock.unlock();
    work(data);
    lock.lock();
    queue->work = nullptr;
    ++queue->done;
    queue->changed.notify_all();
  }
  return nullptr;
}

// The worker is started through std::thread, as a C++ library would start
// one (the real driver calls pthread_create itself): cudaleak must look past
// libstdc++ to the library that asked for it.
HostQueue* queue() {
  static HostQueue* q = [] {
    auto* made = new HostQueue;  // never freed: the worker lives as long as the process
    try {
      std::thread(serve, made).detach();
    } catch (...) {
      made = nullptr;
    }
    return made;
  }();
  return q;
}

CUresult run_on_worker(CUstream stream, void (*work)(void*), void* data) {
  if (stream && stream != CU_STREAM_PER_THREAD && stream != CU_STREAM_LEGACY && !valid(stream, Object::Stream))
    return CUDA_ERROR_INVALID_HANDLE;
  HostQueue* q = queue();
  if (!q) return CUDA_ERROR_OUT_OF_MEMORY;
  std::unique_lock<std::mutex> lock(q->mutex);
  q->changed.wait(lock, [&] { return q->work == nullptr; });
  q->work = work;
  q->data = data;
  q->served = stream;
  const unsigned long ticket = q->done + 1;
  q->changed.notify_all();
  q->changed.wait(lock, [&] { return q->done >= ticket; });
  return CUDA_SUCCESS;
}

struct Callback {
  CUstreamCallback fn;
  CUstream stream;
  void* data;
};

}  // namespace

SIM_EXPORT CUresult cuLaunchHostFunc(CUstream stream, CUhostFn fn, void* data) {
  SIM_ENTRY("cuLaunchHostFunc");
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  return run_on_worker(stream, fn, data);
}

SIM_EXPORT CUresult cuStreamAddCallback(CUstream stream, CUstreamCallback fn, void* data, unsigned int flags) {
  SIM_ENTRY("cuStreamAddCallback");
  if (!fn || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  Callback call{fn, stream, data};
  return run_on_worker(
      stream,
      [](void* p) {
        auto* c = static_cast<Callback*>(p);
        c->fn(c->stream, CUDA_SUCCESS, c->data);
      },
      &call);
}
