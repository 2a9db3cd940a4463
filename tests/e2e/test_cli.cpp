// The command line as users type it: errors, flags, paths.
#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <unistd.h>
#include <filesystem>

#include "tests/e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

// `cudaleak run FLAGS -- PROGRAM` started in `dir`, the program changing to /
// first (as ctest runs each test in its own directory); `before` is a shell
// command the program's shell runs before that.
Result run_from(const std::string& dir, const std::string& flags, const std::string& program,
                const std::string& before = "true") {
  return run({"/bin/sh", "-c",
              "cd '" + dir + "' && '" + cudaleak_tool() + "' run --simulated-gpu " + flags + " -- /bin/sh -c '" +
                  before + "; cd / && exec " + program + "'"});
}

}  // namespace

TEST_CASE("cli: a mistyped option or command exits 2 with one line naming the nearest", "[e2e][cli]") {
  Result option = run({cudaleak_tool(), "run", "--outptu", "r.json", "--", sample("clean")});
  CHECK(option.exit_code == 2);
  CHECK(option.out.empty());
  CHECK(option.err.find("--outptu (did you mean --output?)") != std::string::npos);
  CHECK(std::count(option.err.begin(), option.err.end(), '\n') == 1);
  Result command = run({cudaleak_tool(), "reprot", "r.json"});
  CHECK(command.exit_code == 2);
  CHECK(command.err.find("did you mean 'report'?") != std::string::npos);
  Result kind = run({cudaleak_tool(), "report", "--kind", "devic", "r.json"});
  CHECK(kind.exit_code == 2);
  CHECK(kind.err.find("unknown kind 'devic' (did you mean device?)") != std::string::npos);
  Result value = run({cudaleak_tool(), "run", "--stack-depth", "x", "--", sample("clean")});
  CHECK(value.exit_code == 2);
  CHECK(run({cudaleak_tool(), "--help"}).exit_code == 0);
}

TEST_CASE("cli: a boolean flag alone is true, and given an empty value it is refused as --option key= is",
          "[e2e][cli]") {
  for (std::vector<std::string> flags : std::vector<std::vector<std::string>>{
           {"--crash-report", ""}, {"--crash-report="}, {"--verbose", ""}, {"--option", "crash_report="}}) {
    INFO(flags[0]);
    std::vector<std::string> argv{cudaleak_tool(), "run", "--simulated-gpu"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"--", sample("clean")});
    Result res = run(argv);
    CHECK(res.exit_code == 2);
    CHECK(res.out.empty());  // the program never ran
    CHECK(res.err.find("expected true/false (or 1/0), got ''") != std::string::npos);
    CHECK(std::count(res.err.begin(), res.err.end(), '\n') == 1);
  }
  auto dir = fresh_dir("cli_bare_flag");
  Result bare = run(
      {cudaleak_tool(), "run", "--simulated-gpu", "--verbose", "-o", dir + "/r.json", "--", sample("clean")});
  CHECK(bare.exit_code == 0);
  CHECK(bare.err.find("verbose=true") != std::string::npos);
  // An empty argument after the program's `--` is the program's.
  Result program_arg = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r2.json", "--", "/bin/sh", "-c",
                            "exit 0", "--crash-report", ""});
  CHECK(program_arg.exit_code == 0);
}

TEST_CASE("cli: -o - is refused: a report is a file and standard output is the program's", "[e2e][cli]") {
  Result dash = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", "-", "--", sample("clean")});
  CHECK(dash.exit_code == 2);
  CHECK(dash.out.empty());  // the program never ran
  CHECK(dash.err.find("cannot write the report to -: reports are files") != std::string::npos);
}

TEST_CASE("cli: --simulated-gpu-memory refuses a size it cannot read exactly", "[e2e][cli]") {
  for (std::string bad : {"12XB", "-1", "512mib", "0x10", "1e999", "1..5GiB", ""}) {
    INFO(bad);
    Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", bad, "--", sample("clean")});
    CHECK(res.exit_code == 2);
    CHECK(res.out.empty());
    CHECK(res.err.find("--simulated-gpu-memory: expected a size such as 512MiB or 2GiB") != std::string::npos);
    CHECK(res.err.find("got '" + bad + "'") != std::string::npos);
  }
  Result huge = run(
      {cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "99999999999GiB", "--", sample("clean")});
  CHECK(huge.exit_code == 2);
  CHECK(huge.err.find("'99999999999GiB' is out of range") != std::string::npos);
  for (const std::string none : {"0", "0GiB", "0.5"}) {  // no device, or half a byte
    INFO(none);
    Result res = run(
        {cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", none, "--", sample("clean")});
    CHECK(res.exit_code == 2);
    CHECK(res.out.empty());
  }
  // A fraction of a unit is read exactly: half a GiB is the simulated device's total.
  auto dir = fresh_dir("cli_sim_memory");
  Result half = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "0.5GiB", "-o",
                     dir + "/r.%p.%n.json", "--", program("oom_scenarios"), "single", "1024"});
  CHECK(half.err.find(" of 512.0 MiB)") != std::string::npos);
}

