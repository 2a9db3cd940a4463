// The names the report gives the model's enums (docs/report-format.md): one
// table per enum, used in both directions, by the JSON reader and writer, the
// text and HTML renderings and the command line. Nothing else spells them.
#pragma once
#include <string>
#include <string_view>

#include "common/kinds.h"

namespace cudaleak::report {

// Why a report was written.
enum class Reason : uint8_t {
  Exit,         // the process exited
  Signal,       // a snapshot asked for by a signal
  Termination,  // SIGTERM, SIGINT or SIGHUP ended it
  Crash,        // built afterwards from a crash capture
  Checkpoint,   // cudaleak_report
  Oom,          // an allocation failed with out-of-memory
  Merged,       // cudaleak merge / several reports read as one
};

// What an out-of-memory diagnosis blames (docs/oom.md).
enum class Cause : uint8_t {
  RequestTooLarge,
  AllocatorLimit,
  Fragmentation,
  LiveTensors,
  CachedFree,
  OtherProcesses,
  HeldByCache,
  AccumulatingLeak,
  HeldByProcess,
  CachedInPools,
  Untracked,
  ContextReservation,  // a limit the program set (device heap, thread stacks) reserves the memory
};

std::string_view name_of(Kind kind);
std::string_view name_of(Reason reason);
std::string_view name_of(Cause cause);
// What a value of the enum is called in an error ("unknown cause ...").
constexpr const char* noun_of(Kind) { return "kind"; }
constexpr const char* noun_of(Reason) { return "reason"; }
constexpr const char* noun_of(Cause) { return "cause"; }
// The name as a std::string, for text built with +.
template <class E>
std::string text_of(E value) {
  return std::string(name_of(value));
}
bool parse_name(std::string_view name, Kind& kind);
bool parse_name(std::string_view name, Reason& reason);
bool parse_name(std::string_view name, Cause& cause);

}  // namespace cudaleak::report
