#include "report/cli/run_command.h"

#include <dlfcn.h>
#include <fcntl.h>

#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <tuple>
#include <iterator>
#include <ctime>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include "report/analyze/job.h"
#include "report/analyze/job_fold.h"
#include "report/cli/output_formats.h"
#include "report/render/ci_formats.h"
#include "report/gate/compiled_rules.h"
#include "report/cli/crash_reports.h"
#include "report/cli/escape_watch.h"
#include "report/cli/process_ends.h"
#include "report/gate/gate_options.h"
#include "report/model/json_io.h"
#include "report/cli/load.h"
#include "report/cli/sanitizer_runtimes.h"
#include "common/options.h"

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
  // The verdict of each rank of a job (processes whose launcher named a rank).
  // Each rank's worst verdict over its processes (a rank's children inherit
  // its rank): 0 passed, 1 failed, 2 could not be evaluated.
  std::map<int, int> rank_verdicts;
  // Processes that used CUDA and wrote no report.
  struct Unreported {
    int pid = 0;
    std::string command;
    std::string named() const { return std::to_string(pid) + (command.empty() ? "" : " (" + command + ")"); }
  };
  std::vector<Unreported> unreported;
  // Processes whose report could not be written (a full disk, no descriptor
  // left): their pid and why, and where the report should have gone.
  struct Unwritten {
    int pid = 0;
    std::string problem, path;
    int64_t told_ns = 0;  // when it told the launcher (its .gate file's time), just after the failed write
  };
  std::vector<Unwritten> unwritten;
  // What the gate could not judge and has no report of, for JUnit and SARIF.
  std::vector<render::UnjudgedProcess> unjudged;
};

// A rank's verdict is the worst over its processes.
void note_rank_verdict(TreeOutcome& out, int rank, int verdict) {
  auto [it, fresh] = out.rank_verdicts.emplace(rank, verdict);
  if (!fresh) it->second = std::max(it->second, verdict);
}

// Whether the dynamic loader finds the CUDA driver, as the program's would
// (checked after the run, in the launcher only).
bool cuda_driver_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver) dlclose(driver);
  return driver != nullptr;
}

// A launcher file's lines, key=value, in order.
std::vector<std::pair<std::string, std::string>> fields_of(const std::filesystem::path& path) {
  std::vector<std::pair<std::string, std::string>> fields;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (const size_t eq = line.find('='); eq != std::string::npos)
      fields.emplace_back(line.substr(0, eq), line.substr(eq + 1));
  return fields;
}

// Every process of the tree that used CUDA left <pid>.live in the gate
// directory when it began to, and <pid>.gate with its report
// (interpose/runtime/launcher_files.h).
TreeOutcome collect(const std::string& dir) {
  TreeOutcome out;
  std::map<std::string, std::filesystem::path> unreported;  // pid -> its .live
  std::map<std::string, std::filesystem::path> unseen;      // pid -> its .unseen
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".live") unreported.emplace(entry.path().stem().string(), entry.path());
    if (entry.path().extension() == ".unseen") unseen.emplace(entry.path().stem().string(), entry.path());
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".gate") continue;
    unreported.erase(entry.path().stem().string());
    unseen.erase(entry.path().stem().string());  // its report said so
    std::string status;
    int rank = -1;
    TreeOutcome::Unwritten unwritten;
    bool reported = false;
    for (const auto& [key, value] : fields_of(entry.path())) {
      if (key == "rank") rank = std::atoi(value.c_str());
      if (key == "report") out.reports.push_back(value), reported = true;
      if (key == "problem") unwritten.problem = value;
      if (key == "unwritten") unwritten.path = value;
      if (key == "status" || key == "raw") {
        // raw: a crash capture, built into its report now that the process is gone.
        status = key == "raw" ? finish_capture(value, &rank) : value;
        out.failed += status == "fail";
        out.errors += status == "error";
        if (key == "raw") out.reports.push_back(value), reported = true;
      }
    }
    if (status == "error" && !reported) {
      unwritten.pid = std::atoi(entry.path().stem().c_str());
      if (struct stat st{}; stat(entry.path().c_str(), &st) == 0)
        unwritten.told_ns = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
      if (unwritten.problem.empty()) unwritten.problem = "its report could not be written";
      out.unwritten.push_back(unwritten);
    }
    if (rank >= 0) note_rank_verdict(out, rank, status == "error" ? 2 : status == "fail" ? 1 : 0);
  }
  // A library of the process knew its CUDA calls went past cudaleak, and no
  // verdict came: never green.
  for (const auto& [pid, path] : unseen) {
    if (unreported.count(pid)) continue;  // told below, as a process without its report
    std::ifstream in(path);
    std::string why;
    std::getline(in, why);
    out.unwritten.push_back({std::atoi(pid.c_str()), why, ""});
    ++out.errors;
  }
  // Used CUDA, wrote nothing: killed by SIGKILL, or by a signal it could not report on.
  for (const auto& [pid, path] : unreported) {
    std::string command;
    int rank = -1;
    for (const auto& [key, value] : fields_of(path)) {
      if (key == "command") command = value;
      if (key == "rank") rank = std::atoi(value.c_str());
    }
    out.unreported.push_back({std::atoi(pid.c_str()), command});
    ++out.errors;
    if (rank >= 0) note_rank_verdict(out, rank, 2);
  }
  std::sort(out.reports.begin(), out.reports.end());
  return out;
}

