// The one entry through which the preload library turns what it recorded
// into what a user reads: a Capture (report/capture/assemble.h) assembled,
// symbolized, rendered and written. interpose/ includes this and the floor
// (common/record/), never a renderer or the symbolizer, so that the
// recording half depends on the reading half only here
// (tests/layers/check_layers.py lists what else it may include, and why).
// Nothing here runs in a hook: only at reports, verdicts and `top` frames,
// under the preload's report lock.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/record/frame.h"
#include "common/record/raw.h"
#include "report/capture/assemble.h"
#include "report/model/report.h"

namespace cudaleak::report {

// This process's frames: its symbols (looked up once per process, later
// reports reuse them) or, with symbolize off, only each frame's module; and
// the Python frames the process interned (index = id - 1).
std::unique_ptr<FrameResolver> this_process_resolver(bool symbolize, std::vector<Frame> python);
// This process (pid, executable, arguments, its place in a job) and the
// objects it has loaded, read now.
Process this_process();
std::vector<Module> this_process_modules();
// The process symbolizer's answers so far, for the verbose log.
struct SymbolLookups {
  uint64_t looked_up = 0, remembered = 0, restarts = 0;
};
SymbolLookups symbol_lookups();

// What the printed text shows (the options of the same names).
struct Printing {
  bool summary = true;  // print_summary: the text at exit and termination
  size_t max_groups = 10;
  bool full_stacks = false;
  bool gen_suppressions = false;
  bool color = false;
};

// Where a report goes and how it is written there: the preload library's
// own write (safe output, descriptor headroom, the launcher's copy).
struct Destination {
  std::string pattern;               // the output option: %p the pid, %n the serial
  std::function<unsigned()> serial;  // the report's number, taken once it is assembled
  // Called once the report is assembled, before anything is written.
  std::function<void(const Assembled&)> assembled;
  // Writes `json` to `path`, which it may change to where it went; false
  // and *problem on failure.
  std::function<bool(std::string& path, const std::string& json, std::string* problem)> write;
};

struct Delivered {
  Assembled assembled;
  std::string path;  // as expanded, then where it went
  bool written = false;
  std::string problem;  // why it was not written
  // What to print for this report's reason ("" nothing): at an
  // out-of-memory the event's story, at a snapshot or checkpoint what
  // grows, at exit and termination the summary (Printing::summary).
  std::string text;
};

// The report of `capture`: assembled, written as JSON to the destination,
// and its text rendered.
Delivered deliver(Capture capture, const AssembleSettings& settings, const Destination& destination,
                  const Printing& printing);

// A per-test verdict (GoogleTest listener, pytest plugin): the gate's
// verdict on `capture`, and when it fails, the failing groups with the top of
// their stacks and the program's line of the biggest.
struct GateFailures {
  GateResult verdict;
  std::string text;
  std::string file;
  int line = 0;
};
GateFailures judge(Capture capture, const AssembleSettings& settings, const Printing& printing);

// A memory budget's grown sites (cudaleak_peak_read, limit_memory) named,
// the text that lists them, and the program's line of the biggest.
struct GrownSites {
  std::string text;
  std::string file;
  int line = 0;
};
GrownSites describe_grown(const std::vector<RawPeakGroup>& grown, int device, const StackLookup& stacks,
                          FrameResolver* resolver, const Printing& printing);

// A line of a framework's view (`line.view`: "pytorch", "jax", "cupy") as
// growth by site tells it: named as a site is (`where`; CuPy's pool, a line
// of no stack, by its pool) and judged by the rule sites grow by (`steady`).
void name_view_line(SiteGrowth& line);

// A `top` frame: the biggest live groups without their allocations, what
// caching allocators hold named, as JSON for the live socket. `after`
// adds what the process keeps beside the capture (the frameworks' lines).
std::string live_frame_json(Capture capture, size_t groups, const std::function<void(Report&)>& after);

}  // namespace cudaleak::report
