#include "report/model/site_growth.h"

namespace cudaleak::report {

uint64_t growth_end_ns(const SiteGrowth& g) { return g.history_ns + g.history.size() * g.interval_ns; }

uint64_t rise_duration_ns(const SiteGrowth& g) {
  const uint64_t end = growth_end_ns(g);
  return end > g.since_ns ? end - g.since_ns : 0;
}

uint64_t rise_bytes(const SiteGrowth& g) { return g.level > g.since_bytes ? g.level - g.since_bytes : 0; }

double rise_per_minute(const SiteGrowth& g) {
  const uint64_t ns = rise_duration_ns(g);
  return ns ? double(rise_bytes(g)) * 60e9 / double(ns) : 0;
}

bool grew_steadily(const SiteGrowth& g) {
  if (g.rises < 3 || rise_bytes(g) == 0) return false;
  const uint64_t duration = rise_duration_ns(g);
  return duration > 0 && g.last_rise_ns >= g.since_ns + duration / 2;
}

}  // namespace cudaleak::report
