// The options that choose an output format, made from the table of formats
// (output_formats.h): what each accepts, its help, the refusal a user reads,
// and the docs' table of formats by command.
#pragma once
#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "report/cli/output_formats.h"

namespace cudaleak::cli {

// "" when `command` takes `name` through `option`; else one line naming what
// it takes, and for a format written elsewhere, where.
std::string format_refusal(Command command, ChosenBy option, const std::string& name);

// --format NAME (`report`, `diff`) or --annotations NAME (`report`, `run`),
// checked against the table; `lead` starts the help of --annotations.
CLI::Option* add_format_option(CLI::App& app, Command command, ChosenBy option, std::string& into,
                               const std::string& lead = "");

// `run`'s --NAME FILE for each file format it writes beside its reports
// (--junit, --sarif): the path given for each name goes into `paths`.
void add_run_file_options(CLI::App& run, std::map<std::string, std::string, std::less<>>& paths);

// The Markdown table of formats by command, as docs/reading-reports.md has it.
std::string formats_markdown();

}  // namespace cudaleak::cli
