// Crash captures in the command-line tool: `cudaleak run` finishes the ones
// its processes left, and every reader accepts one as a report.
#pragma once
#include <optional>
#include <string>

#include "report/model/report.h"

namespace cudaleak::cli {

// The report of a crash capture, built with the options the process ran with
// (CUDALEAK_OPTIONS, as recorded in the capture). nullopt and one line on error.
std::optional<report::Report> report_from_capture(const std::string& text, const std::string& path);

// For `cudaleak run`: replaces the capture at `path` with its report, prints
// the text summary as the process would have, and returns the gate status
// ("pass", "fail" or "error"); `rank`, when given, gets the process's rank
// in a job (-1 outside one or when the capture cannot be read).
std::string finish_capture(const std::string& path, int* rank = nullptr);

}  // namespace cudaleak::cli
