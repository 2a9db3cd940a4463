// Memory budgets: a test's (include/cudaleak.h: cudaleak_peak_begin,
// cudaleak_peak_read) and the run's (option limit_memory, judged at exit
// with the leak gate).
#pragma once
#include <string>

namespace cudaleak {

// When the run's device memory peaked more than limit_memory above its start
// on some device: what to print (the peak, the budget and the sites that
// grew); else "".
std::string memory_budget_failure();

}  // namespace cudaleak
