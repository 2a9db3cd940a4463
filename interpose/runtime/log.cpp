#include "log.h"

#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>

#include "lifecycle.h"

namespace cudaleak {

namespace {
void vlog(const char* format, va_list args) {
  int saved = errno;
  char buf[1024];
  int n = std::snprintf(buf, sizeof buf, "cudaleak: ");
  n += std::vsnprintf(buf + n, sizeof buf - size_t(n), format, args);
  if (n >= int(sizeof buf) - 1) n = int(sizeof buf) - 2;
  buf[n++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, buf, size_t(n));
  (void)ignored;
  errno = saved;
}
}  // namespace

void log_message(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

void log_verbose(const char* format, ...) {
  if (!options().verbose) return;
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

}  // namespace cudaleak
