// GoogleTest integration: every test must release the CUDA resources it
// creates. A test that leaves some alive, counted by the leak gate (the same
// suppressions, fail_on, min_bytes and baseline as `cudaleak run
// --error-exitcode`), fails at the leak's line in the program with the kind,
// bytes and stack of each leak group.
//
//   #include "cudaleak_gtest.h"
//   int main(int argc, char** argv) {
//     ::testing::InitGoogleTest(&argc, argv);
//     cudaleak::install_gtest_listener();
//     return RUN_ALL_TESTS();
//   }
//
// Run the binary under `cudaleak run`; without cudaleak the listener does nothing.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "cudaleak.h"

namespace cudaleak {

class GTestLeakListener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo& test) override { cudaleak_checkpoint(name(test).c_str()); }

  // Runs while the test is still current (and before the result printer), so
  // the failure belongs to the test.
  void OnTestEnd(const ::testing::TestInfo& test) override {
    cudaleak_verdict verdict = {};
    std::string message(16384, '\0');
    if (cudaleak_gate_since(name(test).c_str(), &verdict, message.data(), message.size()) != 0 ||
        verdict.failing.count == 0)
      return;
    message.resize(message.find('\0'));
    std::string headline = "cudaleak: " + std::to_string(verdict.failing.count) + " CUDA resource" +
                           (verdict.failing.count == 1 ? "" : "s") + " (" + std::to_string(verdict.failing.bytes) +
                           " bytes) created by this test " + (verdict.failing.count == 1 ? "is" : "are") +
                           " still alive";
    uint64_t others = verdict.alive.count - verdict.failing.count;
    if (others) headline += " (and " + std::to_string(others) + " suppressed, cached or not counted by the gate)";
    if (verdict.file[0] && verdict.line > 0)
      ADD_FAILURE_AT(verdict.file, verdict.line) << headline << message;
    else
      ADD_FAILURE() << headline << message;
  }

 private:
  static std::string name(const ::testing::TestInfo& t) {
    return std::string("gtest:") + t.test_suite_name() + "." + t.name();
  }
};

inline void install_gtest_listener() {
  if (cudaleak_active()) ::testing::UnitTest::GetInstance()->listeners().Append(new GTestLeakListener);
}

}  // namespace cudaleak
