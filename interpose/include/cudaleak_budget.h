// Per-test leak checks and memory budgets for C++ test frameworks, shared by
// the GoogleTest listener (cudaleak_gtest.h) and the Catch2 scope
// (cudaleak_catch2.h): what fails a test and the message that says why, with
// each stack cut at the test's own frame (the framework's frames are in the
// report).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "cudaleak.h"

namespace cudaleak {

struct Budget {
  unsigned long long limit_memory = 0;  // a test's peak of device memory above its start, in bytes (0: no budget)
  long long limit_leaks = -1;  // bytes of CUDA memory a test may leave alive (-1: none; every counted leak fails)
};

// The budget of the test running now: the listener's defaults, changed by
// CUDALEAK_LIMIT_MEMORY and CUDALEAK_LIMIT_LEAKS inside the test.
inline Budget& current_budget() {
  static Budget budget;
  return budget;
}

struct BudgetFailure {
  std::string text;  // "" when the test is within its budgets
  std::string file;  // where to report it: the program's line of the biggest site ("" when unknown)
  int line = 0;
};

inline std::string format_size(unsigned long long bytes) {
  char out[32];
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes) / 1024;
  int u = 0;
  for (; v >= 1024 && u < 3; ++u) v /= 1024;
  std::snprintf(out, sizeof out, "%.1f %s", v, units[u]);
  return out;
}

// Each stack of `text` without the frames of the framework's internals
// (`skip`), cut after the first frame naming one of `test_frames` (the test's
// body); a stack that names none keeps its first `keep` frames.
inline std::string stop_at_test(const std::string& text, const std::vector<std::string>& test_frames,
                                const std::vector<std::string>& skip, size_t keep = 8) {
  std::string out;
  bool cut = false;
  size_t shown = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    const bool frame = line.rfind("    #", 0) == 0 || line.rfind("    ...", 0) == 0;
    if (!frame) {
      out += line + "\n";
      cut = false;
      shown = 0;
      continue;
    }
    bool skipped = false;
    for (const std::string& s : skip) skipped |= line.find(s) != std::string::npos;
    if (cut || skipped) continue;
    out += line + "\n";
    bool at_test = false;
    for (const std::string& t : test_frames) at_test |= line.find(t) != std::string::npos;
    if (at_test || ++shown == keep) {
      cut = true;
      out += "    ... (the rest of the stack is in the report)\n";
    }
  }
  return out;
}

struct StackCut {
  std::vector<std::string> test_frames, skip;
};

// The test's peak of device memory against budget.limit_memory.
inline BudgetFailure check_peak(const Budget& budget, const StackCut& cut) {
  BudgetFailure f;
  cudaleak_peak peak = {};
  std::string sites(65536, '\0');
  if (!budget.limit_memory || cudaleak_peak_read(&peak, sites.data(), sites.size()) != 0 ||
      peak.bytes <= budget.limit_memory)
    return f;
  sites.resize(sites.find('\0'));
  f.text = "cudaleak: this test used " + format_size(peak.bytes) + " of device memory at its peak" +
           (peak.device >= 0 ? " on device " + std::to_string(peak.device) : std::string()) + ", over its budget of " +
           format_size(budget.limit_memory) + " (CUDALEAK_LIMIT_MEMORY)";
  if (!sites.empty())
    f.text += "\nThe sites that grew most during the test:\n" + stop_at_test(sites, cut.test_frames, cut.skip);
  f.file = peak.file;
  f.line = peak.line;
  return f;
}

// The resources created since checkpoint `name` and still alive, against
// the gate and budget.limit_leaks.
inline BudgetFailure check_leaks(const char* name, const Budget& budget, const StackCut& cut) {
  BudgetFailure f;
  cudaleak_verdict verdict = {};
  std::string message(65536, '\0');
  if (cudaleak_gate_since(name, &verdict, message.data(), message.size()) != 0 || verdict.failing.count == 0) return f;
  if (budget.limit_leaks >= 0 && verdict.failing.bytes <= (unsigned long long)budget.limit_leaks) return f;
  message.resize(message.find('\0'));
  const unsigned long long n = verdict.failing.count;
  f.text = "cudaleak: " + std::to_string(n) + " CUDA resource" + (n == 1 ? "" : "s") + " (" +
           std::to_string(verdict.failing.bytes) + " bytes) created by this test " + (n == 1 ? "is" : "are") +
           " still alive";
  if (budget.limit_leaks >= 0)
    f.text += ", over its budget of " + format_size((unsigned long long)budget.limit_leaks) + " (CUDALEAK_LIMIT_LEAKS)";
  const unsigned long long others = verdict.alive.count - n;
  if (others) f.text += " (and " + std::to_string(others) + " suppressed, cached or not counted by the gate)";
  f.text += stop_at_test(message, cut.test_frames, cut.skip);
  f.file = verdict.file;
  f.line = verdict.line;
  return f;
}

}  // namespace cudaleak

// Inside a test: its own budgets, replacing the defaults. CUDALEAK_LIMIT_MEMORY
// starts the test's peak again from here: write it first.
#define CUDALEAK_LIMIT_MEMORY(bytes) \
  ((void)(::cudaleak::current_budget().limit_memory = (bytes)), (void)cudaleak_peak_begin(bytes))
#define CUDALEAK_LIMIT_LEAKS(bytes) ((void)(::cudaleak::current_budget().limit_leaks = (long long)(bytes)))
