#include "report/cli/process_ends.h"

#include <sys/wait.h>

#include <cstring>

namespace cudaleak::cli {

std::string ProcessEnds::without_report(pid_t pid) const {
  const auto known = statuses_.find(pid);
  if (known == statuses_.end())
    return "killed by SIGKILL (the kernel's out-of-memory killer, a timeout's kill -9), by a signal left at its "
           "default action (SIGQUIT, SIGPIPE, ...), or left by quick_exit";
  const int status = known->second;
  if (WIFSIGNALED(status))
    return "died of signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
           "), which it could not report on";
  const int code = WEXITSTATUS(status);
  std::string how = "exited with status " + std::to_string(code) + " before writing its report";
  if (code == 127) how += " (127: the loader could not find a library or symbol it needs, as its own message says)";
  else how += " (quick_exit, or a report it could not write, as its own message says)";
  return how;
}

}  // namespace cudaleak::cli
