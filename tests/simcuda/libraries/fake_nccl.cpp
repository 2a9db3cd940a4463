// A stand-in for libnccl.so.2: as the real library does, a communicator
// maps most of its memory after ncclCommInitRank returns, on a proxy thread
// of its own (ncclProxyService) and inside collectives
// (ncclEnqueueCheck), where no create or use hook of cudaleak's is on the
// stack; ncclMemAlloc hands memory to the caller. ncclCommDestroy frees what
// the communicator made. Exercises what a library makes for a live handle
// outside the calls cudaleak interposes (issue 50).
#include <cuda.h>

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t kProxyBytes = size_t(4) << 20;    // the proxy's buffers
constexpr size_t kChannelBytes = size_t(1) << 20;  // each collective's channel buffers

struct UniqueId {
  char internal[128];
};

struct Comm {
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<CUdeviceptr> memory;
  int requests = 0, served = 0;
  bool stop = false;
  CUcontext context = nullptr;
  std::thread proxy;
};

// NCCL's proxy service: maps buffers for the collectives it is asked to
// serve, on its own thread (bound to the communicator's context).
__attribute__((noinline)) void proxy_service(Comm* comm) {
  cuCtxSetCurrent(comm->context);
  std::unique_lock lock(comm->mutex);
  for (;;) {
    comm->wake.wait(lock, [&] { return comm->stop || comm->requests > comm->served; });
    if (comm->requests > comm->served) {
      CUdeviceptr p = 0;
      if (cuMemAlloc(&p, kProxyBytes) == CUDA_SUCCESS) comm->memory.push_back(p);
      ++comm->served;
      comm->wake.notify_all();
      continue;
    }
    return;
  }
}

__attribute__((noinline)) int enqueue_check(Comm* comm) {
  CUdeviceptr p = 0;
  if (cuMemAlloc(&p, kChannelBytes) != CUDA_SUCCESS) return 1;  // ncclUnhandledCudaError
  std::unique_lock lock(comm->mutex);
  comm->memory.push_back(p);
  ++comm->requests;
  comm->wake.notify_all();
  comm->wake.wait(lock, [&] { return comm->served >= comm->requests; });
  return 0;
}

}  // namespace

FAKE_EXPORT int ncclGetUniqueId(UniqueId* id) {
  if (!id) return 4;  // ncclInvalidArgument
  for (char& c : id->internal) c = 1;
  return 0;
}

FAKE_EXPORT int ncclCommInitRank(void** out, int nranks, UniqueId, int rank) {
  if (!out || nranks < 1 || rank < 0 || rank >= nranks) return 4;
  auto* comm = new Comm;
  cuCtxGetCurrent(&comm->context);
  comm->proxy = std::thread(proxy_service, comm);
  *out = comm;
  return 0;
}

FAKE_EXPORT int ncclAllReduce(const void*, void*, size_t, int, int, void* comm, void*) {
  return comm ? enqueue_check(static_cast<Comm*>(comm)) : 4;
}

FAKE_EXPORT int ncclMemAlloc(void** ptr, size_t bytes) {
  CUdeviceptr p = 0;
  if (!ptr || cuMemAlloc(&p, bytes) != CUDA_SUCCESS) return 1;
  *ptr = reinterpret_cast<void*>(p);
  return 0;
}

FAKE_EXPORT int ncclMemFree(void* ptr) { return cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)) == CUDA_SUCCESS ? 0 : 1; }

FAKE_EXPORT int ncclCommDestroy(void* handle) {
  auto* comm = static_cast<Comm*>(handle);
  if (!comm) return 4;
  {
    std::lock_guard lock(comm->mutex);
    comm->stop = true;
  }
  comm->wake.notify_all();
  comm->proxy.join();
  for (CUdeviceptr p : comm->memory) cuMemFree(p);
  delete comm;
  return 0;
}
