// Files cudaleak reads (reports, crash captures, suppressions, baselines) are
// read through here: only regular files, of bounded size, never a FIFO, device
// or directory (which would block the process or feed it without end). Throws
// InputFileError with one line naming the file and the problem.
#pragma once
#include <stdexcept>
#include <string>

namespace cudaleak::io {

class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Suppressions and baselines are read inside the program at start-up: small.
inline constexpr size_t kMaxGateFileBytes = size_t(256) << 20;

// what: "suppressions file", "report", ...; max_bytes: larger files are refused.
std::string read_input_file(const std::string& path, const char* what, size_t max_bytes = kMaxGateFileBytes);

// The same checks, for a file read as it goes: an open descriptor (the
// caller closes it).
int open_input_file(const std::string& path, const char* what);

}  // namespace cudaleak::io
