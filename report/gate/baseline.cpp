#include "baseline.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/input_file.h"
#include "kinds.h"
#include "site.h"

namespace cudaleak::gate {

using nlohmann::json;

Baseline baseline_from_reports(const std::vector<report::Report>& reports) {
  Baseline b;
  for (const auto& r : reports) {
    for (const auto& g : r.leaks) {
      if (!g.suppressed_by.empty()) continue;
      std::string site = g.site.empty() ? site_of(g) : g.site;
      auto& s = b.sites[site];
      s.kind = g.kind;
      s.bytes = std::max(s.bytes, g.bytes);
      s.count = std::max(s.count, g.count);
    }
  }
  return b;
}

std::string baseline_to_json(const Baseline& b) {
  json sites = json::array();
  for (const auto& [site, s] : b.sites)
    sites.push_back(json{{"site", site}, {"kind", s.kind}, {"bytes", s.bytes}, {"count", s.count}});
  json j{{"format", "cudaleak-baseline"}, {"format_version", 1}, {"sites", sites}};
  return j.dump(1) + "\n";
}

Baseline parse_baseline(const std::string& text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw BaselineError(source + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != "cudaleak-baseline")
    throw BaselineError(source + ": not a cudaleak baseline (write one with `cudaleak baseline REPORT -o FILE`)");
  if (!j.contains("format_version") || j["format_version"] != 1)
    throw BaselineError(source + ": baseline format_version " + (j.contains("format_version") ? j["format_version"].dump() : "(missing)") +
                        " is not one this cudaleak reads (1)");
  if (!j.contains("sites") || !j["sites"].is_array()) throw BaselineError(source + ": malformed baseline: no \"sites\" list");
  Baseline b;
  try {
    size_t index = 0;
    for (const auto& s : j.at("sites")) {
      std::string kind = s.at("kind").get<std::string>();
      if (!kind_from_name(kind))
        throw BaselineError(source + ": site " + std::to_string(index) + ": unknown kind '" + kind + "'");
      b.sites[s.at("site").get<std::string>()] =
          BaselineSite{kind, s.value("bytes", uint64_t(0)), s.value("count", uint64_t(0))};
      ++index;
    }
  } catch (const json::exception& e) {
    throw BaselineError(source + ": malformed baseline: " + e.what());
  }
  return b;
}

Baseline load_baseline(const std::string& path) {
  try {
    return parse_baseline(io::read_input_file(path, "baseline file"), path);
  } catch (const io::InputFileError& e) {
    throw BaselineError(e.what());
  }
}

std::string compare_with_baseline(const Baseline& baseline, const report::LeakGroup& g) {
  auto it = baseline.sites.find(g.site.empty() ? site_of(g) : g.site);
  if (it == baseline.sites.end()) return "new";
  if (g.bytes > it->second.bytes || g.count > it->second.count) return "grown";
  return "known";
}

}  // namespace cudaleak::gate
