#include "html_report.h"

#include "html_assets.h"
#include "json_io.h"

namespace cudaleak::render {

namespace {
void replace(std::string& text, const std::string& marker, const std::string& value) {
  auto at = text.find(marker);
  if (at != std::string::npos) text.replace(at, marker.size(), value);
}
}  // namespace

std::string html_report(const report::Report& full) {
  // The page lists a sample of each group's allocations; totals cover all.
  // Keeps a report of a million live allocations a page a browser opens at once.
  report::Report r = full;
  for (auto& g : r.leaks)
    if (g.allocations.size() > kHtmlAllocationsPerGroup) g.allocations.resize(kHtmlAllocationsPerGroup);
  // "</" inside a <script> element would end it early.
  std::string data = report::to_json(r, -1);
  for (size_t at = 0; (at = data.find("</", at)) != std::string::npos; at += 3) data.replace(at, 2, "<\\/");
  std::string page = kHtmlTemplate;
  replace(page, "/*CUDALEAK_CSS*/", kHtmlCss);
  replace(page, "/*CUDALEAK_JS*/", kHtmlJs);
  replace(page, "/*CUDALEAK_DATA*/", data);
  return page;
}

}  // namespace cudaleak::render
