// PyTorch's view and the out-of-memory diagnosis built on it, from reports
// written on an H100 by the Python scenarios of tests/gpu/python (checked on
// GPUs by tests/cases/python), kept in tests/fixtures/h100/python.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "report/render/oom_text.h"
#include "report/model/json_io.h"
#include "report/gate/site.h"
#include "report/render/tensor_words.h"
#include "report/render/text_report.h"
#include "tests/unit/said_causes.h"

using namespace cudaleak;
using namespace cudaleak::report;
using namespace cudaleak::render;

namespace {

Report load_python_fixture(const std::string& name) {
  std::ifstream in(std::string(CUDALEAK_FIXTURES) + "/h100/python/" + name);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return from_json(ss.str());
}

const OomEvent& pytorch_event(const Report& r) {
  for (const auto& e : r.oom_events)
    if (e.has_pytorch) return e;
  FAIL("no PyTorch out-of-memory in the report");
  return r.oom_events.front();
}

}  // namespace

TEST_CASE("a fill loop's growth comes before the fragmentation it left in PyTorch's cache", "[pytorch]") {
  // fill() keeps 3 MiB tensors until the device is full; the 2 MiB left in
  // each 20 MiB segment (10% of the reservation) would hold 2,684 more of
  // them, against the 24,162 it made: expandable_segments only delays it.
  Report r = load_python_fixture("scenario_fragmentation.470.0.json");
  const OomEvent& e = pytorch_event(r);
  CHECK(e.api == "PyTorch caching allocator");
  CHECK(e.pytorch.pinned_segments > 1000);
  CHECK(e.pytorch.largest_free_block < e.request_bytes);
  auto d = said_causes(e);
  REQUIRE(!d.empty());
  CHECK(d[0].cause == Cause::LiveTensors);
  CHECK(d[0].message.find("fill (scenario_fragmentation.py:10)") != std::string::npos);
  CHECK(d.back().cause == Cause::Fragmentation);
  CHECK(d.back().message.find("that space holds 2684 more of the tensors from fill (scenario_fragmentation.py:10) "
                              "(24162 so far)") != std::string::npos);
  CHECK(d.back().message.find("expandable_segments would only delay the failure") != std::string::npos);
  for (const auto& x : d) CHECK(x.cause != Cause::AccumulatingLeak);  // segments are never a leak
  // The failed cudaMalloc calls PyTorch retried are kept, without a view.
  size_t plain = 0;
  for (const auto& x : r.oom_events) plain += !x.has_pytorch;
  CHECK(plain == 2);
  // The event's header names the user's line, not PyTorch's.
  CHECK(render::render_event(e).find(
            "PyTorch could not allocate 20.0 MiB on device 0 in fill (scenario_fragmentation.py:10)") !=
        std::string::npos);
}

TEST_CASE("a per-process memory fraction is named as PyTorch's own limit", "[pytorch]") {
  Report r = load_python_fixture("scenario_fraction.551.0.json");
  auto d = said_causes(pytorch_event(r));
  REQUIRE(!d.empty());
  CHECK(d[0].cause == Cause::AllocatorLimit);
}

TEST_CASE("tensors kept by stored exceptions are named at exit as live tensors, not leaks", "[pytorch]") {
  Report r = load_python_fixture("scenario_exceptions.504.0.json");
  REQUIRE(r.has_pytorch);
  CHECK(r.pytorch.when == ViewMoment::Exit);
  const AllocatorDevice* d = r.pytorch.device(0);
  REQUIRE(d);
  REQUIRE(!d->live_tensors.empty());
  CHECK(d->live_tensors[0].count == 10);
  CHECK(d->live_tensors[0].bytes == 10ull * (32 << 20));
  CHECK(render::tensor_origin(d->live_tensors[0]) == "from work (scenario_exceptions.py:9)");
  std::string text = render_text(r, TextOptions{});
  CHECK(text.find("held by live tensors (not leaks, not gated)") != std::string::npos);
  CHECK(text.find("320.0 MiB in 10 tensors from work (scenario_exceptions.py:9)") != std::string::npos);
  CHECK(r.summary.leaked_count == 0);
}

