// What the CI gate judges by (gate.h), and the slow-leak gate by
// (growth_gate.h): the rules, the baseline, the kinds and thresholds that count.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/kinds.h"
#include "report/gate/baseline.h"
#include "report/gate/rule_set.h"

namespace cudaleak::gate {

struct GrowthThreshold {
  uint64_t bytes = 0;       // 0: off
  bool per_minute = false;  // bytes per minute of the rise, else bytes risen
};

struct GateConfig {
  RuleSet rules;                // default rules first when enabled
  bool rules_compiled = false;  // mapped from the run's compiled file, not parsed here
  std::optional<Baseline> baseline;
  std::vector<Kind> fail_on;               // kinds that count; empty = all
  uint64_t min_bytes = 0;                  // counted leaks must add up to at least this
  bool count_cached = false;               // memory held by caching allocators counts as leaks
  bool count_live_tensors = false;         // PyTorch's live tensors at exit count as leaks
  bool count_growing_tensors = false;      // PyTorch's live-tensor groups that grew across snapshots count
  bool count_reachable = false;            // leak_kinds=all: still reachable resources count too
  bool count_reachable_in_python = false;  // leak_kinds=auto: so they do in a Python process's report
  GrowthThreshold fail_on_growth;          // sites that grew steadily past it count (growth_gate.h: judge_growth)
  bool asked = true;                       // the run asked for a verdict (verdict_asked); else the report carries none
  std::string config_error;                // a suppression or baseline file could not be read
};

}  // namespace cudaleak::gate
