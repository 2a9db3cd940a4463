// What the text renderings are asked for (text_report.h, and the sections it
// prints from growth_text.h and reach_text.h), apart so that a section's
// header needs none of the text report.
#pragma once
#include <cstddef>
#include <string>

namespace cudaleak::render {

struct TextOptions {
  size_t max_groups = 10;         // 0 = all
  size_t max_frames = 16;         // per stack
  std::string report_path;        // named in the SUMMARY line when set
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

}  // namespace cudaleak::render
