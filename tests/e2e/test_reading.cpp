// Reading reports after the fact: cudaleak report, diff, merge, symbolize.
#include <catch2/catch.hpp>

#include <set>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>

#include <sys/stat.h>

#include "tests/e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {
std::string one_report(const std::string& name, const std::vector<std::string>& command,
                       const std::vector<std::string>& flags = {}) {
  auto dir = fresh_dir(name);
  run_sim(dir, command, flags);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  return files[0];
}
}  // namespace

TEST_CASE("report: text like LeakSanitizer, filters, top, regrouping, formats", "[e2e][reading]") {
  auto file = one_report("read_driver", {sample("driver_context_leak")});
  Result text = run({cudaleak_tool(), "report", file});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("4.0 MiB of vmm memory in 1 allocation never freed, created by cuMemCreate") !=
        std::string::npos);
  CHECK(text.out.find("SUMMARY: cudaleak: 7.2 MiB leaked in 6 resources") != std::string::npos);
  // One process read back speaks as its run did: ==PID==, no process named per group.
  const std::string pid = std::to_string(load(file).process.pid);
  CHECK(text.out.starts_with("==" + pid + "==cudaleak: detected CUDA resource leaks"));
  CHECK(text.out.find("(pid " + pid + ")") == std::string::npos);

  Result top = run({cudaleak_tool(), "report", file, "--top", "1"});
  CHECK(top.out.find("... 5 more leak groups") == std::string::npos);  // cut, not summarised
  CHECK(top.out.find("va_reservation never destroyed") == std::string::npos);
  CHECK(top.out.find("vmm memory in 1 allocation") != std::string::npos);

  Result kinds = run({cudaleak_tool(), "report", file, "--kind", "device", "--format", "json"});
  auto only_device = cudaleak::report::from_json(kinds.out);
  CHECK(only_device.leaks.size() == 2);
  CHECK(only_device.summary.leaked_bytes == (3u << 20) + (256u << 10));

  Result by_fn = run({cudaleak_tool(), "report", file, "--by", "function"});
  CHECK(by_fn.out.find("4.0 MiB          3       3  vmm,va_reservation,mapping vmm_buffer") != std::string::npos);
  // --top cuts the rows, after every group is counted in them.
  for (const std::string option : {"--min-bytes", "--top"}) {
    Result negative = run({cudaleak_tool(), "report", file, option, "-1"});  // would wrap to the largest value
    CHECK(negative.exit_code == 2);
    CHECK(negative.err.find(option + ": expected a ") != std::string::npos);
  }
  Result by_fn_top = run({cudaleak_tool(), "report", file, "--by", "function", "--top", "1"});
  CHECK(by_fn_top.out.find("4.0 MiB          3       3  vmm,va_reservation,mapping vmm_buffer") != std::string::npos);
  CHECK(by_fn_top.out.find(" main") == std::string::npos);
  Result by_kind_top = run({cudaleak_tool(), "report", file, "--by", "kind", "--top", "2"});
  CHECK(by_kind_top.out.find("3.2 MiB          2       2  device") != std::string::npos);
  Result fn = run({cudaleak_tool(), "report", file, "--function", "vmm_*", "--format", "json"});
  CHECK(cudaleak::report::from_json(fn.out).leaks.size() == 3);
  Result dev = run({cudaleak_tool(), "report", file, "--device", "1", "--format", "json"});
  CHECK(cudaleak::report::from_json(dev.out).leaks.empty());

  auto html = fs::path(file).parent_path() / "r.html";
  CHECK(run({cudaleak_tool(), "report", file, "--format", "html", "-o", html.string()}).exit_code == 0);
  std::string page = read_file(html.string());
  CHECK(page.find("<script id=\"cudaleak-data\" type=\"application/json\">{") != std::string::npos);
  for (const char* fetch : {"src=\"http", "href=\"http", "<link", "import(", "fetch("})  // self-contained
    CHECK(page.find(fetch) == std::string::npos);

  // A name that would end the data's <script> element, or open a comment
  // that swallows the page's own script, stays inside the data.
  const std::string hostile = "f</script><!--<script>x";
  auto doc = nlohmann::json::parse(read_file(file));
  doc["leaks"][0]["stack"][0]["function"] = hostile;
  const auto edited = fs::path(file).parent_path() / "hostile.json";
  std::ofstream(edited) << doc.dump();
  const auto hostile_html = fs::path(file).parent_path() / "hostile.html";
  REQUIRE(
      run({cudaleak_tool(), "report", edited.string(), "--format", "html", "-o", hostile_html.string()}).exit_code ==
      0);
  const std::string hostile_page = read_file(hostile_html.string());
  const std::string open_tag = "<script id=\"cudaleak-data\" type=\"application/json\">";
  const size_t data_at = hostile_page.find(open_tag);
  REQUIRE(data_at != std::string::npos);
  const size_t data_end = hostile_page.find("</script>", data_at);
  REQUIRE(data_end != std::string::npos);
  const std::string data = hostile_page.substr(data_at + open_tag.size(), data_end - data_at - open_tag.size());
  CHECK(data.find('<') == std::string::npos);  // the HTML parser cannot leave the element early
  CHECK(nlohmann::json::parse(data)["leaks"][0]["stack"][0]["function"] == hostile);
}

