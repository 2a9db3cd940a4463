// The checkpoint API behind include/cudaleak.h (cudaleak_impl_* symbols).
#pragma once
#include <mutex>

namespace cudaleak::checkpoints {

std::mutex& mutex();  // for the fork protocol
void reset_in_child();

}  // namespace cudaleak::checkpoints
