// The text block an out-of-memory event prints: the failed call and where it
// came from, the retries before it, the likely causes (report/oom/diagnose.h
// decides them, cause_words.h says them) most likely first, and how the
// device stood.
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::render {

std::string render_event(const report::OomEvent& event);

}  // namespace cudaleak::render
