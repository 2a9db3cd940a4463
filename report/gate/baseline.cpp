#include "report/gate/baseline.h"

#include <nlohmann/json.hpp>

#include "report/io/input_file.h"
#include "report/model/json_visitors.h"
#include "common/kinds.h"
#include "report/gate/site.h"

namespace cudaleak::gate {

using nlohmann::json;

// The file's schema, read and written through the report's schema walkers.
struct SiteRow {
  std::string site;
  Kind kind = Kind::Device;
  uint64_t bytes = 0, count = 0;
};
struct BaselineFile {
  std::string format = "cudaleak-baseline";
  int format_version = 1;
  std::vector<SiteRow> sites;
};

template <class V>
void fields(V& v, SiteRow& s) {
  using enum report::schema::Presence;
  v("site", s.site, Required);
  v("kind", s.kind, Required);
  v("bytes", s.bytes);
  v("count", s.count);
}
template <class V>
void fields(V& v, BaselineFile& f) {
  using enum report::schema::Presence;
  v("format", f.format, Required);
  v("format_version", f.format_version, Required);
  v("sites", f.sites, Required);
}

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
  BaselineFile file;
  for (const auto& [site, s] : b.sites) file.sites.push_back(SiteRow{site, s.kind, s.bytes, s.count});
  return report::schema::write_text(file, 1) + "\n";
}

Baseline parse_baseline(const std::string& text, const std::string& source) {
  json j;
  try {
    j = report::schema::parse(text);
  } catch (const report::FormatError& e) {
    throw BaselineError(source + ": " + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != "cudaleak-baseline")
    throw BaselineError(source + ": not a cudaleak baseline (write one with `cudaleak baseline REPORT -o FILE`)");
  if (!j.contains("format_version") || j["format_version"] != 1)
    throw BaselineError(source + ": baseline format_version " +
                        (j.contains("format_version") ? j["format_version"].dump() : "(missing)") +
                        " is not one this cudaleak reads (1)");
  BaselineFile file;
  try {
    report::schema::read_value(j, report::schema::Path{}, file);
  } catch (const report::FormatError& e) {
    throw BaselineError(source + ": malformed baseline: " + e.what());
  }
  Baseline b;
  for (const SiteRow& s : file.sites) b.sites[s.site] = BaselineSite{s.kind, s.bytes, s.count};
  return b;
}

Baseline load_baseline(const std::string& path) {
  try {
    return parse_baseline(io::read_input_file(path, "baseline file"), path);
  } catch (const io::InputFileError& e) {
    throw BaselineError(e.what());
  }
}

report::BaselineState compare_with_baseline(const Baseline& baseline, const report::LeakGroup& g) {
  using enum report::BaselineState;
  auto it = baseline.sites.find(g.site.empty() ? site_of(g) : g.site);
  if (it == baseline.sites.end()) return New;
  if (g.bytes > it->second.bytes || g.count > it->second.count) return Grown;
  return Known;
}

}  // namespace cudaleak::gate
