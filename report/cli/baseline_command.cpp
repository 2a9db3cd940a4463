#include "baseline_command.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

#include "baseline.h"
#include "json_io.h"

namespace cudaleak::cli {

int write_baseline(const std::vector<std::string>& paths, const std::string& output) {
  std::vector<report::Report> reports;
  for (const auto& path : paths) {
    std::ifstream in(path);
    if (!in) {
      spdlog::error("cudaleak: {}: cannot read", path);
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
      reports.push_back(report::from_json(text.str()));
    } catch (const report::FormatError& e) {
      spdlog::error("cudaleak: {}: {}", path, e.what());
      return 2;
    }
  }
  gate::Baseline b = gate::baseline_from_reports(reports);
  std::ofstream out(output);
  out << gate::baseline_to_json(b);
  if (!out) {
    spdlog::error("cudaleak: cannot write {}", output);
    return 2;
  }
  spdlog::info("cudaleak: baseline of {} leak sites written to {}", b.sites.size(), output);
  return 0;
}

}  // namespace cudaleak::cli
