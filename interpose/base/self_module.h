// The preload library's own code range: frames inside it are dropped from
// stacks, and pointers into it are never recorded as "real" driver functions.
#pragma once

#include <cstdint>

#include "interpose/base/loaded_objects.h"

namespace cudaleak {
bool is_own_code(const void* address);
}
