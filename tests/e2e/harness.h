// Runs programs as a user would (through `cudaleak run`) and reads what they
// left behind: exit status, output, and report files.
#pragma once
#include <string>
#include <vector>

#include "report/model/json_io.h"

namespace e2e {

using cudaleak::Kind;
using cudaleak::report::Cause;
using cudaleak::report::MarkType;
using cudaleak::report::NoteType;
using cudaleak::report::Reason;

struct Result {
  int exit_code = -1;  // when exited normally
  int signal = 0;      // when killed by a signal
  std::string out, err;
};

// Runs argv with extra environment entries ("KEY=value").
Result run(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});

std::string build_dir();
std::string cudaleak_tool();                   // build/bin/cudaleak
std::string sample(const std::string& name);   // build/samples/sample_<name>_shared
std::string program(const std::string& name);  // test program

// A fresh empty directory for one test's reports.
std::string fresh_dir(const std::string& name);
std::vector<std::string> files_in(const std::string& dir);
std::string read_file(const std::string& path);  // "" when it cannot be read
cudaleak::report::Report load(const std::string& path);

// Runs `program args` under cudaleak with the simulated GPU, reports in `dir`.
Result run_sim(const std::string& dir, const std::vector<std::string>& command,
               const std::vector<std::string>& extra_flags = {}, const std::vector<std::string>& env = {});

// Runs `command` under plain LD_PRELOAD (no launcher) with the simulated GPU
// and CUDALEAK_OPTIONS=`options`.
Result run_preloaded(const std::vector<std::string>& command, const std::string& options);

const cudaleak::report::LeakGroup* find_group(const cudaleak::report::Report& r, const std::string& kind,
                                              const std::string& function_in_stack = "");
bool stack_has(const cudaleak::report::LeakGroup& g, const std::string& function);

// A program run under cudaleak (run_sim, reports in fresh_dir(name)) that
// must succeed and write one report: its result and that report.
struct ReportedRun {
  Result result;
  cudaleak::report::Report report;
};
ReportedRun run_with_report(const std::string& name, const std::vector<std::string>& command);

}  // namespace e2e
