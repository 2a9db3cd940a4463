#include "parse_errors.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace cudaleak::cli {

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  return names;
}

}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;  // farther is no typo
  for (const std::string& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

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
      if (word.starts_with("-")) continue;
      try {
        sub = app.get_subcommand(word);
      } catch (const CLI::OptionNotFound&) {
        if (std::string n = nearest(word, commands); !n.empty()) hint = " (did you mean '" + n + "'?)";
        break;
      }
      continue;
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
