#include "report/render/ci_formats.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <utility>
#include <nlohmann/json.hpp>

#include "common/quantities.h"
#include "report/analyze/job_fold.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/render/ci_common.h"
#include "report/render/oom_text.h"
#include "report/render/text_report.h"

namespace cudaleak::render {

namespace {

// What bounds the files of a job of many ranks (docs/ci.md#a-job-of-many-ranks):
// what ranks share is written once, and past these the rest is cut with a
// line that says so.
constexpr size_t kStackBytes = 4u << 20;    // JUnit: failure bodies (stacks) in all
constexpr size_t kMessageBytes = 4u << 20;  // SARIF: result messages in all
constexpr size_t kMessageMax = 16u << 10;   // SARIF: one result's message
constexpr size_t kMaxResults = 5000;        // SARIF: code scanning shows at most 5,000 of a run

// The ranks of a job that share a finding; the first of them carries it whole.
struct Shared {
  std::vector<int> ranks;
  const report::Report* first = nullptr;
  size_t written = 0;
};

// A leak the gate counts, as ranks share it: its kind, site and stack. ""
// for a process of no rank: each such process is told on its own.
std::string shared_leak_key(const report::Report& r, const report::LeakGroup& g) {
  if (r.process.rank < 0) return "";
  return report::text_of(g.kind) + '\n' + g.site + '\n' + leak_stack_text(g);
}

// "on 512 ranks (1-1023 odd)"
std::string on_ranks(const std::vector<int>& ranks) {
  return "on " + std::to_string(ranks.size()) + " ranks (" + report::rank_list(ranks) + ")";
}

// A message cut at a line's end within `max` bytes, saying so.
std::string bounded(const std::string& text, size_t max, const std::string& why) {
  if (text.size() <= max) return text;
  size_t cut = text.rfind('\n', max);
  if (cut == std::string::npos) cut = max;
  return text.substr(0, cut) + "\n... (cut: " + why + ")\n";
}

// SARIF result properties naming the process of a job: rank, local rank,
// world size and host (each only where the report has it), and pid.
nlohmann::json process_properties(const report::Report& r) {
  nlohmann::json p{{"pid", r.process.pid}};
  if (r.process.rank >= 0) p["rank"] = r.process.rank;
  if (r.process.local_rank >= 0) p["localRank"] = r.process.local_rank;
  if (r.process.world_size > 0) p["worldSize"] = r.process.world_size;
  if (!r.process.host.empty()) p["host"] = r.process.host;
  return p;
}

// Names CI history follows from run to run: the program (and its rank), the
// kind and the leak site; never a pid or a byte count.
std::string suite_name(const report::Report& r) {
  return "cudaleak: " + report::basename(r.process.exe) +
         (r.process.rank >= 0 ? " (rank " + std::to_string(r.process.rank) + ")" : "");
}

std::string case_name(const report::LeakGroup& g) {
  return report::text_of(g.kind) + " leak at " + (g.site.empty() ? g.api : g.site);
}

// A path as a URI reference: RFC 3986's unreserved characters and '/' stay,
// every other byte is percent-encoded (a space, '#', '%', UTF-8).
std::string uri_escape(const std::string& path) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == ':' || c == '@')
      out += static_cast<char>(c);
    else out += {'%', hex[c >> 4], hex[c & 15]};
  }
  return out;
}

// A file's URI relative to the source root ("src/a.cu" with uriBaseId
// SRCROOT), or absolute ("file:///usr/include/x.h") when outside it.
std::pair<std::string, bool> location_uri(const std::string& file, const std::string& root) {
  const std::string normal = file.empty() ? file : std::filesystem::path(file).lexically_normal().string();
  if (!root.empty() && normal.size() > root.size() && normal.compare(0, root.size(), root) == 0 &&
      (normal[root.size()] == '/' || root == "/"))
    return {uri_escape(normal.substr(root == "/" ? 1 : root.size() + 1)), true};
  return {normal.empty() || normal[0] != '/' ? uri_escape(normal) : "file://" + uri_escape(normal), false};
}

