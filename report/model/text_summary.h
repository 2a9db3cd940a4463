// LeakSanitizer-style text rendering of a report: leak groups biggest first,
// each with its stack, and one SUMMARY line.
#pragma once
#include <string>

#include "report.h"

namespace cudaleak::report {

struct TextOptions {
  size_t max_groups = 10;   // 0 = all
  size_t max_frames = 16;   // per stack
  std::string report_path;  // named in the SUMMARY line when set
  bool gen_suppressions = false;  // print a rule for each unsuppressed group
  bool color = false;             // ANSI colours for a terminal: leaks red, headlines bold
  bool full_stacks = false;       // every frame; else runs inside one CUDA library are counted in a line,
                                  // and frames outward of the program's entry are left out
};

std::string render_text(const Report& report, const TextOptions& options);
// The groups the gate counts (fails_gate), each with its headline and its
// stack from the program's innermost frame (frames keep their numbers): the
// message of a per-test gate (GoogleTest listener, pytest plugin).
std::string render_gate_failures(const Report& report, const TextOptions& options);
// The words for quantities, in one place for every rendering: sizes in the
// largest binary unit under 1024 ("1.0 GiB", never "1024.0 MiB"), durations
// in the unit that keeps them readable ("850 ns", "12.5 ms", "2.50 s",
// "3 min 05 s"), and counts with their noun ("1 leak group", "2 leak groups").
std::string format_bytes(uint64_t bytes);
std::string format_duration(uint64_t ns);
std::string count_of(uint64_t n, const std::string& one, const std::string& many);
// The color option's answer for text written to `fd` (-1: a file of its own):
// always, never, or auto = a terminal with NO_COLOR unset (no-color.org).
bool color_wanted(const std::string& mode, int fd);

}  // namespace cudaleak::report
