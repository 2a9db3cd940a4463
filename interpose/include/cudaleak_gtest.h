// GoogleTest integration: every test must release the CUDA resources it
// creates. A test that leaves some alive fails with their count and bytes.
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

#include <string>

#include "cudaleak.h"

namespace cudaleak {

class GTestLeakListener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo& test) override { cudaleak_checkpoint(name(test).c_str()); }

  // Runs while the test is still current (and before the result printer), so
  // the failure belongs to the test.
  void OnTestEnd(const ::testing::TestInfo& test) override {
    cudaleak_stats stats = {0, 0};
    if (cudaleak_leaks_since(name(test).c_str(), &stats) == 0 && stats.count > 0)
      ADD_FAILURE() << "cudaleak: " << stats.count << " CUDA resources (" << stats.bytes
                    << " bytes) created by this test are still alive";
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
