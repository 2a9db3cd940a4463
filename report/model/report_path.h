// Report file names: %p = process id, %n = sequence of the report within the
// process, %% = '%'. Every report a process writes gets its own file: without
// %n in the pattern, the second and later reports get ".N" before the extension.
#pragma once
#include <string>

namespace cudaleak::report {
std::string expand_report_path(const std::string& pattern, int pid, unsigned n);
}
