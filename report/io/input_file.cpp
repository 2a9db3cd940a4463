#include "report/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cudaleak::io {

namespace {

int open_checked(const std::string& path, const char* what, size_t max_bytes, size_t* size) {
  auto fail = [&](const std::string& problem) { return InputFileError(path + ": " + problem); };
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw fail(std::string("cannot read the ") + what + " (" + std::strerror(errno) + ")");
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    bool dir = S_ISDIR(st.st_mode);
    close(fd);
    throw fail(std::string("the ") + what + " is " + (dir ? "a directory" : "not a regular file"));
  }
  if (size_t(st.st_size) > max_bytes) {
    close(fd);
    throw fail(std::string("the ") + what + " is larger than " + std::to_string(max_bytes >> 20) + " MiB");
  }
  *size = size_t(st.st_size);
  return fd;
}

}  // namespace

int open_input_file(const std::string& path, const char* what) {
  size_t size = 0;
  return open_checked(path, what, SIZE_MAX, &size);
}

std::string read_input_file(const std::string& path, const char* what, size_t max_bytes) {
  size_t size = 0;
  int fd = open_checked(path, what, max_bytes, &size);
  std::string text(size, '\0');
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
  close(fd);
  text.resize(done);
  return text;
}

}  // namespace cudaleak::io
