// Test binaries of the frameworks people use, run under cudaleak: each leaking
// test fails by name, the clean ones pass, and the run's report is usable.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace e2e;

#ifdef CUDALEAK_HAVE_GTEST
TEST_CASE("GoogleTest: the listener fails exactly the leaking test", "[e2e][frameworks]") {
  auto dir = fresh_dir("gtest");
  Result res = run_sim(dir, {program("gtest_cuda")});
  CHECK(res.exit_code == 1);
  CHECK(res.out.find("[       OK ] Cuda.ReleasesEverything") != std::string::npos);
  CHECK(res.out.find("cudaleak: 1 CUDA resources (8192 bytes) created by this test are still alive") != std::string::npos);
  CHECK(res.out.find("[  FAILED  ] Cuda.ForgetsABuffer") != std::string::npos);
  auto r = load(files_in(dir).front());
  REQUIRE(find_group(r, "device"));
  CHECK(stack_has(*find_group(r, "device"), "Cuda_ForgetsABuffer_Test::TestBody"));
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
TEST_CASE("pytest: the plugin fails exactly the leaking test and the report names it", "[e2e][frameworks]") {
  auto dir = fresh_dir("pytest");
  std::string src = CUDALEAK_SOURCE_DIR;
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.%p.json", "--", CUDALEAK_PYTEST, "-m",
                    "pytest", "-q", "-p", "pytest_cudaleak", "-p", "no:cacheprovider",
                    src + "/tests/e2e/frameworks/test_cuda_ctypes.py"},
                   {"PYTHONPATH=" + src + "/interpose/python"});
  CHECK(res.exit_code == 1);
  CHECK(res.out.find("FAILED") != std::string::npos);
  CHECK(res.out.find("test_keeps_a_buffer") != std::string::npos);
  CHECK(res.out.find("1 failed, 1 passed") != std::string::npos);
  CHECK(res.out.find("cudaleak: 1 CUDA resources (1048576 bytes)") != std::string::npos);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  REQUIRE(find_group(r, "device"));
  CHECK(find_group(r, "device")->bytes == (1u << 20));
}
#endif
