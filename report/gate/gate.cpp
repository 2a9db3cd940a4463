#include "report/gate/gate.h"

#include "common/quantities.h"

#include <algorithm>

#include "report/gate/caching.h"
#include "report/gate/compiled_rules.h"
#include "report/gate/growth_gate.h"
#include "report/gate/site.h"
#include "report/model/summary.h"

namespace cudaleak::gate {

GateConfig make_gate_config(const GateSettings& s, void (*log)(const std::string& line)) {
  GateConfig c;
  auto problem = [&](const std::string& what) {
    if (log) log(what + "; the leak gate cannot be evaluated");
    if (c.config_error.empty()) c.config_error = what;
  };
  std::optional<CompiledRules> compiled;
  if (!s.compiled_suppressions.empty())
    compiled = map_compiled_rules(s.compiled_suppressions, rules_key(s.default_suppressions, s.suppressions));
  c.rules_compiled = compiled.has_value();
  if (!compiled) compiled = compile_rules(s.default_suppressions, s.suppressions);
  c.rules = compiled->rules;
  for (const std::string& p : compiled->problems) problem(p);
  if (!s.baseline.empty()) {
    try {
      c.baseline = load_baseline(s.baseline);
    } catch (const std::exception& e) {
      problem(e.what());
    }
  }
  for (const std::string& name : s.fail_on) {
    Kind kind;
    if (report::parse_name(name, kind)) c.fail_on.push_back(kind);
    else problem("fail_on: unknown kind '" + name + "'");
  }
  c.min_bytes = s.min_bytes;
  c.count_cached = s.count_cached;
  c.count_live_tensors = s.count_live_tensors;
  c.count_growing_tensors = s.count_growing_tensors;
  if (s.leak_kinds == "all") c.count_reachable = true;
  else if (s.leak_kinds == "auto") c.count_reachable_in_python = true;
  else if (s.leak_kinds != "definite") problem("leak_kinds: '" + s.leak_kinds + "' is not auto, definite or all");
  if (std::string bad = parse_growth_threshold(s.fail_on_growth, c.fail_on_growth); !bad.empty())
    problem("fail_on_growth: " + bad);
  c.asked = s.asked;
  return c;
}

namespace {
// fail_on: the kinds the gate counts; empty, every kind.
bool counts_kind(const GateConfig& config, Kind kind) {
  return config.fail_on.empty() ||
         std::find(config.fail_on.begin(), config.fail_on.end(), kind) != config.fail_on.end();
}
}  // namespace

report::GateResult judge(report::Report& report, const GateConfig& config) {
  for (auto& g : report.leaks) {
    g.site = site_of(g, report.modules);
    if (!config.count_cached) g.cached_by = caching_allocator_of(g);
  }
  apply_suppressions(report, config.rules);

  report::GateResult result;
  result.evaluated = true;
  result.error = config.config_error;
  // A PyTorch process on an H200: a raw cudaMalloc whose pointer the program
  // dropped read as still reachable through a stale copy in the
  // interpreter's heap, and would have passed the gate.
  const bool count_reachable = config.count_reachable ||
                               (config.count_reachable_in_python && !report.python.version.empty());
  for (auto& g : report.leaks) {
    if (config.baseline) g.baseline = compare_with_baseline(*config.baseline, g);
    if (!g.suppressed_by.empty() || !g.cached_by.empty()) continue;
    // What a library handle holds fails with its handle, as one group
    // (unless the gate counts the memory but not the handles).
    if (!g.owner.empty() && counts_kind(config, Kind::LibraryHandle)) continue;
    if (!counts_kind(config, g.kind)) continue;
    if (config.baseline && g.baseline == report::BaselineState::Known) continue;
    // Still referenced from the program's memory: Valgrind's "still reachable",
    // which neither it nor LeakSanitizer fails on by default.
    if (g.reachability == report::Reachability::StillReachable && !count_reachable) continue;
    g.fails_gate = true;
    ++result.failing_groups;
    result.failing_count += g.count;
    if (kind_holds_memory(g.kind)) add_saturating(result.failing_bytes, g.bytes);
    for (const auto& [kind, held] : g.holds)
      if (kind_holds_memory(kind)) add_saturating(result.failing_bytes, held.bytes);
  }
  // Tensors PyTorch still holds: device memory, one group per Python stack
  // (suppressions and baselines name leak groups, not these). All of them at
  // exit with count_live_tensors; with count_growing_tensors, those whose
  // bytes grew across snapshots, in any report.
  const bool all_at_exit = config.count_live_tensors && report.pytorch.when == report::ViewMoment::Exit;
  if ((all_at_exit || config.count_growing_tensors) && counts_kind(config, Kind::Device) && report.has_pytorch)
    for (const auto& d : report.pytorch.devices)
      for (const auto& t : d.live_tensors) {
        if (!all_at_exit && !t.growing) continue;
        ++result.failing_groups;
        ++result.failing_tensor_groups;
        result.failing_count += t.count;
        add_saturating(result.failing_bytes, t.bytes);
      }
  judge_growth(report, config, result);
  result.failed = result.failing_groups > 0 && result.failing_bytes >= config.min_bytes;
  if (!result.failed)
    for (auto& g : report.leaks) g.fails_gate = false;
  return result;
}

report::GateResult as_reported(const report::GateResult& verdict, bool asked) {
  if (asked) return verdict;
  report::GateResult none;
  none.error = verdict.error;
  return none;
}

void evaluate(report::Report& report, const GateConfig& config) {
  report.gate = as_reported(judge(report, config), config.asked);
}

}  // namespace cudaleak::gate
