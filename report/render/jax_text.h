// JAX's view in a report's text: per device, XLA's pool and the live arrays
// by the user's line (not leaks, not gated; docs/python.md#jax).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "report/model/report.h"

namespace cudaleak::render {

// "" when the report has no JAX view, or only the one taken at an
// out-of-memory (its event tells it). `process` names a device's process in
// a report of several.
// One device's view: "JAX at exit on device 0 [in IN]: XLA's pool ...", its lines.
std::string jax_device_text(const report::JaxDevice& device, report::ViewMoment when, const std::string& prefix,
                            const std::string& in);
// What follows the devices: why there are no lines, the executables' memory.
std::string jax_view_notes(const report::Report& r);
std::string jax_view_text(const report::Report& r, const std::string& prefix,
                          const std::function<std::string(int64_t pid, int rank)>& process);

}  // namespace cudaleak::render
