#include "common/terminal_text.h"

#include <cstdio>

namespace cudaleak {

namespace {

// The renderers' own colour sequences (report/render/text_report.cpp).
constexpr std::string_view kOwnColours[] = {"\033[1m", "\033[1;31m", "\033[1;32m", "\033[0m"};

void escape(std::string& out, unsigned char c) {
  char hex[5];
  std::snprintf(hex, sizeof hex, "\\x%02x", c);
  out += hex;
}

// Appends `text` to `out`, control characters escaped; `keep_lines` keeps
// newlines and the renderers' colours.
void append_escaped(std::string& out, std::string_view text, bool keep_lines) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (keep_lines && c == '\n') {
      out += '\n';
    } else if (keep_lines && c == 0x1b) {
      bool own = false;
      for (std::string_view colour : kOwnColours)
        if (text.substr(i, colour.size()) == colour) {
          out += colour;
          i += colour.size() - 1;
          own = true;
          break;
        }
      if (!own) escape(out, c);
    } else if (c < 0x20 || c == 0x7f) {
      escape(out, c);
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      escape(out, c);
      escape(out, static_cast<unsigned char>(text[++i]));
    } else {
      out += char(c);
    }
  }
}

bool needs_escape(std::string_view text, bool keep_lines) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && !(keep_lines && c == '\n')) || c == 0x7f || c == 0xc2) return true;
  }
  return false;
}

std::string escaped(std::string_view text, bool keep_lines) {
  if (!needs_escape(text, keep_lines)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  append_escaped(out, text, keep_lines);
  return out;
}

}  // namespace

std::string printable_name(std::string_view name) { return escaped(name, false); }

std::string terminal_safe(std::string_view text) { return escaped(text, true); }

}  // namespace cudaleak
