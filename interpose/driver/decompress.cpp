#include "interpose/driver/decompress.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "common/private_library.h"

namespace cudaleak::decompress {

namespace {

// An LZ4 length: the 4-bit field of the token, continued by bytes while they
// are 255. False when the input ends or the length passes `limit` (no length
// past the output is ever valid, so the sum cannot overflow).
bool lz4_length(const unsigned char* in, size_t in_size, size_t& at, size_t& length, size_t limit) {
  if (length != 15) return true;
  unsigned char byte;
  do {
    if (at >= in_size) return false;
    byte = in[at++];
    length += byte;
    if (length > limit) return false;
  } while (byte == 255);
  return true;
}

using ZstdDecompress = size_t (*)(void*, size_t, const void*, size_t);
using ZstdIsError = unsigned (*)(size_t);
struct Zstd {
  ZstdDecompress decompress = nullptr;
  ZstdIsError is_error = nullptr;
};

std::atomic<const char*> g_zstd_soname{nullptr};

Zstd load(const char* soname) {
  // RTLD_LOCAL through the project's loader: the system's copy, else one
  // bundled in cudaleak-deps/; its symbols stay out of the program's scope.
  void* lib = open_private_library(soname, {});
  if (!lib) return {};
  Zstd z{reinterpret_cast<ZstdDecompress>(dlsym(lib, "ZSTD_decompress")),
         reinterpret_cast<ZstdIsError>(dlsym(lib, "ZSTD_isError"))};
  return z.decompress && z.is_error ? z : Zstd{};
}

// The default library is opened once per process, at the first Zstandard
// entry (a module load hook, never a signal handler); a test's name each time.
Zstd zstd() {
  if (const char* soname = g_zstd_soname.load()) return load(soname);
  static const Zstd loaded = load("libzstd.so.1");
  return loaded;
}

}  // namespace

Result lz4_block(const unsigned char* in, size_t in_size, unsigned char* out, size_t out_size) {
  size_t at = 0, written = 0;
  for (;;) {
    if (at >= in_size) return Result::malformed;
    const unsigned char token = in[at++];
    size_t literals = token >> 4;
    if (!lz4_length(in, in_size, at, literals, out_size)) return Result::malformed;
    if (literals > in_size - at || literals > out_size - written) return Result::malformed;
    if (literals) std::memcpy(out + written, in + at, literals);  // out may be null for an empty result
    at += literals;
    written += literals;
    if (at == in_size) break;  // the last sequence is literals only
    if (in_size - at < 2) return Result::malformed;
    const size_t offset = size_t(in[at]) | size_t(in[at + 1]) << 8;
    at += 2;
    if (offset == 0 || offset > written) return Result::malformed;
    size_t match = token & 15;
    if (!lz4_length(in, in_size, at, match, out_size)) return Result::malformed;
    match += 4;
    if (match > out_size - written) return Result::malformed;
    // Byte by byte: a match may overlap what it copies (offset < length).
    const unsigned char* from = out + written - offset;
    for (size_t i = 0; i < match; ++i) out[written + i] = from[i];
    written += match;
  }
  return written == out_size ? Result::ok : Result::malformed;
}

Result zstd_frame(const unsigned char* in, size_t in_size, unsigned char* out, size_t out_size) {
  static constexpr unsigned char kMagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
  if (in_size < 4 || std::memcmp(in, kMagic, 4) != 0) return Result::malformed;
  Zstd z = zstd();
  if (!z.decompress) return Result::unavailable;
  // One-shot into a buffer of the declared size: libzstd refuses a frame
  // that would write more, and a shorter result is a mismatch.
  size_t n = z.decompress(out, out_size, in, in_size);
  return !z.is_error(n) && n == out_size ? Result::ok : Result::malformed;
}

void use_zstd_library(const char* soname) { g_zstd_soname.store(soname); }

}  // namespace cudaleak::decompress
