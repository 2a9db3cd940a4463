// Catch2 integration (v2 and v3): a test case must release the CUDA resources
// it creates, and may be given a budget of device memory. Include Catch2
// first, then:
//
//   TEST_CASE("gemm fits") {
//     CUDALEAK_TEST_SCOPE(.limit_memory = 24 << 20, .limit_leaks = 0);  // or CUDALEAK_TEST_SCOPE() for leaks only
//     ...
//   }
//
// At the end of the scope the test fails (and goes on) when it leaked what
// the leak gate counts (beyond limit_leaks bytes, when given) or when its
// peak of device memory rose more than limit_memory above its start, at the
// program's line of the biggest site, with the sites' stacks down to the
// test case. Run the binary under `cudaleak run`; without cudaleak it does nothing.
#pragma once
#include <deque>
#include <exception>
#include <string>

#include "cudaleak_budget.h"

namespace cudaleak {

class Catch2Scope {
 public:
  Catch2Scope(const ::Catch::SourceLineInfo& where, Budget budget)
      : where_(where), name_("catch2:" + ::Catch::getResultCapture().getCurrentTestName()) {
    current_budget() = budget;
    cudaleak_checkpoint(name_.c_str());
    cudaleak_peak_begin(budget.limit_memory);
  }
  Catch2Scope(const Catch2Scope&) = delete;
  Catch2Scope& operator=(const Catch2Scope&) = delete;

  ~Catch2Scope() {
    if (!cudaleak_active() || std::uncaught_exceptions()) return;  // a test that threw has failed already
    const Budget budget = current_budget();
    // Catch2 v2 names a test case's function C_A_T_C_H_T_E_S_T_N (____C_A_T_C_H____T_E_S_T____N before
    // 2.13), v3 CATCH2_INTERNAL_TEST_N.
    const StackCut cut = {{"C_A_T_C_H_T_E_S_T_", "____C_A_T_C_H____T_E_S_T____", "CATCH2_INTERNAL_TEST_"}, {"Catch::"}};
    report(check_peak(budget, cut));
    report(check_leaks(name_.c_str(), budget, cut));
  }

 private:
  void report(const BudgetFailure& failure) const {
    if (failure.text.empty()) return;
    // Catch keeps the file name as a pointer until its reporters are done.
    static std::deque<std::string> files;
    ::Catch::SourceLineInfo at = where_;
    if (!failure.file.empty() && failure.line > 0) {
      files.push_back(failure.file);
      at = ::Catch::SourceLineInfo(files.back().c_str(), std::size_t(failure.line));
    }
    ::Catch::AssertionHandler handler("CUDALEAK_TEST_SCOPE", at, ::Catch::StringRef(),
                                      ::Catch::ResultDisposition::ContinueOnFailure);
    handler.handleMessage(::Catch::ResultWas::ExplicitFailure, failure.text);
    handler.complete();
  }

  ::Catch::SourceLineInfo where_;
  std::string name_;
};

}  // namespace cudaleak

#define CUDALEAK_TEST_SCOPE(...)                                                            \
  ::cudaleak::Catch2Scope cudaleak_test_scope_(::Catch::SourceLineInfo(__FILE__, __LINE__), \
                                               ::cudaleak::Budget{__VA_ARGS__})
