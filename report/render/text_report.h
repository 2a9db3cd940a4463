// LeakSanitizer-style text rendering of a report: leak groups biggest first,
// each with its stack, and one SUMMARY line.
#pragma once
#include <string>

#include "common/quantities.h"
#include "common/tty_color.h"
#include "report/model/report.h"

namespace cudaleak::report {

struct TextOptions {
  size_t max_groups = 10;   // 0 = all
  size_t max_frames = 16;   // per stack
  std::string report_path;  // named in the SUMMARY line when set
  bool gen_suppressions = false;  // print a rule for each unsuppressed group
  bool color = false;             // ANSI colours for a terminal: leaks red, headlines bold
  bool full_stacks = false;       // every frame; else runs inside one CUDA library are counted in a line,
                                  // and frames outward of the program's entry are left out
  size_t filtered_out = 0;        // leak groups the reader's filters left out: an empty list is then
                                  // "nothing matches", not "nothing leaked"
  bool stored_gate = false;       // a line with the verdict the run's gate stored (reading a file later)
  bool all_ranks = false;         // a job's ranks each told apart (--ranks all, --rank N); else what they
                                  // share is folded into one story with a list of ranks (render/job_text.h)
};

std::string render_text(const Report& report, const TextOptions& options);
// The groups the gate counts (fails_gate), each with its headline and its
// stack from the program's innermost frame (frames keep their numbers): the
// message of a per-test gate (GoogleTest listener, pytest plugin).
std::string render_gate_failures(const Report& report, const TextOptions& options);
// The sites that grew during a memory budget's window (a test over its
// budget), each with its growth and its stack from the program's innermost frame.
std::string render_grown_sites(const std::vector<PeakGroup>& sites, int device, const TextOptions& options);
}  // namespace cudaleak::report
