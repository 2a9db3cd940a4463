// Writes reports: snapshot the tracker, build the report model (grouping,
// symbolization), apply the gate (suppressions, baseline), note growth, write
// JSON to a temporary name and rename it, and print the text summary. Makes
// no CUDA calls, so it is safe at exit and after a crash.
#pragma once
#include <string>

#include "report.h"

namespace cudaleak {

enum class Reason { Exit, Signal, Crash, Checkpoint, Oom };

struct Written {
  bool written = false;
  std::string path;
  report::GateResult gate;
};

// Nothing is written when the process never used CUDA, or on the crash path
// while another report is in progress. `checkpoint` names a checkpoint report.
Written write_report(Reason reason, const char* checkpoint = nullptr);

// Records an observation for growth detection without writing a report.
void observe_now();

// The end of the process: the exit report, then the gate's verdict. Returns
// the status to _exit with, or -1 to let the process exit as it would.
int finish_at_exit();

void reset_reporter_in_child();

}  // namespace cudaleak
