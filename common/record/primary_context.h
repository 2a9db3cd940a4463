// The driver's primary contexts as the tracker counts their retains,
// releases and resets: copied into a raw snapshot and listed as such in the
// report (Report::primary_contexts).
#pragma once
#include <cstdint>

namespace cudaleak::report {

struct PrimaryContext {
  int device = 0;
  uint64_t retains = 0;
  uint64_t releases = 0;
  uint64_t resets = 0;
  int64_t outstanding = 0;
  bool operator==(const PrimaryContext&) const = default;
};

}  // namespace cudaleak::report
