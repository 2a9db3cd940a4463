// Reading reports after the fact: `cudaleak report`, `diff`, `merge`,
// `symbolize` (docs/reading-reports.md).
#pragma once
#include <CLI/CLI.hpp>

namespace cudaleak::cli {

// Adds the subcommands to `app`; each sets `status` when it ran.
void add_report_commands(CLI::App& app, int& status);

}  // namespace cudaleak::cli
