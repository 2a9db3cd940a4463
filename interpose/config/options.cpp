#include "options.h"

#include "kinds.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

namespace cudaleak {

namespace {

std::string parse_value(const std::string& text, std::string& out) {
  out = text;
  return "";
}

std::string parse_value(const std::string& text, int& out) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') return "expected an integer, got '" + text + "'";
  out = int(v);
  return "";
}

std::string parse_value(const std::string& text, int64_t& out) {
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') return "expected an integer, got '" + text + "'";
  out = v;
  return "";
}

// Lists append: "a,b" adds two entries, and a key given again adds more.
std::string parse_value(const std::string& text, std::vector<std::string>& out) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return "";
}

std::string parse_value(const std::string& text, bool& out) {
  if (text == "1" || text == "true" || text == "yes" || text == "on") return out = true, "";
  if (text == "0" || text == "false" || text == "no" || text == "off") return out = false, "";
  return "expected true/false (or 1/0), got '" + text + "'";
}

std::string validate(const Options& o) {
  if (o.stack_depth < 1 || o.stack_depth > 256) return "stack_depth must be between 1 and 256";
  if (o.max_allocations < 0) return "max_allocations must be >= 0";
  if (o.summary_groups < 0) return "summary_groups must be >= 0";
  if (o.output.empty()) return "output must not be empty";
  if (signal_from_name(o.report_signal) < 0) return "report_signal: unknown signal '" + o.report_signal + "'";
  if (o.error_exitcode < 0 || o.error_exitcode > 255) return "error_exitcode must be between 0 and 255";
  if (o.gate_error_exitcode < 1 || o.gate_error_exitcode > 255) return "gate_error_exitcode must be between 1 and 255";
  if (o.min_bytes < 0) return "min_bytes must be >= 0";
  for (const auto& kind : o.fail_on)
    if (!kind_from_name(kind)) return "fail_on: unknown kind '" + kind + "'";
  return "";
}

std::string to_text(const std::string& v) { return v; }
constexpr const char* type_label(std::string_view type) {
  if (type == "std::string") return "string";
  if (type == "int64_t") return "int";
  if (type == "std::vector<std::string>") return "list";
  return type.data();
}
std::string to_text(int v) { return std::to_string(v); }
std::string to_text(bool v) { return v ? "true" : "false"; }
std::string to_text(int64_t v) { return std::to_string(v); }
std::string to_text(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& item : v) out += (out.empty() ? "" : ",") + item;
  return out;
}

}  // namespace

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = {
#define CUDALEAK_OPTION(type, key, def, help) {#key, type_label(#type), #def, help},
#include "options.def"
#undef CUDALEAK_OPTION
  };
  return table;
}

std::string set_option(Options& options, const std::string& key, const std::string& value) {
  Options candidate = options;
  std::string problem = "unknown option '" + key + "'";
#define CUDALEAK_OPTION(type, name, def, help) \
  if (key == #name) problem = parse_value(value, candidate.name);
#include "options.def"
#undef CUDALEAK_OPTION
  if (problem.empty()) problem = validate(candidate);
  if (problem.empty()) options = candidate;
  return problem;
}

std::vector<std::string> parse_options(const std::string& text, Options& options) {
  std::vector<std::string> problems;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ':')) {
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos) {
      problems.push_back("'" + item + "' is not key=value");
      continue;
    }
    std::string problem = set_option(options, item.substr(0, eq), item.substr(eq + 1));
    if (!problem.empty()) problems.push_back(problem);
  }
  return problems;
}

std::string describe_options(const Options& o) {
  std::string out;
#define CUDALEAK_OPTION(type, key, def, help) out += std::string(#key) + "=" + to_text(o.key) + "\n";
#include "options.def"
#undef CUDALEAK_OPTION
  return out;
}

int signal_from_name(const std::string& name) {
  if (name == "none" || name == "0" || name == "off") return 0;
  char* end = nullptr;
  long n = std::strtol(name.c_str(), &end, 10);
  if (!name.empty() && *end == '\0') return n > 0 && n < NSIG ? int(n) : -1;
  std::string_view s = name;
  if (s.rfind("SIG", 0) == 0) s.remove_prefix(3);
  static const std::pair<const char*, int> known[] = {{"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"HUP", SIGHUP},
                                                      {"PWR", SIGPWR},   {"WINCH", SIGWINCH}, {"URG", SIGURG}};
  for (auto [k, v] : known)
    if (s == k) return v;
  if (s.rfind("RTMIN+", 0) == 0) {
    int off = std::atoi(std::string(s.substr(6)).c_str());
    if (SIGRTMIN + off <= SIGRTMAX) return SIGRTMIN + off;
  }
  return -1;
}

}  // namespace cudaleak
