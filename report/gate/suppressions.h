// Suppression rules (docs/ci.md#suppressions):
//   # comment
//   leak:PATTERN [kind:KIND[,KIND...]] [api:PATTERN]
// PATTERN is matched (pattern.h) against every frame's function, source file
// and module; the rule applies when any frame matches and the qualifiers hold.
// The rules are parsed and indexed by rule_set.h.
#pragma once
#include <string>

#include "report/model/report.h"
#include "report/gate/rule_set.h"

namespace cudaleak::gate {

// The rules shipped with cudaleak (source name "default").
const char* default_rules_text();

// Marks suppressed groups (suppressed_by: the first rule that matches), lists
// the rules used and their totals, and recomputes the summary over what is left.
void apply_suppressions(report::Report& report, const RuleSet& rules);

// A rule that would hide `group`: its innermost frame of the user's own code
// (report/model/frame_owner.h: never CUDA's headers or libraries, installed
// Python packages or the system's), as LeakSanitizer's --gen-suppressions
// does; a stripped program's file when no frame has a name; where the stack
// has no frame of the user's, a comment saying why no rule is given.
std::string suggest_rule(const report::LeakGroup& group);

}  // namespace cudaleak::gate
