// What the contexts' limits reserve, in words: a reservation, the device
// heap running out, and a reservation as the cause of an out-of-memory.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::render {

// One reservation as the text says it: "512.0 MiB for the device heap
// (malloc_heap_size = 512.0 MiB) on device 0, set by cudaDeviceSetLimit in
// enlarge_heap (app.cu:10)".
std::string describe_reservation(const report::Reservation& reservation);

// Device-side mallocs that returned NULL (a note of type
// device_heap_exhausted): how many, in which kernel launched from where, and
// the device heap limit in effect in that context, with where it was set
// (a reservation of `reservations`) or the default.
std::string describe_heap_exhausted(const report::Note& note, const std::vector<report::Reservation>& reservations);

// A context_reservation cause: the limit, where it was set, what it
// reserves, and the fix.
std::string reservation_cause_text(const report::Reservation& reservation, bool decisive);

}  // namespace cudaleak::render
