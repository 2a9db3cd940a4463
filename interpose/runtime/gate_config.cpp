#include "gate_config.h"

#include "lifecycle.h"
#include "log.h"

namespace cudaleak {

namespace {
gate::GateConfig& config() {
  static auto* c = new gate::GateConfig();  // never destroyed: used by the exit report
  return *c;
}
}  // namespace

void load_gate_config() {
  const Options& o = options();
  gate::GateConfig& c = config();
  if (o.default_suppressions) c.rules = gate::default_rules();
  for (const std::string& path : o.suppressions) {
    try {
      auto rules = gate::load_rules(path);
      c.rules.insert(c.rules.end(), rules.begin(), rules.end());
    } catch (const gate::SyntaxError& e) {
      log_message("%s; the leak gate cannot be evaluated", e.what());
      if (c.config_error.empty()) c.config_error = e.what();
    }
  }
  if (!o.baseline.empty()) {
    try {
      c.baseline = gate::load_baseline(o.baseline);
    } catch (const gate::BaselineError& e) {
      log_message("%s; the leak gate cannot be evaluated", e.what());
      if (c.config_error.empty()) c.config_error = e.what();
    }
  }
  c.fail_on = o.fail_on;
  c.min_bytes = uint64_t(o.min_bytes);
  c.count_cached = o.gate_cached;
}

const gate::GateConfig& gate_config() { return config(); }

}  // namespace cudaleak
