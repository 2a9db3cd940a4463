// What cudaleak_torch.py, cudaleak_jax.py and cudaleak_cupy.py call through
// ctypes (python_view.h says when): each view is kept in the runtime object's
// python_view::Views, and an out-of-memory recorded in its oom::Monitor.
#include <cstring>
#include <exception>

#include "common/enum_names.h"
#include "interpose/base/log.h"
#include "interpose/base/state.h"
#include "interpose/runtime/runtime.h"
#include "report/model/json_io.h"

using namespace cudaleak;

// Called from Python (ctypes): the function that sends a fresh view, or null.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_python_view_source(void (*fn)()) {
  if (!tracking_enabled() && fn) return -1;
  runtime().python_view.set_source(fn);
  return 0;
}

// Called from Python (ctypes) with the GIL held; returns 0 when taken.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_python_view(const char* json, const char* when) {
  if (!json || !when || !tracking_enabled()) return -1;
  try {
    if (std::strcmp(when, "armed") == 0) {
      runtime().oom.attach_pytorch_observer();
      return 0;
    }
    report::ViewMoment moment;
    if (!report::parse_name(when, moment)) return -1;  // not a moment the report names
    report::PyTorchOom info;
    report::PyTorchView view = report::pytorch_view_from_json(json, &info);
    view.when = moment;
    runtime().python_view.keep(view);
    if (moment == report::ViewMoment::Oom) {
      const report::AllocatorDevice* device = view.device(info.device);
      report::AllocatorDevice empty;
      empty.device = info.device;
      runtime().oom.record_pytorch(device ? *device : empty, info.request, info.monotonic_ns);
    }
    return 0;
  } catch (const std::exception& e) {
    log_message("a PyTorch view could not be read: %s", e.what());
    return -1;
  }
}

// Called from Python (ctypes) with the GIL held; returns 0 when taken.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_cupy_view(const char* json, const char* when) {
  if (!json || !when || !tracking_enabled()) return -1;
  try {
    report::ViewMoment moment;
    if (!report::parse_name(when, moment)) return -1;
    report::CupyPool pool = report::cupy_pool_from_json(json);
    pool.when = moment;
    runtime().python_view.keep_cupy(pool);
    return 0;
  } catch (const std::exception& e) {
    log_message("CuPy pool numbers could not be read: %s", e.what());
    return -1;
  }
}

// Called from Python (ctypes) with the GIL held; returns 0 when taken. A
// repeat of the failure before (the same message within the retry window)
// comes without a view and counts in that event.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_jax_view(const char* json, const char* when) {
  if (!json || !when || !tracking_enabled()) return -1;
  try {
    if (std::strcmp(when, "armed") == 0) {
      runtime().oom.attach_jax();
      return 0;
    }
    report::ViewMoment moment;
    if (!report::parse_name(when, moment)) return -1;
    report::JaxFailureSent failure;
    report::JaxView view = report::jax_view_from_json(json, &failure);
    view.when = moment;
    if (moment == report::ViewMoment::Oom && failure.present && failure.repeat) {
      runtime().oom.repeat_jax(failure.device, failure.monotonic_ns, failure.oom);
      return 0;
    }
    runtime().python_view.keep_jax(view);
    if (moment == report::ViewMoment::Oom && failure.present) {
      if (const report::JaxDevice* device = view.device(failure.device)) failure.oom.device = *device;
      failure.oom.device.device = failure.device;
      runtime().oom.record_jax(failure.oom, failure.request, failure.monotonic_ns, failure.stack);
    }
    return 0;
  } catch (const std::exception& e) {
    log_message("a JAX view could not be read: %s", e.what());
    return -1;
  }
}
