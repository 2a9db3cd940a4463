// The device memory a module image declares for its __device__ variables:
// each loaded module (and library) gets its own copy, allocated by the driver
// at load and freed at unload, so a module never unloaded keeps it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cudaleak::module_image {

// Bytes of the .nv.global (zero-initialised) and .nv.global.init sections of
// a cubin, or of the first cubin in a fatbin that can be read, decompressing
// LZ4 and Zstandard entries (decompress.h; every architecture's cubin
// declares the same variables), else of the variables its PTX defines. 0 when
// they cannot be known: an entry compressed in another way, Zstandard without
// libzstd.so.1, anything else. `size` bounds the reads; an image passed to
// the driver by pointer has no size (SIZE_MAX), and its own headers bound it.
uint64_t device_global_bytes(const void* image, size_t size = SIZE_MAX);

// The same for a file (cuModuleLoad, cuLibraryLoadFromFile).
uint64_t device_global_bytes_of_file(const char* path);

// Whether an image read by the two above was a cubin whose kernels call
// device-side malloc (an undefined "malloc" function in its symbol table):
// the first such kernel makes the driver set up the device heap, which holds
// more than the heap's size (about 140 MiB on an H100) without any call the
// process makes. A cubin that could not be decompressed is not read, so
// false says nothing about it.
bool device_malloc_loaded();
// How many images read on the calling thread so far were cubins whose
// kernels call device-side malloc: a load that raises it loaded one.
uint64_t malloc_images_read();

// Whether a cubin of `size` bytes names an undefined function "malloc" (its
// kernels call device-side malloc): asked before anything else is read of it.
bool cubin_calls_malloc(const void* cubin, size_t size);

}  // namespace cudaleak::module_image
