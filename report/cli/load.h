// Reading report files for the subcommands: one clear line per problem.
#pragma once
#include <functional>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::cli {

// Prints "cudaleak: FILE: reason" and returns nullopt for anything that is not
// a report this version reads (missing, truncated, corrupt, newer format).
std::optional<report::Report> load_report(const std::string& path);
// All or nothing: nullopt when any file fails. A directory stands for the
// reports in it (report_files_in): a job's reports gathered in one folder.
std::optional<std::vector<report::Report>> load_reports(const std::vector<std::string>& paths);
// The files of `dir` (not below it) that are cudaleak reports or crash
// captures, by name; other files (a baseline, JUnit, logs) are passed over.
// Empty, with `problem` set, when the directory cannot be read or holds none.
std::vector<std::string> report_files_in(const std::string& dir, std::string& problem);
// "-" or "" = stdout; otherwise a regular file or a new name, replaced whole
// (safe_output.h): a link, FIFO, device or directory is refused in one line.
bool write_output(const std::string& path, const std::string& text);
// The same for text made in pieces (report::write_json), never held whole.
using TextSink = std::function<void(std::string_view)>;
bool write_output(const std::string& path, const std::function<void(const TextSink&)>& produce);

}  // namespace cudaleak::cli
