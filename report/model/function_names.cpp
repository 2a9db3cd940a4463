#include "report/model/function_names.h"

#include <cctype>
#include <vector>

namespace cudaleak::report {

namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The characters of an operator's name at `at`, just after the word
// "operator": "<<", "<=>", "->", "()", "[]"; 0 where none is.
size_t operator_token(std::string_view name, size_t at) {
  if (name.substr(at, 2) == "()" || name.substr(at, 2) == "[]") return 2;
  size_t n = 0;
  while (at + n < name.size() && std::string_view("<>=-!+*/%^&|~,").find(name[at + n]) != std::string_view::npos) ++n;
  return n;
}

// Whether the word "operator" ends just before `at` (not "apply_operator").
bool after_operator_word(std::string_view name, size_t at) {
  constexpr std::string_view kWord = "operator";
  return at >= kWord.size() && name.substr(at - kWord.size(), kWord.size()) == kWord &&
         (at == kWord.size() || !identifier_char(name[at - kWord.size() - 1]));
}

}  // namespace

// One pass with a stack of the brackets open. A bracket is elided (its
// contents become "...") when it follows a name or a closing bracket: the
// template arguments of a name, the parameters of a function or of a
// function type. A bracket that opens the name itself (Rust's "<T as
// Trait>::f", the "(*f(int))" of a function returning a function pointer,
// "decltype (...)") is kept open, and what is inside it is shortened the same
// way. Inside parentheses a "<" is a comparison unless a name comes right
// before it, and a ">" closes only a "<" opened there; a name whose brackets
// do not balance that way is printed whole.
std::string readable_function_name(std::string_view name, size_t limit) {
  if (name.size() <= limit) return std::string(name);
  struct Open {
    char close;
    bool elided;
  };
  std::vector<Open> open;
  size_t elided_depth = 0;  // open brackets, the elided ones among them counted
  std::string out;
  out.reserve(limit);
  size_t operator_end = std::string::npos;  // where in `out` an operator's name just ended
  auto emit = [&](std::string_view text) {
    if (elided_depth == 0) out.append(text);
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (after_operator_word(name, i)) {  // an operator's own characters are no brackets
      if (size_t n = operator_token(name, i)) {
        emit(name.substr(i, n));
        if (elided_depth == 0) operator_end = out.size();
        i += n - 1;
        continue;
      }
    }
    constexpr std::string_view kAnonymous = "(anonymous namespace)";
    if (name.substr(i).starts_with(kAnonymous)) {  // a scope's name, not a parameter list
      emit(kAnonymous);
      i += kAnonymous.size() - 1;
      continue;
    }
    const bool in_parens = !open.empty() && open.back().close == ')';
    const bool opens = c == '(' || (c == '<' && (!in_parens || (i > 0 && identifier_char(name[i - 1]))));
    const bool closes = !open.empty() && c == open.back().close && !(c == '>' && i > 0 && name[i - 1] == '-');
    if (opens) {
      const char before = out.empty() ? '\0' : out.back();
      const bool elide = elided_depth == 0 && (identifier_char(before) || before == '>' || before == ')' ||
                                               before == ']' || out.size() == operator_end);
      emit(std::string_view(&c, 1));
      open.push_back({c == '(' ? ')' : '>', elide});
      if (elide) {
        out += "...";
        ++elided_depth;
      } else if (elided_depth) {
        ++elided_depth;
      }
    } else if (closes) {
      const bool was_elided = open.back().elided;
      open.pop_back();
      if (elided_depth) --elided_depth;
      if (was_elided || elided_depth == 0) out += c;
    } else {
      emit(std::string_view(&c, 1));
    }
  }
  if (!open.empty()) return std::string(name);  // brackets that never close: the name as it is
  return out;
}

}  // namespace cudaleak::report
