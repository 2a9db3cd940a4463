// Programs built with ASan or TSan run under cudaleak as without it: the same
// output and status, their device leak reported, by the launcher, with the
// user's own preload of the sanitizer runtime, and under plain LD_PRELOAD.
#include <catch2/catch.hpp>

#include <string>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

const std::string kSimulatedLibraries = "LD_LIBRARY_PATH=" + build_dir() + "/lib/cudaleak/simcuda";

// The program alone, on the simulated GPU: what cudaleak must not change.
Result plain(const std::string& prog, const std::vector<std::string>& args = {}) {
  std::vector<std::string> argv = {program(prog)};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, {kSimulatedLibraries});
}

void same_as_plain(const Result& traced, const Result& alone) {
  CHECK(traced.signal == alone.signal);
  CHECK(traced.exit_code == alone.exit_code);
  CHECK(traced.out == alone.out);
  CHECK(traced.err.find("AddressSanitizer") == std::string::npos);
  CHECK(traced.err.find("ThreadSanitizer") == std::string::npos);
  CHECK(traced.err.find("does not come first") == std::string::npos);
}

void reports_the_leak(const std::string& dir) {
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  auto* g = find_group(r, "device");
  REQUIRE(g);
  CHECK(g->bytes == (1u << 20));
  // Left by exit() the buffer is lost; by _exit() main's frame still holds it.
  CHECK(r.summary.leaked_count + r.summary.reachable_count == 1);
}

}  // namespace

TEST_CASE("sanitizers: ASan and TSan builds run under cudaleak run with their output and status", "[e2e][sanitizers]") {
  for (const std::string prog : {"sanitized_leak_address", "sanitized_leak_thread"}) {
    INFO(prog);
    Result alone = plain(prog);
    REQUIRE(alone.exit_code == 0);
    REQUIRE(alone.out == "sanitized program: allocated\n");
    auto dir = fresh_dir("sanitized_" + prog);
    Result traced = run_sim(dir, {program(prog)});
    same_as_plain(traced, alone);
    reports_the_leak(dir);
    CHECK(traced.err.find("1.0 MiB of device memory in 1 allocation never freed") != std::string::npos);
  }
}

TEST_CASE("sanitizers: the user's own preload of the ASan runtime stays first", "[e2e][sanitizers]") {
  const std::string prog = "sanitized_leak_address";
  auto dir = fresh_dir("sanitized_user_preload");
  Result traced = run_sim(dir, {program(prog)}, {}, {std::string("LD_PRELOAD=") + CUDALEAK_TEST_ASAN_RUNTIME});
  same_as_plain(traced, plain(prog));
  reports_the_leak(dir);
}

TEST_CASE("sanitizers: plain LD_PRELOAD after the ASan runtime, as docs/usage.md says", "[e2e][sanitizers]") {
  const std::string prog = "sanitized_leak_address";
  auto dir = fresh_dir("sanitized_plain_preload");
  Result traced = run({program(prog)}, {std::string("LD_PRELOAD=") + CUDALEAK_TEST_ASAN_RUNTIME + ":" + build_dir() +
                                            "/lib/libcudaleak.so",
                                        kSimulatedLibraries, "CUDALEAK_OPTIONS=output=" + dir + "/r.%p.json"});
  same_as_plain(traced, plain(prog));
  reports_the_leak(dir);
}

TEST_CASE("sanitizers: _exit still reaches the sanitizer's own _exit, status and leak check kept",
          "[e2e][sanitizers]") {
  for (const std::string prog : {"sanitized_leak_address", "sanitized_leak_thread"}) {
    INFO(prog);
    Result alone = plain(prog, {"_exit"});
    auto dir = fresh_dir("sanitized_exit_" + prog);
    Result traced = run_sim(dir, {program(prog), "_exit"});
    CHECK(traced.exit_code == alone.exit_code);
    CHECK(traced.out == alone.out);
    // Whatever the sanitizer said of the lost host block without cudaleak, it says with it.
    CHECK((traced.err.find("LeakSanitizer") != std::string::npos) ==
          (alone.err.find("LeakSanitizer") != std::string::npos));
    reports_the_leak(dir);
  }
}
