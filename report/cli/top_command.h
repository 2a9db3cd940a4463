// `cudaleak top [PID...]`: the live view of processes running under cudaleak
// on this host (docs/reading-reports.md#cudaleak-top); `--once` prints one frame as
// plain text and exits.
#pragma once
#include <CLI/CLI.hpp>

namespace cudaleak::cli {

void add_top_command(CLI::App& app, int& status);

}  // namespace cudaleak::cli
