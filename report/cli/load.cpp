#include "load.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>

#include "capture/crash_report.h"
#include "crash_reports.h"
#include "io/input_file.h"
#include "json_io.h"

namespace cudaleak::cli {

std::optional<report::Report> load_report(const std::string& path) {
  std::string text;
  try {
    text = io::read_input_file(path, "report", SIZE_MAX);  // as large as reports get; the file bounds it
  } catch (const io::InputFileError& e) {
    spdlog::error("cudaleak: {}", e.what());
    return std::nullopt;
  }
  if (capture::is_crash_capture(text)) return report_from_capture(text, path);
  try {
    return report::from_json(text);
  } catch (const report::FormatError& e) {
    spdlog::error("cudaleak: {}: {}", path, e.what());
    return std::nullopt;
  }
}

std::optional<std::vector<report::Report>> load_reports(const std::vector<std::string>& paths) {
  std::vector<report::Report> reports;
  for (const auto& p : paths) {
    auto r = load_report(p);
    if (!r) return std::nullopt;
    reports.push_back(std::move(*r));
  }
  return reports;
}

bool write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) spdlog::error("cudaleak: cannot write {}", path);
  return bool(out);
}

}  // namespace cudaleak::cli
