// The gate configuration of this process, read once at start-up from the
// options: suppression files (plus the shipped defaults), baseline, kinds and
// threshold. Problems with the files are logged then, naming file and line.
#pragma once
#include "gate.h"

namespace cudaleak {

void load_gate_config();
const gate::GateConfig& gate_config();

}  // namespace cudaleak
