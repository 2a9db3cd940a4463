// The line table of cubins the local nvcc built with -lineinfo
// (report/symbols/device_lines.h), against the source's marked lines and
// against binutils' readelf decoding the same line program.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "report/symbols/device_lines.h"

using cudaleak::symbols::DeviceLineTable;

namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
std::string image(const std::string& name) { return contents(std::string(CUDALEAK_DEVICE_IMAGES) + "/" + name); }

// The line of lines.cu marked "LINE: <mark>".
int marked_line(const std::string& mark) {
  std::istringstream in(contents(std::string(CUDALEAK_DEVICE_SOURCES) + "/lines.cu"));
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    if (text.find("// LINE: " + mark) != std::string::npos) return n;
  FAIL("no line marked " << mark);
  return 0;
}

DeviceLineTable table_of(const std::string& bytes) { return DeviceLineTable::read(bytes.data(), bytes.size()); }

constexpr const char* kKernel = "_Z9two_sitesi";

}  // namespace

TEST_CASE("a cubin built with -lineinfo maps its malloc calls' offsets to their source lines") {
  const std::string cubin = image("lines.cubin");
  DeviceLineTable t = table_of(cubin);
  REQUIRE_FALSE(t.empty());
  CHECK(t.calls_malloc());
  for (const char* mark : {"first", "second", "helper"}) {  // helper: a device function inside the kernel's code
    INFO(mark);
    const int line = marked_line(mark);
    auto offset = t.offset_of(kKernel, line);
    REQUIRE(offset);
    auto where = t.at(kKernel, *offset);
    CHECK(where.line == line);
    CHECK(where.file.size() >= 8);
    CHECK(where.file.substr(where.file.size() - 8) == "lines.cu");
  }
  CHECK(t.at(kKernel, 1u << 30).line == 0);  // past the kernel's code
  CHECK(t.at("_Z9no_such_kernel", 0).line == 0);
  CHECK(t.at("_Z9no_mallocPi", 0).line > 0);  // the other kernel has its own rows
}

TEST_CASE("the decoder reads every row readelf decodes from the same line program") {
  DeviceLineTable t = table_of(image("one_kernel_lines.cubin"));
  std::istringstream rows(image("one_kernel_lines.readelf"));
  uint64_t address;
  int line, compared = 0, previous_line = 0;
  uint64_t previous = UINT64_MAX;
  while (rows >> address >> line) {
    // Two rows at one address: the later one holds (DWARF's rule for a lookup).
    if (previous != UINT64_MAX && address != previous) {
      INFO("address " << previous);
      CHECK(t.at(kKernel, previous).line == previous_line);
      ++compared;
    }
    previous = address, previous_line = line;
  }
  CHECK(t.at(kKernel, previous).line == previous_line);  // the end of the sequence: 0
  CHECK(previous_line == 0);
  CHECK(compared >= 10);
}

TEST_CASE("a cubin without line information, a fatbin, and damaged cubins give no lines and read in bounds") {
  DeviceLineTable none = table_of(image("no_lines.cubin"));
  CHECK(none.empty());
  CHECK(none.calls_malloc());
  CHECK(none.at(kKernel, 16).line == 0);
  CHECK(table_of(image("lines_speed.fatbin")).empty());  // the Sanitizer API hands over a cubin; a fatbin is no ELF
  const std::string cubin = image("lines.cubin");
  const size_t rows = table_of(cubin).rows();
  CHECK(rows > 10);
  for (size_t n = 0; n < cubin.size(); n += 7) {
    std::vector<char> prefix(cubin.begin(), cubin.begin() + long(n));  // exactly n bytes
    CHECK(DeviceLineTable::read(prefix.data(), prefix.size()).rows() <= rows);
  }
  for (size_t i = 0; i < cubin.size(); ++i) {  // each byte damaged in turn: anything may come out, in bounds
    std::string copy = cubin;
    copy[i] = char(copy[i] ^ 0xa5);
    (void)table_of(copy).at(kKernel, 32);
  }
  CHECK(DeviceLineTable::read(nullptr, 0).empty());
}
