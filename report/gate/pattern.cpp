#include "pattern.h"

#include <string>

namespace cudaleak::gate {

namespace {
// Glob with '*' only; iterative with one backtrack point.
bool glob(std::string_view p, std::string_view s) {
  size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (pi < p.size() && p[pi] == s[si]) {
      ++pi, ++si;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}
}  // namespace

bool pattern_matches(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return false;
  std::string p;
  bool start = pattern.front() == '^', end = pattern.back() == '$' && pattern.size() > 1;
  if (start) pattern.remove_prefix(1);
  if (end) pattern.remove_suffix(1);
  if (!start) p += '*';
  p += pattern;
  if (!end) p += '*';
  return glob(p, text);
}

}  // namespace cudaleak::gate
