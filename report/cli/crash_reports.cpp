#include "common/terminal_text.h"
#include "report/cli/crash_reports.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

#include "report/capture/crash_report.h"
#include "report/gate/gate_options.h"
#include "report/io/input_file.h"
#include "common/safe_output.h"
#include "report/model/json_io.h"
#include "common/options.h"
#include "report/render/text_report.h"

namespace cudaleak::cli {

namespace {

struct Built {
  report::Report report;
  Options options;
  bool aborted = false;
};

// A process that ended by abort() (SIGABRT) gets its report, but the gate
// does not count its leaks: a death test's child aborts on purpose with its
// memory outstanding, and LeakSanitizer does no leak check on abort either.
// The run still fails when the program it started aborts: the launcher dies
// of the same signal.
void leave_ungated(report::Report& r) {
  for (report::LeakGroup& g : r.leaks) g.fails_gate = false;
  r.gate.failed = false;
  r.gate.failing_groups = r.gate.failing_bytes = r.gate.failing_count = r.gate.failing_tensor_groups = 0;
  r.gate.failing_growth_sites = 0;
}

std::optional<Built> build(const std::string& text, const std::string& path) {
  try {
    capture::CrashCapture c = capture::parse_crash_capture(text);
    Built b;
    for (const OptionProblem& p : parse_options(c.options, b.options))
      spdlog::warn("cudaleak: {}: option of the crashed process ignored: {}", path, p.message);
    for (const std::string& s : c.skipped)
      spdlog::warn("cudaleak: {}: the crash handler could not read {}; records may be missing", path, s);
    gate::GateConfig gate = gate::make_gate_config(gate::settings_from(b.options), [](const std::string& line) {
      spdlog::error("cudaleak: {}", line);
    });
    b.report = capture::build_crash_report(c, {size_t(b.options.max_allocations)}, gate);
    b.aborted = c.signal == SIGABRT;
    if (b.aborted) leave_ungated(b.report);
    return b;
  } catch (const std::exception& e) {
    spdlog::error("cudaleak: {}: {}", path, e.what());
    return std::nullopt;
  }
}

}  // namespace

std::optional<report::Report> report_from_capture(const std::string& text, const std::string& path) {
  auto b = build(text, path);
  if (!b) return std::nullopt;
  return std::move(b->report);
}

std::string finish_capture(const std::string& path, int* rank) {
  if (rank) *rank = -1;
  std::string text;
  try {
    text = io::read_input_file(path, "crash capture");
  } catch (const std::exception& e) {
    spdlog::error("cudaleak: {}", e.what());
    return "error";
  }
  auto b = build(text, path);
  if (!b) return "error";
  if (rank) *rank = b->report.process.rank;
  std::string json = report::to_json(b->report);
  // In place of the capture just read, which was a regular file: as every
  // output of the command line, never through a link, into a FIFO or a device.
  safe_output::File f;
  if (!safe_output::write_whole(f, path.c_str(), json.data(), json.size(), safe_output::Targets::RegularFilesOnly)) {
    spdlog::error("cudaleak: cannot write {}: {}", path, safe_output::problem_of(f));
    return "error";
  }
  if (b->options.print_summary) {
    render::TextOptions t;
    t.max_groups = size_t(b->options.summary_groups);
    t.report_path = path;
    t.gen_suppressions = b->options.gen_suppressions;
    t.full_stacks = b->options.full_stacks;
    std::string out = terminal_safe(render::render_text(b->report, t));
    ssize_t ignored = write(STDERR_FILENO, out.data(), out.size());
    (void)ignored;
  }
  if (b->aborted && b->report.gate.evaluated)
    spdlog::warn(
        "cudaleak: process {} ended by abort (SIGABRT): its report is written, and the leak gate does not "
        "count its leaks (a death test's child aborts with its memory outstanding on purpose)",
        b->report.process.pid);
  if (!b->report.gate.error.empty()) return "error";
  return b->report.gate.failed ? "fail" : "pass";
}

}  // namespace cudaleak::cli
