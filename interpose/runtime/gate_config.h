// The gate configuration of this process: suppression rules (the launcher's
// compiled rules, or the files parsed here), baseline, kinds and threshold.
// Read at the first report, not at start-up: a process of the run that never
// reports never reads them. Problems with the files are logged then, naming
// file and line. Part of the runtime object (runtime.h).
#pragma once
#include <mutex>
#include <optional>
#include <string>

#include "report/gate/gate.h"
#include "common/options.h"

namespace cudaleak {

class GateConfigCache {
 public:
  const gate::GateConfig& get();          // read on first use, then kept
  std::mutex& mutex() { return mutex_; }  // for the fork protocol

  // A gate option whose value CUDALEAK_OPTIONS gave was refused: the gate
  // fails closed, with this problem as its error; a refused error_exitcode
  // still asks for the gate (gate_error_exitcode then ends the process).
  void refuse(const OptionProblem& problem);
  bool asked();  // error_exitcode set, or given and refused

 private:
  std::mutex mutex_;  // guards the members below
  std::optional<gate::GateConfig> config_;
  std::string refused_;
  bool exitcode_refused_ = false;
};

}  // namespace cudaleak
