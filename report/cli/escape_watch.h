// Processes of a `cudaleak run` that used the GPU without cudaleak's preload:
// a command that drops LD_PRELOAD (`env -i`, `env -u LD_PRELOAD`, sudo, bazel's
// sandbox), or a set-id or file-capability program, whose loader ignores it.
// Such a process leaves nothing in the gate directory, so without this watch a
// leak gate over the run would pass what it never saw.
//
// While the program runs, a thread of the launcher looks at the run's process
// tree every 20 ms (the launcher is its subreaper, so orphans stay in it) and
// reads the memory map of each process it has not yet placed: one that maps a
// CUDA driver (libcuda.so*) but not the preload escaped. The map, not NVML's
// list of compute processes, because it is there from the driver's load (NVML
// lists a process only once it holds a context) and needs no GPU or root.
// A process that uses the GPU and ends between two looks, or whose map the
// launcher may not read (a set-uid program run by a user other than root,
// named before it runs by preload_dropped_from), is not seen by this watch
// (docs/usage.md says so).
#pragma once
#include <sys/types.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cudaleak::cli {

struct EscapedProcess {
  pid_t pid = 0;
  std::string command;  // its command line, at most 200 bytes
  std::string why;      // why the preload was not in it, for the message
};

class EscapeWatch {
 public:
  // `preload`: the library the launcher preloads.
  explicit EscapeWatch(std::string preload);
  ~EscapeWatch();
  void start();
  // One last look, then the thread ends; returns what it found, by pid.
  std::vector<EscapedProcess> stop();

 private:
  struct Seen {
    std::string image;  // /proc/PID/exe when placed: a new image is looked at again
    bool placed = false;
  };
  void look();
  void look_at(pid_t pid);

  std::string preload_;
  std::map<pid_t, Seen> seen_;
  std::map<pid_t, EscapedProcess> escaped_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

// The program's file, found as execvp finds it, when the loader will drop
// the preload from it (set-uid or set-gid to another user or group, or file
// capabilities for a user other than root): one line naming it and why; "" else.
std::string preload_dropped_from(const std::string& command);

}  // namespace cudaleak::cli
