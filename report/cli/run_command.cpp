#include "run_command.h"

#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace cudaleak::cli {

namespace {

std::string prepend(const char* existing, const std::string& value, char separator) {
  if (!existing || !*existing) return value;
  return value + separator + existing;
}

void die_like(int sig) {
  // Report the program's death exactly: same signal, default action, no core from us.
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
}

}  // namespace

int run_program(const RunSettings& s) {
  std::string opts;
  for (const auto& [key, value] : s.options) opts += (opts.empty() ? "" : ":") + key + "=" + value;
  if (const char* existing = std::getenv("CUDALEAK_OPTIONS"); existing && *existing)
    opts = opts.empty() ? existing : std::string(existing) + ":" + opts;  // ours come last and win
  setenv("CUDALEAK_OPTIONS", opts.c_str(), 1);
  setenv("LD_PRELOAD", prepend(std::getenv("LD_PRELOAD"), s.library_path, ':').c_str(), 1);
  if (s.simulated_gpu) {
    setenv("LD_LIBRARY_PATH", prepend(std::getenv("LD_LIBRARY_PATH"), s.simcuda_dir, ':').c_str(), 1);
    if (!s.simulated_memory.empty()) setenv("CUDALEAK_SIM_MEMORY", s.simulated_memory.c_str(), 1);
  }

  // While the program runs, terminal signals go to it (same process group);
  // the launcher itself waits, like system(3).
  struct sigaction ignore{}, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);

  pid_t pid = fork();
  if (pid < 0) {
    spdlog::error("cudaleak: cannot start {}: {}", s.command[0], std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    std::vector<char*> argv;
    for (const auto& a : s.command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    int err = errno;
    std::fprintf(stderr, "cudaleak: cannot run %s: %s\n", argv[0], std::strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      spdlog::error("cudaleak: waiting for {} failed: {}", s.command[0], std::strerror(errno));
      return 127;
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (WIFSIGNALED(status)) {
    die_like(WTERMSIG(status));
    return 128 + WTERMSIG(status);  // only if the signal did not end us
  }
  return WEXITSTATUS(status);
}

}  // namespace cudaleak::cli
