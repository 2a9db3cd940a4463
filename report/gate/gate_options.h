// The gate's part of the options, for every place that builds a GateConfig
// from them: the preload library at its first report, and the launcher, which
// turns crash captures into reports with the same configuration.
#pragma once
#include <cstdlib>

#include "report/gate/gate.h"
#include "common/options.h"

namespace cudaleak::gate {

// Set by `cudaleak run` for every process of the run: its compiled rules.
inline constexpr const char* kCompiledSuppressionsVariable = "CUDALEAK_SUPPRESSIONS_COMPILED";

// Whether the options ask the gate for a verdict: an exit status for leaks
// (error_exitcode), or what counts (fail_on, min_bytes, baseline, gate_cached,
// gate_live_tensors, gate_growing_tensors, fail_on_growth). Without any, a report carries no
// verdict (gate.evaluated false): the run's status is the program's own.
inline bool verdict_asked(const Options& o) {
  return o.error_exitcode > 0 || !o.fail_on.empty() || o.min_bytes > 0 || !o.baseline.empty() || o.gate_cached ||
         o.gate_live_tensors || o.gate_growing_tensors || !o.fail_on_growth.empty();
}

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
  s.leak_kinds = o.leak_kinds;
  s.fail_on_growth = o.fail_on_growth;
  s.asked = verdict_asked(o);
  return s;
}

}  // namespace cudaleak::gate
