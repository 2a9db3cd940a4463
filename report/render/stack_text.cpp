#include "report/render/stack_text.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include "common/quantities.h"
#include "common/terminal_text.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/model/function_names.h"

namespace cudaleak::render {

using namespace report;  // the model this renderer reads

namespace {

void append_frame(std::string& out, size_t index, const Frame& f, bool full_names) {
  char head[64];
  if (f.python)  // its "address" is an id, not a place in memory
    std::snprintf(head, sizeof head, "    #%zu [python] in ", index);
  else std::snprintf(head, sizeof head, "    #%zu 0x%" PRIx64 " in ", index, f.ip);
  out += head;
  out += f.function.empty() ? "??"
                            : printable_name(full_names ? std::string(f.function) : readable_function_name(f.function));
  if (!f.file.empty()) out += " " + printable_name(f.file) + (f.line > 0 ? ":" + std::to_string(f.line) : "");
  if (!f.module.empty()) out += " (" + printable_name(basename(f.module)) + ")";
  if (f.inlined) out += " [inlined]";
  out += "\n";
}

// The frames a text stack shows, [first, end): outward of the program's entry
// (a script's outermost <module>: the interpreter below it) and the C
// runtime's frames at the outer end (below main, under a thread's function)
// say nothing about the program. With full_stacks, every frame.
// libcudart.so.13 and libcudart.so.13.0.96 (a link and its target, as
// different symbolizers name them) are one library.
bool same_library(const std::string& a, const std::string& b) {
  std::string x = basename(a), y = basename(b);
  return x.substr(0, x.find(".so")) == y.substr(0, y.find(".so")) && x.find(".so") != std::string::npos;
}

size_t shown_end(const std::vector<Frame>& stack, bool full_stacks) {
  size_t end = stack.size();
  if (full_stacks) return end;
  for (size_t i = stack.size(); i-- > 0;)
    if (stack[i].python && is_program_entry(stack[i])) {
      end = i + 1;
      break;
    }
  while (end > 1 && is_system_frame(stack[end - 1])) --end;
  return end;
}

// Static cudart's internal functions are local symbols named
// libcudart_static_<hash>, a hash that changes with every toolkit: they name
// nothing a reader knows. A run of them is counted and the public entry point
// the program called (the next frame, cudaMalloc) shown; where none follows,
// the innermost is shown under the API the report attributes the group to.
bool static_cudart_internal(const Frame& f) { return !f.python && f.function.str().starts_with("libcudart_static_"); }

size_t skip_static_cudart(std::string& out, const std::vector<Frame>& stack, size_t i, size_t end, Frame& shown,
                          const std::string& api) {
  size_t last = i;
  while (last + 1 < end && static_cudart_internal(stack[last + 1])) ++last;
  const bool entry_follows = last + 1 < end && is_cuda_api_name(stack[last + 1].function);
  const size_t hidden = entry_follows ? last - i + 1 : last - i;
  if (hidden) out += "    ... " + count_of(hidden, "frame", "frames") + " inside static cudart ...\n";
  if (entry_follows) return last + 1;
  shown = stack[last];
  if (!api.empty()) shown.function = api + " [static cudart]";
  return last;
}

}  // namespace

void append_stack(std::string& out, const std::vector<Frame>& stack, size_t first, size_t max_frames, bool full_stacks,
                  const std::string& api) {
  const size_t end = shown_end(stack, full_stacks);
  // The program's own frame nearest the resource is always shown: when the
  // frames before it (a framework's, often) would use up max_frames, the
  // last of those give way to a count.
  auto own = program_frames(stack);
  const size_t program = own.empty() ? end : size_t(own.front() - stack.data());
  size_t printed = 0, limit = full_stacks ? SIZE_MAX : max_frames;
  for (size_t i = first; i < end && printed < limit;) {
    if (!full_stacks && printed + 1 == max_frames && i < program && program < end) {
      if (program - i >= 2) {
        out += "    ... " + std::to_string(program - i) + " frames ...\n";
        i = program;
      } else {
        limit = max_frames + 1;  // one frame before it: shown rather than counted
      }
    }
    // A run of frames inside one CUDA library: only its outermost frame (the
    // entry point the program called) is shown, the rest counted.
    size_t run = i;
    while (!full_stacks && run + 1 < end && !stack[i].python && in_cuda_library(stack[i].module) &&
           same_library(stack[run + 1].module, stack[i].module))
      ++run;
    if (run - i >= 2) {
      out += "    ... " + std::to_string(run - i) + " frames in " + basename(stack[i].module) + " ...\n";
      i = run;
    }
    Frame renamed;
    const Frame* shown = &stack[i];
    if (!full_stacks && static_cudart_internal(stack[i])) {
      i = skip_static_cudart(out, stack, i, end, renamed, api);
      shown = renamed.function.empty() ? &stack[i] : &renamed;
    }
    append_frame(out, i, *shown, full_stacks);
    ++printed;
    ++i;
  }
}

std::string stack_text(const std::vector<Frame>& stack, const TextOptions& options, const std::string& api) {
  std::string out;
  append_stack(out, stack, 0, options.max_frames, options.full_stacks, api);
  return stack.empty() ? "    <no stack>\n" : out;
}

}  // namespace cudaleak::render
