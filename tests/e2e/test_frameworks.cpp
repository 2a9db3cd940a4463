// Test binaries of the frameworks people use, run under cudaleak: each leaking
// test fails by name, the clean ones pass, and the run's report is usable.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

std::string written(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

#ifdef CUDALEAK_HAVE_GTEST
TEST_CASE("GoogleTest: the listener fails exactly the leaking test at its line with kind and stack", "[e2e][frameworks]") {
  auto dir = fresh_dir("gtest");
  Result res = run_sim(dir, {program("gtest_cuda")});
  CHECK(res.exit_code == 1);
  CHECK(has(res.out, "[       OK ] Cuda.ReleasesEverything"));
  CHECK(has(res.out, "gtest_cuda.cpp:14: Failure"));  // the cudaMalloc line, not the listener's header
  CHECK(has(res.out, "cudaleak: 1 CUDA resource (8192 bytes) created by this test is still alive"));
  CHECK(has(res.out, "8.0 KiB of device memory in 1 allocation never freed, created by cudaMalloc"));
  CHECK(has(res.out, "in Cuda_ForgetsABuffer_Test::TestBody()"));
  CHECK(has(res.out, "[  FAILED  ] Cuda.ForgetsABuffer"));
  auto r = load(files_in(dir).front());
  REQUIRE(find_group(r, "device"));
  CHECK(stack_has(*find_group(r, "device"), "Cuda_ForgetsABuffer_Test::TestBody"));
  // Built in a subdirectory, the binary names its source "../tests/...":
  // named from the compiler's directory, SARIF places it in the repository.
  auto sarif_dir = fresh_dir("gtest_sarif");
  run_sim(sarif_dir, {program("gtest_cuda")},
          {"--sarif", sarif_dir + "/../gtest.sarif", "--source-root", CUDALEAK_SOURCE_DIR});
  const auto sarif = nlohmann::json::parse(read_file(sarif_dir + "/../gtest.sarif"));
  bool placed = false;
  for (const auto& result : sarif["runs"][0]["results"])
    for (const auto& where : result.value("locations", nlohmann::json::array()))
      placed |= where["physicalLocation"]["artifactLocation"] ==
                nlohmann::json{{"uri", "tests/e2e/frameworks/gtest_cuda.cpp"}, {"uriBaseId", "SRCROOT"}};
  CHECK(placed);
}

TEST_CASE("GoogleTest: the listener applies the gate's suppressions fail_on and min_bytes", "[e2e][frameworks]") {
  auto dir = fresh_dir("gtest_gate");
  std::string supp = written(dir + "/tests.supp", "leak:Cuda_ForgetsABuffer_Test::TestBody\n");
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {"--suppressions", supp}, {"--fail-on", "stream"}, {"--min-bytes", "16384"}}) {
    Result res = run_sim(dir, {program("gtest_cuda")}, flags);
    INFO(flags.front() << "\n" << res.out);
    CHECK(res.exit_code == 0);
    CHECK(has(res.out, "[  PASSED  ] 2 tests."));
    CHECK_FALSE(has(res.out, "still alive"));
  }
}
#endif

TEST_CASE("Catch2: cudaleak.h checks fail exactly the leaking test", "[e2e][frameworks]") {
  auto dir = fresh_dir("catch2");
  Result res = run_sim(dir, {program("catch2_cuda")});
  CHECK(res.exit_code == 1);
  CHECK(res.out.find("event is forgotten") != std::string::npos);
  CHECK(res.out.find("test cases: 2 | 1 passed | 1 failed") != std::string::npos);
  auto r = load(files_in(dir).front());
  REQUIRE(find_group(r, "event"));
  CHECK(find_group(r, "stream") == nullptr);
}

#ifdef CUDALEAK_PYTEST
namespace {

Result run_pytest(const std::string& dir, const std::vector<std::string>& flags, const std::string& python,
                  const std::vector<std::string>& plugin) {
  std::string src = CUDALEAK_SOURCE_DIR;
  std::vector<std::string> argv = {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.%p.json"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (std::string a : {std::string("--"), python, std::string("-m"), std::string("pytest"), std::string("-q")})
    argv.push_back(a);
  argv.insert(argv.end(), plugin.begin(), plugin.end());
  argv.push_back("-p");
  argv.push_back("no:cacheprovider");
  argv.push_back(src + "/tests/e2e/frameworks/test_cuda_ctypes.py");
  return run(argv, {"PYTHONPATH=" + src + "/interpose/python"});
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
  CHECK(has(res.out, "at " + std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/frameworks/test_cuda_ctypes.py:9"));
  CHECK(has(res.out, "1.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc"));
  CHECK(has(res.out, "[python] in test_keeps_a_buffer"));
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  REQUIRE(find_group(r, "device"));
  CHECK(find_group(r, "device")->bytes == (1u << 20));
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
#endif
