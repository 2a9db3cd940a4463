// Test binaries of the frameworks people use, run under cudaleak: each leaking
// test fails by name, the clean ones pass, and the run's report is usable.
#include <catch2/catch.hpp>

#include <fstream>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

std::string written(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

#ifdef CUDALEAK_PYTEST
namespace {

Result run_pytest(const std::string& dir, const std::vector<std::string>& flags, const std::string& python,
                  const std::vector<std::string>& plugin, const std::string& tests = "test_cuda_ctypes.py",
                  const std::vector<std::string>& pytest_args = {}) {
  std::string src = CUDALEAK_SOURCE_DIR;
  std::vector<std::string> argv = {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.%p.json"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (std::string a : {std::string("--"), python, std::string("-m"), std::string("pytest"), std::string("-q")})
    argv.push_back(a);
  argv.insert(argv.end(), plugin.begin(), plugin.end());
  argv.push_back("-p");
  argv.push_back("no:cacheprovider");
  argv.insert(argv.end(), pytest_args.begin(), pytest_args.end());
  argv.push_back(src + "/tests/e2e/frameworks/" + tests);
  return run(argv, {"PYTHONPATH=" + src + "/interpose/python"});
}

// Whether pytest's short summary (-rA) has `word` for a test of
// test_cuda_budgets.py; its path is relative to where pytest runs.
bool summary_says(const std::string& out, const std::string& word, const std::string& test) {
  const std::string end = "test_cuda_budgets.py::" + test;
  for (size_t at = 0; at < out.size();) {
    size_t eol = out.find('\n', at);
    if (eol == std::string::npos) eol = out.size();
    const std::string line = out.substr(at, eol - at);
    at = eol + 1;
    if (line.rfind(word + " ", 0) == 0 && line.size() >= end.size() &&
        line.compare(line.size() - end.size(), end.size(), end) == 0)
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("pytest: the plugin fails exactly the leaking test with its Python line and the report names it",
          "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest");
  Result res = run_pytest(dir, {}, CUDALEAK_PYTEST, {"-p", "pytest_cudaleak"});
  CHECK(res.exit_code == 1);
  CHECK(has(res.out, "FAILED"));
  CHECK(has(res.out, "test_keeps_a_buffer"));
  CHECK(has(res.out, "1 failed, 1 passed"));
  CHECK(has(res.out, "cudaleak: 1 CUDA resource (1048576 bytes) created by this test is still alive"));
  // The test's own line, not the allocation helper's (line 9), and its
  // stack stops at the test: pytest's and pluggy's frames are in the report.
  CHECK(has(res.out, "at " + std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/frameworks/test_cuda_ctypes.py:18\n"));
  CHECK(has(res.out, "1.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc"));
  CHECK(has(res.out, "[python] in test_keeps_a_buffer"));
  CHECK(has(res.out, "(the rest of the stack is in the report)"));
  CHECK_FALSE(has(res.out, "pluggy"));
  CHECK_FALSE(has(res.out, "_pytest"));
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  REQUIRE(find_group(r, "device"));
  CHECK(find_group(r, "device")->bytes == (1u << 20));
}

TEST_CASE("pytest: cuda_limit_memory and cuda_limit_leaks fail exactly the tests over their budgets",
          "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest_budgets");
  Result res = run_pytest(dir, {}, CUDALEAK_PYTEST, {"-p", "pytest_cudaleak"}, "test_cuda_budgets.py", {"-rA"});
  INFO(res.out);
  CHECK(res.exit_code == 1);
  const std::string file = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/frameworks/test_cuda_budgets.py";
  CHECK(summary_says(res.out, "PASSED", "test_peak_within_budget"));
  CHECK(summary_says(res.out, "FAILED", "test_peak_over_budget"));
  CHECK(summary_says(res.out, "PASSED", "test_peak_of_12_mib"));
  CHECK(summary_says(res.out, "PASSED", "test_leak_within_budget"));
  CHECK(summary_says(res.out, "FAILED", "test_leak_over_budget"));
  CHECK(summary_says(res.out, "PASSED", "test_uses_a_tidy_fixture"));
  // The peak: the budget, the peak, the test's own line and the sites that grew.
  CHECK(has(res.out,
            "cudaleak: test_peak_over_budget used 28.0 MiB of device memory at its peak on device 0, over "
            "its budget of 24.0 MiB (@pytest.mark.cuda_limit_memory)\nat " +
                file + ":25\n"));
  CHECK(has(res.out, "20.0 MiB of device memory more than at the start, created by cudaMalloc on device 0:"));
  CHECK(has(res.out, "[python] in test_peak_over_budget " + file + ":25"));
  CHECK(has(res.out,
            "cudaleak: 1 CUDA resource (2097152 bytes) created by this test is still alive, over its budget "
            "of 1.0 MiB (@pytest.mark.cuda_limit_leaks)\nat " +
                file + ":41\n"));
  // A function-scoped fixture that never frees fails its test at teardown,
  // at the fixture's line.
  CHECK(summary_says(res.out, "ERROR", "test_uses_a_leaky_fixture"));
  CHECK(has(res.out, "cudaleak: fixture 'leaky_buffer' (function scope, set up for " +
                         file.substr(file.find("tests/")) +
                         "::test_uses_a_leaky_fixture) left 1 CUDA resource (3145728 bytes) alive after its teardown\n"
                         "at " +
                         file + ":46\n"));
  CHECK_FALSE(has(res.out, "pluggy"));
  // The session's tables.
  CHECK(has(res.out, "cudaleak: the tests that used the most device memory (peak)"));
  CHECK(has(res.out, "    28.0 MiB  "));
  CHECK(has(res.out, "test_cuda_budgets.py::test_peak_over_budget\n"));
  CHECK(has(res.out, "cudaleak: the tests that leaked the most"));
  CHECK(has(res.out, "     3.0 MiB  "));
  CHECK(has(res.out, "2 failed, 5 passed, 1 error"));
}

TEST_CASE("pytest: the ini option cuda_limit_memory is every test's budget unless a marker says otherwise",
          "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest_budget_ini");
  Result res = run_pytest(dir, {}, CUDALEAK_PYTEST, {"-p", "pytest_cudaleak"}, "test_cuda_budgets.py",
                          {"-rA", "-o", "cuda_limit_memory=8 MB", "-k", "peak"});
  INFO(res.out);
  CHECK(summary_says(res.out, "PASSED", "test_peak_within_budget"));  // its marker: 24 MB
  CHECK(summary_says(res.out, "FAILED", "test_peak_of_12_mib"));
  CHECK(has(res.out, "over its budget of 8.0 MiB (cuda_limit_memory)"));
  Result flag = run_pytest(dir, {}, CUDALEAK_PYTEST, {"-p", "pytest_cudaleak"}, "test_cuda_budgets.py",
                           {"-rA", "--cuda-limit-memory", "16MiB", "-k", "peak"});
  INFO(flag.out);
  CHECK(summary_says(flag.out, "PASSED", "test_peak_of_12_mib"));
  CHECK(summary_says(flag.out, "FAILED", "test_peak_over_budget"));
}

TEST_CASE("pytest: --help lists the plugin's options and a wrong size is refused at once", "[e2e][frameworks]") {
  std::string src = CUDALEAK_SOURCE_DIR;
  Result help = run({CUDALEAK_PYTEST, "-m", "pytest", "-p", "pytest_cudaleak", "--help"},
                    {"PYTHONPATH=" + src + "/interpose/python"});
  CHECK(help.exit_code == 0);
  for (const char* words : {"cudaleak: CUDA leaks and device memory budgets", "--cuda-limit-memory=SIZE",
                            "--cuda-limit-leaks=SIZE", "--cudaleak-top=N", "cuda_limit_memory (string):"})
    CHECK(has(help.out, words));
  auto dir = fresh_dir("pytest_bad_size");
  Result bad = run_pytest(dir, {}, CUDALEAK_PYTEST, {"-p", "pytest_cudaleak"}, "test_cuda_budgets.py",
                          {"--cuda-limit-memory", "lots"});
  CHECK(bad.exit_code != 0);
  CHECK(has(bad.out + bad.err, "cudaleak: 'lots' is not a size (e.g. 24 MB, 512 KiB, 1048576)"));
}

TEST_CASE("pytest: the plugin applies the gate's suppressions and fail_on", "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest_gate");
  std::string supp = written(dir + "/tests.supp", "leak:test_keeps_a_buffer\n");
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{{"--suppressions", supp}, {"--fail-on", "pinned"}}) {
    Result res = run_pytest(dir, flags, CUDALEAK_PYTEST, {"-p", "pytest_cudaleak"});
    INFO(flags.front() << "\n" << res.out);
    CHECK(res.exit_code == 0);
    CHECK(has(res.out, "2 passed"));
  }
}
#endif

#ifdef CUDALEAK_PYTHON_VENV
TEST_CASE("pytest: the plugin's wheel installs with pip and pytest loads it by its entry point", "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest_wheel");
  std::string venv = dir + "/venv";
  Result made = run({CUDALEAK_PYTHON_VENV, "-m", "venv", "--system-site-packages", venv});
  REQUIRE(made.exit_code == 0);
  std::string wheel = build_dir() + "/lib/cudaleak/python/pytest_cudaleak-" CUDALEAK_VERSION "-py3-none-any.whl";
  Result installed = run({venv + "/bin/pip", "install", "-q", "--no-index", wheel});
  INFO(installed.out);
  REQUIRE(installed.exit_code == 0);
  Result res = run_pytest(dir, {}, venv + "/bin/python", {});  // no -p: the pytest11 entry point
  INFO(res.out);
  CHECK(res.exit_code == 1);
  CHECK(has(res.out, "1 failed, 1 passed"));
  CHECK(has(res.out, "cudaleak: 1 CUDA resource (1048576 bytes) created by this test is still alive"));
}

TEST_CASE("pytest: the plugin's wheel installs offline into a fresh venv with no pytest in it", "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest_wheel_offline");
  std::string venv = dir + "/venv";
  Result made = run({CUDALEAK_PYTHON_VENV, "-m", "venv", venv});  // no system site packages: no pytest
  REQUIRE(made.exit_code == 0);
  std::string wheel = build_dir() + "/lib/cudaleak/python/pytest_cudaleak-" CUDALEAK_VERSION "-py3-none-any.whl";
  Result installed = run({venv + "/bin/pip", "install", "-q", "--no-index", wheel});
  INFO(installed.out);
  CHECK(installed.exit_code == 0);  // was: no matching distribution for pytest>=6
  Result shown = run({venv + "/bin/pip", "show", "pytest-cudaleak"});
  CHECK(has(shown.out, "Name: pytest-cudaleak"));
  CHECK(has(shown.out, "Requires: \n"));
}
#endif
