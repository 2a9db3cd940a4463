// JAX's view in the report: the diagnosis of XLA's out-of-memory, the array
// groups folded by the user's line, the text at exit, and the JSON round trip.
#include <catch2/catch.hpp>

#include "report/model/json_io.h"
#include "report/oom/diagnose_jax.h"
#include "report/render/jax_text.h"
#include "report/render/oom_text.h"
#include "tests/unit/report_frames.h"
#include "tests/unit/said_causes.h"

using namespace cudaleak::report;
using namespace cudaleak::render;
using cudaleak::test::native_frame;
using cudaleak::test::python_frame;

namespace {
constexpr uint64_t GiB = 1ull << 30;

const Frame kJaxFrame = python_frame("_cpp_pjit", "/usr/lib/python3/dist-packages/jax/_src/pjit.py", 300);

JaxArrayGroup group(uint64_t bytes, uint64_t count, std::vector<Frame> stack, const std::string& shape = "") {
  JaxArrayGroup g;
  g.bytes = bytes;
  g.count = count;
  g.largest_bytes = bytes / count;
  g.shape = shape;
  g.stack = std::move(stack);
  return g;
}

// XLA raised on device 0 of an 80 GiB device whose pool is 60 GiB.
OomEvent jax_event(uint64_t request) {
  OomEvent e;
  e.api = "XLA (JAX)";
  e.has_jax = true;
  e.device = 0;
  e.request_bytes = request;
  e.total_bytes = 80 * GiB;
  e.nvml = "ok";
  e.jax.exception = "jax.errors.JaxRuntimeError";
  e.jax.device.bytes_limit = 60 * GiB;
  e.jax.device.bytes_in_use = 59 * GiB;
  return e;
}
}  // namespace

TEST_CASE("jax: arrays of one line that filled the pool come first and the pool's share of the device after",
          "[jax][oom]") {
  OomEvent e = jax_event(GiB);
  // Two groups of one line told apart by a deeper frame, and JAX's own frame innermost.
  e.jax.device.groups = {
      group(40 * GiB, 40,
            {kJaxFrame, python_frame("step", "/app/train.py", 12), python_frame("main", "/app/train.py", 30)},
            "float32[16384,16384]"),
      group(19 * GiB, 19,
            {kJaxFrame, python_frame("step", "/app/train.py", 12), python_frame("main", "/app/train.py", 33)},
            "float32[16384,16384]"),
      group(GiB / 2, 1, {kJaxFrame, python_frame("init", "/app/train.py", 5)}, "float32[8192,16384]")};
  e.jax.device.arrays = 60;
  e.jax.device.arrays_bytes = 59 * GiB + GiB / 2;
  auto d = said_causes(e);
  REQUIRE(d.size() == 2);
  CHECK(d[0].cause == Cause::LiveTensors);
  CHECK(d[0].message.find(
            "59.5 GiB is held by 60 live arrays: 59.0 GiB in 59 arrays from step (train.py:12), the largest "
            "float32[16384,16384] (1.0 GiB); 512.0 MiB in 1 array from init (train.py:5), "
            "float32[8192,16384]; arrays from one line that stay alive accumulate") == 0);
  CHECK(d[1].cause == Cause::PoolLimit);
  CHECK(d[1].message.find("XLA's pool is limited to 60.0 GiB, 75% of the device's 80.0 GiB") == 0);
  CHECK(d[1].message.find("a bigger pool only delays the failure") != std::string::npos);

  // A small program under a small fraction: the limit is the cause.
  OomEvent small = jax_event(4 * GiB);
  small.jax.settings = "XLA_PYTHON_CLIENT_MEM_FRACTION=0.2";
  small.jax.device.bytes_limit = 16 * GiB;
  small.jax.device.bytes_in_use = 15 * GiB;
  small.jax.device.groups = {group(15 * GiB, 1, {kJaxFrame, python_frame("init", "/app/model.py", 8)})};
  small.jax.device.arrays = 1;
  small.jax.device.arrays_bytes = 15 * GiB;
  d = said_causes(small);
  REQUIRE(!d.empty());
  CHECK(d[0].cause == Cause::PoolLimit);
  CHECK(d[0].message.find("(XLA_PYTHON_CLIENT_MEM_FRACTION=0.2)") != std::string::npos);
  CHECK(d[0].message.find("delays") == std::string::npos);
}

