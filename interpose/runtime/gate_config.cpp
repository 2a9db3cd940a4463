#include "gate_config.h"

#include "gate_options.h"
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
  config() = gate::make_gate_config(gate::settings_from(options()),
                                    [](const std::string& line) { log_message("%s", line.c_str()); });
}

const gate::GateConfig& gate_config() { return config(); }

}  // namespace cudaleak
