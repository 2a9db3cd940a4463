#include "common/quantities.h"

#include <cinttypes>
#include <cstdio>

namespace cudaleak {

std::string format_bytes(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  int u = 0;
  // Up a unit when the value would print as 1024.0 or more ("1023.96 MiB" is "1.0 GiB").
  while (u < 6 && (u == 0 ? bytes >= 1024 : v >= 1023.95)) v /= 1024, ++u;
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%" PRIu64 " B", bytes);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string format_duration(uint64_t ns) {
  char buf[48];
  const double us = double(ns) / 1e3, ms = double(ns) / 1e6, s = double(ns) / 1e9;
  if (ns < 1000) std::snprintf(buf, sizeof buf, "%" PRIu64 " ns", ns);
  else if (us < 999.95) std::snprintf(buf, sizeof buf, "%.1f us", us);
  else if (ms < 999.95) std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  else if (s < 59.995) std::snprintf(buf, sizeof buf, "%.2f s", s);
  else {
    const uint64_t whole = (ns + 500'000'000) / 1'000'000'000;
    std::snprintf(buf, sizeof buf, "%" PRIu64 " min %02" PRIu64 " s", whole / 60, whole % 60);
  }
  return buf;
}

std::string count_of(uint64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace cudaleak
