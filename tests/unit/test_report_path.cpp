#include <catch2/catch.hpp>

#include <unistd.h>

#include <string>

#include "report/model/report_path.h"

using cudaleak::report::expand_report_path;

TEST_CASE("%p and %n expand, and later reports without %n get .N before the extension", "[report_path]") {
  CHECK(expand_report_path("cudaleak.%p.json", 42, 0) == "cudaleak.42.json");
  CHECK(expand_report_path("cudaleak.%p.json", 42, 2) == "cudaleak.42.2.json");
  CHECK(expand_report_path("out/r-%p-%n.json", 7, 3) == "out/r-7-3.json");
  CHECK(expand_report_path("dir.d/report", 7, 1) == "dir.d/report.1");
  CHECK(expand_report_path("100%%.json", 1, 0) == "100%.json");
}

TEST_CASE("%h expands to the host name: a job's hosts with equal pids write apart", "[report_path]") {
  char host[256] = "";
  REQUIRE(gethostname(host, sizeof host - 1) == 0);
  CHECK(expand_report_path("job/%h.%p.%n.json", 4000, 0) == "job/" + std::string(host) + ".4000.0.json");
  CHECK(expand_report_path("%%h.json", 1, 0) == "%h.json");
}
