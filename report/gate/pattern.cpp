#include "report/gate/pattern.h"

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

AnchoredPattern split_anchors(std::string_view pattern) {
  AnchoredPattern a;
  a.start = !pattern.empty() && pattern.front() == '^';
  a.end = pattern.size() > 1 && pattern.back() == '$';
  if (a.start) pattern.remove_prefix(1);
  if (a.end) pattern.remove_suffix(1);
  a.body = pattern;
  return a;
}

bool pattern_matches(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return false;
  AnchoredPattern a = split_anchors(pattern);
  std::string p;
  if (!a.start) p += '*';
  p += a.body;
  if (!a.end) p += '*';
  return glob(p, text);
}

}  // namespace cudaleak::gate
