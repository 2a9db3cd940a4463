// The one place a report is put together. Every path that produces one (the
// preload library's exit, signal, checkpoint, termination and out-of-memory
// reports, the per-test verdict of the GoogleTest listener and the pytest
// plugin, and a crash capture read back by the launcher or any command) fills
// a Capture with what it recorded, as recorded, and calls assemble(): the
// grouping, naming, symbolization, attribution of tensors, history and gate
// are applied here and nowhere else.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "report/gate/gate.h"
#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak::report {

// What a process recorded, unresolved: resources with interned stacks, and
// what the report says of the process.
struct Capture {
  RawSnapshot snapshot;
  StackLookup stacks;                       // an interned stack's return addresses
  std::unique_ptr<FrameResolver> resolver;  // in the process, or offline from its maps
  bool symbolized = false;                  // the resolver names functions (else modules and offsets)

  Reason reason = Reason::Exit;
  std::string checkpoint;
  int64_t timestamp = 0;
  Process process;
  std::vector<Module> modules;
  std::string tool_version;
  uint64_t duration_ns = 0;

  Timeline timeline;                                     // points and marks; sites named from the keys below
  std::vector<std::vector<RawSite>> timeline_sites;      // per device of `timeline`, in DeviceTimeline::sites order
  std::map<int, std::vector<RawPeakGroup>> peak_groups;  // per device: what was live at its peak
  std::vector<OomEvent> oom_events;                      // resolved as they happened
  std::optional<PyTorchView> pytorch;                    // the program's allocator views
  std::optional<JaxView> jax;
  std::optional<CupyPool> cupy;
  std::optional<PythonInfo> python;
  std::string gate_error;  // what the process knows makes a verdict impossible (memory it did not see)
};

struct AssembleSettings {
  size_t max_allocations = 16;             // per leak group; 0 = all
  const gate::GateConfig* gate = nullptr;  // null: no verdict (report.gate empty)
  // What a process remembers of its earlier reports (growth of leak groups
  // and tensors), applied before the gate, which counts growing tensors.
  std::function<void(Report&)> history;
};

struct Assembled {
  Report report;       // report.gate: the verdict as reported (gate::as_reported)
  GateResult verdict;  // the verdict whether or not the run asked for one
};

Assembled assemble(Capture capture, const AssembleSettings& settings);

// Sites of the timeline (a memory budget's grown sites) resolved and named
// as the report's peak groups are.
std::vector<PeakGroup> describe_sites(const std::vector<RawPeakGroup>& sites, const StackLookup& stacks,
                                      FrameResolver* resolver);

// A report written unsymbolized (symbolize=false) symbolized afterwards
// (`cudaleak symbolize`, `report --symbolize`): every frame resolved again
// (symbols::symbolize_report), then what is named from the frames named
// again as assemble() names it: each group's API and, where the gate named
// one, its site; notes' API; the API and place of the timeline's and the
// out-of-memory events' sites.
void symbolize_offline(Report& report, FrameResolver& resolver);

}  // namespace cudaleak::report
