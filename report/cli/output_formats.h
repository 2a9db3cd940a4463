// The output formats of cudaleak's commands, each named once in one table
// (output_formats.cpp): a new format is one row and its renderers. Which
// commands take a format follows from the renderers its row has, so a row
// cannot promise a command it cannot serve; option checks, help, docs
// (format_choices.h) and dispatch all read the same rows.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "report/analyze/views.h"
#include "report/cli/load.h"
#include "report/model/report.h"
#include "report/render/ci_formats.h"
#include "report/render/text_options.h"

namespace cudaleak::cli {

// What `report` and `diff` write when no --format is given.
inline constexpr std::string_view kDefaultFormat = "text";

enum class Command { Report, Diff, Run };

// The option that names a format. `report` and `diff` take --format NAME and
// `run` one --NAME FILE per format; annotations are told apart because
// `report` writes them instead of its rendering and `run` beside its files.
enum class ChosenBy { Format, Annotations };

// `cudaleak report`'s reports merged and filtered into one view, and how its
// text is asked for.
struct ReportView {
  report::Report view;
  report::TextOptions text;  // the listing by stack
  std::string by = "stack";  // else the fold: function, module, file, kind, rank
  size_t top_rows = 0;       // with a fold: at most this many rows (0: all)
};

// One report per process, as a CI system reads them (a suite, a run each).
struct ProcessReports {
  const std::vector<report::Report>& reports;
  std::string source_root;                         // locations relative to it
  std::vector<render::UnjudgedProcess> unjudged;   // `run`: processes with no report to show
  const render::Invocation* invocation = nullptr;  // `run`: its command and status
};

// `cudaleak diff`'s sites compared, and the runs they come from.
struct SiteComparison {
  const std::vector<report::SiteChange>& changes;
  const std::vector<report::Report>& before;
  const std::vector<report::Report>& after;
};

struct OutputFormat {
  std::string_view name;   // as the options take it
  std::string_view title;  // what it is, for help and docs
  ChosenBy chosen_by;
  // Terminal text is escaped by terminal_safe (a name from the program cannot
  // drive the terminal); a file format keeps its own quoting.
  bool terminal_text = false;
  std::string_view extension;   // of a file that holds it
  std::string_view run_output;  // `run --annotations`: where it goes unless told ("": stdout)
  // `report`: of the merged, filtered view (may throw std::invalid_argument
  // for a fold it cannot make), streamed in pieces.
  void (*render_view)(ReportView&, const TextSink&) = nullptr;
  // `report` and `run`: of one report per process.
  std::string (*render_processes)(const ProcessReports&) = nullptr;
  // `diff`: of the sites compared.
  std::string (*render_diff)(const SiteComparison&) = nullptr;
};

// Every format, in the order help and docs list them.
std::span<const OutputFormat> output_formats();
// nullptr when no row has this name.
const OutputFormat* find_output_format(std::string_view name);
bool takes(Command command, const OutputFormat& format);
// The formats `command` takes through `option`, in table order.
std::vector<const OutputFormat*> formats_of(Command command, ChosenBy option);

}  // namespace cudaleak::cli