TEST_CASE("report: filters that match nothing, the run's gate, and a listing that cannot be written",
          "[e2e][reading]") {
  auto file = one_report("read_gate", {sample("exception_leak")}, {"--error-exitcode", "23"});
  // A filter that leaves every group out says so, not "nothing leaked".
  Result none = run({cudaleak_tool(), "report", file, "--kind", "event"});
  CHECK(none.exit_code == 0);
  CHECK(none.out.find("no leak group matches the filters (1 leak group in the report left out)") != std::string::npos);
  CHECK(none.out.find("no CUDA resources leaked") == std::string::npos);
  // The verdict the run's gate stored is read back with the leaks.
  Result all = run({cudaleak_tool(), "report", file});
  CHECK(all.out.find("cudaleak: CI gate of the run: failed (1 leak group, 1.0 MiB)") != std::string::npos);
  auto doc = nlohmann::json::parse(read_file(file));
  doc["gate"]["error"] = "memory cudaleak did not see";
  const auto unseen = fs::path(file).parent_path() / "unseen.json";
  std::ofstream(unseen) << doc.dump();
  CHECK(run({cudaleak_tool(), "report", unseen.string()})
            .out.find("CI gate of the run: not evaluated: memory cudaleak did not see") != std::string::npos);
  // A listing to a full device fails as a file that cannot be written does.
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"report", file}, {"diff", file, file}, {"options"}}) {
    std::string line = "'" + cudaleak_tool() + "'";
    for (const std::string& w : words) line += " '" + w + "'";
    Result full = run({"/bin/sh", "-c", line + " > /dev/full"});
    INFO(words.front());
    CHECK(full.exit_code == 2);
    CHECK(full.err.find("cannot write to standard output") != std::string::npos);
  }
  // A file whose name begins with '-' is not taken for a missing file.
  Result dash = run({cudaleak_tool(), "report", "-dash.json"});
  CHECK(dash.exit_code == 2);
  CHECK(dash.err.find("unknown option -dash.json (a file whose name begins with '-' is written ./-dash.json)") !=
        std::string::npos);
}

