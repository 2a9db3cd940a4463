// A versioned function of the objects loaded after this library, found the
// way RTLD_NEXT would find it from here, without calling dlsym or dlvsym: this
// library exports both, so a call of either from inside it would reach its own
// override. Reads the dynamic symbol tables in memory (GNU hash, else SysV
// hash) and the version definitions from the loader's list of objects
// (loaded_objects.h); no allocation, no file access, no libc call.
#pragma once

namespace cudaleak {

// The first definition of `name` with version `version` in an object loaded
// after this library; nullptr when none.
void* next_versioned_symbol(const char* name, const char* version);

}  // namespace cudaleak
