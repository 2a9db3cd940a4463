#include "common/enum_names.h"

#include <array>

namespace cudaleak::report {

namespace {

// Names in the order of the enum's values; each table has one name for every
// value (checked below), so that adding a value without its name fails to build.
constexpr std::array<std::string_view, 7> kReasons = {"exit",       "signal", "termination", "crash",
                                                      "checkpoint", "oom",    "merged"};
constexpr std::array<std::string_view, 14> kCauses = {"request_too_large", "allocator_limit",   "fragmentation",
                                                      "live_tensors",      "cached_free",       "other_processes",
                                                      "held_by_cache",     "accumulating_leak", "held_by_process",
                                                      "cached_in_pools",   "untracked",         "context_reservation",
                                                      "pool_limit",        "compiled_peak"};
constexpr std::array<std::string_view, 5> kNoteTypes = {"context_mismatch", "context_unseen", "device_heap_exhausted",
                                                        "device_mismatch", "unknown_release"};
constexpr std::array<std::string_view, 4> kMarkTypes = {"checkpoint", "report", "snapshot", "limit"};
// None has no name: the writer leaves the member out, and the reader takes no "".
constexpr std::array<std::string_view, 4> kBaselineStates = {"", "new", "grown", "known"};
constexpr std::array<std::string_view, 4> kReachabilities = {"", "definitely_lost", "still_reachable",
                                                             "not_determined"};
constexpr std::array<std::string_view, 5> kChanges = {"new", "grown", "gone", "shrunk", "same"};
constexpr std::array<std::string_view, 3> kViewMoments = {"exit", "oom", "snapshot"};

template <class E, size_t N>
constexpr bool names_every_value(const std::array<std::string_view, N>&, E last) {
  return size_t(last) + 1 == N;
}
static_assert(names_every_value(kReasons, Reason::Merged));
static_assert(names_every_value(kCauses, Cause::CompiledPeak));
static_assert(names_every_value(kNoteTypes, NoteType::UnknownRelease));
static_assert(names_every_value(kMarkTypes, MarkType::Limit));
static_assert(names_every_value(kBaselineStates, BaselineState::Known));
static_assert(names_every_value(kReachabilities, Reachability::NotDetermined));
static_assert(names_every_value(kChanges, Change::Same));
static_assert(names_every_value(kViewMoments, ViewMoment::Snapshot));
// The tracker's map of notes is ordered by type: in name order, a report
// lists notes as it did when the type was a string.
static_assert([] {
  for (size_t i = 1; i < kNoteTypes.size(); ++i)
    if (!(kNoteTypes[i - 1] < kNoteTypes[i])) return false;
  return true;
}());

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
std::string_view name_of(NoteType type) { return kNoteTypes[static_cast<size_t>(type)]; }
std::string_view name_of(MarkType type) { return kMarkTypes[static_cast<size_t>(type)]; }
std::string_view name_of(BaselineState state) { return kBaselineStates[static_cast<size_t>(state)]; }
std::string_view name_of(Reachability r) { return kReachabilities[static_cast<size_t>(r)]; }
std::string_view name_of(Change change) { return kChanges[static_cast<size_t>(change)]; }
std::string_view name_of(ViewMoment moment) { return kViewMoments[static_cast<size_t>(moment)]; }

bool parse_name(std::string_view name, Kind& kind) {
  auto k = kind_from_name(name);
  if (k) kind = *k;
  return k.has_value();
}
bool parse_name(std::string_view name, Reason& reason) { return find(kReasons, name, reason); }
bool parse_name(std::string_view name, Cause& cause) { return find(kCauses, name, cause); }
bool parse_name(std::string_view name, NoteType& type) { return find(kNoteTypes, name, type); }
bool parse_name(std::string_view name, MarkType& type) { return find(kMarkTypes, name, type); }
bool parse_name(std::string_view name, BaselineState& state) {
  return !name.empty() && find(kBaselineStates, name, state);
}
bool parse_name(std::string_view name, Reachability& r) { return !name.empty() && find(kReachabilities, name, r); }
bool parse_name(std::string_view name, Change& change) { return find(kChanges, name, change); }
bool parse_name(std::string_view name, ViewMoment& moment) { return find(kViewMoments, name, moment); }

}  // namespace cudaleak::report
