// Reports written on a real H100 (tests/fixtures/h100) read back into the model.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/model/json_io.h"

using namespace cudaleak::report;

static Report load_fixture(const std::string& name) {
  std::ifstream in(std::string(CUDALEAK_FIXTURES) + "/h100/" + name);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return from_json(ss.str());
}

TEST_CASE("H100 reports read back with the numbers compute-sanitizer agreed with", "[fixtures]") {
  Report exc = load_fixture("exception_leak_static.json");
  CHECK(exc.reason == Reason::Exit);
  CHECK(exc.summary.leaked_bytes == 1048576);
  REQUIRE(exc.leaks.size() == 1);
  CHECK(exc.leaks[0].api == "cudaMalloc");
  CHECK_FALSE(exc.modules.empty());

  Report drv = load_fixture("driver_context_leak_static.json");
  CHECK(drv.summary.leaked_bytes == 7602176);
  CHECK(drv.summary.by_kind.at(Kind::Context).count == 1);

  Report blas = load_fixture("cublas_no_destroy.json");
  CHECK(blas.summary.by_kind.at(Kind::Device).bytes == 67240960);
  CHECK(blas.leaks[0].api == "cublasCreate_v2");
}

TEST_CASE("every fixture report written and read again is the same report", "[fixtures]") {
  int reports = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(CUDALEAK_FIXTURES)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().find("\"cudaleak-report\"") == std::string::npos) continue;
    INFO(e.path().string());
    Report first = from_json(ss.str());
    Report again = from_json(to_json(first));
    CHECK(again == first);
    CHECK(to_json(again) == to_json(first));
    ++reports;
  }
  CHECK(reports >= 10);
}
