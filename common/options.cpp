#include "common/options.h"

#include "common/kinds.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <limits>
#include <optional>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

namespace cudaleak {

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string n = nearest_word(word, candidates);
  return n.empty() ? "" : " (did you mean " + n + "?)";
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (int k = 0; k < kKindCount; ++k) names.emplace_back(kind_name(Kind(k)));
  return names;
}

std::string parse_value(const std::string& text, std::string& out) {
  out = text;
  return "";
}

// Integers: the whole text, in range; never wrapped or cut.
template <typename Int>
std::string parse_integer(const std::string& text, Int& out) {
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  bool digits = !text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos;
  if (!digits || *end != '\0') return "expected an integer, got '" + text + "'";
  if (errno == ERANGE || v < std::numeric_limits<Int>::min() || v > std::numeric_limits<Int>::max())
    return "'" + text + "' is out of range";
  out = Int(v);
  return "";
}
std::string parse_value(const std::string& text, int& out) { return parse_integer(text, out); }
std::string parse_value(const std::string& text, int64_t& out) { return parse_integer(text, out); }

// Lists append one entry per value (CUDALEAK_OPTIONS splits "a,b" before).
std::string parse_value(const std::string& text, std::vector<std::string>& out) {
  if (!text.empty()) out.push_back(text);
  return "";
}

// Splits at every `separator` not escaped with a backslash; removes the escapes.
std::vector<std::string> split_escaped(const std::string& text, char separator) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) parts.back() += text[++i];
    else if (text[i] == separator) parts.emplace_back();
    else parts.back() += text[i];
  }
  return parts;
}

// Whether `text` at `i` begins another option, `key=` (after any blanks).
bool option_begins(const std::string& text, size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const size_t start = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  return i > start && !std::isdigit(static_cast<unsigned char>(text[start])) && i < text.size() && text[i] == '=';
}

// CUDALEAK_OPTIONS split into its key=value items, keeping every escape for
// the next level. ':' always separates; ',', ';' and blanks separate too where
// another `key=` follows, as the sanitizers' ASAN_OPTIONS=a=1,b=2 and
// "a=1 b=2" do, so that such a string is honoured whole rather than read as
// one value ("output=a.json,error_exitcode=7"). Elsewhere they belong to the
// value: a list (fail_on=device,pinned), a path with a blank.
std::vector<std::string> split_option_items(const std::string& text) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      parts.back() += c;
      parts.back() += text[++i];
    } else if (c == ':' ||
               ((c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c))) && option_begins(text, i + 1))) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  for (auto& part : parts) {  // blanks around an item are the separator's; an escaped one is the value's
    const size_t first = part.find_first_not_of(" \t\n\r");
    size_t end = part.size();
    while (end > 0 && std::isspace(static_cast<unsigned char>(part[end - 1])) && !(end >= 2 && part[end - 2] == '\\'))
      --end;
    part = first == std::string::npos || first >= end ? "" : part.substr(first, end - first);
  }
  return parts;
}

// Whether `text` ends in a backslash that escapes nothing.
bool ends_in_lone_backslash(const std::string& text) {
  size_t n = 0;
  while (n < text.size() && text[text.size() - 1 - n] == '\\') ++n;
  return n % 2 == 1;
}

std::string parse_value(const std::string& text, bool& out) {
  // "all": Valgrind's --gen-suppressions=all, which users type from habit.
  if (text == "1" || text == "true" || text == "yes" || text == "on" || text == "all") return out = true, "";
  if (text == "0" || text == "false" || text == "no" || text == "off") return out = false, "";
  return "expected true/false (or 1/0), got '" + text + "'";
}

// Why the value `key` was just given is refused, or "" (a value in range).
std::string refusal(const Options& o, std::string_view key) {
  auto between = [](int64_t v, int64_t lo, int64_t hi) {
    return v >= lo && v <= hi ? "" : "is not between " + std::to_string(lo) + " and " + std::to_string(hi);
  };
  auto at_least_zero = [](int64_t v) { return v >= 0 ? "" : std::string("is below 0"); };
  if (key == "stack_depth") return between(o.stack_depth, 1, 256);
  if (key == "stack_collect_at") return at_least_zero(o.stack_collect_at);
  if (key == "max_allocations") return at_least_zero(o.max_allocations);
  if (key == "pytorch_stacks_at") return between(o.pytorch_stacks_at, 0, 100);
  if (key == "summary_groups") return at_least_zero(o.summary_groups);
  if (key == "min_bytes") return at_least_zero(o.min_bytes);
  if (key == "limit_memory") return at_least_zero(o.limit_memory);
  if (key == "growth_interval_ms") return between(o.growth_interval_ms, 0, 3'600'000);
  if (key == "view_interval_ms") return between(o.view_interval_ms, 0, 3'600'000);
  if (key == "error_exitcode") return between(o.error_exitcode, 0, 255);
  if (key == "gate_error_exitcode") return between(o.gate_error_exitcode, 1, 255);
  if (key == "output" && o.output.empty()) return "must not be empty";
  if (key == "report_signal" && signal_from_name(o.report_signal) < 0)
    return "is not SIGUSR1, SIGUSR2 or SIGRTMIN+N (signals that end or crash a process cannot be used)";
  if (key == "reachability_limit") return at_least_zero(o.reachability_limit);
  if (key == "reachability" && o.reachability != "auto" && o.reachability != "true" && o.reachability != "false")
    return "is not auto, true or false";
  if (key == "leak_kinds" && o.leak_kinds != "auto" && o.leak_kinds != "definite" && o.leak_kinds != "all")
    return "is not auto, definite or all";
  if (key == "color" && o.color != "auto" && o.color != "always" && o.color != "never")
    return "is not auto, always or never";
  if (key == "fail_on")
    for (const auto& kind : o.fail_on)
      if (!kind_from_name(kind))
        return "holds '" + kind + "', which is not a kind" + did_you_mean(kind, kind_names()) +
               " (docs/report-format.md lists them)";
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
  // Defaults as a user writes them ("cudaleak.%p.json", device,pinned), not as C++ literals.
  static const Options defaults;
  static const std::vector<std::string> default_texts = {
#define CUDALEAK_OPTION(type, key, def, help) to_text(defaults.key),
#include "common/options.def"
#undef CUDALEAK_OPTION
  };
  static const std::vector<OptionInfo> table = [] {
    std::vector<OptionInfo> t;
    size_t i = 0;
#define CUDALEAK_OPTION(type, key, def, help) t.push_back({#key, type_label(#type), default_texts[i++].c_str(), help});
#include "common/options.def"
#undef CUDALEAK_OPTION
    return t;
  }();
  return table;
}

