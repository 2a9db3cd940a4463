// Writes reports: snapshot the tracker, build the report model (grouping,
// symbolization), write JSON to a temporary name and rename it, and print the
// text summary. Makes no CUDA calls, so it is safe at exit and after a crash.
#pragma once

namespace cudaleak {

enum class Reason { Exit, Signal, Crash };

// Returns false when nothing was written (no CUDA use, or a report in progress
// on the crash path).
bool write_report(Reason reason);

void reset_reporter_in_child();

}  // namespace cudaleak
