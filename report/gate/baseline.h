// Baselines: the leak sites a project accepts for now. A gate given a
// baseline fails only on sites not in it, or on sites that grew beyond it.
// File format (docs/ci.md#baselines): JSON
//   {"format": "cudaleak-baseline", "format_version": 1,
//    "sites": [{"site": "...", "kind": "device", "bytes": N, "count": N}]}
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::gate {

struct BaselineSite {
  Kind kind = Kind::Device;
  uint64_t bytes = 0;
  uint64_t count = 0;
};

struct Baseline {
  std::map<std::string, BaselineSite> sites;
};

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Unsuppressed leaks of the reports; a site seen in several reports keeps the
// largest bytes and count.
Baseline baseline_from_reports(const std::vector<report::Report>& reports);
std::string baseline_to_json(const Baseline& baseline);
// Throws BaselineError naming the file and the problem.
Baseline load_baseline(const std::string& path);
Baseline parse_baseline(const std::string& text, const std::string& source_name);

// Known, Grown or New for one group against the baseline.
report::BaselineState compare_with_baseline(const Baseline& baseline, const report::LeakGroup& group);

}  // namespace cudaleak::gate