TEST_CASE("report: unreadable, truncated, foreign or newer files get one line and status 2", "[e2e][reading]") {
  auto dir = fresh_dir("read_bad");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  auto good = one_report("read_bad_good", {sample("clean")});
  std::string full = read_file(good);
  struct Case {
    std::string file, message;
  } cases[] = {
      {dir + "/missing.json", "cannot read the report"},
      // A directory is a job's folder of reports (test_ranks.cpp); one with none is refused.
      {fresh_dir("read_bad_empty"), "no cudaleak reports in this directory"},
      {"/dev/zero", "not a regular file"},
      {write("truncated.json", full.substr(0, full.size() / 2)), "not valid JSON (truncated or corrupt?)"},
      {write("other.json", "{\"name\": \"not ours\"}"), "not a cudaleak report"},
      {write("newer.json", "{\"format\": \"cudaleak-report\", \"format_version\": 7}"),
       "newer than this cudaleak reads"},
      {write("empty.json", ""), "not valid JSON"},
      {write("version_string.json", "{\"format\": \"cudaleak-report\", \"format_version\": \"1\"}"),
       "no valid format_version"},
  };
  // Values of the wrong type or range: the error names the JSON path.
  auto mutant = [&](const std::string& name, const std::function<void(nlohmann::json&)>& change) {
    auto j = nlohmann::json::parse(full);
    change(j);
    return write(name, j.dump());
  };
  nlohmann::json leak = {{"kind", "device"}, {"bytes", 1}, {"count", 1}};
  Case typed[] = {
      {mutant("negative.json", [](auto& j) { j["summary"]["leaked_bytes"] = -1; }),
       "malformed report: $.summary.leaked_bytes: must not be negative, got -1"},
      {mutant("pid_string.json", [](auto& j) { j["process"]["pid"] = "12"; }),
       "$.process.pid: expected an integer, got a string \"12\""},
      {mutant("kind.json",
              [&](auto& j) {
                j["leaks"] = {leak};
                j["leaks"][0]["kind"] = "devic";
              }),
       "$.leaks[0].kind: unknown kind \"devic\""},
      {mutant("address.json",
              [&](auto& j) {
                j["leaks"] = {leak};
                j["leaks"][0]["allocations"] = {{{"address", "zz"}, {"bytes", 1}}};
              }),
       "$.leaks[0].allocations[0].address: expected a hex address"},
      {mutant("long_hex.json",
              [&](auto& j) {
                j["leaks"] = {leak};
                j["leaks"][0]["allocations"] = {{{"address", "0x11112222333344445"}, {"bytes", 1}}};
              }),
       "$.leaks[0].allocations[0].address: expected a hex address of 1 to 16 digits"},
      {mutant("missing_bytes.json",
              [&](auto& j) {
                j["leaks"] = {leak};
                j["leaks"][0].erase("bytes");
              }),
       "$.leaks[0].bytes: is missing"},
      {mutant("device_range.json",
              [&](auto& j) {
                j["leaks"] = {leak};
                j["leaks"][0]["device"] = 4294967296;
              }),
       "$.leaks[0].device: is out of range"},
      {write("huge.json", std::regex_replace(full, std::regex("\"duration_ns\": *[0-9]+"), "\"duration_ns\": 1e999")),
       "not valid JSON (truncated or corrupt?): number overflow parsing '1e999'"},
      {write("big_integer.json", std::regex_replace(full, std::regex("\"duration_ns\": *[0-9]+"),
                                                    "\"duration_ns\": 1" + std::string(400, '0'))),
       "number overflow parsing"},
  };
  for (const auto& c : typed) {
    INFO(c.file);
    Result res = run({cudaleak_tool(), "report", c.file});
    CHECK(res.exit_code == 2);
    CHECK(res.err.find(c.message) != std::string::npos);
    CHECK(std::count(res.err.begin(), res.err.end(), '\n') == 1);
  }
  for (const auto& c : cases) {
    INFO(c.file);
    Result res = run({cudaleak_tool(), "report", c.file});
    CHECK(res.exit_code == 2);
    CHECK(res.out.empty());
    CHECK(res.err.find(c.message) != std::string::npos);
    CHECK(std::count(res.err.begin(), res.err.end(), '\n') == 1);
  }
}

TEST_CASE("symbolize: raw reports resolved offline, also from a debug directory", "[e2e][reading]") {
  auto dir = fresh_dir("offline");
  // The program runs from a stripped copy; its debug info lives elsewhere.
  std::string prog = dir + "/loop";
  fs::copy_file(sample("loop_leak"), prog);
  fs::create_directories(dir + "/debug");
  fs::copy_file(sample("loop_leak"), dir + "/debug/loop");
  REQUIRE(run({"/usr/bin/strip", "--strip-debug", prog}).exit_code == 0);
  run({cudaleak_tool(), "run", "--simulated-gpu", "--symbolize", "false", "-o", dir + "/raw.json", "--", prog});
  auto raw = load(dir + "/raw.json");
  CHECK_FALSE(raw.symbolized);
  REQUIRE(raw.leaks.size() == 1);
  CHECK_FALSE(stack_has(raw.leaks[0], "main"));

  CHECK(run({cudaleak_tool(), "symbolize", dir + "/raw.json", "-o", dir + "/plain.json"}).exit_code == 0);
  auto plain = load(dir + "/plain.json");
  CHECK(plain.symbolized);
  CHECK(stack_has(plain.leaks[0], "main"));  // symbol table only: no lines

  Result with_debug = run(
      {cudaleak_tool(), "symbolize", dir + "/raw.json", "-o", dir + "/full.json", "--debug-dir", dir + "/debug"});
  CHECK(with_debug.exit_code == 0);
  auto full = load(dir + "/full.json");
  bool step_line = false, inlined = false;
  for (const auto& f : full.leaks[0].stack) {
    step_line |= f.function == "step" && f.file.find("loop_leak.cu") != std::string::npos && f.line == 8;
    inlined |= f.inlined;
  }
  CHECK(step_line);
  CHECK(inlined);
  Result via_report = run({cudaleak_tool(), "report", dir + "/raw.json", "--symbolize", "--debug-dir", dir + "/debug"});
  CHECK(via_report.out.find("in step ") != std::string::npos);
}

