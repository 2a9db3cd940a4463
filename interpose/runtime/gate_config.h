// The gate configuration of this process: suppression rules (the launcher's
// compiled rules, or the files parsed here), baseline, kinds and threshold.
// Read at the first report, not at start-up: a process of the run that never
// reports never reads them. Problems with the files are logged then, naming
// file and line. Part of the runtime object (runtime.h).
#pragma once
#include <mutex>
#include <optional>

#include "gate.h"

namespace cudaleak {

class GateConfigCache {
 public:
  const gate::GateConfig& get();  // read on first use, then kept
  std::mutex& mutex() { return mutex_; }  // for the fork protocol

 private:
  std::mutex mutex_;  // guards config_
  std::optional<gate::GateConfig> config_;
};

}  // namespace cudaleak
