// The CI gate: given a report, suppressions, an optional baseline and the
// kinds and threshold that count, decide whether the run passes.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "report/gate/gate_config.h"
#include "report/model/report.h"
#include "report/gate/suppressions.h"

namespace cudaleak::gate {

// The configuration from the options' values: the shipped rules (when
// `default_suppressions`), then each suppressions file, the baseline. A file
// that cannot be read or parsed sets config_error (the first) and is logged
// through `log` (one line each); it never throws. The rules come from the
// run's compiled file (compiled_rules.h) when it was made from the same
// settings, else from the files themselves.
struct GateSettings {
  bool default_suppressions = true;
  std::vector<std::string> suppressions;
  std::string compiled_suppressions;  // the launcher's compiled rules, when any
  std::string baseline;
  std::vector<std::string> fail_on;
  uint64_t min_bytes = 0;
  bool count_cached = false;
  bool count_live_tensors = false;
  bool count_growing_tensors = false;
  std::string leak_kinds = "auto";  // or "definite", "all"
  std::string fail_on_growth;       // growth_gate.h's parse_growth_threshold
  bool asked = true;                // a verdict was asked for (settings_from: verdict_asked)
};
GateConfig make_gate_config(const GateSettings& settings, void (*log)(const std::string& line));

// Annotates the report (site, suppressed_by, baseline, fails_gate), applies
// the suppressions to the summary, and returns the verdict (evaluated true),
// whether or not the run asked for one: what a checkpoint and the launcher
// judge by.
report::GateResult judge(report::Report& report, const GateConfig& config);

// What a report carries of a verdict: all of it when the run asked for one;
// otherwise `evaluated` false and no verdict (only a configuration error),
// while the groups stay marked as counted (fails_gate: JUnit, SARIF).
report::GateResult as_reported(const report::GateResult& verdict, bool asked);

// judge, then report.gate = as_reported(verdict, config.asked).
void evaluate(report::Report& report, const GateConfig& config);

}  // namespace cudaleak::gate
