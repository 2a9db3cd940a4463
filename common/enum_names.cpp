#include "common/enum_names.h"

#include <array>

namespace cudaleak::report {

namespace {

// Names in the order of the enum's values.
constexpr std::array<std::string_view, 7> kReasons = {"exit", "signal", "termination", "crash",
                                                      "checkpoint", "oom", "merged"};
constexpr std::array<std::string_view, 12> kCauses = {
    "request_too_large", "allocator_limit",   "fragmentation",   "live_tensors",    "cached_free",
    "other_processes",   "held_by_cache",     "accumulating_leak", "held_by_process", "cached_in_pools",
    "untracked",         "context_reservation"};

template <class E, size_t N>
bool find(const std::array<std::string_view, N>& names, std::string_view name, E& out) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == name) {
      out = static_cast<E>(i);
      return true;
    }
  return false;
}

}  // namespace

std::string_view name_of(Kind kind) { return kind_name(kind); }
std::string_view name_of(Reason reason) { return kReasons[static_cast<size_t>(reason)]; }
std::string_view name_of(Cause cause) { return kCauses[static_cast<size_t>(cause)]; }

bool parse_name(std::string_view name, Kind& kind) {
  auto k = kind_from_name(name);
  if (k) kind = *k;
  return k.has_value();
}
bool parse_name(std::string_view name, Reason& reason) { return find(kReasons, name, reason); }
bool parse_name(std::string_view name, Cause& cause) { return find(kCauses, name, cause); }

}  // namespace cudaleak::report
