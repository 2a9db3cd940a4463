#include "report/cli/escape_watch.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cudaleak::cli {

namespace {

// Often enough to catch a test process that holds the GPU a fraction of a
// second; each look reads only the maps of processes not yet placed.
constexpr auto kLookEvery = std::chrono::milliseconds(20);

std::string read_proc(pid_t pid, const char* what, size_t limit = size_t(1) << 24) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + what, std::ios::binary);
  std::string text;
  char buffer[65536];
  while (in && text.size() < limit) {
    in.read(buffer, sizeof buffer);
    text.append(buffer, size_t(in.gcount()));
  }
  return text.size() > limit ? text.substr(0, limit) : text;
}

std::string image_of(pid_t pid) {
  char target[PATH_MAX];
  const std::string link = "/proc/" + std::to_string(pid) + "/exe";
  ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, size_t(n)) : std::string();
}

// Children of every thread of `pid` (an orphan is re-parented to whichever
// thread of the subreaper; a program's threads fork too).
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream in(task.path() / "children");
    for (pid_t child; in >> child;) out.push_back(child);
  }
  return out;
}

std::vector<pid_t> tree_below(pid_t root) {
  std::vector<pid_t> out, todo = {root};
  while (!todo.empty()) {
    const pid_t next = todo.back();
    todo.pop_back();
    for (pid_t child : children_of(next)) out.push_back(child), todo.push_back(child);
  }
  return out;
}

std::string command_of(pid_t pid) {
  std::string line = read_proc(pid, "cmdline", 200);
  for (char& c : line) c = c == 0 ? ' ' : (static_cast<unsigned char>(c) < 0x20 ? '?' : c);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

bool secure_exec(pid_t pid) {
  const std::string auxv = read_proc(pid, "auxv", 4096);
  for (size_t at = 0; at + sizeof(Elf64_auxv_t) <= auxv.size(); at += sizeof(Elf64_auxv_t)) {
    Elf64_auxv_t entry;
    std::memcpy(&entry, auxv.data() + at, sizeof entry);
    if (entry.a_type == AT_SECURE) return entry.a_un.a_val != 0;
  }
  return false;
}

// Why a process that maps the driver lacks the preload, from its environment
// at exec and its auxiliary vector.
std::string why_escaped(pid_t pid, const std::string& preload_name) {
  const std::string environ = read_proc(pid, "environ");
  std::istringstream entries(environ);
  bool named = false;
  for (std::string entry; std::getline(entries, entry, '\0');)
    if (entry.starts_with("LD_PRELOAD=") && entry.find(preload_name) != std::string::npos) named = true;
  if (!named)
    return "its environment has no LD_PRELOAD naming cudaleak's library: a command on the way (env -i, env -u "
           "LD_PRELOAD, sudo, a build sandbox) dropped it";
  if (secure_exec(pid)) return "it runs set-uid, set-gid or with file capabilities, so the loader ignored LD_PRELOAD";
  return "the loader did not load cudaleak's library although LD_PRELOAD names it";
}

}  // namespace

EscapeWatch::EscapeWatch(std::string preload) : preload_(std::move(preload)) {
  char real[PATH_MAX];
  if (realpath(preload_.c_str(), real)) preload_ = real;  // as the maps show it
}

EscapeWatch::~EscapeWatch() {
  if (thread_.joinable()) stop();
}

void EscapeWatch::start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      look();
      lock.lock();
      wake_.wait_for(lock, kLookEvery, [this] { return stopping_; });
    }
  });
}

std::vector<EscapedProcess> EscapeWatch::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  look();
  std::vector<EscapedProcess> out;
  for (const auto& [pid, process] : escaped_) out.push_back(process);
  return out;
}

void EscapeWatch::look() {
  std::vector<pid_t> tree = tree_below(getpid());
  for (pid_t pid : tree) look_at(pid);
  // Forget the processes that ended, so that a long run's many short ones
  // do not pile up (and a pid used again is looked at afresh).
  std::sort(tree.begin(), tree.end());
  std::erase_if(seen_, [&](const auto& entry) { return !std::binary_search(tree.begin(), tree.end(), entry.first); });
}

void EscapeWatch::look_at(pid_t pid) {
  if (escaped_.count(pid)) return;
  const std::string image = image_of(pid);
  if (image.empty()) return;  // gone, a zombie, or not ours to read
  Seen& seen = seen_[pid];
  if (seen.placed && seen.image == image) return;  // an exec (a new image) is looked at again
  seen.image = image;
  seen.placed = false;
  std::istringstream maps(read_proc(pid, "maps"));
  bool driver = false;
  for (std::string line; std::getline(maps, line);) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    if (path == preload_) {
      seen.placed = true;  // cudaleak sees it; it may still exec past the preload later
      return;
    }
    driver = driver || std::filesystem::path(path).filename().string().starts_with("libcuda.so");
  }
  if (!driver) return;  // not yet: it may load the driver later
  const std::string name = std::filesystem::path(preload_).filename().string();
  escaped_[pid] = EscapedProcess{pid, command_of(pid), why_escaped(pid, name)};
}

std::string preload_dropped_from(const std::string& command) {
  std::string file = command;
  if (command.find('/') == std::string::npos) {
    file.clear();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/local/bin:/bin:/usr/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + command;
      if (access(candidate.c_str(), X_OK) == 0) {
        file = candidate;
        break;
      }
    }
  }
  struct stat st {};
  if (file.empty() || stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  std::string why;
  if ((st.st_mode & S_ISUID) && st.st_uid != geteuid())
    why = "is set-uid (owner uid " + std::to_string(st.st_uid) + ")";
  else if ((st.st_mode & S_ISGID) && st.st_gid != getegid() && (st.st_mode & S_IXGRP))
    why = "is set-gid (group gid " + std::to_string(st.st_gid) + ")";
  else if (geteuid() != 0 && getxattr(file.c_str(), "security.capability", nullptr, 0) > 0)
    why = "has file capabilities";
  if (why.empty()) return "";
  return file + " " + why +
         ": the loader will drop cudaleak's preload (LD_PRELOAD) from it, so whatever it does with "
         "CUDA is not seen; run a copy without set-id bits or capabilities under cudaleak";
}

}  // namespace cudaleak::cli
