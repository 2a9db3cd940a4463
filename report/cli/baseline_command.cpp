#include "report/cli/baseline_command.h"

#include <spdlog/spdlog.h>

#include "report/gate/baseline.h"
#include "report/cli/load.h"

namespace cudaleak::cli {

int write_baseline(const std::vector<std::string>& paths, const std::string& output) {
  auto reports = load_reports(paths);
  if (!reports) return 2;
  gate::Baseline b = gate::baseline_from_reports(*reports);
  if (!write_output(output, gate::baseline_to_json(b))) return 2;
  spdlog::info("cudaleak: baseline of {} leak sites written to {}", b.sites.size(), output);
  return 0;
}

}  // namespace cudaleak::cli
