// The checkpoint API behind include/cudaleak.h (cudaleak_impl_* symbols in
// checkpoint_entries.cpp): named points in time, kept as the tracker's sequence
// number at that moment. The names are part of the runtime object (runtime.h).
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace cudaleak::checkpoints {

class Names {
 public:
  void set(const std::string& name, uint64_t sequence);
  // The sequence number at checkpoint `name`; false when there is none.
  bool sequence_of(const char* name, uint64_t& out);

  std::mutex& mutex() { return mutex_; }         // for the fork protocol
  void reset_in_child() { sequences_.clear(); }  // sequence numbers restart in the child

 private:
  std::mutex mutex_;  // guards sequences_
  std::map<std::string, uint64_t> sequences_;
};

}  // namespace cudaleak::checkpoints
