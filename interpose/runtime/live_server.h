// `cudaleak top` attaches here (docs/reading-reports.md#cudaleak-top): a thread the
// preload library owns listens on the abstract unix socket
// "\0cudaleak-live.PID" and, for each connection of the same user (or root)
// that asks "frame", answers with one report as JSON: the timelines with
// every site's growth, the live groups biggest first (their allocations left
// out), the caching allocators' share, built as reports are and with no CUDA
// call. While nobody connects the thread sleeps in accept(): the program's
// threads pay nothing. Started with the reporter thread, when the process
// first uses CUDA (option `live`).
#pragma once
#include <string>

namespace cudaleak::live_server {

inline constexpr const char* kSocketPrefix = "cudaleak-live.";  // + pid, in the abstract namespace

void start();
// A forked child: the parent's socket is closed; the child serves its own
// once it uses CUDA.
void reset_in_child();
// The frame `top` reads (a report, reason snapshot); exposed for tests.
std::string frame_json();

}  // namespace cudaleak::live_server
