#include "report/render/tensor_words.h"

#include <algorithm>

#include "common/quantities.h"
#include "common/record/steady_rise.h"
#include "report/model/frame_owner.h"
#include "report/model/place_name.h"
#include "report/oom/diagnose.h"

namespace cudaleak::render {

using report::frame_line;

namespace {

const report::Frame* segment_line(const report::TensorGroup& g) {
  return g.by_segment ? report::user_frame(g.stack) : nullptr;
}

// Groups whose text names no origin of their own: a workspace, the backward pass.
bool told_apart(const report::TensorGroup& g) {
  const report::Frame* pick = segment_line(g);
  return oom::is_cublas_workspace(g) || oom::reserved_by_backward(g, pick && !report::is_library_frame(*pick));
}

}  // namespace

std::string tensor_origin(const report::TensorGroup& g) {
  const report::Frame* pick = report::user_frame(g.stack);
  if (!pick) return "from lines PyTorch did not record (run with --pytorch-stacks true to name them)";
  // PyTorch keeps the innermost frames of a tensor's stack: in a deep
  // library (transformers' KV cache) they may not reach the program's line.
  const std::string library = report::is_library_frame(*pick)
                                  ? " (library code: no line of the program among the frames recorded)"
                                  : "";
  return (g.by_segment ? "in segments reserved by " : "from ") + frame_line(*pick) + library;
}

std::string tensor_group_text(const report::TensorGroup& g) {
  const report::Frame* pick = segment_line(g);
  const bool programs_line = pick && !report::is_library_frame(*pick);
  const bool backward = oom::reserved_by_backward(g, programs_line);
  // PyTorch reserves its cuBLAS workspace through its own allocator, so it
  // counts as allocated; it is no tensor of the program's, and the line that
  // first needed it keeps nothing.
  if (oom::is_cublas_workspace(g))
    return format_bytes(g.bytes) +
           " in PyTorch's cuBLAS workspace (one per handle and stream, kept while they live; "
           "CUBLAS_WORKSPACE_CONFIG sets its size)" +
           (programs_line ? ", first needed by " + frame_line(*pick)
            : backward    ? ", first needed by the backward pass"
                          : "");
  const std::string tensors = format_bytes(g.bytes) + " in " + count_of(g.count, "tensor", "tensors");
  if (backward)
    return tensors +
           " in segments reserved by the backward pass (on autograd's own thread, which has no line of the program)";
  return tensors + " " + tensor_origin(g);
}

namespace {

// Groups a reader would see as one line (the same origin, told apart only by
// frames deeper than the line) as one group, biggest first: bytes, counts and
// histories summed (every group of a view has one history, observation by
// observation), growing by the recording side's rule. Groups told their own
// way (a workspace, the backward pass) stay apart.
std::vector<report::TensorGroup> folded_by_origin(const std::vector<const report::TensorGroup*>& groups) {
  std::vector<report::TensorGroup> folded;
  std::vector<std::string> origins;
  for (const report::TensorGroup* g : groups) {
    const std::string origin = told_apart(*g) ? "" : tensor_origin(*g);
    const auto same = std::find(origins.begin(), origins.end(), origin);
    if (origin.empty() || same == origins.end()) {
      folded.push_back(*g);
      origins.push_back(origin);
      continue;
    }
    report::TensorGroup& into = folded[size_t(same - origins.begin())];
    into.bytes += g->bytes;
    into.count += g->count;
    std::vector<uint64_t>& history = into.bytes_history;
    if (history.size() < g->bytes_history.size())
      history.insert(history.begin(), g->bytes_history.size() - history.size(), 0);
    for (size_t i = 0; i < g->bytes_history.size(); ++i)  // aligned at the newest observation
      history[history.size() - g->bytes_history.size() + i] += g->bytes_history[i];
    into.growing = record::rose_steadily(history, into.bytes);
  }
  std::stable_sort(folded.begin(), folded.end(),
                   [](const report::TensorGroup& a, const report::TensorGroup& b) { return a.bytes > b.bytes; });
  return folded;
}

}  // namespace

std::string tensor_groups_text(const std::vector<const report::TensorGroup*>& groups) {
  const std::vector<report::TensorGroup> folded = folded_by_origin(groups);
  std::string s;
  for (size_t i = 0; i < folded.size() && i < 3; ++i) s += (i ? "; " : "") + tensor_group_text(folded[i]);
  return s;
}

std::string held_by_live_tensors(uint64_t allocated, const std::vector<report::TensorGroup>& groups,
                                 const std::string& held) {
  const uint64_t workspaces = std::min(oom::cublas_workspace_bytes(groups), allocated);
  if (!workspaces) return format_bytes(allocated) + " " + held + " by live tensors";
  return format_bytes(allocated - workspaces) + " " + held + " by live tensors and " + format_bytes(workspaces) +
         " by PyTorch's cuBLAS workspaces";
}

std::string live_tensor_lines(const std::vector<report::TensorGroup>& groups) {
  std::vector<const report::TensorGroup*> all;
  for (const report::TensorGroup& g : groups) all.push_back(&g);
  const std::vector<report::TensorGroup> folded = folded_by_origin(all);
  std::string out;
  for (size_t i = 0; i < folded.size() && i < 5; ++i) {
    const report::TensorGroup& g = folded[i];
    out += "    " + tensor_group_text(g);
    if (g.growing) {
      out += " [growing:";
      for (uint64_t b : g.bytes_history) out += " " + format_bytes(b) + " ->";
      out += " " + format_bytes(g.bytes) + "]";
    }
    out += "\n";
  }
  return out;
}

}  // namespace cudaleak::render
