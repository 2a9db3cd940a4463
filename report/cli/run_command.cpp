#include "run_command.h"

#include <dlfcn.h>

#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <iterator>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ci_formats.h"
#include "compiled_rules.h"
#include "crash_reports.h"
#include "gate_options.h"
#include "json_io.h"
#include "load.h"
#include "options.h"

extern char** environ;

namespace cudaleak::cli {

namespace {

std::string prepend(const char* existing, const std::string& value, char separator) {
  if (!existing || !*existing) return value;
  return value + separator + existing;
}

struct TreeOutcome {
  int failed = 0, errors = 0;
  std::vector<std::string> reports;
};

// Whether the dynamic loader finds the CUDA driver, as the program's would
// (checked after the run, in the launcher only).
bool cuda_driver_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver) dlclose(driver);
  return driver != nullptr;
}

// Every process of the tree that used CUDA left <pid>.gate in the gate directory.
TreeOutcome collect(const std::string& dir) {
  TreeOutcome out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".gate") continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line == "status=fail") ++out.failed;
      if (line == "status=error") ++out.errors;
      if (line.rfind("report=", 0) == 0) out.reports.push_back(line.substr(7));
      if (line.rfind("raw=", 0) == 0) {
        // A crash capture: built into its report now that the process is gone.
        std::string status = finish_capture(line.substr(4));
        out.failed += status == "fail";
        out.errors += status == "error";
        out.reports.push_back(line.substr(4));
      }
    }
  }
  std::sort(out.reports.begin(), out.reports.end());
  return out;
}

void write_ci_files(const RunSettings& s, const TreeOutcome& tree) {
  if (s.junit_path.empty() && s.sarif_path.empty()) return;
  std::vector<report::Report> reports;
  for (const auto& path : tree.reports)
    if (auto r = load_report(path)) reports.push_back(std::move(*r));  // a bad one is named, the rest still count
  if (!s.junit_path.empty()) write_output(s.junit_path, render::junit_xml(reports));
  if (!s.sarif_path.empty()) write_output(s.sarif_path, render::sarif_json(reports, s.source_root));
}

// The program's pid, for the forwarding handler.
volatile sig_atomic_t g_child = 0;
constexpr int kForwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

// A signal sent to the launcher (kill, a CI runner's timeout) goes on to the
// program, which reports and ends; the launcher then finishes its work as
// usual. A signal from the terminal (si_code SI_KERNEL) already reached the
// whole foreground process group, the program included: not sent twice.
void forward(int sig, siginfo_t* info, void*) {
  if (g_child > 0 && (!info || info->si_code != SI_KERNEL)) kill(pid_t(g_child), sig);
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

// The run's suppression rules, parsed once here and mapped by every process
// (compiled_rules.h). Problems are not reported here: each process that
// reports names them, as it would without the launcher.
void compile_suppressions(const std::string& options_text, const std::string& gate_dir) {
  Options effective;
  parse_options(options_text, effective);
  gate::CompiledRules compiled = gate::compile_rules(effective.default_suppressions, effective.suppressions);
  std::string path = gate_dir + "/suppressions.rules";
  std::string problem = gate::write_compiled_rules(
      path, gate::rules_key(effective.default_suppressions, effective.suppressions), compiled);
  if (problem.empty()) {
    setenv(gate::kCompiledSuppressionsVariable, path.c_str(), 1);
  } else {
    spdlog::warn("cudaleak: {}; each process reads its suppression files itself", problem);
    unsetenv(gate::kCompiledSuppressionsVariable);
  }
}

}  // namespace

