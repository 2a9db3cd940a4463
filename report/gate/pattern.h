// LeakSanitizer's suppression pattern semantics: '*' matches any run of
// characters, a leading '^' anchors at the start, a trailing '$' at the end;
// otherwise the pattern may match anywhere in the text.
#pragma once
#include <string_view>

namespace cudaleak::gate {
bool pattern_matches(std::string_view pattern, std::string_view text);

// A pattern's body without its anchors, and which anchors it had.
struct AnchoredPattern {
  std::string_view body;
  bool start = false, end = false;
};
AnchoredPattern split_anchors(std::string_view pattern);
}  // namespace cudaleak::gate
