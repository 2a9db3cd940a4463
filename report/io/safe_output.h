// Report files written safely, also from a crash handler (async-signal-safe:
// no allocation, no stdio, no locks):
// - a regular file, or a new name: written under an unpredictable temporary
//   name in the same directory, created with O_CREAT|O_EXCL|O_NOFOLLOW (a
//   link planted there is never followed), then renamed over the target;
// - a character device or FIFO (e.g. /dev/stderr, a pipe): written into, never
//   replaced; a link is followed only to such a file;
// - a link to a regular file, a directory, a block device or a socket: refused.
// A name another process of the same run already wrote (the pattern has no
// %p) is never overwritten: this process writes NAME.PID.EXT instead and says so.
#pragma once
#include <climits>
#include <cstddef>

namespace cudaleak::safe_output {

struct File {
  int fd = -1;
  bool direct = false;         // writing into a device or FIFO
  char path[PATH_MAX] = {};    // where the report ends up
  char temp[PATH_MAX] = {};    // temporary name, when not direct
  const char* problem = nullptr;  // why it failed (static text)
  int error = 0;                  // errno of the failure, 0 when none
  char shared_name[PATH_MAX] = {};  // set when the name asked for was another process's
};

// Marks the start of this run for the shared-name rule: the launcher's
// CUDALEAK_RUN_START, else set now and exported to children. Not in a handler.
void mark_run_start();

bool open(File& f, const char* path);
bool write(File& f, const char* data, size_t n);
bool commit(File& f);  // close, then rename into place
void abandon(File& f);  // close, remove the temporary

}  // namespace cudaleak::safe_output
