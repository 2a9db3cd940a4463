// The preload library's logger: formats into a stack buffer and write(2)s to
// stderr, so it allocates nothing and works inside hooks. Messages start with
// "cudaleak:".
#pragma once

namespace cudaleak {
void log_message(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Only when the verbose option is on.
void log_verbose(const char* format, ...) __attribute__((format(printf, 1, 2)));
}
