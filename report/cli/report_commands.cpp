#include "common/terminal_text.h"
#include "report/cli/report_commands.h"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <tuple>

#include "report/capture/assemble.h"
#include "report/render/ci_formats.h"
#include "report/model/json_io.h"
#include "common/kinds.h"
#include "common/quantities.h"
#include "common/tty_color.h"
#include "report/cli/format_choices.h"
#include "report/cli/load.h"
#include "report/cli/output_formats.h"
#include "report/model/merge.h"
#include "report/cli/parse_errors.h"
#include "report/symbols/symbolizer.h"
#include "report/analyze/views.h"

namespace cudaleak::cli {

namespace {

// A count, a size or a rank: digits only (a "-1" would wrap to the largest
// value and silently select nothing).
CLI::Validator whole_number(const std::string& name, const std::string& expected, size_t max_digits = 19) {
  return CLI::Validator(
      [expected, max_digits](std::string& value) -> std::string {
        bool digits = !value.empty() && value.size() <= max_digits &&
                      value.find_first_not_of("0123456789") == std::string::npos;
        return digits ? "" : "expected " + expected + ", got '" + value + "'";
      },
      name, name);
}

// A job of more than kJobRanks ranks lists its first kJobGroups leak groups
// unless --top or --ranks all says otherwise: the job's text fits a screen.
constexpr size_t kJobRanks = 8, kJobGroups = 10;

struct ReportArgs {
  std::vector<std::string> files;
  report::Filter filter;
  std::vector<std::string> kinds;  // names, checked as given
  std::vector<int> device;         // 0 or 1 value
  std::optional<size_t> top;       // unset: every group, or in a job of many ranks the first kJobGroups
  std::string ranks;               // "all": a job's ranks each told apart
  std::string by = "stack";
  std::string format{kDefaultFormat};
  std::string output;
  bool symbolize = false;
  bool gen_suppressions = false;
  bool full_stacks = false;
  std::string color = "auto";
  std::vector<std::string> debug_dirs;
  std::string annotations;  // github or gitlab: the gate's leaks as CI annotations instead
  std::string source_root;
};

bool symbolize_in_place(std::vector<report::Report>& reports, const std::vector<std::string>& debug_dirs) {
  for (auto& r : reports) {
    std::vector<std::string> missing;
    auto resolver = symbols::make_offline_symbolizer(r.modules, debug_dirs, &missing);
    for (const auto& m : missing) spdlog::warn("cudaleak: no file with the recorded build-id for {}", m);
    report::symbolize_offline(r, *resolver);
  }
  return true;
}

// Where SARIF and annotation paths are relative to: --source-root, else the git work tree here.
std::string source_root_of(const std::string& given) {
  std::string root = given.empty() ? render::find_source_root(".")
                                   : std::filesystem::absolute(given).lexically_normal().string();
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

int run_report(ReportArgs& a) {
  auto loaded = load_reports(a.files);
  if (!loaded) return 2;
  if (a.symbolize) symbolize_in_place(*loaded, a.debug_dirs);
  if (!a.annotations.empty()) {  // per process, as the run wrote them
    const ProcessReports input{*loaded, source_root_of(a.source_root)};
    return write_output(a.output, find_output_format(a.annotations)->render_processes(input)) ? 0 : 2;
  }
  const OutputFormat& format = *find_output_format(a.format);  // the option's check found it
  if (format.render_processes) {  // per process, as `cudaleak run --junit/--sarif` writes them
    std::vector<report::ProcessSummary> earlier;
    std::vector<report::Report> latest = report::latest_of_each_process(std::move(*loaded), earlier);
    // A job's suites in rank order; a program run twice numbered in the order it started.
    std::stable_sort(latest.begin(), latest.end(), [](const report::Report& x, const report::Report& y) {
      return std::tie(x.process.rank, x.process.start_unix_ns, x.process.pid) <
             std::tie(y.process.rank, y.process.start_unix_ns, y.process.pid);
    });
    const ProcessReports input{latest, source_root_of(a.source_root)};
    return write_output(a.output, format.render_processes(input)) ? 0 : 2;
  }
  report::Report merged = report::merge_reports(std::move(*loaded));
  if (!a.device.empty()) a.filter.device = a.device.front();
  for (const std::string& name : a.kinds) report::parse_name(name, a.filter.kinds.emplace_back());
  // Groups a listing shows without filters: suppressed ones only when asked.
  const size_t groups = std::count_if(merged.leaks.begin(), merged.leaks.end(), [&](const report::LeakGroup& g) {
    return a.filter.include_suppressed || g.suppressed_by.empty();
  });
  report::Report view = report::filter_report(std::move(merged), a.filter);
  // The text listing says so in its first line; JSON and HTML on stderr.
  if (view.leaks.empty() && groups && (!format.terminal_text || a.by != "stack"))
    spdlog::warn("cudaleak: no leak group matches the filters ({} in the report)",
                 count_of(groups, "leak group", "leak groups"));
  // --top N: the first N groups, or with --by the first N rows, which are
  // counted over every group (aggregate_text cuts them). Folds and the cut of
  // a job's groups belong to the terminal listing; files keep every group.
  const bool rows = format.terminal_text && a.by != "stack";
  // A job of many ranks reads in one screen: its first groups, unless more are asked for.
  const bool all_ranks = a.ranks == "all" || !a.filter.ranks.empty();
  const size_t ranked = std::count_if(view.processes.begin(), view.processes.end(),
                                      [](const report::ProcessSummary& p) { return p.process.rank >= 0; });
  const size_t top = a.top ? *a.top : (ranked > kJobRanks && !all_ranks && format.terminal_text ? kJobGroups : 0);
  if (a.top && *a.top && !rows && view.leaks.size() > *a.top) view.leaks.resize(*a.top);
  ReportView rendering;
  rendering.by = a.by;
  rendering.top_rows = a.top.value_or(0);
  report::TextOptions& options = rendering.text;
  options.max_groups = top;
  options.all_ranks = all_ranks;
  options.gen_suppressions = a.gen_suppressions;
  options.full_stacks = a.full_stacks;
  if (view.leaks.empty()) options.filtered_out = groups;
  options.stored_gate = true;
  options.color = cudaleak::color_wanted(a.color, a.output.empty() ? STDOUT_FILENO : -1);
  rendering.view = std::move(view);
  if (!format.terminal_text)
    return write_output(a.output, [&](const TextSink& sink) { format.render_view(rendering, sink); }) ? 0 : 2;
  std::string text;
  try {
    format.render_view(rendering, [&](std::string_view piece) { text += piece; });
  } catch (const std::invalid_argument& e) {  // a fold --by cannot make
    spdlog::error("cudaleak: {}", e.what());
    return 2;
  }
  return write_output(a.output, terminal_safe(text)) ? 0 : 2;
}

int run_diff(const std::vector<std::string>& old_files, const std::vector<std::string>& new_files,
             const std::string& format, const std::string& output) {
  auto before = load_reports(old_files);
  auto after = load_reports(new_files);
  if (!before || !after) return 2;
  const auto changes = report::diff_reports(*before, *after);
  const OutputFormat& chosen = *find_output_format(format);  // the option's check found it
  std::string text = chosen.render_diff({changes, *before, *after});
  if (chosen.terminal_text) text = terminal_safe(text);
  if (!write_output(output, text)) return 2;
  return report::new_or_grown(changes) ? 1 : 0;
}

}  // namespace

void add_report_commands(CLI::App& app, int& status) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* rep = app.add_subcommand("report", "Read reports: cudaleak report [options] FILE...");
  rep->add_option("files", args->files, "Report files, or folders of them (a job's reports; several are merged)")
      ->required();
  rep->add_option("--kind", args->kinds, "Only these kinds (repeatable)")
      ->check(CLI::Validator(
          [](std::string& kind) -> std::string {
            if (kind_from_name(kind)) return "";
            std::vector<std::string> names;
            for (int k = 0; k < kKindCount; ++k) names.emplace_back(kind_name(Kind(k)));
            std::string n = nearest(kind, names);
            return "unknown kind '" + kind + "'" + (n.empty() ? "" : " (did you mean " + n + "?)");
          },
          "KIND", "kind"));
  rep->add_option("--device", args->device, "Only this device")->expected(1);
  rep->add_option("--min-bytes", args->filter.min_bytes, "Only groups of at least this many bytes")
      ->check(whole_number("BYTES", "a number of bytes (from 0)"));
  rep->add_option("--module", args->filter.module, "Only groups with a frame in a matching module (pattern)");
  rep->add_option("--function", args->filter.function, "Only groups with a matching function in the stack (pattern)");
  rep->add_flag("--suppressed", args->filter.include_suppressed, "Include suppressed groups");
  rep->add_option("--top", args->top, "At most N groups (or rows)")->check(whole_number("N", "a count (from 0)"));
  rep->add_option("--rank", args->filter.ranks, "Only these ranks of a job (repeatable), each told apart")
      ->check(whole_number("RANK", "a rank (a number from 0)", 7));
  rep->add_option("--ranks", args->ranks, "all: tell a job's ranks apart (default: what ranks share is told once)")
      ->check(CLI::IsMember({"all"}));
  rep->add_option("--by", args->by, "Group by stack, function, module, file, kind or rank")
      ->check(CLI::IsMember({"stack", "function", "module", "file", "kind", "rank"}));
  add_format_option(*rep, Command::Report, ChosenBy::Format, args->format);
  rep->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  add_format_option(*rep, Command::Report, ChosenBy::Annotations, args->annotations,
                    "Instead of the text: the leaks the gate counts as ");
  rep->add_option(
      "--source-root", args->source_root,
      "SARIF and annotation paths are relative to DIR (default: the git work tree of the current directory)");
  rep->add_flag("--symbolize", args->symbolize, "Symbolize frames again from the modules' files (offline)");
  rep->add_flag("--full-stacks", args->full_stacks,
                "Show every frame (runs inside CUDA libraries and the C runtime below main included)");
  rep->add_flag("--gen-suppressions", args->gen_suppressions,
                "Print a suppression rule for each leak group shown (as cudaleak run --gen-suppressions)");
  rep->add_option("--color", args->color,
                  "Colour the text: auto (on a terminal, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  rep->add_option("--debug-dir", args->debug_dirs, "Where to look for modules and debug files (repeatable)");
  rep->callback([args, &status] { status = run_report(*args); });

  auto diff_old = std::make_shared<std::string>();
  auto diff_new = std::make_shared<std::string>();
  auto diff_format = std::make_shared<std::string>(kDefaultFormat);
  CLI::App* diff = app.add_subcommand(
      "diff", "Leak sites new, gone, grown and shrunk: cudaleak diff OLD NEW (status 1 when any is new or grown)");
  diff->add_option("old", *diff_old, "Report, or folder of reports, of the earlier run")->required();
  diff->add_option("new", *diff_new, "Report, or folder of reports, of the later run")->required();
  auto diff_out = std::make_shared<std::string>();
  add_format_option(*diff, Command::Diff, ChosenBy::Format, *diff_format);
  diff->add_option("-o,--output", *diff_out, "Write to FILE instead of stdout");
  diff->callback([=, &status] { status = run_diff({*diff_old}, {*diff_new}, *diff_format, *diff_out); });

  auto merge_files = std::make_shared<std::vector<std::string>>();
  auto merge_out = std::make_shared<std::string>();
  CLI::App* merge = app.add_subcommand("merge", "One report from many processes: cudaleak merge FILE... -o OUT");
  merge->add_option("files", *merge_files, "Reports, or folders of them, to merge")->required();
  merge->add_option("-o,--output", *merge_out, "Merged report")->required();
  merge->callback([=, &status] {
    auto loaded = load_reports(*merge_files);
    if (!loaded) {
      status = 2;
      return;
    }
    const report::Report merged = report::merge_reports(std::move(*loaded));
    status = write_output(*merge_out, [&](const TextSink& sink) { report::write_json(merged, sink); }) ? 0 : 2;
  });

  auto sym_file = std::make_shared<std::string>();
  auto sym_out = std::make_shared<std::string>();
  auto sym_dirs = std::make_shared<std::vector<std::string>>();
  CLI::App* sym = app.add_subcommand("symbolize",
                                     "Symbolize a report written with symbolize=false: cudaleak symbolize FILE -o OUT");
  sym->add_option("file", *sym_file, "Report")->required();
  sym->add_option("-o,--output", *sym_out, "Symbolized report")->required();
  sym->add_option("--debug-dir", *sym_dirs, "Where to look for modules and debug files (repeatable)");
  sym->callback([=, &status] {
    auto r = load_report(*sym_file);
    if (!r) {
      status = 2;
      return;
    }
    std::vector<report::Report> one{std::move(*r)};
    symbolize_in_place(one, *sym_dirs);
    status = write_output(*sym_out, [&](const TextSink& sink) { report::write_json(one[0], sink); }) ? 0 : 2;
  });
}

}  // namespace cudaleak::cli
