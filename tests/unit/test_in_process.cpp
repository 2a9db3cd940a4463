// The preload library's one entry into the report (report/write/in_process.h):
// what it writes, where, and what it gives back to print, from a capture
// made here as the runtime makes one.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "common/record/raw.h"
#include "report/gate/gate.h"
#include "report/model/json_io.h"
#include "report/write/in_process.h"

using namespace cudaleak;
using namespace cudaleak::report;

namespace {

// Every ip is a frame of the program: main (app.cu:12).
class ProgramFrames : public FrameResolver {
 public:
  std::vector<Frame> resolve(uint64_t ip, bool) override {
    Frame f;
    f.ip = ip;
    f.module = "/work/app";
    f.function = "main";
    f.file = "app.cu";
    f.line = 12;
    return {f};
  }
};

const std::vector<uint64_t> kStack = {0x401000};

// One leaked 4 KiB allocation of device memory, reported for `reason`.
Capture one_leak(Reason reason) {
  Capture c;
  Record r;
  r.kind = Kind::Device;
  r.bytes = 4096;
  r.sequence = 1;
  r.handle = 0x7000;
  r.device = 0;
  r.stack_id = 1;
  r.api = c.snapshot.intern("cuMemAlloc_v2");
  c.snapshot.resources.push_back(r);
  c.stacks = [](uint32_t) -> std::span<const uint64_t> { return kStack; };
  c.resolver = std::make_unique<ProgramFrames>();
  c.symbolized = true;
  c.reason = reason;
  c.process.pid = 4242;
  return c;
}

// A destination that keeps what is written, and counts the serials taken.
struct Kept {
  std::map<std::string, std::string> files;
  int serials = 0;
  bool fail = false;
  Destination to(const std::string& pattern) {
    Destination d;
    d.pattern = pattern;
    d.serial = [this] { return unsigned(++serials); };
    d.write = [this](std::string& path, const std::string& json, std::string* problem) {
      if (fail) {
        *problem = "no space left";
        return false;
      }
      files[path] = json;
      return true;
    };
    return d;
  }
};

}  // namespace

TEST_CASE("deliver: the exit report is written once under its expanded name and its summary is the text",
          "[report][in_process]") {
  Kept kept;
  Delivered d = deliver(one_leak(Reason::Exit), AssembleSettings{}, kept.to("/reports/r.%p.%n.json"), Printing{});
  CHECK(kept.serials == 1);
  CHECK(d.written);
  CHECK(d.path == "/reports/r.4242.1.json");
  REQUIRE(kept.files.count(d.path) == 1);
  CHECK(kept.files[d.path] == to_json(d.assembled.report));
  CHECK(from_json(kept.files[d.path]).leaks.size() == 1);
  CHECK(d.text.find("4.0 KiB of device memory in 1 allocation never freed") != std::string::npos);
  CHECK(d.text.find("main app.cu:12") != std::string::npos);
  CHECK(d.text.find("Report: /reports/r.4242.1.json") != std::string::npos);
}

TEST_CASE("deliver: a report that could not be written says why and names no file in its text",
          "[report][in_process]") {
  Kept kept;
  kept.fail = true;
  Delivered d = deliver(one_leak(Reason::Exit), AssembleSettings{}, kept.to("/reports/r.json"), Printing{});
  CHECK_FALSE(d.written);
  CHECK(d.problem == "no space left");
  CHECK(d.text.find("SUMMARY: cudaleak:") != std::string::npos);
  CHECK(d.text.find("Report:") == std::string::npos);
}

TEST_CASE("deliver: print_summary off, or a checkpoint where nothing grows, gives no text but writes the report",
          "[report][in_process]") {
  Kept kept;
  Printing quiet;
  quiet.summary = false;
  CHECK(deliver(one_leak(Reason::Exit), AssembleSettings{}, kept.to("/r/a.json"), quiet).text.empty());
  Delivered checkpoint = deliver(one_leak(Reason::Checkpoint), AssembleSettings{}, kept.to("/r/b.json"), Printing{});
  CHECK(checkpoint.text.empty());
  CHECK(kept.files.size() == 2);
}

TEST_CASE("deliver: the assembled hook runs before anything is written", "[report][in_process]") {
  Kept kept;
  Destination to = kept.to("/r/c.json");
  size_t files_when_assembled = 99;
  to.assembled = [&](const Assembled& a) {
    files_when_assembled = kept.files.size();
    CHECK(a.report.leaks.size() == 1);
  };
  deliver(one_leak(Reason::Exit), AssembleSettings{}, to, Printing{});
  CHECK(files_when_assembled == 0);
  CHECK(kept.files.size() == 1);
}

TEST_CASE("judge: a failing per-test verdict lists the group and names the program's line", "[report][in_process]") {
  gate::GateSettings s;
  s.default_suppressions = false;
  gate::GateConfig config = gate::make_gate_config(s, nullptr);
  AssembleSettings settings;
  settings.gate = &config;
  GateFailures f = judge(one_leak(Reason::Checkpoint), settings, Printing{});
  CHECK(f.verdict.failed);
  CHECK(f.verdict.failing_bytes == 4096);
  CHECK(f.file == "app.cu");
  CHECK(f.line == 12);
  CHECK(f.text.find("4.0 KiB of device memory") != std::string::npos);
}
