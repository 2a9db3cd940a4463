// Report file names: %p = process id, %n = sequence of the report within the
// process, %h = host name (a job's hosts may share pids and a folder), %% = '%'. Every report a process writes gets its own file: without
// %n in the pattern, the second and later reports get ".N" before the extension.
#pragma once
#include <cstddef>
#include <string>

namespace cudaleak::report {
std::string expand_report_path(const std::string& pattern, int pid, unsigned n);
// The same into a caller's buffer, without allocating (for the crash path).
// Returns the length, or 0 when the name does not fit.
size_t expand_report_path_into(char* out, size_t cap, const char* pattern, int pid, unsigned n);
}  // namespace cudaleak::report
