// Command-line errors: one line on stderr, the nearest valid option or
// command suggested, status 2 (as the docs say), whatever CLI11's own code.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace cudaleak::cli {

int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, char** argv);

// The candidate closest to `word` by edit distance, or "" when none is close.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace cudaleak::cli
