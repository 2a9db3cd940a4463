#include "suppressions.h"

#include "summary.h"

#include "io/input_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cuda_frames.h"
#include "kinds.h"
#include "pattern.h"
#include "site.h"
#include "summary.h"

namespace cudaleak::gate {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Libraries that keep resources for the life of the process by design; each
// rule is documented in docs/ci.md#default-suppressions. Never a user's leak.
const char kDefaultRules[] = R"(# PyTorch keeps one cuBLAS / cuBLASLt / cuSOLVER / cuSPARSE / cuDNN handle per
# thread and device for the life of the process and deliberately never destroys
# it (destruction order at exit); the handles' workspaces and events stay allocated.
leak:at::cuda::getCurrentCUDABlasHandle
leak:at::cuda::getCurrentCUDABlasLtHandle
leak:at::cuda::getCurrentCUDASolverDnHandle
leak:at::cuda::getCurrentCUDASparseHandle
leak:at::native::getCudnnHandle
# XLA's stream executor (JAX, TensorFlow) keeps one cuBLAS and one cuDNN handle
# per device for the life of the process.
leak:stream_executor::cuda::CUDABlas::Init
leak:stream_executor::gpu::CudnnSupport::Init
# PyTorch creates its per-device pools of streams once and never destroys them
# (128 priority streams per device, seen on H200s with NCCL).
leak:c10::cuda::*initSingleStream kind:stream
leak:c10::cuda::*initDeviceStreamState kind:stream
leak:c10::cuda::*initGlobalStreamState kind:stream
# XLA keeps its backend's streams and its stream pool, with their events.
leak:xla::Backend::Backend kind:stream,event
leak:xla::StreamPool::BorrowStream kind:stream,event
# CuPy compiles a kernel on first use and keeps the loaded module in its kernel
# cache for the life of the process (cupy.cuda.function.Module.load).
leak:4cupy_4cuda_8function_6Module_load kind:module,library
)";

}  // namespace

std::vector<Rule> parse_rules(const std::string& text, const std::string& source_name) {
  std::vector<Rule> rules;
  std::istringstream in(text);
  std::string raw;
  for (int line_no = 1; std::getline(in, raw); ++line_no) {
    std::string line = trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    std::string where = source_name + ":" + std::to_string(line_no);
    auto fail = [&](const std::string& what) { throw SyntaxError(where + ": " + what + " in '" + line + "'"); };
    std::istringstream words(line);
    std::string word;
    Rule rule;
    rule.text = line;
    rule.source = where;
    words >> word;
    if (word.rfind("leak:", 0) != 0) fail("expected 'leak:PATTERN'");
    rule.pattern = word.substr(5);
    if (rule.pattern.empty()) fail("empty pattern");
    while (words >> word) {
      if (word.rfind("kind:", 0) == 0) {
        std::istringstream list(word.substr(5));
        std::string kind;
        while (std::getline(list, kind, ',')) {
          if (!kind_from_name(kind)) fail("unknown kind '" + kind + "'");
          rule.kinds.push_back(kind);
        }
        if (rule.kinds.empty()) fail("empty kind list");
      } else if (word.rfind("api:", 0) == 0) {
        rule.api = word.substr(4);
        if (rule.api.empty()) fail("empty api pattern");
      } else {
        fail("unknown qualifier '" + word + "' (expected kind: or api:)");
      }
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::vector<Rule> load_rules(const std::string& path) {
  try {
    return parse_rules(io::read_input_file(path, "suppressions file"), path);
  } catch (const io::InputFileError& e) {
    throw SyntaxError(e.what());
  }
}

const char* default_rules_text() { return kDefaultRules; }

const std::vector<Rule>& default_rules() {
  static const auto* rules = new std::vector<Rule>(parse_rules(kDefaultRules, "default"));  // never destroyed
  return *rules;
}

bool rule_matches(const Rule& rule, const report::LeakGroup& group) {
  if (!rule.kinds.empty()) {
    bool kind_ok = false;
    for (const auto& k : rule.kinds) kind_ok |= k == group.kind;
    if (!kind_ok) return false;
  }
  if (!rule.api.empty() && !pattern_matches(rule.api, group.api)) return false;
  for (const auto& f : group.stack) {
    if ((!f.function.empty() && pattern_matches(rule.pattern, f.function)) ||
        (!f.file.empty() && pattern_matches(rule.pattern, f.file)) ||
        (!f.module.empty() && pattern_matches(rule.pattern, f.module)))
      return true;
  }
  return false;
}

void apply_suppressions(report::Report& report, const std::vector<Rule>& rules) {
  std::vector<report::SuppressionUse> uses;
  for (auto& g : report.leaks) {
    for (const Rule& rule : rules) {
      if (!rule_matches(rule, g)) continue;
      g.suppressed_by = rule.text + " (" + rule.source + ")";
      auto it = std::find_if(uses.begin(), uses.end(),
                             [&](const report::SuppressionUse& u) { return u.source == rule.source; });
      if (it == uses.end()) it = uses.insert(uses.end(), report::SuppressionUse{rule.text, rule.source, 0, 0});
      it->count += g.count;
      it->bytes += g.bytes;
      break;
    }
  }
  report.summary = report::summarize(report.leaks);
  report.suppressions = uses;
}

std::string suggest_rule(const report::LeakGroup& group) {
  for (const report::Frame* f : report::program_frames(group.stack)) {
    if (f->function.empty()) continue;
    std::string name = f->function.substr(0, f->function.find('('));
    std::replace(name.begin(), name.end(), ' ', '*');  // rules are whitespace-separated
    std::string rule = "leak:" + name + " kind:" + group.kind;
    // main (or a script's <module>) is in every stack: alone it would hide
    // every leak of the kind, so the rule also names the API.
    if (report::is_program_entry(*f) && !group.api.empty()) rule += " api:" + group.api;
    return rule;
  }
  for (const auto& f : group.stack)
    if (!f.module.empty()) return "leak:" + report::basename(f.module) + " kind:" + group.kind;
  return "leak:" + group.api + " kind:" + group.kind;
}

}  // namespace cudaleak::gate
