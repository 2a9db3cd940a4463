// When a site's history (SiteGrowth, report.h) says it grew steadily: the
// rule the report, the gate and `cudaleak top` share.
#pragma once
#include <cstdint>

#include "report/model/report.h"

namespace cudaleak::report {

// The end of the last span the history holds (the time its numbers are of).
uint64_t growth_end_ns(const SiteGrowth& g);
// How long the current rise has lasted, and by how much it rose.
uint64_t rise_duration_ns(const SiteGrowth& g);
uint64_t rise_bytes(const SiteGrowth& g);
// Bytes per minute over the rise; 0 when it lasted no time.
double rise_per_minute(const SiteGrowth& g);
// Grew steadily: since its last fall (or since first seen) its lowest live
// bytes rose in at least three spans and never fell, and it was still rising
// in the later half of that time (memory taken at start-up and then held,
// such as a model's weights or a cache filled once, is not growth).
bool grew_steadily(const SiteGrowth& g);

}  // namespace cudaleak::report