TEST_CASE("symbolize: an unsymbolized report keeps its sites apart, and symbolized names them as a run would",
          "[e2e][reading]") {
  // driver_context_leak leaks from three lines of one function: one site each.
  auto dir = fresh_dir("offline_sites");
  const std::string prog = sample("driver_context_leak");
  for (const std::string symbolize : {"false", "true"})
    run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "23", "--symbolize", symbolize, "-o",
         dir + "/" + symbolize + ".json", "--", prog});
  auto raw = load(dir + "/false.json"), named = load(dir + "/true.json");
  REQUIRE(named.leaks.size() == raw.leaks.size());
  auto sites = [](const cudaleak::report::Report& r) {
    std::set<std::string> out;
    for (const auto& g : r.leaks) out.insert(g.site);
    return out;
  };
  CHECK(sites(raw).size() == raw.leaks.size());  // a frame without a name carries its module offset
  CHECK(std::any_of(raw.leaks.begin(), raw.leaks.end(),
                    [](const auto& g) { return g.site.find("driver_context_leak_shared+0x") != std::string::npos; }));

  REQUIRE(run({cudaleak_tool(), "symbolize", dir + "/false.json", "-o", dir + "/after.json"}).exit_code == 0);
  auto after = load(dir + "/after.json");
  CHECK(sites(after) == sites(named));
  std::multiset<std::string> apis_after, apis_named;
  for (const auto& g : after.leaks) apis_after.insert(g.api);
  for (const auto& g : named.leaks) apis_named.insert(g.api);
  CHECK(apis_after == apis_named);
  Result diff = run({cudaleak_tool(), "diff", dir + "/true.json", dir + "/after.json"});
  CHECK(diff.exit_code == 0);

  // Through the runtime: unsymbolized, the group can name only the driver's
  // entry point; symbolized, the runtime's function the program called.
  run({cudaleak_tool(), "run", "--simulated-gpu", "--symbolize", "false", "-o", dir + "/loop.json", "--",
       sample("loop_leak")});
  REQUIRE(run({cudaleak_tool(), "symbolize", dir + "/loop.json", "-o", dir + "/loop.named.json"}).exit_code == 0);
  auto loop_raw = load(dir + "/loop.json"), loop_named = load(dir + "/loop.named.json");
  REQUIRE(loop_raw.leaks.size() == 1);
  REQUIRE(loop_named.leaks.size() == 1);
  CHECK(loop_raw.leaks[0].api != "cudaMalloc");
  CHECK(loop_named.leaks[0].api == "cudaMalloc");
}

TEST_CASE("frames: a program started by a relative path is named by one absolute path in every frame",
          "[e2e][reading]") {
  auto dir = fresh_dir("relative_program");
  const fs::path prog = sample("loop_leak");
  run({"/bin/sh", "-c",
       "cd '" + prog.parent_path().string() + "' && '" + cudaleak_tool() + "' run --simulated-gpu -o '" + dir +
           "/r.json' -- ./" + prog.filename().string()});
  auto r = load(dir + "/r.json");
  REQUIRE(r.leaks.size() == 1);
  std::set<std::string> names;
  for (const auto& f : r.leaks[0].stack)
    if (fs::path(std::string(f.module)).filename() == prog.filename()) names.insert(f.module);
  REQUIRE(names.size() == 1);
  CHECK(names.begin()->front() == '/');
}