// One line for a job's gate: which ranks failed, which could not be judged,
// which passed; each rank's own line said why.
void tell_job_verdict(const TreeOutcome& tree, int status) {
  const size_t ranks = tree.rank_verdicts.size();
  if (ranks == 0) return;
  std::vector<int> by_verdict[3];
  for (const auto& [rank, verdict] : tree.rank_verdicts) by_verdict[verdict].push_back(rank);
  auto part = [](const std::vector<int>& list, const char* what) {
    return list.empty() ? std::string()
                        : (list.size() == 1 ? "rank " : "ranks ") + report::rank_list(list) + " " + what;
  };
  std::string line;
  for (const std::string& piece :
       {part(by_verdict[1], "failed"), part(by_verdict[2], "could not be evaluated"), part(by_verdict[0], "passed")})
    if (!piece.empty()) line += (line.empty() ? "" : ", ") + piece;
  spdlog::warn("cudaleak: leak gate over the job's {} ranks: {}{}", ranks, line,
               status ? "; exiting with status " + std::to_string(status) : std::string());
}

void write_ci_files(const RunSettings& s, const TreeOutcome& tree, int exit_code) {
  const bool any_file = std::ranges::any_of(s.ci_files, [](const auto& file) { return !file.second.empty(); });
  if (!any_file && s.annotations.empty()) return;
  std::vector<report::Report> reports;
  for (const auto& path : tree.reports)
    if (auto r = load_report(path)) reports.push_back(std::move(*r));  // a bad one is named, the rest still count
  // In the order the processes started: a program run twice is numbered in run order.
  std::stable_sort(reports.begin(), reports.end(), [](const report::Report& a, const report::Report& b) {
    return std::tie(a.process.start_unix_ns, a.process.pid) < std::tie(b.process.start_unix_ns, b.process.pid);
  });
  const render::Invocation invocation{s.command, exit_code};
  const ProcessReports input{reports, s.source_root, tree.unjudged, &invocation};
  for (const OutputFormat* format : formats_of(Command::Run, ChosenBy::Format))
    if (auto file = s.ci_files.find(format->name); file != s.ci_files.end() && !file->second.empty())
      write_output(file->second, format->render_processes(input));
  if (const OutputFormat* annotations = find_output_format(s.annotations))  // the option's check found it
    write_output(s.annotations_path.empty() ? std::string(annotations->run_output) : s.annotations_path,
                 annotations->render_processes(input));
}

// The program's pid, for the forwarding handler.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_forwarded = 0;  // the last signal passed on to it

// Every signal the launcher can catch, but for those that report its own
// faults (SEGV, BUS, FPE, ILL, ABRT, TRAP, SYS) and job control (TSTP, TTIN
// and TTOU stop the launcher as they stop the program; CONT, CHLD): a signal
// that would end the launcher (USR1, ALRM, PIPE, ...) must not leave the
// program running unwatched, and one the program waits for must reach it.
std::vector<int> forwarded_signals() {
  std::vector<int> signals = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,   SIGALRM,  SIGPIPE, SIGVTALRM,
                              SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,   SIGPWR,  SIGSTKFLT, SIGWINCH, SIGURG};
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) signals.push_back(sig);
  return signals;
}

