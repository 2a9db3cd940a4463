// The gate's part of the options, for every place that builds a GateConfig
// from them: the preload library at its first report, and the launcher, which
// turns crash captures into reports with the same configuration.
#pragma once
#include <cstdlib>

#include "gate.h"
#include "options.h"

namespace cudaleak::gate {

// Set by `cudaleak run` for every process of the run: its compiled rules.
inline constexpr const char* kCompiledSuppressionsVariable = "CUDALEAK_SUPPRESSIONS_COMPILED";

inline GateSettings settings_from(const Options& o) {
  GateSettings s;
  s.default_suppressions = o.default_suppressions;
  s.suppressions = o.suppressions;
  if (const char* compiled = std::getenv(kCompiledSuppressionsVariable)) s.compiled_suppressions = compiled;
  s.baseline = o.baseline;
  s.fail_on = o.fail_on;
  s.min_bytes = uint64_t(o.min_bytes);
  s.count_cached = o.gate_cached;
  s.count_live_tensors = o.gate_live_tensors;
  s.count_growing_tensors = o.gate_growing_tensors;
  return s;
}

}  // namespace cudaleak::gate
