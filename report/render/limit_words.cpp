#include "report/render/limit_words.h"

#include "common/quantities.h"
#include "report/model/frame_owner.h"
#include "report/model/place_name.h"

namespace cudaleak::render {

using report::frame_line;

namespace {

// What a limit reserves, in the user's words, and what to do about it.
struct LimitWords {
  const char* what;  // "the device heap"
  const char* name;  // cudart's name of the limit
  const char* fix;
};
LimitWords limit_words(const std::string& limit) {
  if (limit == "stack_size")
    return {"thread stacks", "cudaLimitStackSize",
            "the driver reserves the per-thread stack for every thread the device can run at once; set it no higher "
            "than the deepest kernel needs (cuobjdump --dump-resource-usage or cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_"
            "LOCAL_SIZE_BYTES) shows each kernel's stack) or lower it again after the kernel that needs it"};
  if (limit == "malloc_heap_size")
    return {"the device heap", "cudaLimitMallocHeapSize",
            "the heap is reserved in full once a kernel that calls malloc or new runs, whether kernels use it or not; "
            "set it to what the kernels allocate at once, or free device-side allocations (a leak there fills it)"};
  if (limit == "printf_fifo_size")
    return {"the printf buffer", "cudaLimitPrintfFifoSize", "lower it: the default (8 MiB) suits most programs"};
  if (limit == "dev_runtime_pending_launch_count")
    return {"the device runtime's pending launches", "cudaLimitDevRuntimePendingLaunchCount",
            "lower it to the launches kernels keep pending at once"};
  return {"a context limit", "", "lower it"};
}

std::string limit_value_text(const report::Reservation& v) {
  if (v.limit == "dev_runtime_pending_launch_count" || v.limit == "dev_runtime_sync_depth")
    return std::to_string(v.value);
  return format_bytes(v.value);
}

std::string set_where(const report::Reservation& v) {
  std::string s = "set by " + (v.api.empty() ? std::string("cuCtxSetLimit") : v.api);
  if (const report::Frame* f = report::user_frame(v.stack)) s += " in " + frame_line(*f);
  return s;
}

}  // namespace

std::string reservation_cause_text(const report::Reservation& v, bool decisive) {
  LimitWords w = limit_words(v.limit);
  std::string where = report::user_frame(v.stack) ? " in " + frame_line(*report::user_frame(v.stack)) : std::string();
  std::string msg = std::string(w.what == std::string("thread stacks") ? "the thread stack size" : w.what) +
                    " limit set" + where + " reserves " + format_bytes(v.bytes);
  if (v.limit == "stack_size" && v.threads)
    msg += " (" + format_bytes(v.value) + " per thread for each of the " + std::to_string(v.threads) +
           " threads the device can run at once)";
  msg += decisive ? ", without it the request would fit" : "";
  msg += "; fix: " + std::string(w.fix) + " (" + w.name + " with cudaDeviceSetLimit)";
  return msg;
}

std::string describe_reservation(const report::Reservation& v) {
  LimitWords w = limit_words(v.limit);
  std::string s = v.bytes ? format_bytes(v.bytes) + " for " + w.what
                          : std::string(w.what) + " (size the driver does not say)";
  s += " (" + (*w.name ? std::string(w.name) : v.limit) + " = " + limit_value_text(v);
  if (v.limit == "stack_size" && v.threads) s += " per thread x " + std::to_string(v.threads) + " resident threads";
  s += ") on device " + std::to_string(v.device) + ", " + set_where(v);
  return s;
}

std::string describe_heap_exhausted(const report::Note& n, const std::vector<report::Reservation>& reservations) {
  std::string kernel = n.stack.empty() ? std::string("a kernel") : n.stack.front().function.str();
  std::string s = "device heap exhausted: " + std::to_string(n.count) +
                  (n.count == 1 ? " device-side malloc" : " device-side mallocs") + " in " + kernel + " returned NULL";
  if (n.stack.size() > 1) {
    // Above the device frame: the launch's stack, whose host side of the
    // kernel (a frame of the kernel's own name, nvcc's) is not the caller.
    std::vector<report::Frame> launch;
    for (auto f = n.stack.begin() + 1; f != n.stack.end(); ++f)
      if (f->function.str() != kernel) launch.push_back(*f);
    if (const report::Frame* f = report::user_frame(launch)) s += " (launched from " + frame_line(*f) + ")";
  }
  const report::Reservation* heap = nullptr;
  for (const report::Reservation& v : reservations)
    if (v.limit == "malloc_heap_size" && (v.context == n.handle || !heap)) heap = &v;
  if (heap)
    s += "; the device heap limit (cudaLimitMallocHeapSize) is " + format_bytes(heap->value) + ", " + set_where(*heap);
  else s += "; the device heap is at its default size, 8.0 MiB (cudaLimitMallocHeapSize was not set)";
  s += ": raise it with cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes) before the first kernel that allocates, "
       "or free device-side allocations (a leak there fills it)";
  return s;
}

}  // namespace cudaleak::render
