// The preload library's own text: log lines and text summaries. Formats into
// a stack buffer and write(2)s it, so that a log line allocates nothing and
// works inside hooks. It goes to the stderr the process started with (a
// duplicate taken at start-up, so that a program that reuses fd 2 for its own
// file never gets cudaleak's text in it), or to LOG_PATH.PID (the log_path
// option, opened on first use and again in a forked child). Log lines start
// with "cudaleak:".
#pragma once
#include <cstddef>

namespace cudaleak {
// Takes the duplicate of stderr; at start-up, before anything is logged.
void keep_stderr();
void log_message(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Only when the verbose option is on.
void log_verbose(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Text summaries and other multi-line text, written whole.
void write_text(const char* data, size_t size);
// Whether text summaries are coloured: the color option, and for "auto"
// whether they go to a terminal with NO_COLOR unset (no-color.org).
bool text_in_color();
}  // namespace cudaleak
