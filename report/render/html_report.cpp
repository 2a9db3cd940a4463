#include "report/render/html_report.h"

#include "html_assets.h"
#include "report/model/json_io.h"

namespace cudaleak::render {

namespace {
void replace(std::string& text, const std::string& marker, const std::string& value) {
  auto at = text.find(marker);
  if (at != std::string::npos) text.replace(at, marker.size(), value);
}
}  // namespace

std::string html_report(report::Report r) {
  // The page lists a sample of each group's allocations; totals cover all.
  // Keeps a report of a million live allocations a page a browser opens at once.
  for (auto& g : r.leaks)
    if (g.allocations.size() > kHtmlAllocationsPerGroup) g.allocations.resize(kHtmlAllocationsPerGroup);
  std::string page = kHtmlTemplate;
  replace(page, "/*CUDALEAK_CSS*/", kHtmlCss);
  replace(page, "/*CUDALEAK_JS*/", kHtmlJs);
  const std::string marker = "/*CUDALEAK_DATA*/";
  const size_t at = page.find(marker);
  if (at == std::string::npos) return page;
  std::string tail = page.substr(at + marker.size());
  page.resize(at);
  // The data goes in as it is written, in one pass. Inside a <script>
  // element "</script" would end it early and "<!--<script" would swallow the
  // page's own script: every '<' (which JSON has only inside strings) becomes
  // the escape \u003c, which the JSON parser reads back as '<'.
  report::write_json(
      r,
      [&](std::string_view piece) {
        for (char c : piece) {
          if (c == '<') page += "\\u003c";
          else page += c;
        }
      },
      -1);
  page += tail;
  return page;
}

}  // namespace cudaleak::render
