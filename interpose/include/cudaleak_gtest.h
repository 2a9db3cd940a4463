// GoogleTest integration: every test must release the CUDA resources it
// creates, and may be given a budget of device memory. A test that leaves
// some alive, counted by the leak gate (the same suppressions, fail_on,
// min_bytes and baseline as `cudaleak run --error-exitcode`), fails at the
// leak's line in the program with the kind, bytes and stack of each leak
// group, down to the test's body (GoogleTest's own frames are in the report).
//
//   #include "cudaleak_gtest.h"
//   int main(int argc, char** argv) {
//     ::testing::InitGoogleTest(&argc, argv);
//     cudaleak::install_gtest_listener();          // or ({.limit_memory = 24 << 20, .limit_leaks = 0})
//     return RUN_ALL_TESTS();
//   }
//   TEST(Gemm, FitsItsBudget) {
//     CUDALEAK_LIMIT_MEMORY(24 << 20);   // this test's peak of device memory: at most 24 MiB above its start
//     CUDALEAK_LIMIT_LEAKS(1 << 20);     // it may leave up to 1 MiB of CUDA memory alive
//     ...
//   }
//
// Run the binary under `cudaleak run`; without cudaleak the listener does nothing.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "cudaleak.h"
#include "cudaleak_budget.h"

namespace cudaleak {

class GTestLeakListener : public ::testing::EmptyTestEventListener {
 public:
  explicit GTestLeakListener(Budget defaults = {}) : defaults_(defaults) {}

  void OnTestStart(const ::testing::TestInfo& test) override {
    current_budget() = defaults_;
    cudaleak_checkpoint(name(test).c_str());
    cudaleak_peak_begin(defaults_.limit_memory);
  }

  // Runs while the test is still current (and before the result printer), so
  // the failure belongs to the test.
  void OnTestEnd(const ::testing::TestInfo& test) override {
    const Budget budget = current_budget();
    BudgetFailure peak = check_peak(budget, kStopAtTestBody);
    if (!peak.text.empty()) report(peak);
    BudgetFailure leaks = check_leaks(name(test).c_str(), budget, kStopAtTestBody);
    if (!leaks.text.empty()) report(leaks);
  }

 private:
  // The test's body ends each stack; GoogleTest's runner frames are left out.
  inline static const StackCut kStopAtTestBody = {{"_Test::TestBody()"}, {"testing::internal::", "testing::Test::Run"}};
  static std::string name(const ::testing::TestInfo& t) {
    return std::string("gtest:") + t.test_suite_name() + "." + t.name();
  }
  static void report(const BudgetFailure& failure) {
    if (!failure.file.empty() && failure.line > 0) ADD_FAILURE_AT(failure.file.c_str(), failure.line) << failure.text;
    else ADD_FAILURE() << failure.text;
  }
  Budget defaults_;
};

// Budgets for every test (0: none; a test's CUDALEAK_LIMIT_* overrides them).
inline void install_gtest_listener(Budget defaults = {}) {
  if (cudaleak_active()) ::testing::UnitTest::GetInstance()->listeners().Append(new GTestLeakListener(defaults));
}

}  // namespace cudaleak
