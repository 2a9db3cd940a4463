// Suppression rules (docs/ci.md#suppressions):
//   # comment
//   leak:PATTERN [kind:KIND[,KIND...]] [api:PATTERN]
// PATTERN is matched (pattern.h) against every frame's function, source file
// and module; the rule applies when any frame matches and the qualifiers hold.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "report.h"

namespace cudaleak::gate {

struct Rule {
  std::string text;      // the line as written, without comment
  std::string source;    // "file:line" or "default:line"
  std::string pattern;
  std::vector<std::string> kinds;  // empty: any kind
  std::string api;                 // empty: any api
};

class SyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws SyntaxError naming "file:line: problem".
std::vector<Rule> parse_rules(const std::string& text, const std::string& source_name);
std::vector<Rule> load_rules(const std::string& path);  // also throws for unreadable files
const std::vector<Rule>& default_rules();
const char* default_rules_text();

bool rule_matches(const Rule& rule, const report::LeakGroup& group);

// Marks suppressed groups (suppressed_by), lists the rules used and their
// totals, and recomputes the summary over what is left.
void apply_suppressions(report::Report& report, const std::vector<Rule>& rules);

// A rule that would hide `group`: its innermost frame in the program's own
// code (outside CUDA libraries), as LeakSanitizer's --gen-suppressions does.
std::string suggest_rule(const report::LeakGroup& group);

}  // namespace cudaleak::gate
