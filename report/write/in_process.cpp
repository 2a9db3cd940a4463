#include "report/write/in_process.h"

#include <unistd.h>

#include <algorithm>

#include "report/gate/caching.h"
#include "report/model/builder.h"
#include "report/model/frame_owner.h"
#include "report/model/json_io.h"
#include "report/model/place_name.h"
#include "report/model/report_path.h"
#include "report/model/site_growth.h"
#include "report/model/summary.h"
#include "report/render/growth_text.h"
#include "report/render/oom_text.h"
#include "report/render/text_report.h"
#include "report/symbols/modules.h"
#include "report/symbols/symbolizer.h"

namespace cudaleak::report {

namespace {

// A report path as the summary shows it: relative to the working directory
// when it lies inside it (the launcher passes every path absolute), else whole.
std::string shown_path(const std::string& path) {
  char cwd[4096];
  if (path.empty() || path[0] != '/' || !getcwd(cwd, sizeof cwd)) return path;
  const std::string prefix = std::string(cwd) + '/';
  return prefix != "//" && path.starts_with(prefix) && path.size() > prefix.size() ? path.substr(prefix.size()) : path;
}

render::TextOptions text_options(const Printing& printing) {
  render::TextOptions text;
  text.max_groups = printing.max_groups;
  text.full_stacks = printing.full_stacks;
  return text;
}

std::string printed_text(const Report& r, const Delivered& d, const Printing& printing) {
  const std::string prefix = "==" + std::to_string(r.process.pid) + "==cudaleak: ";
  if (r.reason == Reason::Oom && !r.oom_events.empty())
    return prefix + render::render_event(r.oom_events.back()) + "  Report: " + d.path + "\n";
  if (r.reason == Reason::Signal || r.reason == Reason::Checkpoint) {
    // A process that never ends says what grows when asked: the sites, their rise and stack.
    std::string growth = render::render_growth(r, text_options(printing));
    return growth.empty() ? "" : prefix + growth.substr(1);
  }
  if (!printing.summary) return "";
  render::TextOptions text = text_options(printing);
  text.report_path = d.written ? shown_path(d.path) : "";
  text.gen_suppressions = printing.gen_suppressions;
  text.color = printing.color;
  return render::render_text(r, text);
}

// The program's line of the first group of `stacks` that has one.
template <typename Stacks>
void program_line(const Stacks& stacks, std::string& file, int& line) {
  for (const std::vector<Frame>* stack : stacks) {
    auto frames = program_frames(*stack);
    if (frames.empty() || frames.front()->file.empty()) continue;
    file = frames.front()->file;
    line = frames.front()->line;
    return;
  }
}

}  // namespace

std::unique_ptr<FrameResolver> this_process_resolver(bool symbolize, std::vector<Frame> python) {
  return with_python_frames(symbolize ? borrow(symbols::process_symbolizer()) : symbols::make_module_resolver(),
                            std::move(python));
}

Process this_process() { return symbols::current_process(); }
std::vector<Module> this_process_modules() { return symbols::loaded_modules(); }

SymbolLookups symbol_lookups() {
  symbols::SymbolizerCounts c = symbols::process_symbolizer_counts();
  return SymbolLookups{c.looked_up, c.remembered, c.restarts};
}

Delivered deliver(Capture capture, const AssembleSettings& settings, const Destination& destination,
                  const Printing& printing) {
  Delivered d;
  d.assembled = assemble(std::move(capture), settings);
  if (destination.assembled) destination.assembled(d.assembled);
  const Report& r = d.assembled.report;
  d.path = expand_report_path(destination.pattern, r.process.pid, destination.serial());
  d.written = destination.write(d.path, to_json(r), &d.problem);
  d.text = printed_text(r, d, printing);
  return d;
}

GateFailures judge(Capture capture, const AssembleSettings& settings, const Printing& printing) {
  GateFailures out;
  Assembled assembled = assemble(std::move(capture), settings);
  Report& r = assembled.report;
  // A checkpoint judges whether or not the run gates: the verdict, not r.gate.
  r.gate = out.verdict = assembled.verdict;
  if (!r.gate.failed) return out;  // below min_bytes the gate counts groups but passes
  render::TextOptions text = text_options(printing);
  text.max_frames = 8;  // the top of each stack: the rest is in the report
  out.text = render::render_gate_failures(r, text);
  for (const LeakGroup& g : r.leaks) {
    if (!g.fails_gate) continue;
    program_line(std::vector<const std::vector<Frame>*>{&g.stack}, out.file, out.line);
    break;  // groups come biggest first
  }
  return out;
}

void name_view_line(SiteGrowth& line) {
  line.where = !line.stack.empty()   ? where_of(line.stack, "")
               : line.view == "cupy" ? "cupy.get_default_memory_pool()"
                                     : "";
  line.steady = grew_steadily(line);
}

GrownSites describe_grown(const std::vector<RawPeakGroup>& grown, int device, const StackLookup& stacks,
                          FrameResolver* resolver, const Printing& printing) {
  GrownSites out;
  std::vector<PeakGroup> sites = describe_sites(grown, stacks, resolver);
  std::vector<const std::vector<Frame>*> by_size;  // biggest first
  for (const PeakGroup& g : sites) by_size.push_back(&g.stack);
  program_line(by_size, out.file, out.line);
  render::TextOptions text = text_options(printing);
  text.max_frames = 8;  // the top of each stack, as a per-test leak's message
  out.text = render::render_grown_sites(sites, device, text);
  return out;
}

std::string live_frame_json(Capture capture, size_t groups, const std::function<void(Report&)>& after) {
  AssembleSettings settings;
  settings.max_allocations = 1;
  Report r = assemble(std::move(capture), settings).report;
  if (after) after(r);
  // What caching allocators hold is the program's memory, not a leak: named
  // so that `top` can set it against what is in use.
  for (LeakGroup& g : r.leaks) g.cached_by = gate::caching_allocator_of(g);
  r.summary = summarize(r.leaks);
  std::stable_sort(r.leaks.begin(), r.leaks.end(),
                   [](const LeakGroup& a, const LeakGroup& b) { return a.bytes > b.bytes; });
  if (r.leaks.size() > groups) r.leaks.resize(groups);
  for (LeakGroup& g : r.leaks) g.allocations.clear();
  r.modules.clear();  // the frames are resolved already
  return to_json(r, -1);
}

}  // namespace cudaleak::report
