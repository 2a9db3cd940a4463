// The crash path: what the preload library does inside a handler for SIGSEGV,
// SIGBUS, SIGFPE, SIGILL or SIGABRT, where the heap, the loader and any lock
// may be in the state the crash left them in. Only async-signal-safe work:
// no malloc, no stdio, no libdw, no lock waited on. It writes a raw capture
// (records, interned stacks as addresses, /proc/self/maps, the options) as
// JSON to the report path with write(2) from a static buffer. Symbolization,
// grouping and the gate happen afterwards, outside the dying process: the
// launcher (`cudaleak run`) turns the capture into a full report once the
// process has died, and `cudaleak report` does the same on read.
#pragma once

namespace cudaleak::crash_capture {

// Outside any handler (start-up, and the child after fork): everything the
// handler needs that would allocate (paths, the options text).
void prepare();

// In the handler. Returns true when the capture was written.
bool write(int signal);

}  // namespace cudaleak::crash_capture