// A signal sent to the launcher (kill, a CI runner's timeout) goes on to the
// program, which reports and ends (or, for the snapshot signal, writes a
// snapshot and goes on); the launcher then finishes its work as usual. A
// signal from the terminal (si_code SI_KERNEL) already reached the whole
// foreground process group, the program included: not sent twice.
void forward(int sig, siginfo_t* info, void*) {
  if (g_child > 0 && (!info || info->si_code != SI_KERNEL)) {
    g_forwarded = sig;
    kill(pid_t(g_child), sig);
  }
}

// Every living descendant of this process (read from /proc): a shell's
// children, background jobs, orphans re-parented to the launcher.
std::vector<pid_t> descendants() {
  std::map<pid_t, std::vector<pid_t>> children;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "stat");
    std::string stat;
    std::getline(in, stat);
    const size_t close = stat.rfind(')');  // the command may hold spaces and parentheses
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    char state = 0;
    pid_t parent = 0;
    if (rest >> state >> parent) children[parent].push_back(pid_t(std::atoi(name.c_str())));
  }
  std::vector<pid_t> out, todo = {getpid()};
  while (!todo.empty()) {
    const pid_t next = todo.back();
    todo.pop_back();
    for (pid_t child : children[next]) out.push_back(child), todo.push_back(child);
  }
  return out;
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

// The run's gate files, read once here before the program starts: the
// suppression rules, mapped by every process (compiled_rules.h), and the
// baseline. A file that cannot be read or parsed stops the run at once, as in
// LeakSanitizer and Valgrind, instead of failing every process at its end.
struct GateFiles {
  gate::CompiledRules rules;
  std::vector<std::string> problems;  // one line each, naming the file
};

GateFiles read_gate_files(const Options& effective) {
  GateFiles files;
  files.rules = gate::compile_rules(effective.default_suppressions, effective.suppressions);
  files.problems = files.rules.problems;
  if (!effective.baseline.empty()) {
    try {
      gate::load_baseline(effective.baseline);
    } catch (const std::exception& e) {
      files.problems.push_back(e.what());
    }
  }
  return files;
}

