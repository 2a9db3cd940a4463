// Moments the program marked on the timeline: named checkpoints and snapshot
// reports, with their time since the tracker started.
#pragma once
#include <mutex>
#include <string>
#include <vector>

#include "report.h"

namespace cudaleak::marks {

// type: "checkpoint", "report" or "snapshot". Keeps the first 4096 marks.
void add(const char* type, const std::string& name);
std::vector<report::TimelineMark> all();
// For the crash handler: fn(ctx, mark) for each mark, oldest first, when the
// lock is free (false when it is held, maybe by the crashed thread).
bool visit_if_free(void (*fn)(void* ctx, const report::TimelineMark& mark), void* ctx);
void reset_in_child();
std::mutex& mutex();  // for the fork protocol

}  // namespace cudaleak::marks