// A result's one location: the frame's file (relative to SRCROOT when it
// lies under the source root) and line.
// A frame without a source line (no debug info) is located at its module,
// the binary or library, with no region, and named by its function where known.
nlohmann::json locations(const report::Frame& f, const std::string& source_root) {
  using nlohmann::json;
  const bool has_source = !f.file.empty();
  auto [uri, relative] = location_uri(has_source ? std::string(f.file) : std::string(f.module), source_root);
  json artifact{{"uri", uri}};
  if (relative) artifact["uriBaseId"] = "SRCROOT";
  json physical{{"artifactLocation", artifact}};
  if (has_source) physical["region"] = {{"startLine", std::max(f.line, 1)}};
  json location{{"physicalLocation", physical}};
  if (!f.function.empty()) location["logicalLocations"] = json::array({json{{"fullyQualifiedName", f.function}}});
  return json::array({location});
}

// The rules' help, as the alert page of a code-scanning service shows it.
nlohmann::json help(const std::string& text, const std::string& markdown, const std::string& page) {
  return {{"help", {{"text", text}, {"markdown", markdown}}}, {"helpUri", std::string(CUDALEAK_DOCS_URL) + "/" + page}};
}

nlohmann::json leak_rule(const std::string& id, const std::string& kind) {
  nlohmann::json rule{
      {"id", id},
      {"name", kind + "Leak"},
      {"shortDescription", {{"text", "CUDA " + kind + " resource never released"}}},
      {"fullDescription",
       {{"text", "A CUDA " + kind +
                     " resource was still alive when the process ended (or at the report), and "
                     "the leak gate counts it: no suppression, baseline or caching allocator accounts for it. The "
                     "location is the program's own frame nearest the call that created it."}}},
      {"defaultConfiguration", {{"level", "error"}}}};
  rule.update(
      help("Release the resource on every path (free, destroy or unload it), or, when it is kept on purpose for the "
           "life of the process, add a suppression rule (cudaleak report --gen-suppressions) or a baseline.",
           "Release the resource on every path (free, destroy or unload it). When it is kept on purpose for the life "
           "of the process, add a suppression rule (`cudaleak report --gen-suppressions reports/*.json`) or a "
           "baseline (`cudaleak baseline`). The message has the whole stack; the JSON report has every allocation.",
           "ci.md#suppressions"));
  return rule;
}

nlohmann::json oom_rule(const std::string& id) {
  nlohmann::json rule{{"id", id},
                      {"name", "OutOfMemory"},
                      {"shortDescription", {{"text", "A CUDA allocation failed with out-of-memory"}}},
                      {"fullDescription",
                       {{"text",
                         "A CUDA allocation returned out-of-memory and the program did not recover by retrying. The "
                         "message says what held the device's memory at that moment: the program's own live "
                         "allocations by site, caching allocators, other processes. It never fails the gate."}}},
                      {"defaultConfiguration", {{"level", "warning"}}}};
  rule.update(
      help("Read the diagnosis in the message: free or reuse what is still held from earlier, lower "
           "the batch or workspace, or release the caching allocator's free blocks.",
           "Read the diagnosis in the message: free or reuse what is still held from earlier, lower the "
           "batch or workspace, or release the caching allocator's free blocks. "
           "`cudaleak report --format html` draws the memory over time.",
           "usage.md"));
  return rule;
}

}  // namespace

