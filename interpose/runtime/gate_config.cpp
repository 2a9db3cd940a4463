#include "gate_config.h"

#include "gate_options.h"
#include "lifecycle.h"
#include "../base/log.h"

namespace cudaleak {

namespace {
std::mutex g_mutex;
gate::GateConfig* g_config = nullptr;  // never destroyed: used by the exit report
}  // namespace

const gate::GateConfig& gate_config() {
  std::lock_guard lock(g_mutex);
  if (g_config) return *g_config;
  g_config = new gate::GateConfig(gate::make_gate_config(
      gate::settings_from(options()), [](const std::string& line) { log_message("%s", line.c_str()); }));
  if (options().verbose)
    log_message("suppression rules: %zu, %s", g_config->rules.size(),
                g_config->rules_compiled ? "mapped from the run's compiled file" : "parsed from the files");
  return *g_config;
}

std::mutex& gate_config_mutex() { return g_mutex; }

}  // namespace cudaleak
