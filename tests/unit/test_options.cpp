#include <catch2/catch.hpp>

#include <csignal>

#include "options.h"

using namespace cudaleak;

TEST_CASE("defaults", "[options]") {
  Options o;
  CHECK(o.output == "cudaleak.%p.json");
  CHECK(o.stack_depth == 48);
  CHECK(o.report_signal == "SIGUSR1");
  CHECK(o.crash_report);
}

TEST_CASE("key=value:key=value sets each option", "[options]") {
  Options o;
  auto problems = parse_options("output=/tmp/x.%p.json:stack_depth=8:symbolize=0:report_signal=USR2", o);
  CHECK(problems.empty());
  CHECK(o.output == "/tmp/x.%p.json");
  CHECK(o.stack_depth == 8);
  CHECK_FALSE(o.symbolize);
  CHECK(signal_from_name(o.report_signal) == SIGUSR2);
}

TEST_CASE("unknown keys and bad values are reported by name and leave the rest applied", "[options]") {
  Options o;
  auto problems = parse_options("stack_depth=abc:bogus=1:max_allocations=4:stack_depth=999:crash_report=maybe", o);
  REQUIRE(problems.size() == 4);
  CHECK(problems[0].find("integer") != std::string::npos);
  CHECK(problems[1].find("unknown option 'bogus'") != std::string::npos);
  CHECK(problems[2].find("stack_depth") != std::string::npos);
  CHECK(problems[3].find("true/false") != std::string::npos);
  CHECK(o.max_allocations == 4);
  CHECK(o.stack_depth == 48);  // invalid values never applied
}

TEST_CASE("signal names", "[options]") {
  CHECK(signal_from_name("SIGUSR1") == SIGUSR1);
  CHECK(signal_from_name("USR1") == SIGUSR1);
  CHECK(signal_from_name("none") == 0);
  CHECK(signal_from_name("12") == 12);
  CHECK(signal_from_name("SIGNOPE") == -1);
}

TEST_CASE("describe_options lists every option in effect", "[options]") {
  Options o;
  o.stack_depth = 9;
  std::string text = describe_options(o);
  CHECK(text.find("stack_depth=9\n") != std::string::npos);
  for (const auto& info : option_table()) CHECK(text.find(std::string(info.key) + "=") != std::string::npos);
}
