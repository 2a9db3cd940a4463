// The one line a simulated library prints when a program calls a function it
// exports but does not model, once per function name: the program goes on with
// the not-supported error, and the user learns which call the simulation lacks.
// Each simulated library has its own copy (hidden visibility); write(2) only,
// since a stub may run in a forked child, a signal path or at exit.
#pragma once
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

namespace simcuda {

inline void say_not_simulated(const char* function, const char* returned) {
  // Never destroyed: stubs may be called from destructors that run at exit.
  static auto& said = *new std::unordered_set<std::string>;
  static std::mutex mutex;
  {
    std::lock_guard lock(mutex);
    if (!said.insert(function).second) return;
  }
  std::string line = std::string("cudaleak (simulated GPU): ") + function + " is not simulated; it returned " +
                     returned + "\n";
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace simcuda
