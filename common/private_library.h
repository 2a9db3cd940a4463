// Opens a shared library privately (RTLD_LOCAL): the system's copy when there
// is one, else the copy bundled in cudaleak-deps/ beside the object that
// contains this code, loading its bundled dependencies first. Private loading
// keeps its exported symbols (libunwind's _Unwind_*, libelf's API) out of the
// host program's symbol scope.
#pragma once
#include <initializer_list>
#include <string>

namespace cudaleak {

// The folder of the object that contains this code (libcudaleak.so in the
// preload library, the cudaleak binary in the command), or ".".
std::string own_directory();

void* open_private_library(const char* soname, std::initializer_list<const char*> dependencies);

}  // namespace cudaleak
