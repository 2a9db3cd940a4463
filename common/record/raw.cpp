// The raw snapshot's look-ups (common/record/raw.h).
#include "common/record/raw.h"

#include <algorithm>
#include <cstring>

namespace cudaleak::report {

const RawReach* RawSnapshot::reach_of(const Record& r) const {
  auto it = std::lower_bound(reach.begin(), reach.end(), r.sequence,
                             [](const RawReach& x, uint64_t sequence) { return x.sequence < sequence; });
  return it != reach.end() && it->sequence == r.sequence ? &*it : nullptr;
}

uint16_t RawSnapshot::intern(const char* text) {
  // From the end: names added by intern (teardown reasons) come after the
  // creators' table, and each is asked for again for every record it names.
  for (size_t i = names.size(); i-- > 0;)
    if (names[i] == text || std::strcmp(names[i], text) == 0) return uint16_t(i);
  if (names.size() >= kNoName) return kNoName;  // an unnamed record rather than a wrong name
  names.push_back(text);
  return uint16_t(names.size() - 1);
}

}  // namespace cudaleak::report
