#include "report/gate/suppressions.h"

#include "common/quantities.h"

#include <algorithm>
#include <unordered_map>

#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/gate/site.h"
#include "report/model/summary.h"

namespace cudaleak::gate {

namespace {

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
# PyTorch's NCCL process group takes its work objects' events from a cache
# that never destroys them, on purpose ("cuda may be gone" at exit:
# c10d::CUDAEventCache); FSDP keeps its rate limiter's events (at most two
# per FSDP state) while the model lives.
leak:c10d::ProcessGroupNCCL:: kind:event
leak:torch/distributed/fsdp/_runtime_utils.py kind:event
# XLA keeps its backend's streams and its stream pool, with their events.
leak:xla::Backend::Backend kind:stream,event
leak:xla::StreamPool::BorrowStream kind:stream,event
# CuPy compiles a kernel on first use and keeps the loaded module in its kernel
# cache for the life of the process (cupy.cuda.function.Module.load).
leak:4cupy_4cuda_8function_6Module_load kind:module,library
)";

}  // namespace

const char* default_rules_text() { return kDefaultRules; }

void apply_suppressions(report::Report& report, const RuleSet& rules) {
  std::vector<report::SuppressionUse> uses;
  std::unordered_map<size_t, size_t> use_of_rule;  // rule -> its entry in uses
  for (auto& g : report.leaks) {
    size_t rule = rules.first_match(g);
    if (rule == rules.size()) continue;
    auto [it, first_use] = use_of_rule.emplace(rule, uses.size());
    if (first_use) uses.push_back(report::SuppressionUse{std::string(rules.text(rule)), rules.source(rule), 0, 0});
    report::SuppressionUse& use = uses[it->second];
    g.suppressed_by = use.rule + " (" + use.source + ")";
    use.count += g.count;
    add_saturating(use.bytes, g.bytes);
  }
  report.summary = report::summarize(report.leaks);
  report.suppressions = uses;
}

namespace {

// A name as one word of a rule: blanks (rules are blank-separated) and
// control characters (a newline would end the rule where pasted) become '*'.
std::string rule_word(std::string name) {
  std::string word;
  for (size_t i = 0; i < name.size(); ++i) {
    const auto u = static_cast<unsigned char>(name[i]);
    const bool c1 = u == 0xc2 && i + 1 < name.size() && (static_cast<unsigned char>(name[i + 1]) & 0xe0) == 0x80;
    if (c1) ++i;  // U+0080-U+009F, two bytes in UTF-8
    const char w = u <= 0x20 || u == 0x7f || c1 ? '*' : name[i];
    if (!(w == '*' && !word.empty() && word.back() == '*')) word += w;
  }
  return word;
}

}  // namespace

std::string suggest_rule(const report::LeakGroup& group) {
  const std::string kind = " kind:" + std::string(report::text_of(group.kind));
  // Only the user's own frames (report/model/frame_owner.h): a rule on a
  // library's frame (cuda_runtime.h's cudaMalloc<float>, transformers, libffi)
  // would hide that library's leaks in every program that uses it.
  const std::vector<const report::Frame*> own = report::user_frames(group.stack);
  for (const report::Frame* f : own) {
    if (f->function.empty()) continue;
    std::string name = rule_word(f->function.substr(0, f->function.find('(')));
    if (name.find_first_not_of('*') == std::string::npos) continue;  // a rule of wildcards alone hides every leak
    std::string rule = "leak:" + name + kind;
    // main (or a script's <module>) is in every stack: alone it would hide
    // every leak of the kind, so the rule also names the API.
    if (report::is_program_entry(*f) && !group.api.empty()) rule += " api:" + group.api;
    return rule;
  }
  // A stripped program: its own file, anchored at the end of the module's path.
  for (const report::Frame* f : own)
    if (!f->module.empty()) return "leak:/" + rule_word(report::basename(f->module)) + "$" + kind;
  return "# no rule for " + std::string(report::text_of(group.kind)) + " from " +
         (group.api.empty() ? std::string("an unknown API") : group.api) +
         ": no frame of the program's own in its stack, and a rule on library frames alone would hide their leaks "
         "in every program";
}

}  // namespace cudaleak::gate
