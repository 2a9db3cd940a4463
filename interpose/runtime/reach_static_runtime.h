// Static cudart inside the executable (nvcc -cudart static, the default):
// its globals sit in the executable's .data and .bss among the program's,
// as local symbols named libcudart_static_<hash> (CUDA 13, checked with nm on
// an nvcc build), and hold the runtime's own state. The reachability scan
// leaves their ranges out of the executable's roots. A stripped executable
// has no such symbols: its static cudart is scanned as the program's.
#pragma once
#include <cstdint>

#include "interpose/runtime/reach_memory.h"

namespace cudaleak::reach {

struct Range {
  uint64_t begin = 0, end = 0;
};

// The ranges of the static CUDA runtime's data objects in the ELF file at
// `path` loaded with `bias`, sorted; false when the file cannot be read.
bool static_runtime_globals(const char* path, uint64_t bias, MappedArray<Range>& out);

// Whether a symbol of this name belongs to a statically linked CUDA runtime.
bool is_static_runtime_symbol(const char* name);

}  // namespace cudaleak::reach
