// Signals: the snapshot signal (SIGUSR1 by default) and crash reports.
// The snapshot handler only writes one byte to a pipe; a reporter thread,
// started with every signal blocked on the first CUDA resource, writes the
// report. Crash handlers write a best-effort report, then let the process die
// of the same signal exactly as it would have.
#pragma once

namespace cudaleak::signals {

// Installed at start-up; handlers are only put where the disposition is still
// the default, so a handler the program set is never replaced.
void install();
void ensure_reporter_thread();
// At exit: if a termination report is being written (the signal came to
// another thread), wait for it to end the process instead of writing an exit
// report over it.
void wait_if_terminating();
void reset_in_child();

}  // namespace cudaleak::signals