TEST_CASE("cli: a bool flag alone means true and takes =value", "[e2e][cli]") {
  auto dir = fresh_dir("cli_bool");
  Result alone = run({cudaleak_tool(), "run", "--simulated-gpu", "--gen-suppressions", "-o", dir + "/a.json", "--",
                      sample("pinned_leak")});
  CHECK(alone.exit_code == 0);
  // The leaks are in main: the rule names the API too, and is printed once for both groups.
  const std::string rule = "leak:main kind:pinned api:cudaHostAlloc\n";
  size_t at = alone.err.find(rule);
  CHECK(at != std::string::npos);
  CHECK(alone.err.find(rule, at + 1) == std::string::npos);
  Result valgrind_style = run({cudaleak_tool(), "run", "--simulated-gpu", "--gen-suppressions=all", "-o",
                               dir + "/v.json", "--", sample("pinned_leak")});
  CHECK(valgrind_style.exit_code == 0);
  CHECK(valgrind_style.err.find(rule) != std::string::npos);
  Result off = run({cudaleak_tool(), "run", "--simulated-gpu", "--print-summary=false", "-o", dir + "/b.json", "--",
                    sample("pinned_leak")});
  CHECK(off.exit_code == 0);
  CHECK(off.err.find("SUMMARY") == std::string::npos);
}

TEST_CASE("cli: a relative report path is the launcher's, its directory made, whatever directory the program runs in",
          "[e2e][cli]") {
  auto dir = fresh_dir("cli_relative");
  Result res = run_from(dir, "-o reports/r.%p.json", sample("pinned_leak"));
  CHECK(res.exit_code == 0);
  auto files = files_in(dir + "/reports");
  REQUIRE(files.size() == 1);
  CHECK(load(files[0]).summary.by_kind.count(Kind::Pinned) == 1);
}

TEST_CASE("cli: the default report path is the launcher's too, and the summary names where it is", "[e2e][cli]") {
  auto dir = fresh_dir("cli_default_path");
  Result res = run_from(dir, "", sample("pinned_leak"));
  CHECK(res.exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  CHECK(fs::path(files[0]).filename().string().starts_with("cudaleak."));
  // The program ran in /, so the summary gives the whole path.
  CHECK(res.err.find("Report: " + files[0]) != std::string::npos);
  // Run where it is written, the summary shows the short name.
  auto here = fresh_dir("cli_default_path_here");
  Result short_name = run(
      {"/bin/sh", "-c",
       "cd '" + here + "' && '" + cudaleak_tool() + "' run --simulated-gpu -- '" + sample("pinned_leak") + "'"});
  auto written = files_in(here);
  REQUIRE(written.size() == 1);
  CHECK(short_name.err.find("Report: " + fs::path(written[0]).filename().string()) != std::string::npos);
}

TEST_CASE("cli: a report path naming a directory is refused before the program runs", "[e2e][cli]") {
  auto dir = fresh_dir("cli_output_dir");
  fs::create_directories(dir + "/existing");
  for (const std::string& output : {dir + "/existing", dir + "/fresh/", dir + "/pid/%p/r.json"}) {
    INFO(output);
    Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", output, "--", "/bin/echo", "ran"});
    CHECK(res.exit_code == 2);
    CHECK(res.out.empty());  // the program never started
    CHECK(res.err.find("cannot write the report to ") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir + "/fresh"));
  CHECK_FALSE(fs::exists(dir + "/pid"));
}

TEST_CASE("cli: log_path stderr and stdout name the streams, not files", "[e2e][cli]") {
  auto dir = fresh_dir("cli_log_stream");
  for (const std::string stream : {"stderr", "stdout"}) {
    Result res = run_from(dir, "--log-path " + stream + " -o r.%p.json", sample("pinned_leak"));
    CHECK(res.exit_code == 0);
    CHECK((stream == "stderr" ? res.err : res.out).find("SUMMARY: cudaleak:") != std::string::npos);
  }
  for (const auto& file : files_in(dir)) CHECK(fs::path(file).filename().string().starts_with("r."));
}

TEST_CASE("cli: options lists defaults as they are written on the command line", "[e2e][cli]") {
  Result res = run({cudaleak_tool(), "options"});
  CHECK(res.exit_code == 0);
  CHECK(res.out.find("default cudaleak.%p.json") != std::string::npos);
  CHECK(res.out.find("default \"") == std::string::npos);
  CHECK(res.out.find("default {}") == std::string::npos);
}

TEST_CASE("cli: without a GPU and without --simulated-gpu the launcher says what is missing", "[e2e][cli]") {
  auto dir = fresh_dir("cli_no_driver");
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);  // what the launcher will find (CI: none)
  if (driver) dlclose(driver);
  Result res = run({cudaleak_tool(), "run", "-o", dir + "/r.json", "--", "/bin/true"});
  CHECK(res.exit_code == 0);
  bool hint = res.err.find(
                  "no CUDA driver (libcuda.so.1 not found); to try cudaleak without a GPU: "
                  "cudaleak run --simulated-gpu -- PROGRAM") != std::string::npos;
  CHECK(hint == (driver == nullptr));
  // With the simulated GPU there is a driver: no hint.
  Result sim = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/s.json", "--", "/bin/true"});
  CHECK(sim.err.find("no CUDA driver") == std::string::npos);
}

