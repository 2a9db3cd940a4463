// The gate configuration of this process: suppression rules (the launcher's
// compiled rules, or the files parsed here), baseline, kinds and threshold.
// Read at the first report, not at start-up: a process of the run that never
// reports never reads them. Problems with the files are logged then, naming
// file and line.
#pragma once
#include <mutex>

#include "gate.h"

namespace cudaleak {

const gate::GateConfig& gate_config();

std::mutex& gate_config_mutex();  // the fork protocol holds it across fork

}  // namespace cudaleak