// Four JAX processes on one H200, each with its own fraction (0.225): the
// room beyond a rank's pool is what the device has free, not the device less
// the pool (108 GiB was told, and 0.9 advised, while the other ranks held
// 64 GiB of it).
TEST_CASE("jax: the room beyond the pool is the device's free memory, and the fraction advised fits it", "[jax][oom]") {
  OomEvent e = jax_event(GiB);
  e.total_bytes = 140 * GiB;
  e.device_info = true;
  e.free_bytes = 43 * GiB + GiB / 2;
  e.jax.settings = "XLA_PYTHON_CLIENT_MEM_FRACTION=0.225 XLA_PYTHON_CLIENT_PREALLOCATE=false";
  e.jax.device.bytes_limit = 31 * GiB + GiB / 2;
  e.jax.device.pool_bytes = 31 * GiB;
  e.jax.device.bytes_in_use = 31 * GiB;
  std::string told;
  for (const auto& cause : said_causes(e))
    if (cause.cause == Cause::PoolLimit) told = cause.message;
  CHECK(
      told.find("the device has 43.0 GiB free beyond it (other processes and this one's other memory hold the rest)") !=
      std::string::npos);
  CHECK(told.find("XLA_PYTHON_CLIENT_MEM_FRACTION=0.53 gives XLA more of the device") != std::string::npos);
  CHECK(told.find("108") == std::string::npos);
  // No room beyond the pool once the others took it: the limit is not the cause.
  e.free_bytes = GiB / 2;
  for (const auto& cause : said_causes(e)) CHECK(cause.cause != Cause::PoolLimit);
}

// Allocating on demand (XLA_PYTHON_CLIENT_PREALLOCATE=false), the pool's
// limit less what is in use is not free in the pool: XLA has not taken it
// from the device, where another process may hold it (two JAX processes on
// an H200: 27.8 GiB "free, but in pieces" was told first, wrongly).
TEST_CASE("jax: a pool that allocates on demand is not called fragmented for memory it never took", "[jax][oom]") {
  OomEvent e = jax_event(GiB);
  e.jax.device.bytes_limit = 132 * GiB;
  e.jax.device.pool_bytes = 105 * GiB + GiB / 2;  // 512 MiB of it free
  e.jax.device.bytes_in_use = 105 * GiB;
  e.jax.device.largest_free_block = GiB - GiB / 64;
  e.jax.device.groups = {group(105 * GiB, 105, {kJaxFrame, python_frame("worker", "/app/two.py", 34)})};
  e.jax.device.arrays = 105;
  e.jax.device.arrays_bytes = 105 * GiB;
  for (const auto& cause : said_causes(e)) CHECK(cause.cause != Cause::Fragmentation);
  // Preallocated, the same free space was taken from the device: fragmented.
  e.jax.device.pool_bytes = 132 * GiB;
  bool fragmented = false;
  for (const auto& cause : said_causes(e)) fragmented = fragmented || cause.cause == Cause::Fragmentation;
  CHECK(fragmented);
}

TEST_CASE("jax: a jitted function's own buffers beside other frameworks and other processes", "[jax][oom]") {
  OomEvent e = jax_event(50 * GiB);
  e.jax.device.bytes_in_use = 2 * GiB;
  e.jax.compiled.parameter_bytes = 2 * GiB;
  e.jax.compiled.temp_bytes = 50 * GiB;
  e.jax.compiled.total_bytes = 54 * GiB;
  e.jax.compiled.peak_buffers = {
      {50 * GiB, "f32[120000,120000]", "jit(loss)/jit(main)/dot_general[dimension_numbers=...]", "/app/train.py", 10}};
  // PyTorch's cache in the same process, and XLA's own pool (not a cause: its view tells it).
  e.top_sites = {{Kind::Device,
                  "cudaMalloc",
                  "main (train.py:3)",
                  20 * GiB,
                  1,
                  1,
                  1,
                  {native_frame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(...)",
                                "/x/libc10_cuda.so")}},
                 {Kind::Device,
                  "cuMemAlloc",
                  "main (train.py:4)",
                  40 * GiB,
                  1,
                  1,
                  1,
                  {native_frame("tsl::BFCAllocator::Extend(unsigned long, unsigned long)", "/x/xla_extension.so")}}};
  e.other_processes = {{812, "python", 10 * GiB, true, 1}};
  auto d = said_causes(e);
  REQUIRE(d.size() >= 3);
  CHECK(d[0].cause == Cause::CompiledPeak);
  CHECK(d[0].message.find("the jitted function's own buffers need 54.0 GiB at once (arguments 2.0 GiB, outputs 0 B, "
                          "temporaries 50.0 GiB) beside the 2.0 GiB already in use of XLA's 60.0 GiB pool; its biggest "
                          "buffers: 50.0 GiB f32[120000,120000] for dot_general at train.py:10") == 0);
  bool torch = false, others = false;
  for (const auto& x : d) {
    torch |= x.cause == Cause::HeldByCache && x.message.find("the PyTorch caching allocator holds 20.0 GiB") == 0;
    others |= x.cause == Cause::OtherProcesses &&
              x.message.find("pid 812 (rank 1, python) holds 10.0 GiB") != std::string::npos;
    CHECK(x.message.find("XLA BFC") == std::string::npos);
  }
  CHECK(torch);
  CHECK(others);
  // The story's head names XLA and its repeats as one failure.
  e.jax.raised = 3;
  e.stack = {python_frame("main", "/app/train.py", 17)};
  const std::string text = cudaleak::render::render_event(e);
  CHECK(text.find("out of memory: JAX (XLA) could not allocate 50.0 GiB on device 0 in main (train.py:17)") == 0);
  CHECK(text.find("XLA raised it 3 times within 10 s") != std::string::npos);
  CHECK(text.find("raised as jax.errors.JaxRuntimeError") != std::string::npos);
}

