// CI renderings of a run's reports (one report per process):
// JUnit XML, one test suite per process and one test case per leak group
// (failed when the gate counts it, skipped when suppressed or in the baseline);
// SARIF 2.1.0, one result per leak group the gate counts, located at the
// program's own frame nearest the allocation. Names are stable across runs
// (program, rank, kind, site; no pid or byte count) so CI history follows a
// test; SARIF locations under source_root are relative to it (uriBaseId
// SRCROOT), so code scanning places them in the repository.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::render {

// A process of the run the gate could not judge, with no report to show:
// one that used CUDA and wrote no report, whose report could not be written,
// or that used the GPU without cudaleak's preload.
struct UnjudgedProcess {
  std::string process;  // "4242 (python worker.py)"
  std::string why;      // "its report could not be written to r.json: No space left on device"
};

// Each unjudged process is a test suite whose one case is in error, never a
// clean file.
std::string junit_xml(const std::vector<report::Report>& reports, const std::vector<UnjudgedProcess>& unjudged = {});
// The command `cudaleak run` ran and the status it ended with (SARIF's
// invocation: arguments, exitCode).
struct Invocation {
  std::vector<std::string> arguments;
  int exit_code = 0;
};

// Each unjudged process is an error notification of the run's invocation,
// whose executionSuccessful is then false. Each rule has its full
// description, help (text and Markdown) and a link into docs/.
std::string sarif_json(const std::vector<report::Report>& reports, const std::string& source_root = "",
                       const std::vector<UnjudgedProcess>& unjudged = {}, const Invocation* invocation = nullptr);

// The source root for SARIF: the nearest directory at or above `dir` that
// holds .git; "" when there is none.
std::string find_source_root(const std::string& dir);

}  // namespace cudaleak::render
