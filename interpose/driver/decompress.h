// The two compressions nvcc (CUDA 12.4 and later) applies to fatbin entries
// (module_image.cpp): an LZ4 block (--compress-mode=speed, entry flag
// 0x2000) and a Zstandard frame (default, size and balance, flag 0x8000).
// LZ4 is decoded here; Zstandard by the system's libzstd.so.1, opened with
// dlopen the first time such an entry is met, so the preload links nothing
// beyond glibc. Both write exactly `out_size` bytes into `out` or fail: the
// size an entry declares is the only size trusted, and nothing is read or
// written outside the two buffers.
#pragma once
#include <cstddef>

namespace cudaleak::decompress {

enum class Result {
  ok,           // `out` holds exactly out_size bytes
  malformed,    // the input is not a well-formed block or frame of that size
  unavailable,  // Zstandard without a libzstd.so.1 to decode it
};

Result lz4_block(const unsigned char* in, size_t in_size, unsigned char* out, size_t out_size);
Result zstd_frame(const unsigned char* in, size_t in_size, unsigned char* out, size_t out_size);

// Tests: the library zstd_frame loads (nullptr: the default, libzstd.so.1).
// A name that does not load makes it answer `unavailable`.
void use_zstd_library(const char* soname);

}  // namespace cudaleak::decompress
