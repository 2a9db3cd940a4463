// Where a module or library image comes from. The CUDA runtime (cudart, also
// the copy embedded in cuBLAS, cuDNN, NCCL, ...) loads the device code
// compiled into a program or library with cuLibraryLoadData/cuModuleLoadData,
// passing the fatbin in that object's .nv_fatbin section: the runtime's own
// registration, which the program never unloads itself. An image anywhere
// else (a file read into memory, a PTX string) is the program's explicit load.
#pragma once

namespace cudaleak {

// True when `image` lies in the fatbin sections (.nv_fatbin, __nv_relfatbin)
// of a loaded ELF object. Reads that object's section headers from its file
// once; the answer for each object is kept.
bool is_registered_fatbin(const void* image);

}  // namespace cudaleak
