#include "gate_config.h"

#include "gate_options.h"
#include "../base/log.h"
#include "../base/state.h"

namespace cudaleak {

const gate::GateConfig& GateConfigCache::get() {
  std::lock_guard lock(mutex_);
  if (config_) return *config_;
  config_.emplace(gate::make_gate_config(gate::settings_from(options()),
                                         [](const std::string& line) { log_message("%s", line.c_str()); }));
  if (options().verbose)
    log_message("suppression rules: %zu, %s", config_->rules.size(),
                config_->rules_compiled ? "mapped from the run's compiled file" : "parsed from the files");
  return *config_;
}

}  // namespace cudaleak
