#include "report/render/ci_common.h"

#include "common/quantities.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/render/text_report.h"

namespace cudaleak::render {

std::string leak_headline(const report::LeakGroup& g) {
  std::string s = report::text_of(g.kind) + " leak: " + std::to_string(g.count) +
                  (g.count == 1 ? " resource" : " resources");
  if (g.bytes) s += ", " + cudaleak::format_bytes(g.bytes);
  s += ", created by " + g.api;
  // Lost or still reachable (docs/ci.md#lost-or-still-reachable), where the report's scan ran.
  if (g.reachability == report::Reachability::DefinitelyLost) s += ", definitely lost";
  if (g.reachability == report::Reachability::NotDetermined) s += ", not determined whether still referenced";
  if (g.reachability == report::Reachability::StillReachable)
    s += ", still reachable" + (g.referenced_from.empty() ? "" : " (referenced from " + g.referenced_from + ")");
  return s;
}

std::string leak_stack_text(const report::LeakGroup& g) {
  std::string out;
  for (size_t i = 0; i < g.stack.size(); ++i) {
    const auto& f = g.stack[i];
    out += "#" + std::to_string(i) + " " + (f.function.empty() ? "??" : f.function);
    if (!f.file.empty()) out += " " + f.file + ":" + std::to_string(f.line);
    out += " (" + f.module + ")\n";
  }
  return out;
}

// The program's frame nearest the allocation with a source line; without
// debug info, the nearest program frame at all (its module locates it).
const report::Frame* leak_location(const std::vector<report::Frame>& stack) {
  const std::vector<const report::Frame*> frames = report::program_frames(stack);
  for (const report::Frame* f : frames)
    if (!f->file.empty()) return f;
  for (const report::Frame* f : frames)
    if (!f->module.empty()) return f;
  return nullptr;
}

// "train (rank 3, pid 812 on node2)": a job's processes are told apart by rank.
std::string process_name(const report::Report& r) {
  return report::basename(r.process.exe) + " (" +
         (r.process.rank >= 0 ? "rank " + std::to_string(r.process.rank) + ", " : "") + "pid " +
         std::to_string(r.process.pid) +
         (r.process.rank >= 0 && !r.process.host.empty() ? " on " + r.process.host : "") + ")";
}

std::string markup_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
        else out += c;
    }
  }
  return out;
}

}  // namespace cudaleak::render
