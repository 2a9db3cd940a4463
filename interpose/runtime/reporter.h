// Writes reports: snapshot the tracker, build the report model (grouping,
// symbolization), apply the gate (suppressions, baseline), note growth, write
// JSON safely (safe_output.h), and print the text summary. Makes no CUDA calls,
// so it is safe at exit. Not for crash handlers: see crash_capture.h.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "interpose/runtime/frame_resolver.h"
#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak {

using report::Reason;  // Exit, Signal, Checkpoint, Oom or Termination; crashes: crash_capture.h

struct Written {
  bool written = false;
  std::string path;
  std::string launcher_copy;  // where the launcher reads it, when `path` is no file (/dev/null, a FIFO)
  std::string problem;        // why it was not written
  report::GateResult gate;
};

// Nothing is written when the process never used CUDA (a forked child: since
// the fork) or is not traced. `checkpoint` names a checkpoint report.
Written write_report(Reason reason, const char* checkpoint = nullptr);

// The resources created after `since` (a tracker sequence number), up to
// `until`, and still alive, and their count and bytes (memory kinds).
report::RawSnapshot snapshot_since(uint64_t since, uint64_t until = UINT64_MAX);
struct Totals {
  uint64_t count = 0;
  uint64_t bytes = 0;
};
Totals totals(const report::RawSnapshot& raw);

// The leak gate's verdict on snapshot_since(since), for per-test gates
// (GoogleTest listener, pytest plugin): the same suppressions, fail_on,
// min_bytes, baseline and caching-allocator rules as the exit gate.
struct Verdict {
  Totals alive;          // created since and still alive
  Totals failing;        // of those, what the gate counts
  std::string failures;  // the failing groups with their stacks (text)
  std::string file;      // the program's frame of the biggest failing group
  int line = 0;
};
Verdict judge_since(uint64_t since, uint64_t until = UINT64_MAX);

// Records an observation for growth detection without writing a report.
void observe_now();

// The end of the process: the exit report, then the gate's verdict. Returns
// the status to _exit with, or -1 to let the process exit as it would.
int finish_at_exit();
// The end of the process by SIGTERM, SIGINT or SIGHUP: the final report and the
// verdict for the launcher; the caller then dies of the signal.
void finish_on_termination(int signal);

// The sequence number of the next report of this process (async-signal-safe).
unsigned next_report_sequence();

}  // namespace cudaleak
