// One rank of a simulated distributed job (started by fake_torchrun.py, with
// the launcher's variables), under the simulated GPU:
//   rank_worker [--leak-on RANKS] [--oom-on RANK] [--oom-device D] [--all-devices] [--sync DIR]
// Each rank takes the device of its local rank, holds a 32 MiB "model" while
// it trains, and frees it at the end. --leak-on 0,1,3: those ranks leak 2 MiB
// in leak_gradients (one site on every rank); rank 0 always leaks an event in
// rank0_only_event. --oom-on R: rank R allocates 64 MiB blocks on its device
// (or device D) until memory runs out and exits with status 1. --all-devices:
// each rank also leaves (d + 1) MiB on every device d. --sync DIR: the
// failing rank waits until every other rank holds its model (DIR/ready.N),
// and the others hold it until the failure happened (DIR/failed), so that the
// merged view has every rank's memory at the moment of the failure.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

int env_int(const char* const* names, int fallback) {
  for (const char* const* n = names; *n; ++n)
    if (const char* v = std::getenv(*n); v && *v) return std::atoi(v);
  return fallback;
}

bool listed(const std::string& list, int rank) {
  for (size_t start = 0; start <= list.size();) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    if (end > start && std::atoi(list.substr(start, end - start).c_str()) == rank) return true;
    start = end + 1;
  }
  return false;
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

void touch(const std::string& path) { std::ofstream(path) << "1\n"; }

// Up to 20 s: a rank that never comes must not hang the test forever.
void wait_for(const std::string& path) {
  for (int i = 0; i < 2000 && !exists(path); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

__attribute__((noinline)) void* leak_gradients() {
  void* p = nullptr;
  cudaMalloc(&p, 2 << 20);
  return p;
}

__attribute__((noinline)) cudaEvent_t rank0_only_event() {
  cudaEvent_t e = nullptr;
  cudaEventCreate(&e);
  return e;
}

__attribute__((noinline)) void* per_device_buffer(int device) {
  void* p = nullptr;
  cudaMalloc(&p, size_t(device + 1) << 20);
  return p;
}

__attribute__((noinline)) int grow_until_oom() {
  std::vector<void*> kept;
  for (;;) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, 64 << 20);
    if (e != cudaSuccess) {
      std::printf("out of memory after %zu blocks: %s\n", kept.size(), cudaGetErrorString(e));
      return 1;
    }
    kept.push_back(p);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string leak_on, sync;
  int oom_on = -1, oom_device = -1;
  bool all_devices = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--leak-on" && i + 1 < argc) leak_on = argv[++i];
    else if (a == "--oom-on" && i + 1 < argc) oom_on = std::atoi(argv[++i]);
    else if (a == "--oom-device" && i + 1 < argc) oom_device = std::atoi(argv[++i]);
    else if (a == "--sync" && i + 1 < argc) sync = argv[++i];
    else if (a == "--all-devices") all_devices = true;
    else {
      std::fprintf(stderr, "rank_worker: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  static const char* const kRank[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", nullptr};
  static const char* const kLocal[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", nullptr};
  static const char* const kWorld[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", nullptr};
  const int rank = env_int(kRank, 0), local = env_int(kLocal, 0), world = env_int(kWorld, 1);

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) return 3;
  const int mine = local % devices;
  cudaSetDevice(mine);
  void* model = nullptr;
  if (cudaMalloc(&model, 32 << 20) != cudaSuccess) return 4;
  for (int step = 0; step < 5; ++step) {  // steps that free what they take: a timeline, no leak
    void* activations = nullptr;
    cudaMalloc(&activations, 1 << 20);
    cudaFree(activations);
  }
  if (listed(leak_on, rank)) leak_gradients();
  if (rank == 0) rank0_only_event();
  if (all_devices) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      per_device_buffer(d);
    }
    cudaSetDevice(mine);
  }
  int status = 0;
  if (rank == oom_on) {
    if (!sync.empty())
      for (int r = 0; r < world; ++r)
        if (r != rank) wait_for(sync + "/ready." + std::to_string(r));
    if (oom_device >= 0) cudaSetDevice(oom_device);
    status = grow_until_oom();
    if (!sync.empty()) touch(sync + "/failed");
  } else if (!sync.empty() && oom_on >= 0) {
    touch(sync + "/ready." + std::to_string(rank));
    wait_for(sync + "/failed");
  }
  cudaSetDevice(mine);
  cudaFree(model);
  std::printf("rank %d of %d (local %d) on device %d done\n", rank, world, local, mine);
  return status;
}