std::string junit_xml(const std::vector<report::Report>& reports, const std::vector<UnjudgedProcess>& unjudged) {
  size_t tests = 0, failures = 0, skipped = 0, errors = 0;
  std::string suites;
  std::map<std::string, int> suite_names;
  // A job's ranks keep a suite each (CI systems count them); a failure many
  // ranks share has its stack in the first rank's case only.
  std::map<std::string, Shared> shared;
  for (const auto& r : reports)
    for (const auto& g : r.leaks)
      if (std::string key = shared_leak_key(r, g); g.fails_gate && !key.empty()) {
        Shared& s = shared[key];
        if (!s.first) s.first = &r;
        s.ranks.push_back(r.process.rank);
      }
  size_t stack_bytes = 0, stacks_cut = 0;
  for (const auto& r : reports) {
    std::string cases;
    size_t suite_tests = 0, suite_failures = 0, suite_skipped = 0;
    std::map<std::string, int> case_names;
    for (const auto& g : r.leaks) {
      ++suite_tests;
      std::string base = case_name(g);
      int seen = case_names[base]++;  // the same site on two devices, say: numbered, in report order
      std::string name = markup_escape(seen ? base + " #" + std::to_string(seen + 1) : base);
      cases += "    <testcase classname=\"cudaleak." + report::text_of(g.kind) + "\" name=\"" + name + "\">\n";
      if (g.fails_gate) {
        ++suite_failures;
        std::string message = leak_headline(g), body = leak_stack_text(g);
        if (auto it = shared.find(shared_leak_key(r, g)); it != shared.end() && it->second.ranks.size() > 1) {
          message += " (the same leak " + on_ranks(it->second.ranks) + ")";
          if (it->second.written++)
            body = "The same stack as in " + suite_name(*it->second.first) + ", whose case of this name has it.\n";
        }
        if (stack_bytes + body.size() > kStackBytes) {
          body = "Stack left out: the stacks of this file reached " + format_bytes(kStackBytes) +
                 " (cudaleak report REPORT shows it).\n";
          ++stacks_cut;
        }
        stack_bytes += body.size();
        cases += "      <failure type=\"" + report::text_of(g.kind) + "-leak\" message=\"" + markup_escape(message) +
                 "\">" + markup_escape(body) + "</failure>\n";
      } else if (!g.suppressed_by.empty() || !g.cached_by.empty() || g.baseline == report::BaselineState::Known ||
                 r.gate.evaluated || g.reachability == report::Reachability::StillReachable) {
        ++suite_skipped;
        std::string why = !g.suppressed_by.empty()                     ? "suppressed by " + g.suppressed_by
                          : !g.cached_by.empty()                       ? "held by the " + g.cached_by + " (not a leak)"
                          : g.baseline == report::BaselineState::Known ? "in the baseline"
                          : g.reachability == report::Reachability::StillReachable
                              ? leak_headline(g) + "; not counted by the gate (leak_kinds=all counts it)"
                              : "not counted by the gate";
        cases += "      <skipped message=\"" + markup_escape(why) + "\"/>\n";
      }
      cases += "    </testcase>\n";
    }
    size_t suite_errors = 0;
    if (!r.gate.error.empty()) {
      // The gate could not judge this process (memory no seen call explains, a
      // report that could not be written): an error, never a passing case.
      ++suite_tests, ++suite_errors;
      cases += "    <testcase classname=\"cudaleak\" name=\"leak gate evaluated\">\n      <error message=\"" +
               markup_escape("the leak gate cannot be evaluated: " + r.gate.error) + "\"/>\n    </testcase>\n";
    } else if (r.leaks.empty()) {
      ++suite_tests;
      cases += "    <testcase classname=\"cudaleak\" name=\"no CUDA resources leaked\"/>\n";
    }
    std::string suite = suite_name(r);
    int seen = suite_names[suite]++;  // one program run twice: numbered, in run order
    if (seen) suite += " #" + std::to_string(seen + 1);
    // A job's rank: JUnit's hostname attribute and properties, for CI views that show them.
    std::string properties;
    if (r.process.rank >= 0) {
      properties = "    <properties>\n      <property name=\"rank\" value=\"" + std::to_string(r.process.rank) +
                   "\"/>\n";
      if (r.process.local_rank >= 0)
        properties += "      <property name=\"local_rank\" value=\"" + std::to_string(r.process.local_rank) + "\"/>\n";
      if (r.process.world_size > 0)
        properties += "      <property name=\"world_size\" value=\"" + std::to_string(r.process.world_size) + "\"/>\n";
      properties += "      <property name=\"pid\" value=\"" + std::to_string(r.process.pid) +
                    "\"/>\n    </properties>\n";
    }
    suites += "  <testsuite name=\"" + markup_escape(suite) + "\" tests=\"" + std::to_string(suite_tests) +
              "\" failures=\"" + std::to_string(suite_failures) + "\" skipped=\"" + std::to_string(suite_skipped) +
              "\" errors=\"" + std::to_string(suite_errors) + "\"" +
              (r.process.host.empty() ? "" : " hostname=\"" + markup_escape(r.process.host) + "\"") + ">\n" +
              properties + cases + "  </testsuite>\n";
    tests += suite_tests, failures += suite_failures, skipped += suite_skipped, errors += suite_errors;
  }
  // A process the gate could not judge: one case in error, never a pass.
  for (const UnjudgedProcess& process : unjudged) {
    suites += "  <testsuite name=\"" + markup_escape(process.process) +
              "\" tests=\"1\" failures=\"0\" skipped=\"0\" errors=\"1\">\n"
              "    <testcase classname=\"cudaleak\" name=\"report written\">\n      <error message=\"" +
              markup_escape(process.why + ": what it leaked is unknown") + "\"/>\n    </testcase>\n  </testsuite>\n";
    ++tests, ++errors;
  }
  const std::string cut = stacks_cut ? "<!-- cudaleak: the stacks of " + std::to_string(stacks_cut) +
                                           " failures left out past " + format_bytes(kStackBytes) + " of stacks -->\n"
                                     : "";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + cut + "<testsuites name=\"cudaleak\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" skipped=\"" +
         std::to_string(skipped) + (errors ? "\" errors=\"" + std::to_string(errors) : std::string()) + "\">\n" +
         suites + "</testsuites>\n";
}