void publish_suppressions(const Options& effective, const gate::CompiledRules& compiled, const std::string& gate_dir) {
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

// The run's gate directory, under TMPDIR as every temporary file; a TMPDIR
// that is missing, no directory or not writable is named, and /tmp used
// instead, so that a stale variable never stops the run. "" (after one line
// saying why) when /tmp fails too.
std::string make_gate_directory() {
  const char* tmp = std::getenv("TMPDIR");
  std::string gate = std::string(tmp && *tmp ? tmp : "/tmp") + "/cudaleak-gate.XXXXXX";
  if (mkdtemp(gate.data())) return gate;
  const int err = errno;
  if (tmp && *tmp && std::strcmp(tmp, "/tmp") != 0) {
    struct stat st {};
    const std::string what = stat(tmp, &st) != 0 ? "does not exist (" + std::string(std::strerror(errno)) + ")"
                             : !S_ISDIR(st.st_mode)
                                 ? std::string("is not a directory")
                                 : "cannot hold a new directory (" + std::string(std::strerror(err)) + ")";
    spdlog::warn(
        "cudaleak: TMPDIR={} {}; the run's temporary files go to /tmp instead (set TMPDIR to a writable "
        "directory, or unset it)",
        tmp, what);
    gate = "/tmp/cudaleak-gate.XXXXXX";
    if (mkdtemp(gate.data())) return gate;
  }
  spdlog::error("cudaleak: cannot create the run's temporary directory in {}: {}; set TMPDIR to a writable directory",
                tmp && *tmp ? tmp : "/tmp", std::strerror(errno));
  return "";
}

// A report this run's process could not write: the file at its path is a
// previous run's (no process of this run wrote that name: claims give each
// its own), and must not be taken for this one's. One written after the
// process said it failed is another run's, written meanwhile, and is kept.
// Not the run's start: a previous run may have ended within the 20 ms it
// is set back by.
void remove_stale_report(const std::string& path, int64_t told_ns) {
  struct stat st {};
  if (path.empty() || lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const int64_t modified = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  if (told_ns == 0 || modified >= told_ns) return;
  if (unlink(path.c_str()) == 0)
    spdlog::warn("cudaleak: removed {}, a previous run's report, so that it is not taken for this run's", path);
  else
    spdlog::warn("cudaleak: {} is a previous run's report, not this run's (it could not be removed: {})", path,
                 std::strerror(errno));
}

// One line for each process the gate could not judge that left no report,
// and the same for JUnit and SARIF.
void tell_unjudged(const RunSettings& s, TreeOutcome& tree, const ProcessEnds& ends,
                   const std::vector<EscapedProcess>& escaped) {
  const std::string gate_note = s.error_exitcode > 0 ? "; the leak gate cannot pass it (gate_error_exitcode " +
                                                           std::to_string(s.gate_error_exitcode) + ")"
                                                     : std::string();
  for (const auto& process : tree.unreported) {
    const std::string why = "used CUDA and ended without its report: " + ends.without_report(process.pid);
    spdlog::warn("cudaleak: process {} {}; what it leaked is unknown{}", process.named(), why, gate_note);
    tree.unjudged.push_back({process.named(), why});
  }
  for (const auto& process : tree.unwritten) {
    remove_stale_report(process.path, process.told_ns);
    // The process said why in its own line; JUnit and SARIF say it too.
    tree.unjudged.push_back({std::to_string(process.pid), process.problem});
  }
  for (const auto& process : escaped) {
    const std::string name = std::to_string(process.pid) +
                             (process.command.empty() ? "" : " (" + process.command + ")");
    const std::string why = "used the GPU without cudaleak: " + process.why;
    spdlog::warn("cudaleak: process {} {}; what it leaked is not seen{}", name, why, gate_note);
    tree.unjudged.push_back({name, why});
    ++tree.errors;
  }
}

}  // namespace

std::string parse_memory_size(const std::string& text, uint64_t& bytes) {
  size_t digits = text.find_first_not_of("0123456789.");
  std::string number = text.substr(0, digits), unit = digits == std::string::npos ? "" : text.substr(digits);
  const std::pair<const char*, int> units[] = {{"", 0},   {"B", 0},    {"K", 10}, {"KiB", 10}, {"k", 10},
                                               {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
  auto known = std::find_if(std::begin(units), std::end(units), [&](const auto& u) { return unit == u.first; });
  bool decimal = !number.empty() && number.front() != '.' && number.back() != '.' &&
                 std::count(number.begin(), number.end(), '.') <= 1;
  if (!decimal || known == std::end(units))
    return "--simulated-gpu-memory: expected a size such as 512MiB or 2GiB (units B, K, KiB, M, MiB, G, GiB), got '" +
           text + "'";
  long double value = std::strtold(number.c_str(), nullptr) * std::ldexp(1.0L, known->second);
  if (value >= 0x1p63L) return "--simulated-gpu-memory: '" + text + "' is out of range";
  if (value < 1) return "--simulated-gpu-memory: a device needs at least 1 byte, got '" + text + "'";
  if (value != std::floor(value)) return "--simulated-gpu-memory: '" + text + "' is not a whole number of bytes";
  bytes = uint64_t(value);
  return "";
}

int run_program(const RunSettings& s) {
  std::string opts;
  for (const auto& [key, value] : s.options) opts += (opts.empty() ? "" : ":") + key + "=" + escape_option_value(value);
  // The simulated GPU brings its own Sanitizer API, which device_heap uses
  // unless told of another.
  const std::string simulated_sanitizer = s.simcuda_dir + "/libsanitizer-public.so";
  if (s.simulated_gpu &&
      std::none_of(s.options.begin(), s.options.end(),
                   [](const auto& o) { return o.first == "device_heap_sanitizer"; }) &&
      !std::strstr(std::getenv("CUDALEAK_OPTIONS") ? std::getenv("CUDALEAK_OPTIONS") : "", "device_heap_sanitizer=") &&
      access(simulated_sanitizer.c_str(), R_OK) == 0)
    opts += (opts.empty() ? "" : ":") + std::string("device_heap_sanitizer=") +
            escape_option_value(simulated_sanitizer);
  if (const char* existing = std::getenv("CUDALEAK_OPTIONS"); existing && *existing)
    opts = opts.empty() ? existing : std::string(existing) + ":" + opts;  // ours come last and win
  setenv("CUDALEAK_OPTIONS", opts.c_str(), 1);
  setenv("LD_PRELOAD", preload_after_sanitizers(std::getenv("LD_PRELOAD"), s.library_path).c_str(), 1);
  setenv("ASAN_OPTIONS", asan_options_for_preload(std::getenv("ASAN_OPTIONS")).c_str(), 1);
  if (!s.python_dir.empty() && access(s.python_dir.c_str(), R_OK) == 0) {
    setenv("PYTHONPATH", prepend(std::getenv("PYTHONPATH"), s.python_dir, ':').c_str(), 1);
    setenv("CUDALEAK_PYTORCH_STACKS", s.pytorch_stacks ? "1" : "0", 1);
    setenv("CUDALEAK_PYTORCH_STACKS_AT", std::to_string(s.pytorch_stacks_at).c_str(), 1);
  }
  if (s.simulated_gpu) {
    setenv("LD_LIBRARY_PATH", prepend(std::getenv("LD_LIBRARY_PATH"), s.simcuda_dir, ':').c_str(), 1);
    uint64_t bytes = 0;  // in bytes: the simulated driver reads no other spelling the same way
    if (!s.simulated_memory.empty() && parse_memory_size(s.simulated_memory, bytes).empty())
      setenv("CUDALEAK_SIM_MEMORY", std::to_string(bytes).c_str(), 1);
  }

  Options effective;  // as every process will read it; main() refused bad values
  parse_options(opts, effective);
  GateFiles gate_files = read_gate_files(effective);
  for (const std::string& problem : gate_files.problems) spdlog::error("cudaleak: {}", problem);
  if (!gate_files.problems.empty()) return 2;

  // Each process of the tree reports its gate verdict here.
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  setenv("CUDALEAK_RUN_START", std::to_string(int64_t(now.tv_sec) * 1000000000 + now.tv_nsec - 20000000).c_str(), 1);
  std::string gate_template = make_gate_directory();
  if (gate_template.empty()) return s.gate_error_exitcode;
  char* gate_dir = gate_template.data();
  setenv("CUDALEAK_GATE_DIR", gate_dir, 1);
  publish_suppressions(effective, gate_files.rules, gate_dir);
  // Orphaned descendants are re-parented to us, so the whole tree can be awaited.
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  // While the program runs, the launcher only waits and passes signals on
  // (forward()); it outlives the program to finish the reports.
  const std::vector<int> signals = forwarded_signals();
  std::vector<struct sigaction> old(signals.size());
  struct sigaction forwarding {};
  forwarding.sa_sigaction = forward;
  forwarding.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forwarding.sa_mask);
  for (size_t i = 0; i < signals.size(); ++i) sigaction(signals[i], &forwarding, &old[i]);
  auto restore_signals = [&] {
    for (size_t i = 0; i < signals.size(); ++i) sigaction(signals[i], &old[i], nullptr);
  };

  // Held from fork until g_child is set: a signal sent in between (the program
  // may already be running) is delivered then and forwarded, never dropped.
  sigset_t forwarded, old_mask;
  sigemptyset(&forwarded);
  for (int sig : signals) sigaddset(&forwarded, sig);
  sigprocmask(SIG_BLOCK, &forwarded, &old_mask);
  const pid_t launcher = getpid();
  if (const std::string dropped = preload_dropped_from(s.command[0]); !dropped.empty())
    spdlog::warn("cudaleak: {}", dropped);
  EscapeWatch escapes(s.library_path);
  // The child reports a failed exec through this pipe (closed by a successful
  // one), so that a program that could not run gets no second line about CUDA.
  int exec_pipe[2] = {-1, -1};
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) exec_pipe[0] = exec_pipe[1] = -1;
  pid_t pid = fork();
  if (pid < 0) {
    spdlog::error("cudaleak: cannot start {}: {}", s.command[0], std::strerror(errno));
    for (int fd : exec_pipe)
      if (fd >= 0) close(fd);
    restore_signals();
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    std::filesystem::remove_all(gate_dir);
    return 127;
  }
  if (pid == 0) {
    restore_signals();
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);  // the program starts with the mask it was given
    // SIGKILL cannot be passed on: should the launcher die of it, the program
    // gets SIGTERM (and writes its termination report) instead of running on
    // with no one to gate it.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != launcher) raise(SIGTERM);
    std::vector<char*> argv;
    for (const auto& a : s.command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (exec_pipe[0] >= 0) close(exec_pipe[0]);
    execvp(argv[0], argv.data());
    int err = errno;
    if (exec_pipe[1] >= 0) (void)!write(exec_pipe[1], &err, sizeof err);
    std::fprintf(stderr, "cudaleak: cannot run %s: %s\n", argv[0], std::strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  g_child = pid;
  if (exec_pipe[1] >= 0) close(exec_pipe[1]);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  // trace_children=false drops the preload from children on purpose: no escape.
  if (effective.trace_children) escapes.start();
  ProcessEnds ends;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      spdlog::error("cudaleak: waiting for {} failed: {}", s.command[0], std::strerror(errno));
      restore_signals();
      std::filesystem::remove_all(gate_dir);
      return 127;
    }
  }
  g_child = 0;  // reaped: its pid may be another process's from now on
  ends.record(pid, status);
  int exec_error = 0;
  bool exec_failed = false;
  if (exec_pipe[0] >= 0) {
    exec_failed = read(exec_pipe[0], &exec_error, sizeof exec_error) == ssize_t(sizeof exec_error);
    close(exec_pipe[0]);
  }
  // Signals reach the launcher as they would without forwarding again, so
  // that a CI timeout or Ctrl-C still ends it while orphans linger.
  restore_signals();
  // The program died of a signal passed on to it (a CI timeout's SIGTERM to
  // `cudaleak run -- make test`): the rest of its tree gets it too, as the
  // whole job would have ended without cudaleak, instead of the launcher
  // waiting for each orphan to finish on its own.
  if (WIFSIGNALED(status) && WTERMSIG(status) == g_forwarded)
    for (pid_t other : descendants()) kill(other, WTERMSIG(status));
  // Then the rest of the tree: background children and orphans of the program.
  for (int other;;) {
    const pid_t ended = waitpid(-1, &other, 0);
    if (ended > 0) ends.record(ended, other);
    else if (errno != EINTR) break;
  }
  const std::vector<EscapedProcess> escaped = escapes.stop();

  TreeOutcome tree = collect(gate_dir);
  tell_unjudged(s, tree, ends, escaped);
  // The status the launcher ends with, for SARIF's invocation.
  const int gate_verdict = s.error_exitcode > 0 ? (tree.errors   ? s.gate_error_exitcode
                                                   : tree.failed ? s.error_exitcode
                                                                 : 0)
                                                : 0;
  const int exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                        : gate_verdict      ? gate_verdict
                                            : WEXITSTATUS(status);
  write_ci_files(s, tree, exit_code);  // before the gate directory goes: reports sent to /dev/null left a copy there
  std::filesystem::remove_all(gate_dir);
  if (tree.reports.empty() && tree.unreported.empty() && escaped.empty() && !exec_failed && !s.simulated_gpu &&
      !cuda_driver_present())
    spdlog::warn(
        "cudaleak: no process of the run used CUDA, and this machine has no CUDA driver (libcuda.so.1 "
        "not found); to try cudaleak without a GPU: cudaleak run --simulated-gpu -- PROGRAM");
  if (WIFSIGNALED(status)) {
    die_like(WTERMSIG(status));
    return 128 + WTERMSIG(status);  // only if the signal did not end us
  }
  if (s.error_exitcode > 0) {
    // The main program already exited with its own verdict; children count too.
    const int verdict = tree.errors ? s.gate_error_exitcode : tree.failed ? s.error_exitcode : 0;
    tell_job_verdict(tree, verdict);
    if (!tree.unjudged.empty() && tree.rank_verdicts.empty())
      spdlog::warn(
          "cudaleak: the leak gate cannot be evaluated: {} of the run could not be judged (named above); "
          "exiting with status {} (gate_error_exitcode)",
          tree.unjudged.size() == 1 ? "1 process" : std::to_string(tree.unjudged.size()) + " processes", verdict);
    if (verdict) return verdict;
  }
  return WEXITSTATUS(status);
}

}  // namespace cudaleak::cli