TEST_CASE("outputs: -o, --junit and --sarif take regular files only, never a link, a FIFO or a directory",
          "[e2e][reading]") {
  auto file = one_report("outputs", {sample("pinned_leak")});
  std::string dir = fs::path(file).parent_path().string();
  std::ofstream(dir + "/victim") << "precious\n";
  fs::create_symlink(dir + "/victim", dir + "/link");
  REQUIRE(mkfifo((dir + "/fifo").c_str(), 0600) == 0);  // no reader: an open for writing would wait forever
  fs::create_directories(dir + "/sub");
  for (const std::string& target : {dir + "/link", dir + "/fifo", dir + "/sub"}) {
    INFO(target);
    for (const auto& command : std::vector<std::vector<std::string>>{{"report", file, "-o", target},
                                                                     {"merge", file, "-o", target},
                                                                     {"baseline", file, "-o", target},
                                                                     {"symbolize", file, "-o", target}}) {
      std::vector<std::string> argv = {cudaleak_tool()};
      argv.insert(argv.end(), command.begin(), command.end());
      Result res = run(argv);
      CHECK(res.exit_code == 2);
      // One line naming the path (symbolize may also name the vDSO it found no file for).
      size_t at = res.err.find("cudaleak: cannot write " + target + ": ");
      CHECK(at != std::string::npos);
      CHECK(res.err.find('\n', at) == res.err.size() - 1);
    }
    for (const char* flag : {"--junit", "--sarif"}) {
      Result res = run({cudaleak_tool(), "run", "--simulated-gpu", flag, target, "-o", dir + "/r.json", "--",
                        sample("pinned_leak")});
      CHECK(res.exit_code == 2);
      CHECK(res.out.empty());  // refused before the program starts
      CHECK(res.err.rfind("cudaleak: " + target + ": ", 0) == 0);
    }
  }
  CHECK(read_file(dir + "/victim") == "precious\n");
  CHECK(fs::is_symlink(dir + "/link"));
  // A regular file is replaced whole.
  CHECK(run({cudaleak_tool(), "report", file, "-o", dir + "/victim"}).exit_code == 0);
  CHECK(read_file(dir + "/victim").find("SUMMARY: cudaleak:") != std::string::npos);
}

TEST_CASE("symbolize: module paths that name a FIFO or a device are never read", "[e2e][reading]") {
  auto dir = fresh_dir("symbolize_hostile");
  run({cudaleak_tool(), "run", "--simulated-gpu", "--symbolize", "false", "-o", dir + "/raw.json", "--",
       sample("pinned_leak")});
  auto raw = load(dir + "/raw.json");
  REQUIRE(mkfifo((dir + "/module.fifo").c_str(), 0600) == 0);
  raw.modules = {cudaleak::report::Module{dir + "/module.fifo", 0x1000, "ab"},
                 cudaleak::report::Module{"/dev/zero", 0x2000, "cd"}};
  std::ofstream(dir + "/hostile.json") << cudaleak::report::to_json(raw);
  Result res = run({cudaleak_tool(), "symbolize", dir + "/hostile.json", "-o", dir + "/out.json"});
  CHECK(res.exit_code == 0);
  CHECK(res.err.find("no file with the recorded build-id for " + dir + "/module.fifo") != std::string::npos);
  CHECK(res.err.find("no file with the recorded build-id for /dev/zero") != std::string::npos);
  Result read = run({cudaleak_tool(), "report", "--symbolize", dir + "/hostile.json"});
  CHECK(read.exit_code == 0);
}

TEST_CASE("reports from a real H100 read, regroup and render", "[e2e][reading]") {
  std::string fixtures = std::string(CUDALEAK_SOURCE_DIR) + "/tests/fixtures/h100/";
  Result torch = run({cudaleak_tool(), "report", fixtures + "torch_small.json", "--by", "function", "--top", "3"});
  CHECK(torch.exit_code == 0);
  CHECK(torch.out.find("at::cuda::getCurrentCUDABlasHandle()") != std::string::npos);
  Result blas = run({cudaleak_tool(), "report", fixtures + "cublas_no_destroy.json", "--kind", "device"});
  CHECK(blas.out.find("SUMMARY: cudaleak: 64.1 MiB leaked in 3 resources") != std::string::npos);
  auto dir = fresh_dir("fixture_html");
  CHECK(run({cudaleak_tool(), "report", fixtures + "torch_small.json", "--format", "html", "-o", dir + "/t.html"})
            .exit_code == 0);
  Result diff = run(
      {cudaleak_tool(), "diff", fixtures + "exception_leak_static.json", fixtures + "cublas_no_destroy.json"});
  CHECK(diff.exit_code == 1);
}
