// The launcher's view of a run's processes when it gets no usable report:
// processes that escape the preload, reports that cannot be written, how a
// process really ended, a run in another PID namespace, a bad TMPDIR.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

std::string simcuda_dir() { return build_dir() + "/lib/cudaleak/simcuda"; }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("launcher: a process that drops the preload and uses the GPU is not seen, never green",
          "[e2e][launcher][gate]") {
  auto dir = fresh_dir("escape_env_u");
  // As bazel, sudo and some test harnesses do: the program runs without LD_PRELOAD.
  Result dropped = run_sim(dir, {"env", "-u", "LD_PRELOAD", program("launcher_edges"), "linger", "500"},
                           {"--error-exitcode", "9", "--junit", dir + "/j.xml", "--sarif", dir + "/s.sarif"});
  CHECK(dropped.exit_code == 125);
  CHECK(has(dropped.err, "used the GPU without cudaleak: its environment has no LD_PRELOAD"));
  CHECK(has(dropped.err, "launcher_edges linger 500"));                      // its command line
  CHECK(has(dropped.err, "exiting with status 125 (gate_error_exitcode)"));  // the closing verdict
  CHECK(has(read_file(dir + "/j.xml"), "errors=\"1\""));
  CHECK(has(read_file(dir + "/s.sarif"), "\"executionSuccessful\": false"));
  // env -i drops the whole environment; the program is given just its libraries.
  Result cleared = run_sim(fresh_dir("escape_env_i"),
                           {"env", "-i", "LD_LIBRARY_PATH=" + simcuda_dir(), program("launcher_edges"), "linger",
                            "500"},
                           {"--error-exitcode", "9"});
  CHECK(cleared.exit_code == 125);
  CHECK(has(cleared.err, "used the GPU without cudaleak"));
  // No gate asked: the program's own status, with the same line.
  Result plain = run_sim(fresh_dir("escape_plain"),
                         {"env", "-u", "LD_PRELOAD", program("launcher_edges"), "linger", "500"});
  CHECK(plain.exit_code == 0);
  CHECK(has(plain.err, "used the GPU without cudaleak"));
  // --trace-children false leaves children without the preload on purpose: no escape either.
  Result untraced = run_sim(fresh_dir("escape_untraced"), {"/bin/sh", "-c", program("launcher_edges") + " linger 300"},
                            {"--error-exitcode", "9", "--trace-children", "false"});
  CHECK(untraced.exit_code == 0);
  CHECK(!has(untraced.err, "without cudaleak"));
  // A command that drops the preload and uses no GPU is no escape.
  Result harmless = run_sim(fresh_dir("escape_harmless"), {"env", "-u", "LD_PRELOAD", "sleep", "0.2"},
                            {"--error-exitcode", "9"});
  CHECK(harmless.exit_code == 0);
  CHECK(harmless.err.empty());
}

TEST_CASE("launcher: a set-uid program is named before it runs", "[e2e][launcher]") {
  if (geteuid() != 0) {
    WARN("skipped: needs root to give a copy of a program another owner (CI runs as root)");
    return;
  }
  auto dir = fresh_dir("escape_setuid");
  const std::string copy = dir + "/setuid_edges";
  fs::copy_file(program("launcher_edges"), copy);
  REQUIRE(chown(copy.c_str(), 65534, 65534) == 0);
  REQUIRE(chmod(copy.c_str(), 04755) == 0);
  Result res = run_sim(dir, {copy, "linger", "0"}, {"--error-exitcode", "9"});
  CHECK(has(res.err, copy + " is set-uid (owner uid 65534): the loader will drop cudaleak's preload"));
  CHECK(res.exit_code != 0);  // it cannot run the simulated GPU's libraries either: never green
}

TEST_CASE("launcher: a report that cannot be written fails JUnit and SARIF, and the previous one is not kept",
          "[e2e][launcher][gate]") {
  auto dir = fresh_dir("unwritable_report");
  const std::string report = dir + "/r.json";
  Result first = run_sim(dir, {program("launcher_edges"), "linger", "0"}, {"-o", report});
  REQUIRE(fs::exists(report));  // the previous run's
  // A file size limit stands for a full disk: the report's write fails (EFBIG, SIGXFSZ ignored).
  // The program's stderr goes elsewhere: the limit holds for the test's output file too.
  Result full = run_sim(
      dir, {"/bin/sh", "-c", "trap '' XFSZ; ulimit -f 1; exec " + program("launcher_edges") + " linger 0 2>/dev/null"},
      {"-o", report, "--error-exitcode", "9", "--junit", dir + "/j.xml", "--sarif", dir + "/s.sarif"});
  CHECK(full.exit_code == 125);
  CHECK(!fs::exists(report));
  CHECK(has(full.err, "removed " + report + ", a previous run's report"));
  const std::string xml = read_file(dir + "/j.xml");
  CHECK(has(xml, "tests=\"1\""));
  CHECK(has(xml, "errors=\"1\""));
  CHECK(has(xml, "<error message=\"its report could not be written to " + report));
  const std::string sarif = read_file(dir + "/s.sarif");
  CHECK(has(sarif, "\"executionSuccessful\": false"));
  CHECK(has(sarif, "\"toolExecutionNotifications\""));
  CHECK(has(sarif, "its report could not be written"));
  // A clean run says its invocation succeeded.
  Result clean = run_sim(dir, {sample("clean")}, {"--sarif", dir + "/clean.sarif"});
  CHECK(has(read_file(dir + "/clean.sarif"), "\"executionSuccessful\": true"));
}

