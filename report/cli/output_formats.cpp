#include "report/cli/output_formats.h"

#include <array>

#include "report/model/json_io.h"
#include "report/render/aggregate_text.h"
#include "report/render/annotations.h"
#include "report/render/diff_html.h"
#include "report/render/diff_output.h"
#include "report/render/html_report.h"
#include "report/render/text_report.h"

namespace cudaleak::cli {

namespace {

void text_of_view(ReportView& v, const TextSink& out) {
  out(v.by == "stack" ? report::render_text(v.view, v.text)
                      : render::aggregate_text(report::aggregate(v.view, v.by), v.by, v.top_rows));
}
// Streamed: a report of a million allocations is never held as one string.
void json_of_view(ReportView& v, const TextSink& out) { report::write_json(v.view, out); }
void html_of_view(ReportView& v, const TextSink& out) { out(render::html_report(std::move(v.view))); }

std::string junit_of(const ProcessReports& p) { return render::junit_xml(p.reports, p.unjudged); }
std::string sarif_of(const ProcessReports& p) {
  return render::sarif_json(p.reports, p.source_root, p.unjudged, p.invocation);
}
std::string github_of(const ProcessReports& p) { return render::github_annotations(p.reports, p.source_root); }
std::string gitlab_of(const ProcessReports& p) { return render::gitlab_code_quality(p.reports, p.source_root); }

std::string text_of_diff(const SiteComparison& c) { return render::diff_text(c.changes); }
std::string json_of_diff(const SiteComparison& c) { return render::diff_json(c.changes); }
std::string html_of_diff(const SiteComparison& c) { return render::diff_html(c.changes, c.before, c.after); }

// The table: help and docs list the formats in this order.
constexpr auto kFormats = std::to_array<OutputFormat>({
    {.name = "text",
     .title = "plain text",
     .chosen_by = ChosenBy::Format,
     .terminal_text = true,
     .extension = ".txt",
     .render_view = text_of_view,
     .render_diff = text_of_diff},
    {.name = "json",
     .title = "JSON",
     .chosen_by = ChosenBy::Format,
     .extension = ".json",
     .render_view = json_of_view,
     .render_diff = json_of_diff},
    {.name = "html",
     .title = "an HTML page",
     .chosen_by = ChosenBy::Format,
     .extension = ".html",
     .render_view = html_of_view,
     .render_diff = html_of_diff},
    {.name = "junit",
     .title = "JUnit XML",
     .chosen_by = ChosenBy::Format,
     .extension = ".xml",
     .render_processes = junit_of},
    {.name = "sarif",
     .title = "SARIF 2.1.0",
     .chosen_by = ChosenBy::Format,
     .extension = ".sarif",
     .render_processes = sarif_of},
    {.name = "github",
     .title = "GitHub workflow commands",
     .chosen_by = ChosenBy::Annotations,
     .extension = ".txt",
     .render_processes = github_of},
    {.name = "gitlab",
     .title = "a GitLab code-quality report",
     .chosen_by = ChosenBy::Annotations,
     .extension = ".json",
     .run_output = "gl-code-quality-report.json",
     .render_processes = gitlab_of},
});

}  // namespace

std::span<const OutputFormat> output_formats() { return kFormats; }

const OutputFormat* find_output_format(std::string_view name) {
  for (const OutputFormat& f : kFormats)
    if (f.name == name) return &f;
  return nullptr;
}

bool takes(Command command, const OutputFormat& format) {
  switch (command) {
    case Command::Report: return format.render_view || format.render_processes;
    case Command::Diff: return format.render_diff;
    case Command::Run:  // the run's own reports, one per process, as `report` writes them
      return format.render_processes;
  }
  return false;
}

std::vector<const OutputFormat*> formats_of(Command command, ChosenBy option) {
  std::vector<const OutputFormat*> out;
  for (const OutputFormat& f : kFormats)
    if (f.chosen_by == option && takes(command, f)) out.push_back(&f);
  return out;
}

}  // namespace cudaleak::cli