TEST_CASE("cli: report --gen-suppressions prints the rules of a report read later", "[e2e][cli]") {
  auto dir = fresh_dir("cli_report_rules");
  run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.json", "--", sample("exception_leak")});
  Result res = run({cudaleak_tool(), "report", "--gen-suppressions", dir + "/r.json"});
  CHECK(res.exit_code == 0);
  CHECK(res.out.find("\nleak:process_batch kind:device\n") != std::string::npos);
  CHECK(run({cudaleak_tool(), "report", dir + "/r.json"}).out.find("leak:process_batch") == std::string::npos);
}

TEST_CASE("cli: log_path sends cudaleak's text to PATH.PID of each process and leaves stderr to the program",
          "[e2e][cli]") {
  auto dir = fresh_dir("cli_log_path");
  // Relative, as a user types it: the launcher's directory, as for -o.
  Result res = run_from(dir, "--log-path logs/cudaleak.log -o r.%p.json", program("fork_child"), "mkdir -p logs");
  CHECK(res.exit_code == 0);
  CHECK(res.err.find("cudaleak") == std::string::npos);  // nothing of cudaleak's on the program's stderr
  CHECK(res.out.find("child exited 0") != std::string::npos);
  auto logs = files_in(dir + "/logs");
  REQUIRE(logs.size() == 2);  // the parent and its forked child, one file each
  int summaries = 0;
  for (const auto& log : logs) {
    std::string text = read_file(log);
    summaries += text.find("SUMMARY: cudaleak:") != std::string::npos;
    CHECK(text.find("\033[") == std::string::npos);  // a file gets no colour
  }
  CHECK(summaries == 2);
}

TEST_CASE("cli: colour in text summaries only when asked or on a terminal and never with NO_COLOR", "[e2e][cli]") {
  auto dir = fresh_dir("cli_color");
  Result plain = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/p.json", "--", sample("pinned_leak")});
  CHECK(plain.err.find("SUMMARY: cudaleak:") != std::string::npos);
  CHECK(plain.err.find("\033[") == std::string::npos);  // not a terminal
  Result always = run({cudaleak_tool(), "run", "--simulated-gpu", "--color", "always", "-o", dir + "/a.json", "--",
                       sample("pinned_leak")});
  CHECK(always.err.find("\033[1;31mSUMMARY:\033[0m cudaleak:") != std::string::npos);
  Result bad = run({cudaleak_tool(), "run", "--color", "sometimes", "--", sample("clean")});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("color: 'sometimes' is not auto, always or never") != std::string::npos);
  // A terminal (script(1) gives the program one): coloured unless NO_COLOR is set.
  if (access("/usr/bin/script", X_OK) == 0) {
    std::string command = "'" + cudaleak_tool() + "' report '" + dir + "/p.json'";
    Result tty = run({"/usr/bin/script", "-qec", command, "/dev/null"});
    CHECK(tty.out.find("\033[1;31mdetected CUDA resource leaks") != std::string::npos);
    Result no_color = run({"/usr/bin/script", "-qec", command, "/dev/null"}, {"NO_COLOR=1"});
    CHECK(no_color.out.find("detected CUDA resource leaks") != std::string::npos);
    CHECK(no_color.out.find("\033[") == std::string::npos);
  }
  Result report = run({cudaleak_tool(), "report", "--color", "always", dir + "/p.json"});
  CHECK(report.out.find("\033[1m") != std::string::npos);
}

