// The suppression rules of a run, compiled once: `cudaleak run` parses the
// shipped rules and every suppressions file before the program starts and
// writes the result (rule_set.h's arrays, with the problems it found) to one
// file in the run's private directory. Every process of the run maps that file
// when it first needs the rules (at its first report), instead of parsing the
// files at start-up; the pages are shared among the processes.
//
// The file names the settings it was made from (the shipped rules on or off,
// the file list); a process whose own settings differ (its CUDALEAK_OPTIONS
// were changed) parses its files itself. A file that is missing, stale or
// damaged is never trusted: every offset is checked before use.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "report/gate/rule_set.h"

namespace cudaleak::gate {

struct CompiledRules {
  RuleSet rules;
  std::vector<std::string> problems;  // files that could not be read or parsed, one line each
};

// What the rules are made from, as one string (the file's identity).
std::string rules_key(bool default_rules, const std::vector<std::string>& files);

// The shipped rules (when default_rules), then each file; a file that fails is
// left out and named in problems.
CompiledRules compile_rules(bool default_rules, const std::vector<std::string>& files);

// Writes a new file (never replaces one); returns the problem, empty on success.
std::string write_compiled_rules(const std::string& path, const std::string& key, const CompiledRules& compiled);

// The rules in the file when it is sound and made from `key`; otherwise none.
std::optional<CompiledRules> map_compiled_rules(const std::string& path, const std::string& key);

}  // namespace cudaleak::gate
