// The program's own _exit and _Exit (Python's os._exit, a forked worker's
// way out) skip the library's destructor, so a process leaving that way wrote
// no report and left the launcher's gate blind to it. These write the final
// report first, as exit() would, then end the process with the program's
// status (or the gate's, as at exit). glibc's own internal calls (exit(),
// quick_exit, posix_spawn's child) do not come here.
#include <stdlib.h>
#include <unistd.h>

#include "interpose/base/entry_frame.h"
#include "interpose/base/next_symbol.h"
#include "interpose/base/state.h"
#include "interpose/runtime/lifecycle.h"

namespace {

// The next definition of `name`: a sanitizer's interceptor (ASan's _exit runs
// its leak check and sets its exit code) loaded after this library, else the
// C library's.
using ExitFn = void (*)(int);
ExitFn next_exit(const char* name) {
  return reinterpret_cast<ExitFn>(cudaleak::next_versioned_symbol(name, "GLIBC_2.2.5"));
}

[[noreturn]] void leave(const char* name, int status) {
  using namespace cudaleak;
  CUDALEAK_ENTRY_FRAME;
  // A vfork child shares the parent's memory: what it would finish is the parent's.
  if (cuda_seen() && in_own_process() && tracking_enabled()) {
    const int decided = finish_process();
    if (decided >= 0) status = decided;
  }
  if (ExitFn next = next_exit(name)) next(status);
  exit_now(status);
}

}  // namespace

extern "C" {
__attribute__((visibility("default"))) void _exit(int status) { leave("_exit", status); }
__attribute__((visibility("default"))) void _Exit(int status) { leave("_Exit", status); }
}