TEST_CASE("launcher: an unreported process is told by the status it really ended with", "[e2e][launcher][lifecycle]") {
  auto dir = fresh_dir("quick_exit_status");
  Result plain = run_sim(dir, {program("launcher_edges"), "quick-exit", "127"});
  CHECK(plain.exit_code == 127);
  CHECK(has(plain.err, "ended without its report: exited with status 127 before writing its report"));
  CHECK(!has(plain.err, "SIGKILL"));
  Result gated = run_sim(dir, {program("launcher_edges"), "quick-exit", "4"}, {"--error-exitcode", "9"});
  CHECK(gated.exit_code == 125);
  CHECK(has(gated.err, "exited with status 4 before writing its report"));
  CHECK(has(gated.err, "exiting with status 125 (gate_error_exitcode)"));
}

TEST_CASE("launcher: a process with few descriptors, or none left, still writes its report", "[e2e][launcher][gate]") {
  // Root may raise the hard limit for the report; others have the soft one raised up to it.
  const std::string limit = geteuid() == 0 ? "ulimit -n 10" : "ulimit -Sn 10";
  for (const std::string& how : {limit + "; exec " + program("launcher_edges") + " linger 0",
                                 "exec " + program("launcher_edges") + " no-descriptors"}) {
    INFO(how);
    auto dir = fresh_dir("few_descriptors");
    Result res = run_sim(dir, {"/bin/sh", "-c", how}, {"--error-exitcode", "9"});
    CHECK(res.exit_code == 9);  // the leak fails the gate: seen, not lost
    CHECK(!has(res.err, "Too many open files"));
    REQUIRE(files_in(dir).size() == 1);
    CHECK(load(files_in(dir)[0]).summary.leaked_bytes == 1 << 20);
  }
}

TEST_CASE("launcher: runs in two PID namespaces writing one %p name keep both reports", "[e2e][launcher]") {
  if (system("unshare --pid --fork true >/dev/null 2>&1") != 0) {
    WARN("skipped: unshare --pid is not permitted here (CI runs as root)");
    return;
  }
  auto dir = fresh_dir("pid_namespaces");
  // In each namespace the launcher is pid 1 and the program pid 2: both ask for r.2.json.
  std::string one = "unshare --pid --fork '" + cudaleak_tool() + "' run --simulated-gpu -o '" + dir +
                    "/r.%p.json' -- '" + program("launcher_edges") + "' linger 200";
  Result both = run({"/bin/sh", "-c", one + " & " + one + " & " + one + " & wait"});
  const auto files = files_in(dir);
  CHECK(files.size() == 3);
  CHECK(std::count(files.begin(), files.end(), dir + "/r.2.json") == 1);
  for (const auto& f : files) {
    const auto report = load(f);
    CHECK(report.summary.leaked_bytes == 1 << 20);
    // /proc is the parent namespace's: the scan still tells the reporting
    // thread (itself) and cudaleak's threads from the program's one thread.
    CHECK(report.reachability.threads == 1);
  }
}

TEST_CASE("launcher: a death test's child that aborts on purpose is reported but not gated", "[e2e][launcher][gate]") {
  auto dir = fresh_dir("death_test");
  Result res = run_sim(dir, {program("launcher_edges"), "abort-child"}, {"--error-exitcode", "9"});
  CHECK(res.out == "child died of signal 6\n");
  CHECK(res.exit_code == 0);
  CHECK(has(res.err, "ended by abort (SIGABRT): its report is written, and the leak gate does not count its leaks"));
  REQUIRE(files_in(dir).size() == 1);
  const auto r = load(files_in(dir)[0]);
  CHECK(r.summary.leaked_bytes == 1 << 20);  // reported all the same
  CHECK(!r.gate.failed);
}

TEST_CASE("launcher: a TMPDIR that is missing or a file is named, and the run goes on", "[e2e][launcher][cli]") {
  auto dir = fresh_dir("bad_tmpdir");
  std::ofstream(dir + "/file") << "x";
  for (const auto& [tmpdir, what] : {std::pair<std::string, std::string>{dir + "/missing", "does not exist"},
                                     {dir + "/file", "is not a directory"}}) {
    INFO(tmpdir);
    Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "9", "-o", dir + "/r.%p.json",
                      "--", program("launcher_edges"), "linger", "0"},
                     {"TMPDIR=" + tmpdir});
    CHECK(res.exit_code == 9);  // the gate ran, on the leak
    CHECK(has(res.err, "cudaleak: TMPDIR=" + tmpdir + " " + what));
    CHECK(count_of(res.err, "TMPDIR=") == 1);  // one line, and no other message about it
  }
}
