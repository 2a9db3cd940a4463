// Signals: the snapshot signal (SIGUSR1 by default) and crash reports.
// The snapshot handler only writes one byte to a pipe; a reporter thread,
// started with every signal blocked on the first CUDA resource, writes the
// report. The snapshot and termination handlers are put in place with that
// thread, so a process that never uses CUDA keeps their default actions. Crash handlers write a best-effort report, then let the process die
// of the same signal exactly as it would have.
#pragma once

namespace cudaleak::signals {

// Crash handlers are installed at start-up, the others at the first CUDA
// resource (ensure_reporter_thread); handlers are only put where the
// disposition is still the default, so a handler the program set is never
// replaced.
void install();
void ensure_reporter_thread();
// At exit: if a termination report is being written (the signal came to
// another thread), wait for it to end the process instead of writing an exit
// report over it.
void wait_if_terminating();
// A forked child: its own pipe and thread, and the snapshot and termination
// signals given back until it uses CUDA itself.
void reset_in_child();
// A child that is not traced (trace_children=false): the crash signals given
// back too, so that it neither reports nor behaves differently.
void release_crash_signals();

}  // namespace cudaleak::signals
