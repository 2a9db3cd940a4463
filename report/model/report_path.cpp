#include "report_path.h"

namespace cudaleak::report {

std::string expand_report_path(const std::string& pattern, int pid, unsigned n) {
  std::string out;
  bool has_sequence = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size()) {
      char c = pattern[++i];
      if (c == 'p') { out += std::to_string(pid); continue; }
      if (c == 'n') { out += std::to_string(n); has_sequence = true; continue; }
      if (c == '%') { out += '%'; continue; }
      out += '%';
    }
    out += pattern[i];
  }
  // Every report of a process is its own file: without %n, later ones get .N.
  if (!has_sequence && n > 0) {
    auto slash = out.rfind('/');
    auto dot = out.rfind('.');
    std::string suffix = "." + std::to_string(n);
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) out.insert(dot, suffix);
    else out += suffix;
  }
  return out;
}

}  // namespace cudaleak::report
