// The command line as users type it: errors, flags, paths.
#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <filesystem>

#include "harness.h"

using namespace e2e;

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
  // The program changes directory before it starts (as ctest runs each test in its own).
  Result res = run({"/bin/sh", "-c",
                    "cd '" + dir + "' && '" + cudaleak_tool() + "' run --simulated-gpu -o reports/r.%p.json -- " +
                        "/bin/sh -c 'cd / && exec " + sample("pinned_leak") + "'"});
  CHECK(res.exit_code == 0);
  auto files = files_in(dir + "/reports");
  REQUIRE(files.size() == 1);
  CHECK(load(files[0]).summary.by_kind.count("pinned") == 1);
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
  bool hint = res.err.find("no CUDA driver (libcuda.so.1 not found); to try cudaleak without a GPU: "
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