std::string set_option(Options& options, const std::string& key, const std::string& value) {
  Options candidate = options;
  std::optional<std::string> problem;
#define CUDALEAK_OPTION(type, name, def, help) \
  if (key == #name) problem = parse_value(value, candidate.name);
#include "common/options.def"
#undef CUDALEAK_OPTION
  if (!problem) {
    std::vector<std::string> keys;
    for (const OptionInfo& o : option_table()) keys.emplace_back(o.key);
    return "unknown option '" + key + "'" + did_you_mean(key, keys);
  }
  // Kinds never hold a comma, so `--fail-on device,pinned` is two; a
  // suppressions value is one file name, whatever characters it holds.
  // reachability was a bool: its spellings of true and false still mean those.
  if (key == "reachability" && problem->empty() && candidate.reachability != "auto") {
    bool on = false;
    if (parse_value(value, on).empty()) candidate.reachability = on ? "true" : "false";
  }
  if (key == "fail_on" && problem->empty() && value.find(',') != std::string::npos) {
    candidate.fail_on = options.fail_on;
    for (const std::string& kind : split_escaped(value, ','))
      if (!kind.empty()) candidate.fail_on.push_back(kind);
  }
  if (problem->empty())
    if (std::string why = refusal(candidate, key); !why.empty()) problem = "'" + value + "' " + why;
  if (!problem->empty()) return key + ": " + *problem;
  options = candidate;
  return "";
}

std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;  // farther is no typo
  for (const std::string& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

std::vector<OptionProblem> parse_options(const std::string& text, Options& options) {
  std::vector<OptionProblem> problems;
  // It would escape whatever is appended next (the launcher's own options).
  if (ends_in_lone_backslash(text))
    problems.push_back({"", "'" + text + "' ends in a backslash that escapes nothing; write '\\\\' for one"});
  for (const std::string& item : split_option_items(text)) {
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos) {
      problems.push_back(
          {item, "'" + item + "' is not key=value"});  // a gate option written bare still asks for the gate
      continue;
    }
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    bool list = false;
    for (const OptionInfo& o : option_table()) list |= key == o.key && std::string_view(o.type) == "list";
    std::vector<std::string> values = list ? split_escaped(value, ',') : std::vector{split_escaped(value, '\0')[0]};
    for (const std::string& v : values) {
      if (list && v.empty()) continue;
      std::string problem = set_option(options, key, v);
      if (!problem.empty()) problems.push_back({key, problem});
    }
  }
  return problems;
}

bool is_gate_option(std::string_view key) {
  for (std::string_view gate : {"error_exitcode", "gate_error_exitcode", "fail_on", "min_bytes", "limit_memory",
                                "suppressions", "default_suppressions", "baseline", "gate_cached", "gate_live_tensors",
                                "gate_growing_tensors", "fail_on_growth"})
    if (key == gate) return true;
  return false;
}

std::string escape_option_value(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == ':' || c == ',') out += '\\';
    out += c;
  }
  return out;
}

std::string describe_options(const Options& o) {
  std::string out;
#define CUDALEAK_OPTION(type, key, def, help) out += std::string(#key) + "=" + to_text(o.key) + "\n";
#include "common/options.def"
#undef CUDALEAK_OPTION
  return out;
}

int signal_from_name(const std::string& name) {
  if (name == "none" || name == "0" || name == "off") return 0;
  // Only signals whose default action cudaleak may take over without changing
  // how a process ends: never one that kills, stops or crashes it, never one
  // glibc keeps for itself (32, 33).
  auto usable = [](long n) { return n == SIGUSR1 || n == SIGUSR2 || (n >= SIGRTMIN && n <= SIGRTMAX); };
  auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 3 && s.find_first_not_of("0123456789") == s.npos;
  };
  std::string_view s = name;
  if (digits(s)) {
    long n = std::strtol(std::string(s).c_str(), nullptr, 10);
    return usable(n) ? int(n) : -1;
  }
  if (s.rfind("SIG", 0) == 0) s.remove_prefix(3);
  if (s == "USR1") return SIGUSR1;
  if (s == "USR2") return SIGUSR2;
  if (s == "RTMIN") return SIGRTMIN;
  if (s.rfind("RTMIN+", 0) == 0 && digits(s.substr(6))) {
    long n = SIGRTMIN + std::strtol(std::string(s.substr(6)).c_str(), nullptr, 10);
    return usable(n) ? int(n) : -1;
  }
  return -1;
}

}  // namespace cudaleak
