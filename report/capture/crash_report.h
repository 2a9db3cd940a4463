// Crash captures (interpose/runtime/crash_capture.h) turned into reports,
// outside the process that crashed: by the launcher once the process died,
// or by any `cudaleak` command that reads one. The capture holds raw records,
// stacks as addresses and /proc/self/maps; the module of each address is found
// from the maps, its build-id read from the file, and every frame symbolized
// offline, as `cudaleak symbolize` does.
#pragma once
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "report/gate/gate.h"
#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak::capture {

inline constexpr const char* kCaptureFormat = "cudaleak-raw-capture";

struct CrashCapture {
  report::RawSnapshot snapshot;
  std::map<uint32_t, std::vector<uint64_t>> stacks;
  std::vector<report::Frame> python_frames;  // index = id - 1
  std::vector<std::string> maps;             // /proc/PID/maps as captured; modules are found on build
  report::Process process;
  int signal = 0;
  int64_t timestamp = 0;
  uint64_t elapsed_ns = 0;
  std::string tool_version;
  std::string options;               // CUDALEAK_OPTIONS of the crashed process
  report::Timeline timeline;         // points without sites, and the marks
  std::vector<std::string> skipped;  // parts the handler could not read
  std::deque<std::string> names;     // storage for the snapshot's hook names
};

bool is_crash_capture(const std::string& text);
// Throws report::FormatError with one line naming the problem.
CrashCapture parse_crash_capture(const std::string& text);

struct BuildSettings {
  size_t max_allocations = 16;
};
report::Report build_crash_report(const CrashCapture& capture, const BuildSettings& settings,
                                  const gate::GateConfig& gate);

// Modules from the text of /proc/PID/maps: each file mapped at offset 0, with
// its load bias and the build-id of the file on disk.
std::vector<report::Module> modules_from_maps(const std::vector<std::string>& lines);

}  // namespace cudaleak::capture
