#include "report/render/diff_html.h"

#include <map>

#include "common/quantities.h"
#include "report/analyze/job.h"
#include "report/gate/site.h"
#include "report/model/cuda_frames.h"
#include "report/model/function_names.h"
#include "report/render/ci_common.h"
#include "report/render/text_report.h"

namespace cudaleak::render {

namespace {

// Each site's stack and API, as diff_reports names sites.
struct SiteStack {
  std::string api;
  std::vector<report::Frame> stack;
};
void add_stacks(std::map<std::string, SiteStack>& out, const std::vector<report::Report>& runs) {
  for (const report::Report& r : runs)
    for (const report::LeakGroup& g : r.leaks) {
      const std::string site = g.site.empty() ? gate::site_of(g) : g.site;
      if (!out.count(site)) out[site] = SiteStack{g.api, g.stack};
    }
}

std::string stack_html(const SiteStack* s) {
  if (!s || s->stack.empty()) return "<div class=\"frames\">no stack</div>";
  std::string out = "<ol class=\"frames\" start=\"0\">";
  for (const report::Frame& f : s->stack) {
    std::string where = f.file.empty() ? "" : std::string(f.file) + (f.line > 0 ? ":" + std::to_string(f.line) : "");
    out += "<li><span class=\"fn\">" +
           markup_escape(f.function.empty() ? "??" : report::readable_function_name(std::string(f.function))) +
           "</span> " + markup_escape(where.empty() ? report::basename(std::string(f.module)) : where) + "</li>";
  }
  return out + "</ol>";
}

std::string delta(uint64_t before, uint64_t after) {
  if (after >= before) return "+" + format_bytes(after - before);
  return "&minus;" + format_bytes(before - after);
}

constexpr const char* kStyle =
    "body{font:14px system-ui,sans-serif;margin:2em;color:#222}h1{font-size:1.4em}h2{font-size:1.15em;"
    "margin-top:1.6em}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3em .6em;"
    "border-bottom:1px solid #ddd;vertical-align:top}td.n{text-align:right;white-space:nowrap}"
    ".new h2,.grown h2{color:#b00020}.gone h2,.shrunk h2{color:#1b6e20}summary{cursor:pointer;font-family:monospace}"
    ".frames{font-family:monospace;font-size:12px;margin:.3em 0 .3em 1.2em}.fn{font-weight:600}";

}  // namespace

std::string diff_html(const std::vector<report::SiteChange>& changes, const std::vector<report::Report>& old_runs,
                      const std::vector<report::Report>& new_runs) {
  std::map<std::string, SiteStack> later, earlier;
  add_stacks(later, new_runs);
  add_stacks(earlier, old_runs);
  std::string out = std::string(
                        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cudaleak diff</title>"
                        "<style>") +
                    kStyle + "</style></head><body>\n<h1>cudaleak diff</h1>\n<p>" +
                    markup_escape(
                        count_of(report::new_or_grown(changes), "leak site new or grown", "leak sites new or grown")) +
                    ", " + std::to_string(changes.size()) + " compared.</p>\n";
  const std::pair<report::Change, const char*> sections[] = {{report::Change::Grown, "Grown"},
                                                             {report::Change::New, "New"},
                                                             {report::Change::Shrunk, "Shrunk"},
                                                             {report::Change::Gone, "Gone"}};
  for (const auto& [change, title] : sections) {
    std::vector<const report::SiteChange*> rows;
    for (const report::SiteChange& c : changes)
      if (c.change == change) rows.push_back(&c);
    const std::string css = report::text_of(change);
    out += "<section class=\"" + markup_escape(css) + "\" id=\"" + markup_escape(css) + "\"><h2>" + title + " (" +
           std::to_string(rows.size()) + ")</h2>\n";
    if (rows.empty()) {
      out += "<p>none</p></section>\n";
      continue;
    }
    out +=
        "<table><tr><th>kind</th><th>before</th><th>after</th><th>change</th><th>count</th>"
        "<th>site and stack</th></tr>\n";
    for (const report::SiteChange* c : rows) {
      auto& from = c->change == report::Change::Gone ? earlier : later;
      auto it = from.find(c->site);
      const SiteStack* stack = it == from.end() ? nullptr : &it->second;
      const std::vector<int>& ranks = c->change == report::Change::Gone ? c->old_ranks : c->new_ranks;
      out += "<tr><td>" + markup_escape(report::text_of(c->kind)) + "</td><td class=\"n\">" +
             format_bytes(c->old_bytes) + "</td><td class=\"n\">" + format_bytes(c->new_bytes) +
             "</td><td class=\"n\">" + delta(c->old_bytes, c->new_bytes) + "</td><td class=\"n\">" +
             std::to_string(c->old_count) + " &rarr; " + std::to_string(c->new_count) + "</td><td><details><summary>" +
             markup_escape(c->site) + (stack && !stack->api.empty() ? " (" + markup_escape(stack->api) + ")" : "") +
             (ranks.empty() ? "" : " [ranks " + markup_escape(report::rank_ranges(ranks)) + "]") + "</summary>" +
             stack_html(stack) + "</details></td></tr>\n";
    }
    out += "</table></section>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace cudaleak::render