TEST_CASE("jax: the view at exit with groups without a stack and its JSON round trip", "[jax]") {
  Report r;
  r.has_jax = true;
  r.jax.source = "profile";
  r.jax.settings = "XLA_PYTHON_CLIENT_PREALLOCATE=false";
  JaxDevice d;
  d.bytes_in_use = 3 * GiB;
  d.bytes_limit = 60 * GiB;
  d.arrays = 3;
  d.arrays_bytes = 3 * GiB;
  d.groups = {group(2 * GiB, 2, {kJaxFrame, python_frame("keep", "/app/train.py", 12)}, "float32[16384,16384]"),
              group(GiB, 1, {}, "bfloat16[32768,16384]")};
  r.jax.devices = {d};
  const std::string text = jax_view_text(r, "", [](int64_t, int) { return std::string(); });
  CHECK(text.find("JAX at exit on device 0: XLA's pool 3.0 GiB in use of its 60.0 GiB limit; live arrays 3.0 GiB in 3 "
                  "(not leaks, not gated):\n") != std::string::npos);
  CHECK(text.find("    2.0 GiB in 2 arrays from keep (train.py:12), the largest float32[16384,16384] (1.0 GiB)\n") !=
        std::string::npos);
  CHECK(text.find("    1.0 GiB in 1 array of bfloat16[32768,16384] (no line: JAX gave no stack for them)\n") !=
        std::string::npos);
  OomEvent e = jax_event(GiB);
  e.jax.device = d;
  e.jax.compiled.total_bytes = 5;
  e.jax.compiled.peak_buffers = {{5, "f32[1]", "op", "/app/x.py", 3}};
  r.oom_events = {e};
  Report back = from_json(to_json(r));
  CHECK(back.jax == r.jax);
  REQUIRE(back.oom_events.size() == 1);
  CHECK(back.oom_events[0].has_jax);
  CHECK(back.oom_events[0].jax == e.jax);
  // A view at an out-of-memory is told by its event, not again.
  r.jax.when = ViewMoment::Oom;
  CHECK(jax_view_text(r, "", [](int64_t, int) { return std::string(); }).empty());
}

TEST_CASE("jax: what cudaleak_jax sends is read with its failure", "[jax]") {
  JaxFailureSent failure;
  JaxView v = jax_view_from_json(
      R"({"settings": "XLA_PYTHON_CLIENT_ALLOCATOR=platform", "source": "profile", "executables_bytes": 4096,
          "devices": [{"device": 1, "id": 1, "bytes_in_use": 10, "bytes_limit": 0, "arrays": 1, "arrays_bytes": 10,
                       "groups": [{"bytes": 10, "count": 1, "largest_bytes": 10, "shape": "float32[2]",
                                   "stack": [{"file": "/app/a.py", "function": "f", "line": 3}]}]}],
          "oom": {"device": 1, "request": 64, "monotonic_ns": 5, "exception": "jaxlib.xla_extension.XlaRuntimeError",
                  "message": "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 64 bytes.",
                  "stack": [{"file": "/app/a.py", "function": "f", "line": 3}],
                  "compiled": {"parameter_bytes": 1, "output_bytes": 2, "temp_bytes": 3, "total_bytes": 6}}})",
      &failure);
  REQUIRE(v.devices.size() == 1);
  CHECK(v.devices[0].groups.at(0).stack.at(0).python);
  CHECK(failure.present);
  CHECK_FALSE(failure.repeat);
  CHECK(failure.device == 1);
  CHECK(failure.request == 64);
  CHECK(failure.oom.exception == "jaxlib.xla_extension.XlaRuntimeError");
  CHECK(failure.oom.compiled.total_bytes == 6);
  CHECK(failure.oom.settings == "XLA_PYTHON_CLIENT_ALLOCATOR=platform");
  CHECK(failure.oom.executables_bytes == 4096);
  REQUIRE(failure.stack.size() == 1);
  CHECK(failure.stack[0].python);
  CHECK_THROWS_AS(jax_view_from_json(R"({"devices": 3})"), FormatError);
}
