#include "report/cli/parse_errors.h"

#include <spdlog/spdlog.h>

#include "common/options.h"

#include <algorithm>
#include <cctype>

namespace cudaleak::cli {

namespace {

std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  return names;
}

bool short_option_known(const CLI::App& app, char c) {
  for (const CLI::Option* o : app.get_options())
    for (const std::string& n : o->get_snames())
      if (n.size() == 1 && n[0] == c) return true;
  return false;
}

}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  return nearest_word(word, candidates);
}

namespace {

// Words a user of git or of other tools types for the top-level flags.
std::string top_level_hint(const std::string& word) {
  if (word == "version" || word == "-V" || word == "-v" || word == "--versoin") return "--version";
  if (word == "help" || word == "-help" || word == "--hlep") return "--help";
  return "";
}

}  // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, char** argv) {
  if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
  // The subcommand the words belong to, and the first word it does not know.
  CLI::App* sub = nullptr;
  std::vector<std::string> commands;
  for (const CLI::App* s : app.get_subcommands({})) commands.push_back(s->get_name());
  std::string hint;
  for (int i = 1; i < argc && hint.empty(); ++i) {
    std::string word = argv[i];
    if (word == "--") break;
    if (!sub) {
      // Before the command: a command name, --help or --version, nothing else.
      if (word == "--help" || word == "-h" || word == "--version") continue;
      std::string suggestion = top_level_hint(word);
      if (word.starts_with("-")) {
        if (suggestion.empty()) suggestion = nearest(word.substr(0, word.find('=')), {"--help", "--version"});
        spdlog::error("cudaleak: unknown option {}{}; see cudaleak --help", word,
                      suggestion.empty() ? "" : " (did you mean " + suggestion + "?)");
        return 2;
      }
      try {
        sub = app.get_subcommand(word);
      } catch (const CLI::OptionNotFound&) {
        if (suggestion.empty()) suggestion = nearest(word, commands);
        spdlog::error("cudaleak: '{}' is not a cudaleak command{}; see cudaleak --help", word,
                      suggestion.empty()
                          ? ""
                          : " (did you mean " + (suggestion.starts_with("-") ? suggestion : "'" + suggestion + "'") +
                                "?)");
        return 2;
      }
      continue;
    }
    if (word.size() > 1 && word[0] == '-' && word[1] != '-' && !std::isdigit(static_cast<unsigned char>(word[1])) &&
        !short_option_known(*sub, word[1])) {
      // "-x.json": CLI11 takes it for options and then misses the file.
      const bool files = sub->get_name() != "run";  // run's words after the options are a command
      spdlog::error("cudaleak {}: unknown option {}{}; see cudaleak {} --help", sub->get_name(), word,
                    files ? " (a file whose name begins with '-' is written ./" + word + ")" : "", sub->get_name());
      return 2;
    }
    if (!word.starts_with("--")) continue;
    std::string name = word.substr(0, word.find('='));
    auto known = long_options(*sub);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    if (std::string n = nearest(name, known); !n.empty()) hint = " (did you mean " + n + "?)";
  }
  std::string where = sub ? " " + sub->get_name() : "";
  spdlog::error("cudaleak{}: {}{}; see cudaleak{} --help", where, error.what(), hint, where);
  return 2;
}

}  // namespace cudaleak::cli
