// The table of output formats (report/cli/output_formats.cpp) and the options
// made from it: each command takes the rows it can render and refuses the
// others in one line; the docs' table is the code's.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "report/cli/format_choices.h"

using namespace cudaleak::cli;

namespace {

constexpr Command kCommands[] = {Command::Report, Command::Diff, Command::Run};

// The options a command has that name a format (`run` writes its file
// formats through flags of their own, --junit FILE).
std::vector<std::pair<Command, ChosenBy>> format_options() {
  return {{Command::Report, ChosenBy::Format},
          {Command::Report, ChosenBy::Annotations},
          {Command::Diff, ChosenBy::Format},
          {Command::Run, ChosenBy::Annotations}};
}

}  // namespace

TEST_CASE("output formats: each named once, each written by some command, each with a file extension",
          "[output_formats]") {
  std::set<std::string_view> names;
  for (const OutputFormat& f : output_formats()) {
    INFO(f.name);
    CHECK(names.insert(f.name).second);
    CHECK(find_output_format(f.name) == &f);
    CHECK(std::ranges::any_of(kCommands, [&](Command c) { return takes(c, f); }));
    CHECK(f.extension.starts_with("."));
    CHECK(!f.title.empty());
  }
  CHECK(find_output_format(kDefaultFormat)->terminal_text);
  CHECK(find_output_format("xml") == nullptr);
}

TEST_CASE("output formats: each option takes its command's rows and refuses every other name in one line",
          "[output_formats]") {
  for (const auto& [command, option] : format_options()) {
    const std::vector<const OutputFormat*> accepted = formats_of(command, option);
    REQUIRE(!accepted.empty());
    for (const OutputFormat& f : output_formats()) {
      INFO(int(command) << " " << int(option) << " " << f.name);
      const std::string refusal = format_refusal(command, option, std::string(f.name));
      const bool taken = f.chosen_by == option && takes(command, f);
      CHECK(refusal.empty() == taken);
      CHECK(taken == (std::ranges::find(accepted, &f) != accepted.end()));
      if (taken) continue;
      CHECK(refusal.find('\n') == std::string::npos);
      CHECK(refusal.starts_with(std::string(f.name) + " (" + std::string(f.title) + ") is for cudaleak "));
      for (const OutputFormat* ok : accepted) CHECK(refusal.find(std::string(ok->name)) != std::string::npos);
    }
  }
  CHECK(format_refusal(Command::Report, ChosenBy::Format, "xml") ==
        "'xml' is not a format; cudaleak report --format takes text, json, html, junit or sarif");
  CHECK(format_refusal(Command::Diff, ChosenBy::Format, "junit") ==
        "junit (JUnit XML) is for cudaleak report --format junit; cudaleak diff --format takes text, json or html");
  CHECK(format_refusal(Command::Run, ChosenBy::Annotations, "sarif") ==
        "sarif (SARIF 2.1.0) is for cudaleak run --sarif FILE; cudaleak run --annotations takes github or gitlab");
  // A name from the command line cannot drive the terminal that shows the refusal.
  CHECK(format_refusal(Command::Diff, ChosenBy::Format, "x\x1b]0;t\a") ==
        "'x\\x1b]0;t\\x07' is not a format; cudaleak diff --format takes text, json or html");
}

TEST_CASE("output formats: the table in docs/reading-reports.md is the one the code makes", "[output_formats][docs]") {
  std::ifstream in(std::string(CUDALEAK_SOURCE_DIR) + "/docs/reading-reports.md");
  REQUIRE(in);
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string doc = whole.str();
  const std::string start = "<!-- output formats: made by formats_markdown() in report/cli/format_choices.cpp -->\n";
  const size_t from = doc.find(start);
  REQUIRE(from != std::string::npos);
  const size_t table = from + start.size();
  const size_t end = doc.find("\n\n", table);
  REQUIRE(end != std::string::npos);
  INFO("expected:\n" << formats_markdown());
  CHECK(doc.substr(table, end + 1 - table) == formats_markdown());
}
