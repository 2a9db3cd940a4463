// The globals read from fatbins that the local nvcc compressed, against the
// same code uncompressed (images built by CMakeLists.txt here).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "interpose/driver/decompress.h"
#include "interpose/driver/module_image.h"

using cudaleak::module_image::device_global_bytes;
using Image = std::vector<unsigned char>;

namespace {

Image load(const std::string& name) {
  std::ifstream in(std::string(CUDALEAK_DEVICE_IMAGES) + "/" + name, std::ios::binary);
  REQUIRE(in);
  return Image(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The header of the fatbin's first entry of `kind` (1 PTX, 2 cubin), at the
// offsets nvcc 13 writes (module_image.cpp, FatbinEntry).
struct Entry {
  size_t at = 0;  // of its header
  uint64_t payload_size = 0, flags = 0, uncompressed_size = 0;
  uint32_t compressed_size = 0;
};
Entry entry(const Image& fatbin, uint16_t kind) {
  uint16_t header_size;
  std::memcpy(&header_size, fatbin.data() + 6, 2);
  for (size_t at = header_size; at + 64 <= fatbin.size();) {
    uint16_t k;
    uint32_t entry_header;
    Entry e{at};
    std::memcpy(&k, fatbin.data() + at, 2);
    std::memcpy(&entry_header, fatbin.data() + at + 4, 4);
    std::memcpy(&e.payload_size, fatbin.data() + at + 8, 8);
    std::memcpy(&e.compressed_size, fatbin.data() + at + 16, 4);
    std::memcpy(&e.flags, fatbin.data() + at + 40, 8);
    std::memcpy(&e.uncompressed_size, fatbin.data() + at + 56, 8);
    if (k == kind) return e;
    at += entry_header + e.payload_size;
  }
  FAIL("no entry of kind " << kind);
  return {};
}

constexpr uint64_t kLz4 = 0x2000, kZstd = 0x8000;
// table (4096) + weights (24) + scratch (100000), as globals.cu declares them.
constexpr uint64_t kDeclared = 4096 + 24 + 100000;

}  // namespace

TEST_CASE("every compression nvcc writes gives the globals of the uncompressed cubin") {
  Image cubin = load("globals.cubin");
  const uint64_t expected = device_global_bytes(cubin.data(), cubin.size());
  CHECK(expected >= kDeclared);
  CHECK(expected < kDeclared + 256);  // alignment only
  for (const char* name : {"globals_plain.fatbin", "globals_default.fatbin", "globals_speed.fatbin",
                           "globals_size.fatbin", "globals_balance.fatbin"}) {
    INFO(name);
    Image fatbin = load(name);
    CHECK(device_global_bytes(fatbin.data(), fatbin.size()) == expected);
    CHECK(device_global_bytes(fatbin.data()) == expected);  // by pointer: bounded by its own headers
  }
}

TEST_CASE("nvcc 13 compresses as documented: speed an LZ4 block, size and balance a Zstandard frame") {
  auto cubin_flags = [](const char* name) { return entry(load(name), 2).flags & (kLz4 | 0x4000 | kZstd); };
  CHECK(cubin_flags("globals_plain.fatbin") == 0);
  CHECK(cubin_flags("globals_default.fatbin") == 0);  // a small cubin stays plain by default...
  CHECK((entry(load("globals_default.fatbin"), 1).flags & kZstd) != 0);  // ...its PTX does not
  CHECK(cubin_flags("globals_speed.fatbin") == kLz4);
  CHECK(cubin_flags("globals_size.fatbin") == kZstd);
  CHECK(cubin_flags("globals_balance.fatbin") == kZstd);
  Image lz4 = load("globals_speed.fatbin"), zstd = load("globals_size.fatbin");
  Entry l = entry(lz4, 2), z = entry(zstd, 2);
  // An LZ4 block, not a frame (no 04 22 4d 18 magic); a Zstandard frame.
  CHECK(std::memcmp(lz4.data() + l.at + 64, "\x04\x22\x4d\x18", 4) != 0);
  CHECK(std::memcmp(zstd.data() + z.at + 64, "\x28\xb5\x2f\xfd", 4) == 0);
  // The payload is the compressed bytes padded to 8; the size before padding is at offset 16.
  for (const Entry& e : {l, z}) {
    CHECK(e.compressed_size <= e.payload_size);
    CHECK(e.payload_size - e.compressed_size < 8);
    CHECK(e.uncompressed_size == load("globals.cubin").size());
  }
}

TEST_CASE("a fatbin of compressed PTX alone counts the globals its PTX defines") {
  Image ptx = load("globals_ptx_only.fatbin");
  CHECK((entry(ptx, 1).flags & kZstd) != 0);
  CHECK(device_global_bytes(ptx.data(), ptx.size()) == kDeclared);
}

// CTest runs each case in a process of its own: nothing read before this one.
TEST_CASE("a compressed cubin that calls malloc tells that the device heap may be set up") {
  using cudaleak::module_image::device_malloc_loaded;
  CHECK_FALSE(device_malloc_loaded());
  Image lz4 = load("globals_speed.fatbin");
  device_global_bytes(lz4.data(), lz4.size());
  CHECK(device_malloc_loaded());
}

TEST_CASE("Zstandard without libzstd.so.1 is not known, and LZ4 still is") {
  Image cubin = load("globals.cubin");
  const uint64_t expected = device_global_bytes(cubin.data(), cubin.size());
  cudaleak::decompress::use_zstd_library("libzstd-not-installed.so.1");
  Image zstd = load("globals_size.fatbin"), lz4 = load("globals_speed.fatbin");
  CHECK(device_global_bytes(zstd.data(), zstd.size()) == 0);
  CHECK(device_global_bytes(lz4.data(), lz4.size()) == expected);
  cudaleak::decompress::use_zstd_library(nullptr);
  CHECK(device_global_bytes(zstd.data(), zstd.size()) == expected);
}

TEST_CASE("truncated and damaged compressed entries give nothing and read in bounds") {
  for (const char* name : {"globals_speed.fatbin", "globals_size.fatbin"}) {
    INFO(name);
    const Image fatbin = load(name);
    for (size_t n = 0; n < fatbin.size(); ++n) {
      Image prefix(fatbin.begin(), fatbin.begin() + long(n));  // exactly n bytes: ASan sees a read past them
      INFO(n);
      CHECK(device_global_bytes(prefix.data(), prefix.size()) == 0);
    }
    const Entry e = entry(fatbin, 2);
    // The PTX entry (which would answer in the cubin's place) made a kind nothing reads.
    Image cubin_only = fatbin;
    const uint16_t unknown_kind = 0x7fff;
    std::memcpy(cubin_only.data() + entry(fatbin, 1).at, &unknown_kind, 2);
    REQUIRE(device_global_bytes(cubin_only.data(), cubin_only.size()) > 0);
    auto with = [&](size_t offset, uint64_t value, size_t width) {
      Image copy = cubin_only;
      std::memcpy(copy.data() + e.at + offset, &value, width);
      return device_global_bytes(copy.data(), copy.size());
    };
    // A declared size one off either way, a payload one byte short: the
    // decoders refuse each.
    CHECK(with(56, e.uncompressed_size + 1, 8) == 0);
    CHECK(with(56, e.uncompressed_size - 1, 8) == 0);
    CHECK(with(16, e.compressed_size - 1, 4) == 0);
    CHECK(with(56, uint64_t(1) << 40, 8) == 0);  // past the limit: nothing mapped
    // Every byte of the payload flipped in turn: anything may come out, but in bounds.
    for (size_t i = 0; i < e.compressed_size; ++i) {
      Image copy = fatbin;
      copy[e.at + 64 + i] ^= 0x5a;
      device_global_bytes(copy.data(), copy.size());
    }
    CHECK(device_global_bytes(fatbin.data(), fatbin.size()) > 0);
  }
}
