#include "interpose/runtime/gate_config.h"

#include "report/gate/gate_options.h"
#include "interpose/base/log.h"
#include "interpose/base/state.h"

namespace cudaleak {

const gate::GateConfig& GateConfigCache::get() {
  std::lock_guard lock(mutex_);
  if (config_) return *config_;
  config_.emplace(gate::make_gate_config(gate::settings_from(options()),
                                         [](const std::string& line) { log_message("%s", line.c_str()); }));
  if (!refused_.empty()) {  // a gate option given, though refused: the report says why there is no verdict
    config_->config_error = refused_;
    config_->asked = true;
  }
  if (options().verbose)
    log_message("suppression rules: %zu, %s", config_->rules.size(),
                config_->rules_compiled ? "mapped from the run's compiled file" : "parsed from the files");
  return *config_;
}

void GateConfigCache::refuse(const OptionProblem& problem) {
  std::lock_guard lock(mutex_);
  if (refused_.empty()) refused_ = "CUDALEAK_OPTIONS: " + problem.message;
  exitcode_refused_ |= problem.key == "error_exitcode";
}

bool GateConfigCache::asked() {
  std::lock_guard lock(mutex_);
  return options().error_exitcode > 0 || exitcode_refused_;
}

}  // namespace cudaleak
