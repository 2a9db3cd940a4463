#include "report/model/report_path.h"

#include <unistd.h>

#include <cstring>

namespace cudaleak::report {

namespace {

// Appends without allocating; false when `out` is full.
struct Appender {
  char* out;
  size_t cap, len = 0;
  bool ok = true;
  void add(const char* s, size_t n) {
    if (len + n >= cap) {
      ok = false;
      return;
    }
    std::memcpy(out + len, s, n);
    len += n;
    out[len] = '\0';
  }
  void add_number(unsigned long long v) {
    char digits[24];
    size_t n = 0;
    do digits[sizeof digits - 1 - n++] = char('0' + v % 10);
    while ((v /= 10) != 0);
    add(digits + sizeof digits - n, n);
  }
};

}  // namespace

size_t expand_report_path_into(char* out, size_t cap, const char* pattern, int pid, unsigned n) {
  if (cap == 0) return 0;
  out[0] = '\0';
  Appender a{out, cap};
  bool has_sequence = false;
  size_t length = std::strlen(pattern);
  for (size_t i = 0; i < length; ++i) {
    if (pattern[i] == '%' && i + 1 < length) {
      char c = pattern[++i];
      if (c == 'p') {
        a.add_number(unsigned(pid));
        continue;
      }
      if (c == 'n') {
        a.add_number(n);
        has_sequence = true;
        continue;
      }
      if (c == 'h') {  // gethostname is uname(2): safe on the crash path
        char host[256] = "";
        if (gethostname(host, sizeof host - 1) != 0 || !host[0]) std::memcpy(host, "localhost", 10);
        a.add(host, std::strlen(host));
        continue;
      }
      if (c == '%') {
        a.add("%", 1);
        continue;
      }
      a.add("%", 1);
    }
    a.add(pattern + i, 1);
  }
  // Every report of a process is its own file: without %n, later ones get .N.
  if (!has_sequence && n > 0 && a.ok) {
    const char* slash = std::strrchr(out, '/');
    const char* dot = std::strrchr(out, '.');
    char suffix[24] = ".";
    Appender s{suffix + 1, sizeof suffix - 1};
    s.add_number(n);
    size_t sl = std::strlen(suffix);
    if (dot && (!slash || dot > slash)) {
      size_t at = size_t(dot - out);
      if (a.len + sl >= cap) return 0;
      std::memmove(out + at + sl, out + at, a.len - at + 1);
      std::memcpy(out + at, suffix, sl);
      a.len += sl;
    } else {
      a.add(suffix, sl);
    }
  }
  return a.ok ? a.len : 0;
}

std::string expand_report_path(const std::string& pattern, int pid, unsigned n) {
  std::string out(pattern.size() * 6 + 64, '\0');
  size_t len = expand_report_path_into(out.data(), out.size(), pattern.c_str(), pid, n);
  out.resize(len);
  return out;
}

}  // namespace cudaleak::report
