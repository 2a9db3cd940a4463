#include "interpose/runtime/limits.h"

#include <atomic>

#include "interpose/runtime/runtime.h"
#include "common/quantities.h"

namespace cudaleak {

namespace {

bool reserves_memory(CUlimit limit) {
  return limit == CU_LIMIT_STACK_SIZE || limit == CU_LIMIT_MALLOC_HEAP_SIZE || limit == CU_LIMIT_PRINTF_FIFO_SIZE ||
         limit == CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT;
}

const char* cudart_name(CUlimit limit) {
  switch (limit) {
    case CU_LIMIT_STACK_SIZE: return "cudaLimitStackSize";
    case CU_LIMIT_MALLOC_HEAP_SIZE: return "cudaLimitMallocHeapSize";
    case CU_LIMIT_PRINTF_FIFO_SIZE: return "cudaLimitPrintfFifoSize";
    default: return "cudaLimitDevRuntimePendingLaunchCount";
  }
}

}  // namespace

int device_attribute(CUdevice_attribute attribute, int device) {
  static std::atomic<PFN_cuDeviceGetAttribute_v2000> get{nullptr};
  auto fn = tracker::cached_driver_function(get, "cuDeviceGetAttribute", 2000);
  int value = 0;
  if (!fn || device < 0 || fn(&value, attribute, device) != CUDA_SUCCESS) return 0;
  return value;
}

uint64_t limit_reserved_bytes(CUlimit limit, uint64_t value, uint64_t sms, uint64_t threads_per_sm) {
  switch (limit) {
    case CU_LIMIT_STACK_SIZE: return value * sms * threads_per_sm;
    case CU_LIMIT_MALLOC_HEAP_SIZE:
    case CU_LIMIT_PRINTF_FIFO_SIZE: return value;
    default: return 0;  // pending launches: reserved by the device runtime at its first launch, size not published
  }
}

void context_limit_set(HookId api, CUlimit limit, tracker::Placement where) {
  if (!reserves_memory(limit)) return;
  try {
    // The value in effect: the driver rounds some (a printf buffer has a minimum).
    static std::atomic<PFN_cuCtxGetLimit_v3010> get_limit{nullptr};
    auto get = tracker::cached_driver_function(get_limit, "cuCtxGetLimit", 3010);
    size_t value = 0;
    if (!get || get(&value, limit) != CUDA_SUCCESS) return;
    const uint64_t sms = uint64_t(device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, where.device));
    const uint64_t per_sm = uint64_t(
        device_attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, where.device));
    const uint64_t bytes = limit_reserved_bytes(limit, value, sms, per_sm);
    tracker::limit_set(api, int(limit), value, bytes, limit == CU_LIMIT_STACK_SIZE ? sms * per_sm : 0, where);
    std::string name = std::string(cudart_name(limit)) + " = " +
                       (limit == CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT ? std::to_string(value)
                                                                           : format_bytes(value));
    if (bytes) name += ": " + format_bytes(bytes) + " reserved";
    runtime().mark(report::MarkType::Limit, name);
  } catch (...) {
    internal_failure("recording a context limit");
  }
}

}  // namespace cudaleak
