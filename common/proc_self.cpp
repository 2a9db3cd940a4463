#include "common/proc_self.h"

#include <unistd.h>

#include <cstdlib>

namespace cudaleak {

int proc_self_pid() {
  char link[32] = {};
  if (readlink("/proc/self", link, sizeof link - 1) <= 0) return int(getpid());
  const long pid = std::strtol(link, nullptr, 10);
  return pid > 0 ? int(pid) : int(getpid());
}

bool proc_of_another_namespace() { return proc_self_pid() != int(getpid()); }

}  // namespace cudaleak
