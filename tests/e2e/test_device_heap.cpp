// Device-side malloc and free (the device_heap option) end to end under the
// simulated GPU and its simulated Sanitizer API: kernels' leaks grouped by
// kernel above the launch's stack, frees not reported, a full heap counted,
// and the kind through suppressions, the gate, JUnit, SARIF and `report --kind`.
#include <catch2/catch.hpp>

#include <fstream>

#include "tests/e2e/harness.h"

using namespace e2e;
using cudaleak::report::LeakGroup;
using cudaleak::report::Report;

namespace {

std::vector<std::string> kernels(const std::string& mode) { return {program("device_heap_kernels"), mode}; }

Report only_report(const std::string& dir) {
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  return load(files[0]);
}

const LeakGroup* kernel_group(const Report& r, const std::string& kernel) {
  for (const LeakGroup& g : r.leaks)
    if (g.kind == cudaleak::Kind::DeviceHeap && !g.stack.empty() && g.stack[0].function.str() == kernel) return &g;
  return nullptr;
}

uint64_t device_heap_count(const Report& r) {
  auto it = r.summary.by_kind.find(cudaleak::Kind::DeviceHeap);
  return it == r.summary.by_kind.end() ? 0 : it->second.count;
}

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("device_heap: kernels' leaks are counted exactly, grouped by kernel above the launch's stack",
          "[e2e][device_heap]") {
  auto dir = fresh_dir("device_heap_leaks");
  Result res = run_sim(dir, kernels("leaks"), {"--device-heap"});
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  CHECK(res.out == "leaks done\n");
  Report r = only_report(dir);
  const LeakGroup* rows = kernel_group(r, "keep_rows(int)");
  REQUIRE(rows);
  CHECK(rows->count == 64);
  CHECK(rows->bytes == 64 * 4096);
  CHECK(rows->stack[0].module == "[device]");
  CHECK(stack_has(*rows, "launch_rows"));
  CHECK(stack_has(*rows, "main"));
  const LeakGroup* odd = kernel_group(r, "odd_sizes()");
  REQUIRE(odd);
  CHECK(odd->count == 16);  // the 24-byte blocks it freed are not reported
  CHECK(odd->bytes == 16 * 1000);
  CHECK(stack_has(*odd, "launch_odd"));
  CHECK_FALSE(kernel_group(r, "scratch_only()"));  // frees all it takes
  CHECK(device_heap_count(r) == 80);
  CHECK(r.summary.by_kind[cudaleak::Kind::DeviceHeap].bytes == 64 * 4096 + 16 * 1000);
  CHECK(res.err.find("keep_rows(int)") != std::string::npos);
}

TEST_CASE("device_heap: off by default, and a kernel that frees everything leaves nothing", "[e2e][device_heap]") {
  auto off = fresh_dir("device_heap_off");
  REQUIRE(run_sim(off, kernels("leaks")).exit_code == 0);
  CHECK(device_heap_count(only_report(off)) == 0);
  auto clean = fresh_dir("device_heap_clean");
  Result res = run_sim(clean, kernels("clean"), {"--device-heap", "--error-exitcode", "23"});
  INFO(res.err);
  CHECK(res.exit_code == 0);
  CHECK(device_heap_count(only_report(clean)) == 0);
}

TEST_CASE("device_heap: the gate, a suppression naming the kernel, JUnit, SARIF and report --kind",
          "[e2e][device_heap]") {
  auto dir = fresh_dir("device_heap_gate");
  std::string junit = dir + "/../device_heap.junit.xml", sarif = dir + "/../device_heap.sarif";
  Result gated = run_sim(dir, kernels("leaks"),
                         {"--device-heap", "--error-exitcode", "23", "--junit", junit, "--sarif", sarif});
  INFO(gated.err);
  CHECK(gated.exit_code == 23);
  CHECK(gated.err.find("leak gate failed: 2 leak groups (80 resources, 278144 bytes)") != std::string::npos);
  std::string xml = read_file(junit);
  CHECK(xml.find("classname=\"cudaleak.device_heap\"") != std::string::npos);
  CHECK(xml.find("keep_rows(int)") != std::string::npos);
  CHECK(xml.find("failures=\"2\"") != std::string::npos);
  std::string sarif_text = read_file(sarif);
  CHECK(sarif_text.find("\"ruleId\": \"cudaleak/device_heap-leak\"") != std::string::npos);
  CHECK(sarif_text.find("device_heap_kernels.cu") != std::string::npos);  // the launch's line

  // report --kind device_heap keeps these groups alone.
  Result listed = run({cudaleak_tool(), "report", "--kind", "device_heap", files_in(dir)[0]});
  INFO(listed.err);
  CHECK(listed.exit_code == 0);
  CHECK(listed.out.find("keep_rows(int)") != std::string::npos);
  CHECK(listed.out.find("odd_sizes()") != std::string::npos);
  Result other = run({cudaleak_tool(), "report", "--kind", "stream", files_in(dir)[0]});
  CHECK(other.out.find("keep_rows(int)") == std::string::npos);

  // A suppression naming one kernel: the other still fails the gate; both named: it passes.
  auto one = fresh_dir("device_heap_suppress_one");
  auto supp_one = write_text(one + "/../device_heap_one.supp", "leak:keep_rows* kind:device_heap\n");
  Result half = run_sim(one, kernels("leaks"), {"--device-heap", "--error-exitcode", "23", "--suppressions", supp_one});
  INFO(half.err);
  CHECK(half.exit_code == 23);
  Report r = only_report(one);
  const LeakGroup* rows = kernel_group(r, "keep_rows(int)");
  REQUIRE(rows);
  CHECK(rows->suppressed_by.find("leak:keep_rows* kind:device_heap") == 0);
  CHECK(r.summary.suppressed_count == 64);
  CHECK(r.summary.suppressed_bytes == 64 * 4096);
  auto both = fresh_dir("device_heap_suppress_both");
  auto supp_both = write_text(both + "/../device_heap_both.supp",
                              "leak:keep_rows* kind:device_heap\nleak:odd_sizes*\n");
  CHECK(run_sim(both, kernels("leaks"), {"--device-heap", "--error-exitcode", "23", "--suppressions", supp_both})
            .exit_code == 0);
}

TEST_CASE("device_heap: mallocs that find the heap full are counted per kernel, with the heap limit named",
          "[e2e][device_heap]") {
  auto dir = fresh_dir("device_heap_exhaust");
  Result res = run_sim(dir, kernels("exhaust"), {"--device-heap"});
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  Report r = only_report(dir);
  const LeakGroup* kept = kernel_group(r, "fill_until_full(int)");
  REQUIRE(kept);
  CHECK(kept->count == 16);  // 1 MiB of 64 KiB blocks
  CHECK(kept->bytes == (1u << 20));
  const cudaleak::report::Note* full = nullptr;
  for (const auto& n : r.notes)
    if (n.type == NoteType::DeviceHeapExhausted) full = &n;
  REQUIRE(full);
  CHECK(full->count == 4);  // each of the 4 threads's last malloc
  REQUIRE(!full->stack.empty());
  CHECK(full->stack[0].function == "fill_until_full(int)");
  CHECK(res.err.find("device heap exhausted: 4 device-side mallocs in fill_until_full(int) returned NULL (launched "
                     "from launch_fill (device_heap_kernels.cu:") != std::string::npos);
  CHECK(res.err.find("the device heap limit (cudaLimitMallocHeapSize) is 1.0 MiB, set by cudaDeviceSetLimit in "
                     "enlarge_heap (device_heap_kernels.cu:") != std::string::npos);
}

namespace {

// The line of device_heap_kernels.cu that holds `text` (the kernel's malloc).
int source_line(const std::string& text) {
  std::ifstream in(std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/device_heap_kernels.cu");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  FAIL("no line with " << text);
  return 0;
}

}  // namespace

TEST_CASE("device_heap: a kernel built with -lineinfo names its malloc's source line in the group, text and SARIF",
          "[e2e][device_heap]") {
  auto dir = fresh_dir("device_heap_lines");
  std::string sarif = dir + "/../device_heap_lines.sarif";
  Result res = run_sim(dir, kernels("leaks"), {"--device-heap", "--sarif", sarif});
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  Report r = only_report(dir);
  const int rows_line = source_line("char* row = static_cast<char*>(malloc(bytes));");
  const LeakGroup* rows = kernel_group(r, "keep_rows(int)");
  REQUIRE(rows);
  CHECK(rows->stack[0].line == rows_line);
  CHECK(rows->stack[0].file.str().ends_with("tests/e2e/programs/device_heap_kernels.cu"));
  CHECK(rows->count == 64);
  const LeakGroup* odd = kernel_group(r, "odd_sizes()");
  REQUIRE(odd);
  CHECK(odd->stack[0].line == source_line("char* kept = static_cast<char*>(malloc(1000));"));
  const std::string at = "made by malloc in keep_rows(int) at device_heap_kernels.cu:" + std::to_string(rows_line) +
                         " on device 0";
  CHECK(res.err.find(at) != std::string::npos);
  // SARIF's location is the first program frame with a file: the device line.
  const std::string sarif_text = read_file(sarif);
  CHECK(sarif_text.find("\"startLine\": " + std::to_string(rows_line)) != std::string::npos);
}

TEST_CASE("device_heap: a kernel built without line information shows no line and is grouped as before",
          "[e2e][device_heap]") {
  auto dir = fresh_dir("device_heap_no_lines");
  Result res = run_sim(dir, {program("device_heap_kernels_no_lines"), "leaks"}, {"--device-heap"});
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  Report r = only_report(dir);
  const LeakGroup* rows = kernel_group(r, "keep_rows(int)");
  REQUIRE(rows);
  CHECK(rows->count == 64);
  CHECK(rows->stack[0].line == 0);
  CHECK(rows->stack[0].file.str().empty());
  CHECK(res.err.find("made by malloc in keep_rows(int) on device 0") != std::string::npos);
  CHECK(res.err.find("made by malloc in keep_rows(int) at") == std::string::npos);
  CHECK(res.err.find("keep_rows(int) ([device])") != std::string::npos);
}

// With the option off a kernel's malloc is not seen: the text says so once,
// naming the module, rather than "no CUDA resources leaked" alone (issue 50).
TEST_CASE("device_heap: off, a loaded module whose kernels call malloc is named with the option that shows them",
          "[e2e][device_heap]") {
  const std::string cubin = std::string(CUDALEAK_BUILD_DIR) + "/tests/e2e/device_heap_kernels.cubin";
  auto dir = fresh_dir("device_heap_note");
  Result res = run_sim(dir, {program("module_globals"), "clean", cubin, cubin});
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  const std::string note =
      "note: kernels of device_heap_kernels.cubin and a module loaded from memory call "
      "device-side malloc, which cudaleak tracks only with --device-heap (what they leaked is "
      "not in this report)";
  CHECK(res.err.find(note) != std::string::npos);
  CHECK(res.err.find(note, res.err.find(note) + 1) == std::string::npos);  // once
  Report r = only_report(dir);
  CHECK(r.device_malloc_modules.size() == 2);

  // With the option on, its leaks are tracked: no note.
  auto on = fresh_dir("device_heap_note_on");
  Result tracked = run_sim(on, {program("module_globals"), "clean", cubin, cubin}, {"--device-heap"});
  REQUIRE(tracked.exit_code == 0);
  CHECK(tracked.err.find("device-side malloc") == std::string::npos);
  CHECK(only_report(on).device_malloc_modules.empty());

  // A module without malloc is not named.
  const std::string plain = std::string(CUDALEAK_BUILD_DIR) + "/tests/e2e/module_globals_kernels.cubin";
  auto quiet = fresh_dir("device_heap_no_note");
  Result none = run_sim(quiet, {program("module_globals"), "clean", plain, plain});
  REQUIRE(none.exit_code == 0);
  CHECK(none.err.find("device-side malloc") == std::string::npos);
  CHECK(only_report(quiet).device_malloc_modules.empty());
}
