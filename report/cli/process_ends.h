// How the processes of a `cudaleak run` ended, as far as the launcher saw:
// the program it started and every orphan re-parented to it (it is the run's
// subreaper). A process reaped by a parent of its own is not known here.
// The launcher says how a process that wrote no report ended from this,
// instead of guessing.
#pragma once
#include <sys/types.h>

#include <map>
#include <string>

namespace cudaleak::cli {

class ProcessEnds {
 public:
  // A wait status from waitpid.
  void record(pid_t pid, int wait_status) { statuses_[pid] = wait_status; }
  // How a process that used CUDA ended without its report, for the message
  // "... ended without its report: <this>".
  std::string without_report(pid_t pid) const;

 private:
  std::map<pid_t, int> statuses_;
};

}  // namespace cudaleak::cli
