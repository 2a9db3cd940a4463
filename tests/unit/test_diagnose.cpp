#include <catch2/catch.hpp>

#include "diagnose.h"

using namespace cudaleak::report;
using cudaleak::oom::diagnose;

namespace {
OomEvent base(uint64_t request, uint64_t free, uint64_t total) {
  OomEvent e;
  e.api = "cudaMalloc";
  e.request_bytes = request;
  e.device_info = true;
  e.free_bytes = free;
  e.total_bytes = total;
  e.nvml = "ok";
  return e;
}
constexpr uint64_t GiB = 1ull << 30;
}  // namespace

TEST_CASE("diagnosis ranks the causes by what they explain", "[oom]") {
  OomEvent e = base(2 * GiB, GiB, 80 * GiB);
  e.other_processes = {{4242, "python", 60 * GiB, true}, {77, "", 3 * GiB, true}};
  e.top_sites = {{"device", "cudaMalloc", "train_step (train.cu:40)", 12 * GiB, 48, 1000000000, 9000000000, {}}};
  e.pools = {{1, true, 5 * GiB, 1 * GiB}};
  e.untracked_bytes = GiB / 2;
  auto d = diagnose(e);
  REQUIRE(d.size() == 3);
  CHECK(d[0].cause == "other_processes");
  CHECK(d[0].message == "2 other processes hold 63.0 GiB of the device: pid 4242 (python) holds 60.0 GiB, pid 77 holds 3.0 GiB");
  CHECK(d[1].cause == "accumulating_leak");
  CHECK(d[1].message.find("48 allocations made between 1.00 s and 9.00 s (about 256.0 MiB each)") != std::string::npos);
  CHECK(d[2].cause == "cached_in_pools");
  CHECK(d[2].bytes == 4 * GiB);
}

TEST_CASE("decisive causes come first whatever the bytes", "[oom]") {
  OomEvent big = base(100 * GiB, 70 * GiB, 80 * GiB);
  big.untracked_bytes = 9 * GiB;
  auto d = diagnose(big);
  REQUIRE(d.size() >= 1);
  CHECK(d[0].cause == "request_too_large");
  OomEvent frag = base(GiB, 3 * GiB, 80 * GiB);
  frag.top_sites = {{"device", "cudaMalloc", "load (a.cu:1)", 70 * GiB, 1, 5, 5, {}}};
  auto f = diagnose(frag);
  REQUIRE(f.size() == 2);
  CHECK(f[0].cause == "fragmentation");
  CHECK(f[1].cause == "held_by_process");
}

TEST_CASE("without device numbers or others, only what is known is claimed", "[oom]") {
  OomEvent e;
  e.request_bytes = GiB;
  e.nvml = "libnvidia-ml.so.1 not found";
  CHECK(diagnose(e).empty());
  std::string text = cudaleak::oom::render_event(e);
  CHECK(text.find("No single cause stands out") != std::string::npos);
  CHECK(text.find("other processes: unknown (libnvidia-ml.so.1 not found)") != std::string::npos);
}
