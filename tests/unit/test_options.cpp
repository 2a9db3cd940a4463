#include <catch2/catch.hpp>

#include <csignal>

#include "common/options.h"

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
  CHECK(problems[0].message.find("integer") != std::string::npos);
  CHECK(problems[1].message.find("unknown option 'bogus'") != std::string::npos);
  CHECK(problems[1].key == "bogus");
  CHECK(problems[2].message.find("stack_depth") != std::string::npos);
  CHECK(problems[3].message.find("true/false") != std::string::npos);
  CHECK(o.max_allocations == 4);
  CHECK(o.stack_depth == 48);  // invalid values never applied
}

TEST_CASE("every refused value is named with its key and the value as given", "[options]") {
  Options o;
  std::vector<std::string> messages;
  for (const OptionProblem& p : parse_options("error_exitcode=256:error_exitcode=-1:error_exitcode=abc:"
                                              "error_exitcode=1e999:error_exitcode=99999999999999999999:"
                                              "stack_depth=0:min_bytes=-5:gate_error_exitcode=0:fail_on=devic:"
                                              "color=blue:report_signal=SIGKILL:output=:trace_children=maybe",
                                              o))
    messages.push_back(p.message);
  CHECK(messages ==
        std::vector<std::string>{
            "error_exitcode: '256' is not between 0 and 255", "error_exitcode: '-1' is not between 0 and 255",
            "error_exitcode: expected an integer, got 'abc'", "error_exitcode: expected an integer, got '1e999'",
            "error_exitcode: '99999999999999999999' is out of range", "stack_depth: '0' is not between 1 and 256",
            "min_bytes: '-5' is below 0", "gate_error_exitcode: '0' is not between 1 and 255",
            "fail_on: 'devic' holds 'devic', which is not a kind (did you mean device?) (docs/report-format.md lists "
            "them)",
            "color: 'blue' is not auto, always or never",
            "report_signal: 'SIGKILL' is not SIGUSR1, SIGUSR2 or SIGRTMIN+N (signals that end or crash a "
            "process cannot be used)",
            "output: '' must not be empty", "trace_children: expected true/false (or 1/0), got 'maybe'"});
  CHECK(o.error_exitcode == 0);  // none applied
}

TEST_CASE("gate options are known as such", "[options]") {
  for (const char* key : {"error_exitcode", "gate_error_exitcode", "fail_on", "min_bytes", "suppressions", "baseline"})
    CHECK(is_gate_option(key));
  for (const char* key : {"output", "stack_depth", "verbose", "trace_children"}) CHECK_FALSE(is_gate_option(key));
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

TEST_CASE("commas, semicolons and blanks separate options where another key= follows, as the sanitizers' do",
          "[options]") {
  for (const std::string text :
       {"output=a.json,error_exitcode=7", "output=a.json;error_exitcode=7", "output=a.json error_exitcode=7",
        "output=a.json, error_exitcode=7", " output=a.json\terror_exitcode=7 ", "output=a.json:error_exitcode=7"}) {
    INFO(text);
    Options o;
    CHECK(parse_options(text, o).empty());
    CHECK(o.output == "a.json");
    CHECK(o.error_exitcode == 7);
  }
  Options o;  // elsewhere they are the value's: a list, a path with a blank or a comma
  CHECK(parse_options("fail_on=device,pinned,output=my dir/a,b.json", o).empty());
  CHECK(o.fail_on == std::vector<std::string>{"device", "pinned"});
  CHECK(o.output == "my dir/a,b.json");
  Options typo;  // a misspelt key after a comma is refused by name, never folded into the path
  auto problems = parse_options("output=a.json,eror_exitcode=7", typo);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].key == "eror_exitcode");
  CHECK(typo.output == "a.json");
}

TEST_CASE("a trailing backslash that escapes nothing is refused, never swallowing what follows", "[options]") {
  Options o;
  auto problems = parse_options("output=a.json\\", o);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message.find("backslash") != std::string::npos);
  Options escaped;
  CHECK(parse_options("output=a\\\\", escaped).empty());
  CHECK(escaped.output == "a\\");
}

// reachability was a bool before it had auto: what scripts wrote then still works.
TEST_CASE("reachability takes auto, and a bool's spellings as before", "[options]") {
  Options o;
  CHECK(o.reachability == "auto");
  for (const auto& [given, meant] : std::vector<std::pair<std::string, std::string>>{
           {"0", "false"}, {"off", "false"}, {"no", "false"}, {"1", "true"}, {"yes", "true"}, {"auto", "auto"}}) {
    CHECK(set_option(o, "reachability", given).empty());
    CHECK(o.reachability == meant);
  }
  CHECK(set_option(o, "reachability", "maybe") == "reachability: 'maybe' is not auto, true or false");
}
