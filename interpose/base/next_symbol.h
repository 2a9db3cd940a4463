// A versioned function of the objects loaded after this library, found the
// way RTLD_NEXT would find it from here, without calling dlsym or dlvsym: this
// library exports both, so a call of either from inside it would reach its own
// override. Reads the dynamic symbol tables in memory (GNU hash, else SysV
// hash) and the version definitions from the loader's list of objects
// (loaded_objects.h); no allocation, no file access, no libc call.
#pragma once

#include <cstddef>

#include "interpose/base/loaded_objects.h"

namespace cudaleak {

// The first definition of `name` with version `version` in an object loaded
// after this library; nullptr when none.
void* next_versioned_symbol(const char* name, const char* version);

// The code of the definitions of function `name`, of any version, in the
// objects loaded before this library (the program, libraries preloaded
// before it): those that interpose on it. Fills at most `room` ranges and
// returns how many.
size_t definitions_before_self(const char* name, CodeRange* ranges, size_t room);

}  // namespace cudaleak
