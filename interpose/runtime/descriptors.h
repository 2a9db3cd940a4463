// Descriptors for writing a report when the program has used up its own
// (`ulimit -n 8`, a program that leaks descriptors): a report needs one at a
// time (its temporary file, then the launcher's files), and "Too many open
// files" would lose it.
//
// Two ways, both put back before the program runs on:
// - reserve(), at the process's first CUDA use (a process that never uses
//   CUDA writes no report and is left alone): one descriptor of cudaleak's
//   own, an anonymous memfd placed at the top of the range (the program's
//   descriptors keep the numbers they would have had). A Headroom closes it for
//   the report's duration, after checking by device and inode that the number
//   still names it (a program that closed every descriptor may have reused it),
//   and takes it again after.
// - a Headroom also raises the soft limit of open files by 64 where the hard
//   limit (or the process's privilege) allows, for the modules symbolization
//   opens.
// The program can open one descriptor fewer than its limit: the price of a
// report that is never lost to its descriptor use. Async-signal-safe.
#pragma once
#include <sys/resource.h>

namespace cudaleak::descriptors {

void reserve();

class Headroom {
 public:
  Headroom();
  ~Headroom();
  Headroom(const Headroom&) = delete;
  Headroom& operator=(const Headroom&) = delete;

 private:
  rlimit old_{};
  bool raised_ = false;
  bool released_ = false;
};

}  // namespace cudaleak::descriptors
