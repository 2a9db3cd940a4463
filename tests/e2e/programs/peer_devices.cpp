// One process on two devices with peer access on, and managed memory
// prefetched across devices and to the host (under the simulated GPU, and on
// a real one: tests/cases/ranks/peer_devices_real.sh):
//   1. peer access enabled both ways between devices 0 and 1;
//   2. 3 MiB allocated on device 1 and freed while device 0 is current: no
//      leak, and no release cudaleak did not know;
//   3. leak_on_peer(): 5 MiB and a stream on device 1, never released;
//   4. managed_to_peer(): 6 MiB of managed memory allocated with device 0
//      current, prefetched whole to device 1, never freed;
//   5. managed_to_host(): 7 MiB of managed memory prefetched to the host,
//      never freed;
//   6. 2 MiB of managed memory prefetched to device 1 and back, then freed;
//   7. managed_batch(): 1 MiB to device 1 and 4 MiB to the host in one
//      cudaMemPrefetchBatchAsync, never freed.
// With one device, device 0 stands for device 1 and peer access is skipped.
// Exits 0 when every CUDA call succeeded, else 1 naming the call.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace {

int g_peer = 0;

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "peer_devices: %s failed: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

void prefetch(void* p, size_t bytes, cudaMemLocationType type, int id) {
  cudaMemLocation where{};
  where.type = type;
  where.id = id;
  check(cudaMemPrefetchAsync(p, bytes, where, 0, nullptr), "cudaMemPrefetchAsync");
  check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
}

__attribute__((noinline)) void free_from_other_device() {
  check(cudaSetDevice(g_peer), "cudaSetDevice");
  void* p = nullptr;
  check(cudaMalloc(&p, 3 << 20), "cudaMalloc");
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaFree(p), "cudaFree from device 0");
}

__attribute__((noinline)) void leak_on_peer() {
  check(cudaSetDevice(g_peer), "cudaSetDevice");
  void* p = nullptr;
  check(cudaMalloc(&p, 5 << 20), "cudaMalloc");
  cudaStream_t s = nullptr;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  check(cudaSetDevice(0), "cudaSetDevice");
}

__attribute__((noinline)) void* managed_to_peer() {
  void* p = nullptr;
  check(cudaMallocManaged(&p, 6 << 20), "cudaMallocManaged");
  prefetch(p, 6 << 20, cudaMemLocationTypeDevice, g_peer);
  return p;
}

__attribute__((noinline)) void* managed_to_host() {
  void* p = nullptr;
  check(cudaMallocManaged(&p, 7 << 20), "cudaMallocManaged");
  prefetch(p, 7 << 20, cudaMemLocationTypeHost, 0);
  return p;
}

__attribute__((noinline)) void managed_round_trip() {
  void* p = nullptr;
  check(cudaMallocManaged(&p, 2 << 20), "cudaMallocManaged");
  prefetch(p, 2 << 20, cudaMemLocationTypeDevice, g_peer);
  prefetch(p, 2 << 20, cudaMemLocationTypeDevice, 0);
  check(cudaFree(p), "cudaFree");
}

__attribute__((noinline)) void managed_batch() {
  void* ptrs[2] = {};
  size_t sizes[2] = {1 << 20, 4 << 20};
  check(cudaMallocManaged(&ptrs[0], sizes[0]), "cudaMallocManaged");
  check(cudaMallocManaged(&ptrs[1], sizes[1]), "cudaMallocManaged");
  cudaMemLocation where[2] = {};
  where[0].type = cudaMemLocationTypeDevice;
  where[0].id = g_peer;
  where[1].type = cudaMemLocationTypeHost;
  size_t first_op[2] = {0, 1};  // operation 0 to where[0], operation 1 on to where[1]
  cudaStream_t stream = nullptr;  // a batch may not go to the legacy NULL stream
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  check(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, where, first_op, 2, 0, stream), "cudaMemPrefetchBatchAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

}  // namespace

int main() {
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  g_peer = devices > 1 ? 1 : 0;
  bool peer_access = false;
  if (devices > 1) {
    int forward = 0, backward = 0;
    check(cudaDeviceCanAccessPeer(&forward, 0, 1), "cudaDeviceCanAccessPeer");
    check(cudaDeviceCanAccessPeer(&backward, 1, 0), "cudaDeviceCanAccessPeer");
    peer_access = forward && backward;
    if (peer_access) {
      check(cudaSetDevice(0), "cudaSetDevice");
      check(cudaDeviceEnablePeerAccess(1, 0), "cudaDeviceEnablePeerAccess(1)");
      check(cudaSetDevice(1), "cudaSetDevice");
      check(cudaDeviceEnablePeerAccess(0, 0), "cudaDeviceEnablePeerAccess(0)");
    }
  }
  check(cudaSetDevice(0), "cudaSetDevice");
  free_from_other_device();
  leak_on_peer();
  managed_to_peer();
  managed_to_host();
  managed_round_trip();
  managed_batch();
  if (peer_access) check(cudaDeviceDisablePeerAccess(1), "cudaDeviceDisablePeerAccess");
  std::printf("peer_devices: %d devices, peer device %d, peer access %s\n", devices, g_peer,
              peer_access ? "on" : "off");
  return 0;
}
