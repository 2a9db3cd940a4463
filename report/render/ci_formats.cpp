#include "ci_formats.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cuda_frames.h"
#include "text_summary.h"

namespace cudaleak::render {

namespace {

std::string xml_escape(const std::string& s) {
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

std::string headline(const report::LeakGroup& g) {
  std::string s = g.kind + " leak: " + std::to_string(g.count) + (g.count == 1 ? " resource" : " resources");
  if (g.bytes) s += ", " + report::format_bytes(g.bytes);
  return s + ", created by " + g.api;
}

std::string stack_text(const report::LeakGroup& g) {
  std::string out;
  for (size_t i = 0; i < g.stack.size(); ++i) {
    const auto& f = g.stack[i];
    out += "#" + std::to_string(i) + " " + (f.function.empty() ? "??" : f.function);
    if (!f.file.empty()) out += " " + f.file + ":" + std::to_string(f.line);
    out += " (" + f.module + ")\n";
  }
  return out;
}

const report::Frame* program_frame(const report::LeakGroup& g) {
  for (const report::Frame* f : report::program_frames(g.stack))
    if (!f->file.empty()) return f;
  return nullptr;
}

std::string process_name(const report::Report& r) {
  std::string exe = r.process.exe.substr(r.process.exe.rfind('/') + 1);
  return exe + " (pid " + std::to_string(r.process.pid) + ")";
}

}  // namespace

std::string junit_xml(const std::vector<report::Report>& reports) {
  size_t tests = 0, failures = 0, skipped = 0;
  std::string suites;
  for (const auto& r : reports) {
    std::string cases;
    size_t suite_tests = 0, suite_failures = 0, suite_skipped = 0;
    for (const auto& g : r.leaks) {
      ++suite_tests;
      std::string name = xml_escape(headline(g) + " at " + (g.site.empty() ? g.api : g.site));
      cases += "    <testcase classname=\"cudaleak." + xml_escape(g.kind) + "\" name=\"" + name + "\">\n";
      if (g.fails_gate) {
        ++suite_failures;
        cases += "      <failure type=\"" + xml_escape(g.kind) + "-leak\" message=\"" + xml_escape(headline(g)) +
                 "\">" + xml_escape(stack_text(g)) + "</failure>\n";
      } else if (!g.suppressed_by.empty() || g.baseline == "known" || r.gate.evaluated) {
        ++suite_skipped;
        std::string why = !g.suppressed_by.empty() ? "suppressed by " + g.suppressed_by
                          : !g.cached_by.empty()    ? "held by the " + g.cached_by + " (not a leak)"
                          : g.baseline == "known"   ? "in the baseline"
                                                    : "not counted by the gate";
        cases += "      <skipped message=\"" + xml_escape(why) + "\"/>\n";
      }
      cases += "    </testcase>\n";
    }
    if (r.leaks.empty()) {
      ++suite_tests;
      cases += "    <testcase classname=\"cudaleak\" name=\"no CUDA resources leaked\"/>\n";
    }
    suites += "  <testsuite name=\"cudaleak: " + xml_escape(process_name(r)) + "\" tests=\"" +
              std::to_string(suite_tests) + "\" failures=\"" + std::to_string(suite_failures) + "\" skipped=\"" +
              std::to_string(suite_skipped) + "\" errors=\"0\">\n" + cases + "  </testsuite>\n";
    tests += suite_tests, failures += suite_failures, skipped += suite_skipped;
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cudaleak\" tests=\"" + std::to_string(tests) +
         "\" failures=\"" + std::to_string(failures) + "\" skipped=\"" + std::to_string(skipped) + "\">\n" + suites +
         "</testsuites>\n";
}

std::string sarif_json(const std::vector<report::Report>& reports) {
  using nlohmann::json;
  json rules = json::array();
  std::vector<std::string> rule_ids;
  json results = json::array();
  for (const auto& r : reports) {
    for (const auto& g : r.leaks) {
      if (!g.fails_gate) continue;
      std::string rule_id = "cudaleak/" + g.kind + "-leak";
      if (std::find(rule_ids.begin(), rule_ids.end(), rule_id) == rule_ids.end()) {
        rule_ids.push_back(rule_id);
        rules.push_back(json{{"id", rule_id},
                             {"name", g.kind + "Leak"},
                             {"shortDescription", {{"text", "CUDA " + g.kind + " resource never released"}}},
                             {"defaultConfiguration", {{"level", "error"}}}});
      }
      json result{{"ruleId", rule_id},
                  {"level", "error"},
                  {"message", {{"text", headline(g) + " in " + process_name(r) + "\n" + stack_text(g)}}},
                  {"partialFingerprints", {{"cudaleakSite/v1", g.site}}}};
      if (const report::Frame* f = program_frame(g)) {
        std::string uri = f->file;
        if (!uri.empty() && uri[0] == '/') uri = "file://" + uri;
        result["locations"] = json::array({json{{"physicalLocation",
                                                 {{"artifactLocation", {{"uri", uri}}},
                                                  {"region", {{"startLine", std::max(f->line, 1)}}}}}}});
      }
      results.push_back(result);
    }
  }
  json sarif{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
             {"version", "2.1.0"},
             {"runs", json::array({json{{"tool", {{"driver", {{"name", "cudaleak"},
                                                              {"version", CUDALEAK_VERSION},
                                                              {"rules", rules}}}}},
                                        {"results", results}}})}};
  return sarif.dump(1) + "\n";
}

}  // namespace cudaleak::render
