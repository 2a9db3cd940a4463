// Growth detection across observations (checkpoints and snapshot reports): a
// leak group whose count rose at least twice over the last 16 observations
// and now, and never fell, is flagged as growing, with its counts. The
// history is part of the runtime object (runtime.h).
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak::growth {

class History {
 public:
  // Records the live count of every group (kind, stack, device) now.
  void observe(const report::RawSnapshot& snapshot);
  // Fills count_history and growing for each group of `report`.
  void annotate(report::Report& report);
  // The same for PyTorch's live-tensor groups (device, Python stack), by
  // bytes: each fresh view at a snapshot or report the program asked for is
  // one observation; annotate fills bytes_history and growing.
  void observe_tensors(const report::PyTorchView& view);
  void annotate_tensors(report::PyTorchView& view);

  // Appends the stack id of every group with a history (the stack depot's
  // collection keeps them).
  void stack_ids(std::vector<uint32_t>& out);

  std::mutex& mutex() { return mutex_; }  // for the fork protocol
  void reset_in_child();

 private:
  using Key = std::tuple<int, uint32_t, int>;     // kind, stack id, device
  using TensorKey = std::pair<int, std::string>;  // device, Python stack
  using Series = std::map<uint64_t, uint64_t>;    // observation index -> value

  std::mutex mutex_;  // guards everything below
  uint64_t observations_ = 0;
  std::map<Key, Series> counts_;
  uint64_t tensor_observations_ = 0;
  std::map<TensorKey, Series> tensor_bytes_;
};

}  // namespace cudaleak::growth
