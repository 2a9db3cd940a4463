#include "python_view.h"

#include <cstring>

#include "json_io.h"
#include "lifecycle.h"
#include "log.h"
#include "oom.h"

namespace cudaleak::python_view {

namespace {

std::mutex g_mutex;
report::PyTorchView* g_latest = nullptr;  // none yet; never destroyed: reports run during exit

void keep(const report::PyTorchView& view) {
  std::lock_guard lock(g_mutex);
  if (!g_latest) g_latest = new report::PyTorchView();
  *g_latest = view;
}

}  // namespace

bool latest(report::PyTorchView& out) {
  std::lock_guard lock(g_mutex);
  if (!g_latest) return false;
  out = *g_latest;
  return true;
}

std::mutex& mutex() { return g_mutex; }

void reset_in_child() {
  std::lock_guard lock(g_mutex);
  delete g_latest;  // the parent's view says nothing about the child
  g_latest = nullptr;
}

}  // namespace cudaleak::python_view

using namespace cudaleak;

// Called from Python (ctypes) with the GIL held; returns 0 when taken.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_python_view(const char* json, const char* when) {
  if (!json || !when || !tracking_enabled()) return -1;
  try {
    if (std::strcmp(when, "armed") == 0) {
      oom::attach_pytorch_observer();
      return 0;
    }
    report::PyTorchOom info;
    report::PyTorchView view = report::pytorch_view_from_json(json, &info);
    view.when = when;
    python_view::keep(view);
    if (std::strcmp(when, "oom") == 0) {
      const report::AllocatorDevice* device = view.device(info.device);
      report::AllocatorDevice empty;
      empty.device = info.device;
      oom::record_pytorch(device ? *device : empty, info.request);
    }
    return 0;
  } catch (const std::exception& e) {
    log_message("a PyTorch view could not be read: %s", e.what());
    return -1;
  }
}
