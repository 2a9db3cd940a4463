// Initialisation, versions, devices and error strings of the simulated driver.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using simcuda::State;

SIM_EXPORT CUresult cuInit(unsigned int) {
  State::get().initialized = true;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDriverGetVersion(int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetCount(int* count) {
  SIM_ENTRY("cuDeviceGetCount");
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  *count = sim.config.devices;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  SIM_ENTRY("cuDeviceGet");
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal < 0 || ordinal >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  SIM_ENTRY("cuDeviceGetName");
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  std::snprintf(name, size_t(len), "cudaleak simulated GPU %d", dev);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  SIM_ENTRY("cuDeviceTotalMem_v2");
  if (!bytes || dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_VALUE;
  *bytes = sim.config.memory_per_device;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice dev) {
  SIM_ENTRY("cuDeviceGetAttribute");
  if (!value || dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 4; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *value = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *value = dev + 1; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: *value = 1; break;
    default: *value = 0;
  }
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  SIM_ENTRY("cuDeviceGetUuid_v2");
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  std::memset(uuid->bytes, 0, sizeof(uuid->bytes));
  std::memcpy(uuid->bytes, "cudaleak-sim", 12);
  uuid->bytes[15] = char(dev);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGetErrorName(CUresult error, const char** str) {
  if (!str) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
    case CUDA_SUCCESS: *str = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_INVALID_VALUE: *str = "CUDA_ERROR_INVALID_VALUE"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *str = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *str = "CUDA_ERROR_NOT_INITIALIZED"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *str = "CUDA_ERROR_INVALID_CONTEXT"; break;
    case CUDA_ERROR_INVALID_HANDLE: *str = "CUDA_ERROR_INVALID_HANDLE"; break;
    case CUDA_ERROR_NOT_FOUND: *str = "CUDA_ERROR_NOT_FOUND"; break;
    default: *str = "CUDA_ERROR_UNKNOWN"; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGetErrorString(CUresult error, const char** str) {
  if (!str) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
    case CUDA_SUCCESS: *str = "no error"; break;
    case CUDA_ERROR_INVALID_VALUE: *str = "invalid argument"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *str = "out of memory"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *str = "initialization error"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *str = "invalid device context"; break;
    case CUDA_ERROR_INVALID_HANDLE: *str = "invalid resource handle"; break;
    default: *str = "unknown error"; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

namespace {

// A statically linked CUDA runtime (nvcc's default) asks for the driver's
// private export tables, which exist only in the real driver: every one of
// its calls then fails before reaching anything cudaleak sees. The user is
// told once, and under `cudaleak run` the process counts as unseen, so that
// a gate cannot pass on a program it never watched.
void refuse_static_runtime() {
  static std::atomic<bool> told{false};
  if (told.exchange(true)) return;
  const char* line =
      "cudaleak: the simulated GPU cannot run this program's statically linked CUDA runtime (nvcc's default, "
      "-cudart static): its CUDA calls fail and cudaleak cannot see them. Build it with -cudart shared to run it "
      "under --simulated-gpu, or run it on a GPU, where both are traced.\n";
  ssize_t ignored = write(2, line, std::strlen(line));
  (void)ignored;
  const char* dir = std::getenv("CUDALEAK_GATE_DIR");
  if (!dir || !*dir) return;
  // The process's own exit report reads it (interpose/runtime/launcher_files.h):
  // not green, and the gate cannot pass it.
  std::string path = std::string(dir) + "/" + std::to_string(getpid()) + ".unseen";
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  const char* verdict =
      "its statically linked CUDA runtime cannot run on the simulated GPU, so its CUDA calls "
      "were not seen (build it with -cudart shared)\n";
  ignored = write(fd, verdict, std::strlen(verdict));
  close(fd);
}

}  // namespace

// Private tables exist only in the real driver; the simulated runtime never asks.
SIM_EXPORT CUresult cuGetExportTable(const void** table, const CUuuid*) {
  if (table) *table = nullptr;
  refuse_static_runtime();
  return CUDA_ERROR_NOT_SUPPORTED;
}
