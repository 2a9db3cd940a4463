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
// Nor is one another run wrote since this process started (runs in two PID
// namespaces, where pids repeat, sharing a volume): a name that was free is
// renamed into place only while it still is (RENAME_NOREPLACE), else the
// next alternative (NAME-2.EXT) is taken. A file an earlier run left is
// replaced, as the newest run's report is the one wanted at that name.
// The command line's outputs (JUnit, SARIF, the -o of report, merge, baseline
// and symbolize) take regular files only: a FIFO, a device, a directory or
// any link is refused, never opened.
#pragma once
#include <climits>
#include <cstddef>
#include <string>

namespace cudaleak::safe_output {

struct File {
  int fd = -1;
  bool direct = false;              // writing into a device or FIFO
  char path[PATH_MAX] = {};         // where the report ends up
  char temp[PATH_MAX] = {};         // temporary name, when not direct
  const char* problem = nullptr;    // why it failed (static text)
  int error = 0;                    // errno of the failure, 0 when none
  char shared_name[PATH_MAX] = {};  // set when the name asked for was another process's
  bool fresh = false;               // the name was free: renamed into place only while it still is
  bool another_run = false;         // the shared name was another run's, not another process's of this run
};

// Marks the start of this run for the shared-name rule: the launcher's
// CUDALEAK_RUN_START, else set now and exported to children. Not in a handler.
void mark_run_start();

enum class Targets { ReportsAndStreams, RegularFilesOnly };
bool open(File& f, const char* path, Targets targets = Targets::ReportsAndStreams);
bool write(File& f, const char* data, size_t n);
bool commit(File& f);   // close, then rename into place
void abandon(File& f);  // close, remove the temporary

// Why open(RegularFilesOnly) would refuse `path` as it is now, or nullptr;
// opens nothing (for checks before a program runs).
const char* refusal(const char* path);

// open, write and commit; on failure abandoned, with f.problem and f.error set.
bool write_whole(File& f, const char* path, const char* data, size_t n, Targets targets = Targets::ReportsAndStreams);
// Why it failed, for a message: "is a directory (Is a directory)". Not in a handler.
std::string problem_of(const File& f);

}  // namespace cudaleak::safe_output
