#include "load.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "capture/crash_report.h"
#include "crash_reports.h"
#include "json_io.h"

namespace cudaleak::cli {

std::optional<report::Report> load_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    spdlog::error("cudaleak: {}: cannot read the file", path);
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  if (capture::is_crash_capture(text.str())) return report_from_capture(text.str(), path);
  try {
    return report::from_json(text.str());
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
