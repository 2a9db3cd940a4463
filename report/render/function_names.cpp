#include "report/render/function_names.h"

namespace cudaleak::report {

namespace {

// The characters of an operator's name after "operator": "<<", "<=>", "->", "()".
size_t operator_token(std::string_view name, size_t at) {
  if (name.substr(at, 2) == "()") return 2;
  size_t n = 0;
  while (at + n < name.size() && std::string_view("<>=-").find(name[at + n]) != std::string_view::npos) ++n;
  return n;
}

}  // namespace

std::string readable_function_name(std::string_view name, size_t limit) {
  if (name.size() <= limit) return std::string(name);
  std::string out;
  out.reserve(limit);
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (depth == 0) {
      constexpr std::string_view kAnonymous = "(anonymous namespace)";
      if (name.substr(i).starts_with(kAnonymous)) {  // a scope's name, not a parameter list
        out.append(kAnonymous);
        i += kAnonymous.size() - 1;
        continue;
      }
      if (out.ends_with("operator")) {
        if (size_t n = operator_token(name, i)) {
          out.append(name.substr(i, n));
          i += n - 1;
          continue;
        }
      }
      out += c;
      if (c == '<' || c == '(') depth = 1;
      continue;
    }
    // Inside: only the brackets count ("->" is an arrow, not a close).
    if (c == '<' || c == '(') {
      ++depth;
    } else if ((c == '>' && name[i - 1] != '-') || c == ')') {
      if (--depth == 0) out += "..." + std::string(1, c);
    }
  }
  if (depth > 0) out += "...";  // cut short: the brackets never closed
  return out;
}

}  // namespace cudaleak::report