TEST_CASE("cli: a statically linked CUDA runtime under the simulated GPU is named and never passes the gate",
          "[e2e][cli][gate]") {
  // nvcc's default links cudart statically; it needs the real driver's
  // private tables, so every CUDA call fails unseen under --simulated-gpu.
  const std::string static_sample = std::string(CUDALEAK_BUILD_DIR) + "/samples/sample_loop_leak";
  auto dir = fresh_dir("static_runtime_sim");
  Result plain = run_sim(dir, {static_sample});
  CHECK(plain.err.find("cannot run this program's statically linked CUDA runtime") != std::string::npos);
  CHECK(plain.err.find("-cudart shared") != std::string::npos);
  CHECK(plain.err.find("no CUDA resources leaked") == std::string::npos);  // nothing seen is no proof
  CHECK(plain.err.find("no leak seen, but not every CUDA call was: its statically linked CUDA runtime") !=
        std::string::npos);
  Result gated = run_sim(dir, {static_sample}, {"--error-exitcode", "3"});
  CHECK(gated.exit_code == 125);  // unseen: gate_error_exitcode, never green
  CHECK(gated.err.find("no CUDA resources leaked") == std::string::npos);
  // The closing verdict says why the status is 125.
  CHECK(gated.err.find("the leak gate cannot be evaluated: its statically linked CUDA runtime cannot run on the "
                       "simulated GPU") != std::string::npos);
  CHECK(gated.err.find("exiting with status 125 (gate_error_exitcode)") != std::string::npos);
  // The same program with the shared runtime is traced and fails the gate on its leak.
  Result shared = run_sim(dir, {sample("loop_leak")}, {"--error-exitcode", "3"});
  CHECK(shared.exit_code == 3);
  CHECK(shared.err.find("statically linked CUDA runtime") == std::string::npos);
}

// The contract of the table of output formats (report/cli/output_formats.cpp),
// written out here so that a row lost or moved to another command fails.
TEST_CASE("cli: each command takes its output formats and refuses the others in one line naming its own",
          "[e2e][cli]") {
  // oom_leak.json: leaks located in the program, so annotations too have lines.
  const std::string report = std::string(CUDALEAK_SOURCE_DIR) + "/tests/fixtures/h100/oom_leak.json";
  const std::string other = std::string(CUDALEAK_SOURCE_DIR) + "/tests/fixtures/h100/cublas_no_destroy.json";
  struct Taken {
    std::vector<std::string> args;
    int status;
  };
  for (const Taken& taken : std::vector<Taken>{{{"report", report, "--format", "text"}, 0},
                                               {{"report", report, "--format", "json"}, 0},
                                               {{"report", report, "--format", "html"}, 0},
                                               {{"report", report, "--format", "junit"}, 0},
                                               {{"report", report, "--format", "sarif"}, 0},
                                               {{"report", report, "--annotations", "github"}, 0},
                                               {{"report", report, "--annotations", "gitlab"}, 0},
                                               {{"diff", report, other, "--format", "text"}, 1},
                                               {{"diff", report, other, "--format", "json"}, 1},
                                               {{"diff", report, other, "--format", "html"}, 1}}) {
    std::vector<std::string> argv{cudaleak_tool()};
    argv.insert(argv.end(), taken.args.begin(), taken.args.end());
    INFO(taken.args[0] << " " << taken.args[taken.args.size() - 2] << " " << taken.args.back());
    Result res = run(argv);
    CHECK(res.exit_code == taken.status);
    CHECK(!res.out.empty());
  }
  const std::string report_formats = "; cudaleak report --format takes text, json, html, junit or sarif; see ";
  const std::string diff_formats = "; cudaleak diff --format takes text, json or html; see ";
  const std::string annotations = " --annotations takes github or gitlab; see ";
  struct Refused {
    std::vector<std::string> args;
    std::string line;
  };
  for (const Refused& refused : std::vector<Refused>{
           {{"report", report, "--format", "xml"}, "cudaleak report: --format: 'xml' is not a format" + report_formats},
           {{"report", report, "--format", "github"},
            "github (GitHub workflow commands) is for cudaleak report --annotations github" + report_formats},
           {{"report", report, "--annotations", "sarif"},
            "sarif (SARIF 2.1.0) is for cudaleak report --format sarif; cudaleak report" + annotations},
           {{"diff", report, other, "--format", "junit"},
            "cudaleak diff: --format: junit (JUnit XML) is for cudaleak report --format junit" + diff_formats},
           {{"diff", report, other, "--format", "gitlab"},
            "gitlab (a GitLab code-quality report) is for cudaleak report --annotations gitlab" + diff_formats},
           {{"run", "--annotations", "junit", "--", "true"},
            "cudaleak run: --annotations: junit (JUnit XML) is for cudaleak run --junit FILE; cudaleak run" +
                annotations},
           {{"run", "--annotations", "html", "--", "true"},
            "html (an HTML page) is for cudaleak report --format html; cudaleak run" + annotations}}) {
    std::vector<std::string> argv{cudaleak_tool()};
    argv.insert(argv.end(), refused.args.begin(), refused.args.end());
    INFO(refused.line);
    Result res = run(argv);
    CHECK(res.exit_code == 2);
    CHECK(res.out.empty());
    CHECK(res.err.find(refused.line) != std::string::npos);
    CHECK(std::count(res.err.begin(), res.err.end(), '\n') == 1);
  }
}
