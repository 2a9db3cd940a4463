// Frames and groups the unit tests build reports from, and counting in
// rendered text.
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::test {

inline report::Frame python_frame(const std::string& function, const std::string& file, int line) {
  report::Frame f;
  f.python = true;
  f.function = function;
  f.file = file;
  f.line = line;
  return f;
}

inline report::Frame native_frame(const std::string& function, const std::string& module) {
  report::Frame f;
  f.function = function;
  f.module = module;
  return f;
}

// A leak group of `count` resources of `kind` made by `api`, without a stack.
inline report::LeakGroup group_of(Kind kind, const std::string& api, uint64_t count) {
  report::LeakGroup g;
  g.kind = kind;
  g.api = api;
  g.count = count;
  return g;
}

inline size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace cudaleak::test