std::string sarif_json(const std::vector<report::Report>& reports, const std::string& source_root,
                       const std::vector<UnjudgedProcess>& unjudged, const Invocation* run) {
  using nlohmann::json;
  json rules = json::array();
  std::vector<std::string> rule_ids;
  // A job's ranks that share a finding (the same leak, the same
  // out-of-memory story) are one result whose properties list the ranks.
  struct Finding {
    json result;
    std::string head, tail;  // the message: head, where (the process or the ranks), tail
    std::vector<int> ranks;
  };
  std::vector<Finding> findings;
  std::map<std::string, size_t> of_key;
  auto add = [&](const std::string& key, const report::Report& r, auto make) {
    if (!key.empty()) {
      auto [it, fresh] = of_key.try_emplace(key, findings.size());
      if (!fresh) return findings[it->second].ranks.push_back(r.process.rank);
    }
    findings.push_back(make());
    findings.back().ranks.push_back(r.process.rank);
  };
  for (const auto& r : reports) {
    for (const auto& g : r.leaks) {
      if (!g.fails_gate) continue;
      std::string rule_id = "cudaleak/" + report::text_of(g.kind) + "-leak";
      if (std::find(rule_ids.begin(), rule_ids.end(), rule_id) == rule_ids.end()) {
        rule_ids.push_back(rule_id);
        rules.push_back(leak_rule(rule_id, report::text_of(g.kind)));
      }
      // Still reachable memory counts only with leak_kinds=all: a warning, as Valgrind's kind of it.
      const bool reachable = g.reachability == report::Reachability::StillReachable;
      json properties = process_properties(r);
      if (g.reachability != report::Reachability::NotScanned)
        properties["reachability"] = std::string(report::name_of(g.reachability));
      if (!g.referenced_from.empty()) properties["referencedFrom"] = g.referenced_from;
      add(shared_leak_key(r, g), r, [&] {
        json result{{"ruleId", rule_id},
                    {"level", reachable ? "warning" : "error"},
                    {"partialFingerprints", {{"cudaleakSite/v1", g.site}}},
                    {"properties", properties}};
        if (const report::Frame* f = leak_location(g.stack)) result["locations"] = locations(*f, source_root);
        return Finding{result, leak_headline(g) + " in " + process_name(r), "\n" + leak_stack_text(g), {}};
      });
    }
    // Each out-of-memory the program saw, once (its retried calls are inside
    // it), at the user's line of the failing call: a warning, never a gate.
    for (const auto& e : r.oom_events) {
      if (e.recovered) continue;
      const std::string rule_id = "cudaleak/out-of-memory";
      if (std::find(rule_ids.begin(), rule_ids.end(), rule_id) == rule_ids.end()) {
        rule_ids.push_back(rule_id);
        rules.push_back(oom_rule(rule_id));
      }
      add(r.process.rank < 0 ? "" : "out-of-memory\n" + report::oom_story_key(e), r, [&] {
        json result{{"ruleId", rule_id}, {"level", "warning"}, {"properties", process_properties(r)}};
        if (const report::Frame* f = report::user_frame(e.stack); f && (!f->file.empty() || !f->module.empty()))
          result["locations"] = locations(*f, source_root);
        return Finding{result, render_event(e) + "in " + process_name(r), "", {}};
      });
    }
  }
  json results = json::array();
  size_t message_bytes = 0, cut_messages = 0;
  for (Finding& f : findings) {
    if (results.size() == kMaxResults) break;
    std::string text = f.head;
    if (f.ranks.size() > 1) {
      text += ", the first of " + std::to_string(f.ranks.size()) + " ranks with it: " + report::rank_list(f.ranks);
      f.result["properties"]["ranks"] = report::rank_list(f.ranks);
      f.result["properties"]["rankCount"] = f.ranks.size();
    }
    text = bounded(text + f.tail, kMessageMax, "the report has the rest");
    if (message_bytes + text.size() > kMessageBytes) {
      text = text.substr(0, text.find('\n')) + "\n... (cut: the messages of this file reached " +
             format_bytes(kMessageBytes) + ")\n";
      ++cut_messages;
    }
    message_bytes += text.size();
    f.result["message"] = {{"text", text}};
    results.push_back(std::move(f.result));
  }
  // What the gate could not judge is the tool's failure, not a finding at a
  // place in the code: a notification of the invocation, which then did not succeed.
  json notifications = json::array();
  for (const UnjudgedProcess& process : unjudged)
    notifications.push_back(
        json{{"level", "error"},
             {"message",
              {{"text", "process " + process.process + ": " + process.why + ": what it leaked is unknown"}}}});
  // What the caps left out is said, not silently dropped.
  if (findings.size() > results.size() || cut_messages)
    notifications.push_back(
        json{{"level", "note"},
             {"message",
              {{"text", "cudaleak: " +
                            (findings.size() > results.size()
                                 ? std::to_string(findings.size() - results.size()) + " results left out past " +
                                       std::to_string(kMaxResults) + "; "
                                 : std::string()) +
                            (cut_messages ? std::to_string(cut_messages) + " messages cut to their first line past " +
                                                format_bytes(kMessageBytes) + " of messages; "
                                          : std::string()) +
                            "cudaleak report REPORTS tells every one"}}}});
  json invocation{{"executionSuccessful", unjudged.empty()}};
  if (run) {
    invocation["arguments"] = run->arguments;
    invocation["exitCode"] = run->exit_code;
  }
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  json sarif{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
             {"version", "2.1.0"},
             {"runs",
              json::array(
                  {json{{"tool", {{"driver", {{"name", "cudaleak"}, {"version", CUDALEAK_VERSION}, {"rules", rules}}}}},
                        {"invocations", json::array({invocation})},
                        {"results", results}}})}};
  if (!source_root.empty())
    sarif["runs"][0]["originalUriBaseIds"] = {
        {"SRCROOT", {{"uri", "file://" + uri_escape(source_root == "/" ? "/" : source_root + "/")}}}};
  return sarif.dump(1) + "\n";
}

// The repository holding dir: the nearest directory up from it with a .git
// (a directory, or the file of a worktree or submodule). The path is
// normalized ("/repo", never "/repo/." or "/repo/") so that it prefixes the
// files of the stacks, which are normalized the same way.
std::string find_source_root(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path start = std::filesystem::absolute(dir, ec);
  if (ec) return "";
  std::string normal = start.lexically_normal().string();               // links kept: compilers record the same path
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();  // "/repo/." -> "/repo/" -> "/repo"
  for (std::filesystem::path p = normal; !p.empty(); p = p.parent_path()) {
    if (std::filesystem::exists(p / ".git", ec)) return p.string();
    if (p == p.parent_path()) break;
  }
  return "";
}

}  // namespace cudaleak::render