int run_program(const RunSettings& s) {
  std::string opts;
  for (const auto& [key, value] : s.options) opts += (opts.empty() ? "" : ":") + key + "=" + escape_option_value(value);
  if (const char* existing = std::getenv("CUDALEAK_OPTIONS"); existing && *existing)
    opts = opts.empty() ? existing : std::string(existing) + ":" + opts;  // ours come last and win
  setenv("CUDALEAK_OPTIONS", opts.c_str(), 1);
  setenv("LD_PRELOAD", prepend(std::getenv("LD_PRELOAD"), s.library_path, ':').c_str(), 1);
  if (!s.python_dir.empty() && access(s.python_dir.c_str(), R_OK) == 0) {
    setenv("PYTHONPATH", prepend(std::getenv("PYTHONPATH"), s.python_dir, ':').c_str(), 1);
    setenv("CUDALEAK_PYTORCH_STACKS", s.pytorch_stacks ? "1" : "0", 1);
    setenv("CUDALEAK_PYTORCH_STACKS_AT", std::to_string(s.pytorch_stacks_at).c_str(), 1);
  }
  if (s.simulated_gpu) {
    setenv("LD_LIBRARY_PATH", prepend(std::getenv("LD_LIBRARY_PATH"), s.simcuda_dir, ':').c_str(), 1);
    if (!s.simulated_memory.empty()) setenv("CUDALEAK_SIM_MEMORY", s.simulated_memory.c_str(), 1);
  }

  // Each process of the tree reports its gate verdict here.
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  setenv("CUDALEAK_RUN_START", std::to_string(int64_t(now.tv_sec) * 1000000000 + now.tv_nsec - 20000000).c_str(), 1);
  const char* tmp = std::getenv("TMPDIR");
  std::string gate_template = std::string(tmp && *tmp ? tmp : "/tmp") + "/cudaleak-gate.XXXXXX";
  char* gate_dir = gate_template.data();
  if (!mkdtemp(gate_dir)) {
    spdlog::error("cudaleak: cannot create a temporary directory: {}", std::strerror(errno));
    return 127;
  }
  setenv("CUDALEAK_GATE_DIR", gate_dir, 1);
  compile_suppressions(opts, gate_dir);
  // Orphaned descendants are re-parented to us, so the whole tree can be awaited.
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  // While the program runs, the launcher only waits and passes termination
  // signals on (forward()); it outlives the program to finish the reports.
  struct sigaction forwarding{}, old[std::size(kForwarded)];
  forwarding.sa_sigaction = forward;
  forwarding.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forwarding.sa_mask);
  for (size_t i = 0; i < std::size(kForwarded); ++i) sigaction(kForwarded[i], &forwarding, &old[i]);
  auto restore_signals = [&] {
    for (size_t i = 0; i < std::size(kForwarded); ++i) sigaction(kForwarded[i], &old[i], nullptr);
  };

  // Held from fork until g_child is set: a signal sent in between (the program
  // may already be running) is delivered then and forwarded, never dropped.
  sigset_t forwarded, old_mask;
  sigemptyset(&forwarded);
  for (int sig : kForwarded) sigaddset(&forwarded, sig);
  sigprocmask(SIG_BLOCK, &forwarded, &old_mask);
  pid_t pid = fork();
  if (pid < 0) {
    spdlog::error("cudaleak: cannot start {}: {}", s.command[0], std::strerror(errno));
    restore_signals();
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    std::filesystem::remove_all(gate_dir);
    return 127;
  }
  if (pid == 0) {
    restore_signals();
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);  // the program starts with the mask it was given
    std::vector<char*> argv;
    for (const auto& a : s.command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    int err = errno;
    std::fprintf(stderr, "cudaleak: cannot run %s: %s\n", argv[0], std::strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  g_child = pid;
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      spdlog::error("cudaleak: waiting for {} failed: {}", s.command[0], std::strerror(errno));
      restore_signals();
      std::filesystem::remove_all(gate_dir);
      return 127;
    }
  }
  // Then the rest of the tree: background children and orphans of the program.
  for (int other; waitpid(-1, &other, 0) > 0 || errno == EINTR;) {
  }
  g_child = 0;
  restore_signals();

  TreeOutcome tree = collect(gate_dir);
  std::filesystem::remove_all(gate_dir);
  write_ci_files(s, tree);
  if (tree.reports.empty() && !s.simulated_gpu && !cuda_driver_present())
    spdlog::warn("cudaleak: no process of the run used CUDA, and this machine has no CUDA driver (libcuda.so.1 "
                 "not found); to try cudaleak without a GPU: cudaleak run --simulated-gpu -- PROGRAM");
  if (WIFSIGNALED(status)) {
    die_like(WTERMSIG(status));
    return 128 + WTERMSIG(status);  // only if the signal did not end us
  }
  if (s.error_exitcode > 0) {
    // The main program already exited with its own verdict; children count too.
    if (tree.errors) return s.gate_error_exitcode;
    if (tree.failed) return s.error_exitcode;
  }
  return WEXITSTATUS(status);
}

}  // namespace cudaleak::cli
