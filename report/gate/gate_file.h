// Files the gate depends on (suppressions, baselines) are read through here:
// only regular files, of bounded size, never a FIFO, device or directory (which
// would block the process or feed it without end). Throws GateFileError with
// one line naming the file and the problem.
#pragma once
#include <stdexcept>
#include <string>

namespace cudaleak::gate {

class GateFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr size_t kMaxGateFileBytes = size_t(256) << 20;

std::string read_gate_file(const std::string& path, const char* what);  // what: "suppressions file", ...

}  // namespace cudaleak::gate
