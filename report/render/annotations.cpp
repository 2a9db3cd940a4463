#include "report/render/annotations.h"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "report/model/frame_owner.h"
#include "report/render/ci_common.h"
#include "report/render/oom_text.h"
#include "report/render/text_report.h"

namespace cudaleak::render {

namespace {

// One annotation: where, how bad, a title and the text.
struct Finding {
  std::string file;  // relative to the source root when under it; "" when unknown
  int line = 0;
  bool error = true;  // a leak the gate counts; an out-of-memory is a warning
  std::string title, message, rule, site;
};

std::string relative_to(const std::string& file, const std::string& root) {
  if (file.empty()) return file;
  const std::string normal = std::filesystem::path(file).lexically_normal().string();
  if (!root.empty() && normal.size() > root.size() && normal.compare(0, root.size(), root) == 0 &&
      (normal[root.size()] == '/' || root == "/"))
    return normal.substr(root == "/" ? 1 : root.size() + 1);
  return normal;
}

void place(Finding& f, const report::Frame* frame, const std::string& root) {
  if (!frame) return;
  f.file = relative_to(!frame->file.empty() ? std::string(frame->file) : std::string(frame->module), root);
  f.line = frame->file.empty() ? 0 : std::max(frame->line, 1);
}

std::vector<Finding> findings(const std::vector<report::Report>& reports, const std::string& root) {
  std::vector<Finding> out;
  for (const report::Report& r : reports) {
    for (const report::LeakGroup& g : r.leaks) {
      if (!g.fails_gate) continue;
      Finding& f = out.emplace_back();
      f.rule = "cudaleak/" + report::text_of(g.kind) + "-leak";
      f.title = "cudaleak: " + report::text_of(g.kind) + " leak";
      f.message = leak_headline(g) + " in " + process_name(r) + "\n" + leak_stack_text(g);
      f.site = g.site.empty() ? g.api : g.site;
      f.error = g.reachability != report::Reachability::StillReachable;  // counted only with leak_kinds=all
      place(f, leak_location(g.stack), root);
    }
    for (const report::OomEvent& e : r.oom_events) {
      if (e.recovered) continue;
      Finding& f = out.emplace_back();
      f.error = false;
      f.rule = "cudaleak/out-of-memory";
      f.title = "cudaleak: out of memory";
      f.message = render_event(e) + "in " + process_name(r);
      f.site = "out-of-memory " + e.api;
      place(f, report::user_frame(e.stack), root);
    }
  }
  return out;
}

// A workflow command's data: %, CR and LF escaped; a property's value also
// ':' and ','.
std::string escape_data(const std::string& s, bool property) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else if (property && c == ':') out += "%3A";
    else if (property && c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

// FNV-1a, 64 bits: a fingerprint that stays the same from run to run.
std::string fingerprint(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace

std::string github_annotations(const std::vector<report::Report>& reports, const std::string& source_root) {
  std::string out;
  for (const Finding& f : findings(reports, source_root)) {
    std::string props;
    if (!f.file.empty()) props += "file=" + escape_data(f.file, true);
    if (f.line > 0) props += ",line=" + std::to_string(f.line);
    props += std::string(props.empty() ? "" : ",") + "title=" + escape_data(f.title, true);
    out += std::string(f.error ? "::error " : "::warning ") + props + "::" + escape_data(f.message, false) + "\n";
  }
  return out;
}

std::string gitlab_code_quality(const std::vector<report::Report>& reports, const std::string& source_root) {
  nlohmann::json issues = nlohmann::json::array();
  std::map<std::string, int> seen;  // the same site twice (two processes): numbered, as GitLab wants unique ones
  for (const Finding& f : findings(reports, source_root)) {
    const std::string key = f.rule + "|" + f.file + "|" + f.site;
    const int n = seen[key]++;
    nlohmann::json issue{
        {"description", f.message},
        {"check_name", f.rule},
        {"fingerprint", fingerprint(n ? key + "#" + std::to_string(n) : key)},
        {"severity", f.error ? "major" : "minor"},
        {"location", {{"path", f.file.empty() ? "unknown" : f.file}, {"lines", {{"begin", std::max(f.line, 1)}}}}}};
    issues.push_back(issue);
  }
  return issues.dump(1) + "\n";
}

}  // namespace cudaleak::render