TEST_CASE("a ctypes leak's site is the Python code", "[pytorch]") {
  Report r = load_python_fixture("scenario_ctypes.537.0.json");
  CHECK(r.python.frames);
  REQUIRE(r.leaks.size() == 1);
  CHECK(gate::site_of(r.leaks[0]) ==
        "device | leaky_buffer @ scenario_ctypes.py:22 | <module> @ scenario_ctypes.py:26");
}

TEST_CASE("a PyTorch view survives the JSON round trip", "[pytorch]") {
  Report r = load_python_fixture("scenario_fragmentation.470.0.json");
  Report back = from_json(to_json(r));
  const OomEvent& a = pytorch_event(r);
  const OomEvent& b = pytorch_event(back);
  CHECK(b.pytorch.reserved == a.pytorch.reserved);
  CHECK(b.pytorch.segment_list.size() == a.pytorch.segment_list.size());
  REQUIRE(!b.pytorch.live_tensors.empty());
  CHECK(b.pytorch.live_tensors[0].stack.size() == a.pytorch.live_tensors[0].stack.size());
  CHECK(b.pytorch.live_tensors[0].stack[0].python);
  CHECK(said_causes(b)[0].message == said_causes(a)[0].message);
}

TEST_CASE("without per-tensor stacks the tensors of stored exceptions are named by the segments' line (H100, format 2)",
          "[pytorch]") {
  Report r = load_python_fixture("scenario_exceptions.segments.1870.0.json");
  CHECK(r.format_version == 2);
  REQUIRE(r.has_pytorch);
  const AllocatorDevice* d = r.pytorch.device(0);
  REQUIRE(d);
  REQUIRE(!d->live_tensors.empty());
  const TensorGroup& g = d->live_tensors[0];
  CHECK(g.by_segment);
  CHECK(g.count == 10);
  CHECK(render::tensor_origin(g) == "in segments reserved by work (scenario_exceptions.py:9)");
  std::string text = render_text(r, TextOptions{});
  CHECK(text.find("320.0 MiB in 10 tensors in segments reserved by work (scenario_exceptions.py:9)") !=
        std::string::npos);
}

TEST_CASE("live tensors at one line are one line of the text, their histories summed", "[pytorch]") {
  // An FSDP rank on an H200 listed "2.6 GiB in 85 tensors from train_step
  // (fsdp.py:46)" and "64.0 MiB in 1 tensor from train_step (fsdp.py:46)":
  // two groups told apart only by frames below the program's line.
  const Frame line{0, "", "train_step", "/app/fsdp.py", 46, false, true};
  TensorGroup kept, other, elsewhere;
  kept.bytes = 3 << 20, kept.count = 3, kept.stack = {line};
  kept.bytes_history = {1 << 20, 2 << 20}, kept.growing = true;
  other.bytes = 1 << 20, other.count = 1, other.stack = {{0x5, "/x/libtorch_cuda.so", "at::empty", "", 0}, line};
  other.bytes_history = {1 << 20, 1 << 20};
  elsewhere.bytes = 2 << 20, elsewhere.count = 2;
  elsewhere.stack = {{0, "", "load", "/app/fsdp.py", 12, false, true}};
  const std::string text = cudaleak::render::live_tensor_lines({kept, elsewhere, other});
  INFO(text);
  CHECK(text ==
        "    4.0 MiB in 4 tensors from train_step (fsdp.py:46) [growing: 2.0 MiB -> 3.0 MiB -> 4.0 MiB]\n"
        "    2.0 MiB in 2 tensors from load (fsdp.py:12)\n");
  // Summed, a line that rose once and fell once is not growing.
  other.bytes_history = {3 << 20, 1 << 20};
  CHECK(cudaleak::render::live_tensor_lines({kept, other}) ==
        "    4.0 MiB in 4 tensors from train_step (fsdp.py:46)\n");
}
