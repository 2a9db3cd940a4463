// Resolves instruction pointers of this process to module, function (demangled)
// and file:line with elfutils libdw; falls back to dladdr for the function name
// where an object has no usable symbol table.
#pragma once
#include <memory>

#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak::symbols {

// The process's symbolizer, built once and kept for every later report of
// the process (OOM reports, snapshots, checkpoints, exit), with every answer
// remembered. When the dynamic linker has loaded objects since
// (dl_iterate_phdr's counters), it reads the module list again for the new
// addresses; when it has unloaded one, it forgets every answer, since an
// address may now be another object's. The caller serializes its use (the
// report lock).
report::FrameResolver& process_symbolizer();
// Its answers so far: looked up, and given again from memory.
struct SymbolizerCounts {
  uint64_t looked_up = 0, remembered = 0, restarts = 0;
};
SymbolizerCounts process_symbolizer_counts();

// Only the module of each frame, for reports written without symbolization.
std::unique_ptr<report::FrameResolver> make_module_resolver();

// For a report read later, maybe on another machine: each module is found by
// its recorded path, or in `debug_dirs` by name or .build-id/xx/rest[.debug],
// and used only when its GNU build-id matches the recorded one. Modules not
// found are listed in `missing`.
std::unique_ptr<report::FrameResolver> make_offline_symbolizer(const std::vector<report::Module>& modules,
                                                               const std::vector<std::string>& debug_dirs,
                                                               std::vector<std::string>* missing);

// Resolves again every frame of the report (groups, notes, the timeline's
// sites, out-of-memory events, reservations; inline frames expand) and marks
// it symbolized. What is named from the frames (a group's API and site) is
// named again by report::symbolize_offline (capture/assemble.h).
void symbolize_report(report::Report& report, report::FrameResolver& resolver);

}  // namespace cudaleak::symbols
