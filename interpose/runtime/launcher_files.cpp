#include "interpose/runtime/launcher_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <cstdlib>

#include "interpose/base/log.h"
#include "interpose/base/state.h"
#include "report/symbols/launcher_env.h"

namespace cudaleak::launcher_files {

namespace {

// <gate dir>/<pid><extension>, or "" outside a `cudaleak run`.
std::string own_file(const char* extension) {
  const char* dir = std::getenv("CUDALEAK_GATE_DIR");
  if (!dir || !*dir) return {};
  return std::string(dir) + "/" + std::to_string(getpid()) + extension;
}

// The gate directory is the launcher's own (mkdtemp): a plain write, replacing
// what an earlier image of this pid left. Not safe_output, whose claims would
// take a file of the same pid for another process's and write beside it.
bool write_file(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  bool ok = fd >= 0;
  for (size_t done = 0; ok && done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    done += ok ? size_t(n) : 0;
  }
  if (fd >= 0 && close(fd) != 0) ok = false;
  if (!ok) log_message("cannot leave the launcher %s: %s", path.c_str(), std::strerror(errno));
  return ok;
}

std::string rank_line() {
  const symbols::JobPlace place = symbols::job_place_of_this_process();
  return place.rank >= 0 ? "rank=" + std::to_string(place.rank) + "\n" : "";
}

// The command line on one line, for the launcher's message: at most 200 bytes.
std::string command_line() {
  char buffer[200];
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  ssize_t n = read(fd, buffer, sizeof buffer);
  close(fd);
  std::string out;
  for (ssize_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(buffer[i]);
    out += c == 0 ? ' ' : c < 0x20 ? '?' : char(c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (n == ssize_t(sizeof buffer)) out += "...";
  return out;
}

}  // namespace

void mark_cuda_use() {
  // A forked child that is not traced writes nothing at all.
  if (lifecycle_state().load(std::memory_order_acquire) == LifecycleState::Untraced) return;
  const std::string path = own_file(".live");
  if (!path.empty()) write_file(path, rank_line() + "command=" + command_line() + "\n");
}

void forget_replaced_image() {
  const std::string path = own_file(".live");
  if (!path.empty()) unlink(path.c_str());
}

std::string unseen_reason() {
  const std::string path = own_file(".unseen");
  if (path.empty()) return {};
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return {};
  char buffer[512];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  close(fd);
  std::string reason(buffer, n > 0 ? size_t(n) : 0);
  while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
  return reason;
}

std::string copy_for_launcher(const std::string& report_path, const std::string& json) {
  struct stat st {};
  if (stat(report_path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return {};
  const std::string path = own_file(".json");
  return !path.empty() && write_file(path, json) ? path : std::string();
}

namespace {
std::string absolute(const std::string& path) {
  char abs[PATH_MAX];
  return path.empty() || path[0] == '/' || !realpath(path.c_str(), abs) ? path : std::string(abs);
}
std::string one_line(std::string text) {
  for (char& c : text) c = static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  return text;
}
}  // namespace

void record_verdict(const std::string& status, const std::string& report_path, const std::string& problem,
                    const std::string& unwritten) {
  const std::string path = own_file(".gate");
  if (path.empty()) return;
  std::string text = "status=" + status + "\n" + rank_line();  // the launcher gates the job and names its ranks
  if (!report_path.empty()) text += "report=" + absolute(report_path) + "\n";
  if (!problem.empty()) text += "problem=" + one_line(problem) + "\n";
  // realpath fails for a file not there: the directory's own path is enough for
  // the launcher, which looks only at a file already at that name.
  if (!unwritten.empty()) text += "unwritten=" + one_line(unwritten) + "\n";
  write_file(path, text);
}

}  // namespace cudaleak::launcher_files
