// One report at a time, numbered in order: part of the runtime object
// (runtime.h); reporter.h writes the reports.
#pragma once
#include <atomic>
#include <mutex>

namespace cudaleak {

struct ReportSerial {
  std::mutex mutex;
  std::atomic<unsigned> sequence{0};
  void reset_in_child() { sequence = 0; }
};

}  // namespace cudaleak
