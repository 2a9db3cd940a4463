// JAX's view in a report's text: per device, XLA's pool and the live arrays
// by the user's line (not leaks, not gated; docs/python.md#jax).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "report/model/report.h"

namespace cudaleak::report {

// "" when the report has no JAX view, or only the one taken at an
// out-of-memory (its event tells it). `process` names a device's process in
// a report of several.
std::string jax_view_text(const Report& r, const std::string& prefix,
                          const std::function<std::string(int64_t pid, int rank)>& process);

}  // namespace cudaleak::report
